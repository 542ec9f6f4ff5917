// One log line per event: `[YYYY-MM-DD HH:MM:SS] [level] message` on stdout (stderr for warnings
// and errors). Debug lines are written only after `enableDebug()` (`--debug`). The last lines are
// kept, and listeners see each line written (the `log` stream topic, clients.md §6.1).

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  /** Unix milliseconds. */
  ms: number;
  level: LogLevel;
  message: string;
  /** `YYYY-MM-DD HH:MM:SS` (UTC), as printed. */
  datetime: string;
}

/** Lines kept for a new `log` subscriber. */
export const RECENT_LOG_LINES = 100;

const recent: LogLine[] = [];
const listeners = new Set<(line: LogLine) => void>();

// A reader that goes away (`wartnode | head`, a closed terminal) must not stop the node: an
// error on stdout or stderr (EPIPE) is dropped, and so is every later line to that stream.
const closed = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr])
  stream.on('error', () => {
    closed.add(stream);
  });

function write(stream: NodeJS.WriteStream, level: LogLevel, message: string): void {
  const ms = Date.now();
  const datetime = new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
  if (!closed.has(stream) && !stream.destroyed) stream.write(`[${datetime}] [${level}] ${message}\n`);
  const line = { ms, level, message, datetime };
  recent.push(line);
  if (recent.length > RECENT_LOG_LINES) recent.shift();
  for (const l of listeners) l(line);
}

let debugEnabled = false;

export function enableDebug(): void {
  debugEnabled = true;
}

export const log = {
  debug: (msg: string): void => {
    if (debugEnabled) write(process.stdout, 'debug', msg);
  },
  info: (msg: string): void => write(process.stdout, 'info', msg),
  warn: (msg: string): void => write(process.stderr, 'warn', msg),
  error: (msg: string): void => write(process.stderr, 'error', msg),
  /** The last lines, oldest first. */
  recent: (): readonly LogLine[] => recent.slice(),
  /** Calls `listener` with every later line; returns the function that stops it. */
  subscribe(listener: (line: LogLine) => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};
