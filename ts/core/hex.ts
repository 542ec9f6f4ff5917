// Hex codec: lowercase on output, either case on input (http-api-details.md §1.4).

const HEX = '0123456789abcdef';
const LUT: string[] = Array.from({ length: 256 }, (_, i) => HEX[i >> 4] + HEX[i & 15]);

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += LUT[bytes[i]];
  return s;
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
