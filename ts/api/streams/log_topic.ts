// The `log` topic's producer (clients.md §6.1): the recent log lines, then each new one. It reads
// the node's log, not the chain: no view.
import type { LogLine } from '../../log.js';
import type { LogLineView, StreamEventBody } from './events.js';

export interface LogSource {
  recent(): readonly LogLine[];
  subscribe(listener: (line: LogLine) => void): () => void;
}

const logLineView = (l: LogLine): LogLineView => ({ timestampMilliseconds: l.ms, level: l.level, message: l.message, datetime: l.datetime });

export class LogTopic {
  constructor(private readonly source: LogSource) {}

  /** Reports each new line to `emit` (while `wanted()`). */
  watch(wanted: () => boolean, emit: (line: StreamEventBody<'log.line'>) => void): void {
    this.source.subscribe((line) => {
      if (wanted()) emit(logLineView(line));
    });
  }

  state(): StreamEventBody<'log.state'> {
    return this.source.recent().map(logLineView);
  }
}
