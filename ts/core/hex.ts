// Hex codec: lowercase on output, either case on input (http-api-details.md §1.4).

const HEX = '0123456789abcdef';
/** Byte i's two hex digits as one 16-bit unit, in memory order (so the table is endian-neutral). */
const PAIRS = new Uint16Array(256);
const pairBytes = new Uint8Array(PAIRS.buffer);
for (let i = 0; i < 256; i++) {
  pairBytes[2 * i] = HEX.charCodeAt(i >> 4);
  pairBytes[2 * i + 1] = HEX.charCodeAt(i & 15);
}
const decoder = new TextDecoder(); // UTF-8: ASCII digits decode as themselves
/** Reused for inputs up to this many bytes (hashes, keys, transactions); larger ones get their own. */
const SCRATCH_BYTES = 4096;
const scratch = new Uint16Array(SCRATCH_BYTES);

/**
 * Lowercase hex. Decoded from a buffer of ASCII digits, so the result is one flat string: built by
 * `+=`, a 32-byte hash stayed a tree of 31 cons strings, ~900 bytes as a kept Map key against ~120
 * flat (issue 28: heap snapshots of a node in the network harness held tens of thousands of them).
 */
export function toHex(bytes: Uint8Array): string {
  const units = bytes.length <= SCRATCH_BYTES ? scratch : new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) units[i] = PAIRS[bytes[i]];
  return decoder.decode(new Uint8Array(units.buffer, 0, 2 * bytes.length));
}

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** Parses hex of any even length; returns null when the text is not hex. */
export function fromHex(text: string): Uint8Array | null {
  if (!HEX_RE.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
  return out;
}

/** Parses hex of exactly `bytes` bytes; null otherwise. */
export function fromHexExact(text: string, bytes: number): Uint8Array | null {
  return text.length === 2 * bytes ? fromHex(text) : null;
}

/** Bytes as a Map key, one char per byte (half the time of hex for short keys). */
export const bytesKey = (bytes: Uint8Array): string => String.fromCharCode.apply(null, bytes as unknown as number[]);

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
