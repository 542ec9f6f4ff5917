// The "grunt" handshake (p2p.md §1.4), as a pure state machine fed with received chunks:
//   connector → acceptor: magic "…?" (14) ‖ version u32 ‖ 4 zero bytes ‖ listen port u16 (24 bytes)
//   acceptor → connector: magic "…!" (14) ‖ version u32 ‖ 4 zero bytes (22 bytes)
//   connector → acceptor: one ack byte (0x00); the connector may send its Init right after it.
// While waiting for hello or reply, a chunk carrying more bytes than expected is EHANDSHAKE.
import { Reader, Writer } from '../core/bytes.js';
import { fail } from '../core/errors.js';
import { equalBytes } from '../core/hex.js';
import type { NetworkName } from '../consensus/params.js';
import { decodeVersion, type NodeVersion } from './dialect.js';
import { handshakeMagic } from './network.js';

export const HELLO_SIZE = 24;
export const REPLY_SIZE = 22;

export function connectorHello(network: NetworkName, version: number, listenPort: number): Uint8Array {
  return new Writer(HELLO_SIZE).bytes(handshakeMagic(network, true), 14).u32(version).u32(0).u16(listenPort).finish();
}

export function acceptorReply(network: NetworkName, version: number): Uint8Array {
  return new Writer(REPLY_SIZE).bytes(handshakeMagic(network, false), 14).u32(version).u32(0).finish();
}

function checkMagic(bytes: Uint8Array, network: NetworkName, connector: boolean): Reader {
  if (!equalBytes(bytes.subarray(0, 14), handshakeMagic(network, connector))) fail('EHANDSHAKE', 'wrong magic');
  return new Reader(bytes, 14);
}

export function parseConnectorHello(network: NetworkName, bytes: Uint8Array): { version: NodeVersion; listenPort: number } {
  const r = checkMagic(bytes, network, true);
  const version = decodeVersion(r.u32());
  r.u32(); // reserved, not checked
  return { version, listenPort: r.u16() };
}

export function parseAcceptorReply(network: NetworkName, bytes: Uint8Array): { version: NodeVersion } {
  const r = checkMagic(bytes, network, false);
  return { version: decodeVersion(r.u32()) };
}

export interface HandshakeStep {
  /** Bytes to send now, if any. */
  send: Uint8Array | null;
  /** True once the handshake is complete on this side. */
  done: boolean;
  /** Received bytes after the handshake (the start of the message stream). */
  rest: Uint8Array;
}

export class Handshake {
  peerVersion: NodeVersion | null = null;
  /** The listen port the connector claimed (acceptor side only). */
  peerListenPort: number | null = null;
  private buf = new Uint8Array(0);
  private phase: 'hello' | 'reply' | 'ack' | 'done';

  constructor(
    private readonly network: NetworkName,
    readonly connector: boolean,
    private readonly version: number,
    private readonly listenPort: number,
  ) {
    this.phase = connector ? 'reply' : 'hello';
  }

  get done(): boolean { return this.phase === 'done'; }

  /** The connector's opening bytes (null for the acceptor). */
  start(): Uint8Array | null {
    return this.connector ? connectorHello(this.network, this.version, this.listenPort) : null;
  }

  feed(chunk: Uint8Array): HandshakeStep {
    if (this.phase === 'done') return { send: null, done: true, rest: chunk };
    if (this.phase === 'ack') {
      if (chunk.length === 0) return { send: null, done: false, rest: chunk };
      this.phase = 'done'; // the ack byte's value is not checked (§1.4 step 3)
      return { send: null, done: true, rest: chunk.subarray(1) };
    }
    const want = this.phase === 'hello' ? HELLO_SIZE : REPLY_SIZE;
    if (this.buf.length + chunk.length > want) fail('EHANDSHAKE', `more than the ${want} handshake bytes expected`);
    const next = new Uint8Array(this.buf.length + chunk.length);
    next.set(this.buf); next.set(chunk, this.buf.length);
    this.buf = next;
    if (this.buf.length < want) return { send: null, done: false, rest: new Uint8Array(0) };
    if (this.phase === 'hello') {
      const h = parseConnectorHello(this.network, this.buf);
      this.peerVersion = h.version;
      this.peerListenPort = h.listenPort;
      this.phase = 'ack';
      return { send: acceptorReply(this.network, this.version), done: false, rest: new Uint8Array(0) };
    }
    this.peerVersion = parseAcceptorReply(this.network, this.buf).version;
    this.phase = 'done';
    return { send: new Uint8Array([0]), done: true, rest: new Uint8Array(0) };
  }
}
