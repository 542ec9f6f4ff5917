// Merkle root of a block body (consensus.md §6.7) from the kernel: leaves are 32-byte SHA-256
// hashes in body order; the extra bytes X (first 10 or 4 body bytes) enter only the final hash.
import { callWithBuffers, kernel } from './instance.js';

interface MerkleExports {
  merkle_root(leaves: number, n: number, x: number, xLen: number, newType: number, out: number): number;
  merkle_prefix(leaves: number, n: number, out: number): number;
  merkle_root_of_pieces(data: number, dataLen: number, lens: number, n: number, x: number, xLen: number, newType: number, out: number): number;
}

function flatten(leaves: Uint8Array[]): Uint8Array {
  if (!Array.isArray(leaves) || leaves.length === 0) throw new RangeError('a merkle tree needs at least one leaf');
  const flat = new Uint8Array(32 * leaves.length);
  leaves.forEach((leaf, i) => {
    if (!(leaf instanceof Uint8Array) || leaf.length !== 32) throw new RangeError(`merkle leaf ${i} must be 32 bytes`);
    flat.set(leaf, 32 * i);
  });
  return flat;
}

/**
 * The root. New type (mainnet height ≥ 900,000 and testnet): SHA256(prefix ‖ X); old type: that
 * hashed once more. Odd nodes are hashed alone, never duplicated.
 */
export function merkleRoot(leaves: Uint8Array[], extra: Uint8Array, newType: boolean): Uint8Array {
  const flat = flatten(leaves);
  if (!(extra instanceof Uint8Array)) throw new RangeError('merkle extra bytes must be a Uint8Array');
  const { out, status } = callWithBuffers([flat, extra], 32, ([l, x], o) =>
    kernel<MerkleExports>().merkle_root(l, leaves.length, x, extra.length, newType ? 1 : 0, o),
  );
  if (status !== 0) throw new Error(`merkle_root failed with status ${status}`);
  return out;
}

/** The 1 or 2 nodes (32 or 64 bytes) of the final hash: new-type root = SHA256(prefix ‖ X). */
export function merklePrefix(leaves: Uint8Array[]): Uint8Array {
  const flat = flatten(leaves);
  const { out, status } = callWithBuffers([flat], 64, ([l], o) => kernel<MerkleExports>().merkle_prefix(l, leaves.length, o));
  if (status !== 32 && status !== 64) throw new Error(`merkle_prefix failed with status ${status}`);
  return out.slice(0, status);
}

/**
 * merkleRoot of the SHA-256 hashes of `data`'s consecutive pieces of `lengths[i]` bytes, in one
 * kernel call (a block's leaves are hashed there, not one call each).
 */
export function merkleRootOfPieces(data: Uint8Array, lengths: readonly number[], extra: Uint8Array, newType: boolean): Uint8Array {
  if (lengths.length === 0) throw new RangeError('a merkle tree needs at least one leaf');
  const lens = new Uint8Array(4 * lengths.length);
  const v = new DataView(lens.buffer);
  lengths.forEach((l, i) => v.setUint32(4 * i, l, true));
  const { out, status } = callWithBuffers([data, lens, extra], 32, ([d, l, x], o) =>
    kernel<MerkleExports>().merkle_root_of_pieces(d, data.length, l, lengths.length, x, extra.length, newType ? 1 : 0, o),
  );
  if (status !== 0) throw new RangeError(`merkle_root_of_pieces failed with status ${status}`);
  return out;
}
