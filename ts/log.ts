// One log line per event: `[YYYY-MM-DD HH:MM:SS] [level] message` on stdout (stderr for errors).
function stamp(): string {
  return new Date().toISOString().replace('T', ' ').slice(0, 19);
}

export const log = {
  info: (msg: string): void => { process.stdout.write(`[${stamp()}] [info] ${msg}\n`); },
  warn: (msg: string): void => { process.stderr.write(`[${stamp()}] [warn] ${msg}\n`); },
  error: (msg: string): void => { process.stderr.write(`[${stamp()}] [error] ${msg}\n`); },
};
