// A scripted peer on a raw TCP socket (loopback): it performs the handshake and the Init exchange
// itself, then sends whatever a test wants (valid, hostile or malformed) and records what it receives.
import { connect, type Socket } from 'node:net';
import { encodeFrame, FrameDecoder } from '../../ts/p2p/framing.js';
import { connectorHello, REPLY_SIZE } from '../../ts/p2p/handshake.js';
import { decodeMessage, encodeMessage, type Message } from '../../ts/p2p/messages.js';
import { OUR_VERSION } from '../../ts/p2p/dialect.js';
import { NO_PRIORITY } from '../../ts/p2p/elements.js';
import { waitFor } from './peers.js';

export class RawPeer {
  readonly socket: Socket;
  received = new Uint8Array(0);
  closed = false;
  constructor(address: string) {
    const [host, port] = address.split(':');
    this.socket = connect({ host, port: Number(port) });
    this.socket.on('data', (d) => {
      const n = new Uint8Array(this.received.length + d.length);
      n.set(this.received);
      n.set(d, this.received.length);
      this.received = n;
    });
    this.socket.on('close', () => {
      this.closed = true;
    });
    this.socket.on('error', () => {});
  }
  ready(): Promise<void> {
    return new Promise((r) => this.socket.once('connect', () => r()));
  }
  write(b: Uint8Array): void {
    this.socket.write(b);
  }
  /** The connector's side of the handshake, claiming `listenPort` (0: none, as browser nodes). */
  async handshake(version = OUR_VERSION, listenPort = 0): Promise<void> {
    await this.ready();
    this.write(connectorHello('regtest', version, listenPort));
    await waitFor('the acceptor reply', async () => this.received.length >= REPLY_SIZE, 5_000);
    this.write(new Uint8Array([0]));
    this.received = this.received.slice(REPLY_SIZE);
  }
  send(m: Message): void {
    const { type, payload } = encodeMessage(m);
    this.write(encodeFrame(type, payload));
  }
  /** Messages received after the handshake. */
  messages(): Message[] {
    return new FrameDecoder().push(this.received).map((f) => decodeMessage(f.type, f.payload));
  }
  async waitClosed(timeoutMs = 10_000): Promise<void> {
    await waitFor('the node to close the connection', async () => this.closed, timeoutMs);
  }
}

/** A raw peer of the node at `address`, past the handshake and the Init exchange, announcing `chain`. */
export async function initializedPeer(address: string, chain: { length: number; worksum: bigint; grid: Uint8Array[] }): Promise<RawPeer> {
  const p = new RawPeer(address);
  await p.handshake();
  await waitFor("the node's Init", async () => p.messages().some((m) => m.kind === 'Init'), 5_000);
  p.received = new Uint8Array(0);
  p.send({ kind: 'Init', v3: true, descriptor: 0, priority: NO_PRIORITY, flags: 0, ...chain });
  return p;
}

/** The next request of kind `kind` the node sends to `p` (the ones before it are dropped). */
export async function nextRequest<K extends 'Batchreq' | 'Probereq' | 'Blockreq'>(p: RawPeer, kind: K): Promise<Extract<Message, { kind: K }>> {
  const m = await waitFor(kind, async () => p.messages().find((x) => x.kind === kind), 10_000);
  p.received = new Uint8Array(0);
  return m as Extract<Message, { kind: K }>;
}
