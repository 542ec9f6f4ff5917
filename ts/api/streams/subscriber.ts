// One WebSocket client of the streams, with a bounded outgoing queue. Messages go to the socket
// while its own buffer is below HIGH_WATER bytes, then wait here; once more than MAX_QUEUED_BYTES
// wait, the client is too slow: it is dropped (close code CLOSE_TOO_SLOW, then the socket is cut
// if the close does not complete). So a client that never reads holds at most
// HIGH_WATER + MAX_QUEUED_BYTES + one message of the node's memory, and sending never waits.
import type { WebSocket } from 'ws';

export const HIGH_WATER = 1 << 20;
export const MAX_QUEUED_BYTES = 4 << 20;
/** Close code for a client whose queue overflowed (RFC 6455 §7.4.1: policy violation). */
export const CLOSE_TOO_SLOW = 1008;
/** Close code when the node cannot serve the request (RFC 6455 §7.4.1: internal error). */
export const CLOSE_INTERNAL = 1011;
/** Close code for a malformed or unknown request (clients.md §6.1: the reference closes with 1002). */
export const CLOSE_PROTOCOL = 1002;
/** A closing client that does not answer the close frame is cut after this long. */
const CLOSE_GRACE_MS = 3000;

let nextSubscriberId = 1;

export class Subscriber {
  readonly id = nextSubscriberId++;
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly onTooSlow: (s: Subscriber) => void,
  ) {
    ws.once('close', () => {
      this.closed = true;
      this.queue.length = 0;
      this.queuedBytes = 0;
    });
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Queues a text message (UTF-8, encoded once for all its receivers); never blocks. */
  send(text: Buffer): void {
    if (this.closed) return;
    if (this.queue.length === 0 && this.ws.bufferedAmount < HIGH_WATER) return this.write(text);
    this.queue.push(text);
    this.queuedBytes += text.length;
    if (this.queuedBytes > MAX_QUEUED_BYTES) {
      this.close(CLOSE_TOO_SLOW, 'subscriber too slow: queue limit exceeded');
      this.onTooSlow(this);
    }
  }

  private write(text: Buffer): void {
    // The callback runs once the frame has left for the kernel: room for what waits here.
    this.ws.send(text, { binary: false }, () => this.flush());
  }

  private flush(): void {
    while (!this.closed && this.queue.length > 0 && this.ws.bufferedAmount < HIGH_WATER) {
      const text = this.queue.shift()!;
      this.queuedBytes -= text.length;
      this.write(text);
    }
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }
}
