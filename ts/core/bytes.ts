// Big-endian byte reader and writer (consensus.md §0.2: every multi-byte integer in headers,
// bodies and signing bytes is big-endian). The reader is bounds-checked: running past the end is a
// malformed body (EINV_BODY); `end()` refuses leftover bytes (EEXCESSBYTES).
import { fail } from './errors.js';

export class Reader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    offset = 0,
  ) {
    this.pos = offset;
  }

  get offset(): number {
    return this.pos;
  }
  get remaining(): number {
    return this.buf.length - this.pos;
  }
  get length(): number {
    return this.buf.length;
  }

  /** Fails unless `n` more bytes are available; returns the start offset and advances. */
  private take(n: number): number {
    if (n > this.buf.length - this.pos) fail('EINV_BODY', `need ${n} bytes at offset ${this.pos}, have ${this.remaining}`);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  u8(): number {
    return this.buf[this.take(1)];
  }

  u16(): number {
    const i = this.take(2);
    return (this.buf[i] << 8) | this.buf[i + 1];
  }

  u32(): number {
    const i = this.take(4);
    return ((this.buf[i] << 24) | (this.buf[i + 1] << 16) | (this.buf[i + 2] << 8) | this.buf[i + 3]) >>> 0;
  }

  u64(): bigint {
    const hi = this.u32();
    const lo = this.u32();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** A copy of the next `n` bytes. */
  bytes(n: number): Uint8Array {
    const i = this.take(n);
    return this.buf.slice(i, i + n);
  }

  /**
   * The next `n` bytes as a view of the buffer, not a copy: for fields read far more often than
   * kept (a block's 65-byte signatures; a copy of more than 64 bytes is an allocation outside the
   * V8 heap each).
   */
  view(n: number): Uint8Array {
    const i = this.take(n);
    return this.buf.subarray(i, i + n);
  }

  /** The bytes from offset `start` up to the current one, as a view of the buffer (not a copy). */
  viewFrom(start: number): Uint8Array {
    return this.buf.subarray(start, this.pos);
  }

  /** Fails unless at least `n` bytes remain (used before allocating for a declared count). */
  need(n: number): void {
    if (n > this.remaining) fail('EINV_BODY', `declared ${n} bytes at offset ${this.pos}, have ${this.remaining}`);
  }

  /** Fails when bytes are left over. */
  end(): void {
    if (this.pos !== this.buf.length) fail('EEXCESSBYTES', `${this.remaining} bytes after offset ${this.pos}`);
  }
}

const U64_LIMIT = 1n << 64n;

export class Writer {
  private buf: Uint8Array;
  private pos = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }

  get length(): number {
    return this.pos;
  }

  /** Starts over in the same buffer (a writer reused for short-lived bytes, see `written`). */
  reset(): this {
    this.pos = 0;
    return this;
  }

  /** A view of the bytes written so far: valid until the next write or reset (no copy). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  private room(n: number): number {
    if (this.pos + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
      next.set(this.buf.subarray(0, this.pos));
      this.buf = next;
    }
    const at = this.pos;
    this.pos += n;
    return at;
  }

  private static check(v: number, bits: number): void {
    if (!Number.isInteger(v) || v < 0 || v >= 2 ** bits) fail('EBUG', `u${bits} out of range: ${v}`);
  }

  u8(v: number): this {
    Writer.check(v, 8);
    // room() first: `this.buf[this.room(1)] = v` takes `this.buf` before room() may replace it, and the
    // byte that makes the buffer grow went to the old one (a Txrep entry's presence flag read as 0).
    const i = this.room(1);
    this.buf[i] = v;
    return this;
  }

  u16(v: number): this {
    Writer.check(v, 16);
    const i = this.room(2);
    this.buf[i] = v >>> 8;
    this.buf[i + 1] = v & 0xff;
    return this;
  }

  u32(v: number): this {
    Writer.check(v, 32);
    const i = this.room(4);
    this.buf[i] = v >>> 24;
    this.buf[i + 1] = (v >>> 16) & 0xff;
    this.buf[i + 2] = (v >>> 8) & 0xff;
    this.buf[i + 3] = v & 0xff;
    return this;
  }

  u64(v: bigint): this {
    if (v < 0n || v >= U64_LIMIT) fail('EBUG', `u64 out of range: ${v}`);
    return this.u32(Number(v >> 32n)).u32(Number(v & 0xffffffffn));
  }

  /** Writes `b`; with `size` given, fails unless `b` has exactly that length. */
  bytes(b: Uint8Array, size?: number): this {
    if (size !== undefined && b.length !== size) fail('EBUG', `expected ${size} bytes, got ${b.length}`);
    const at = this.room(b.length); // before touching this.buf: room() may replace it
    this.buf.set(b, at);
    return this;
  }

  /**
   * The written bytes, never touched by later writes: the buffer itself when the capacity was exact
   * (a full buffer is replaced on the next write), else a copy.
   */
  finish(): Uint8Array {
    return this.pos === this.buf.length ? this.buf : this.buf.slice(0, this.pos);
  }
}
