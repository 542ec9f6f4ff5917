// Message framing (p2p.md §1.5): L u32 (payload length + 2) ‖ checksum (first 4 bytes of SHA-256
// over the two type bytes and the payload) ‖ type high byte (0) ‖ type code ‖ payload.
// The decoder checks, in the reference's order: known type and zero high byte (EMSGTYPE), length
// within 2 … 2 + maxPayload(type) as soon as the 10 header bytes are in (EMSGLEN), checksum
// (ECHECKSUM). Payload parsing is the codec's (messages.ts).
import { sha256 } from '../kernel/hash.js';
import { fail } from '../core/errors.js';
import { FRAME_HEADER, MAX_PAYLOAD } from './protocol.js';

export interface Frame {
  type: number;
  payload: Uint8Array;
}

/** The frame checksum: the first 4 bytes of SHA-256 over the two type bytes and the payload. */
export function checksum(type: number, payload: Uint8Array): Uint8Array {
  const data = new Uint8Array(2 + payload.length);
  data[1] = type;
  data.set(payload, 2);
  return sha256(data).subarray(0, 4);
}

export function encodeFrame(type: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length + 2);
  out.set(checksum(type, payload), 4);
  out[9] = type;
  out.set(payload, FRAME_HEADER);
  return out;
}

/** Accumulates received bytes and cuts them into checked frames. */
export class FrameDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private header: { length: number; sum: Uint8Array; type: number } | null = null;

  /** Bytes held: the part of a frame received so far, and what follows it. */
  get pendingBytes(): number {
    return this.buffered;
  }

  /** The type of the frame being received (its header is in, its payload not yet), or null. */
  get partialType(): number | null {
    return this.header?.type ?? null;
  }

  /** Adds received bytes; returns the frames completed by them. Throws NodeError on a bad frame. */
  push(chunk: Uint8Array): Frame[] {
    if (chunk.length) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const frames: Frame[] = [];
    for (;;) {
      if (!this.header) {
        if (this.buffered < FRAME_HEADER) break;
        const h = this.take(FRAME_HEADER);
        const length = new DataView(h.buffer, h.byteOffset).getUint32(0);
        const max = MAX_PAYLOAD.get(h[9]);
        if (h[8] !== 0 || max === undefined) fail('EMSGTYPE', `type ${h[8] * 256 + h[9]}`);
        if (length < 2 || length > 2 + max!) fail('EMSGLEN', `length ${length} for type ${h[9]}`);
        this.header = { length, sum: h.slice(4, 8), type: h[9] };
      }
      const size = this.header.length - 2;
      if (this.buffered < size) break;
      const payload = this.take(size);
      const sum = checksum(this.header.type, payload);
      for (let i = 0; i < 4; i++) if (sum[i] !== this.header.sum[i]) fail('ECHECKSUM');
      frames.push({ type: this.header.type, payload });
      this.header = null;
    }
    return frames;
  }

  /** Removes and returns the next `n` buffered bytes (n ≤ buffered). */
  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const c = this.chunks[0];
      const k = Math.min(c.length, n - o);
      out.set(c.subarray(0, k), o);
      o += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.buffered -= n;
    return out;
  }
}
