// The "grunt" handshake (p2p.md §1.4), as a pure state machine fed with received chunks:
//   connector → acceptor: magic "…?" (14) ‖ version u32 ‖ 4 zero bytes ‖ listen port u16 (24 bytes)
//   acceptor → connector: magic "…!" (14) ‖ version u32 ‖ 4 zero bytes (22 bytes)
//   connector → acceptor: one ack byte (0x00); the connector may send its Init right after it.
// While waiting for hello or reply, a chunk carrying more bytes than expected is EHANDSHAKE.
// A 0.8.x connector may send its Init before the ack byte (AckStream below).
import { Reader, Writer } from '../core/bytes.js';
import { fail } from '../core/errors.js';
import { equalBytes } from '../core/hex.js';
import type { NetworkName } from '../consensus/params.js';
import { decodeVersion, type NodeVersion } from './dialect.js';
import { checksum } from './framing.js';
import { handshakeMagic } from './network.js';
import { FRAME_HEADER, MAX_PAYLOAD } from './protocol.js';

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

  get done(): boolean {
    return this.phase === 'done';
  }
  /** The acceptor has replied and the next byte received is taken for the connector's ack. */
  get awaitingAck(): boolean {
    return this.phase === 'ack';
  }

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
    next.set(this.buf);
    next.set(chunk, this.buf.length);
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

/**
 * The acceptor's stream from the connector's ack byte on, without that byte. A connector before 0.9
 * (the `master` line, 0.8.20 = a59f7ddf) wakes its event loop, which queues the Init, before it
 * writes the ack (src/node/asyncio/connection.cpp:85–90; the 0.9/0.10 transport writes the ack first,
 * src/node/transport/connection_base.cpp): its Init can come before the ack (seen live, strace of
 * 0.8.20: write(Init), then write("\0")). Taking the Init's first byte for the ack shifted the
 * stream: a frame of some 13 KB was awaited, no Init came and the connection closed after 30 s
 * (ETIMEOUT). Which order came is told, at each frame boundary until the ack is found, by the
 * checksums: a frame that starts there and verifies is passed on; a frame that starts one byte later
 * and verifies (or none that can start there) means this byte is the ack. A frame's first byte is 0
 * as well (its length is below 2^24), so nothing else tells them apart. Used for connectors before
 * 0.9 only: a malformed first frame from one of them may wait for bytes (the Init timeout ends it).
 */
export class AckStream {
  /** Bytes held (from a frame boundary on) and how many must be in before looking again. */
  private held: Uint8Array[] = [];
  private size = 0;
  private need = 1;
  /** True once the ack byte is found and dropped: bytes pass through unchanged from then on. */
  acked = false;

  /** Received bytes (the first chunk starting with the byte taken for the ack); returns the frame bytes. */
  push(chunk: Uint8Array): Uint8Array {
    if (this.acked) return chunk;
    this.held.push(chunk);
    this.size += chunk.length;
    if (this.size < this.need) return new Uint8Array(0);
    const b = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.held) {
      b.set(c, o);
      o += c.length;
    }
    let out = 0; // bytes of b passed on: whole frames that came before the ack
    for (;;) {
      const here = frameAt(b, out);
      if (here.state === 'valid') {
        out = here.end;
        continue;
      }
      const after = here.state === 'invalid' ? null : frameAt(b, out + 1);
      if (!after || after.state === 'valid') {
        this.acked = true;
        this.held = [];
        const rest = new Uint8Array(b.length - 1);
        rest.set(b.subarray(0, out));
        rest.set(b.subarray(out + 1), out);
        return rest;
      }
      // Both still incomplete (or only the later one refuted): look again once more bytes are in.
      this.need = Math.min(here.end, after.state === 'incomplete' ? after.end : Infinity) - out;
      this.held = [b.subarray(out)];
      this.size = b.length - out;
      return b.subarray(0, out);
    }
  }
}

/**
 * Whether a checked frame starts at `off` of `b`; while 'incomplete', `end` is how many bytes of `b`
 * tell more (its length field, its header, the whole frame), else the frame's end.
 */
function frameAt(b: Uint8Array, off: number): { state: 'valid' | 'invalid' | 'incomplete'; end: number } {
  if (b.length < off + 4) return { state: 'incomplete', end: off + 4 };
  const length = new DataView(b.buffer, b.byteOffset + off).getUint32(0);
  if (length < 2) return { state: 'invalid', end: 0 };
  if (b.length < off + FRAME_HEADER) return { state: 'incomplete', end: off + FRAME_HEADER };
  const type = b[off + 9],
    max = MAX_PAYLOAD.get(type);
  if (b[off + 8] !== 0 || max === undefined || length > 2 + max) return { state: 'invalid', end: 0 };
  const end = off + FRAME_HEADER + length - 2;
  if (b.length < end) return { state: 'incomplete', end };
  return { state: equalBytes(checksum(type, b.subarray(off + FRAME_HEADER, end)), b.subarray(off + 4, off + 8)) ? 'valid' : 'invalid', end };
}
