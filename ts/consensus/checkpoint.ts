// Header grid and the mainnet checkpoint (consensus.md §5.5): batches of 8,640 headers; the grid
// lists the last header of every complete batch; mainnet's grid slot 259 must hold a fixed header.
import { equalBytes, fromHex } from '../core/hex.js';
import type { NetworkParams } from './params.js';

export const GRID_MESH = 8_640;

export interface Checkpoint {
  height: number;
  header: Uint8Array; // 80 bytes
  hash: Uint8Array;
}

export const MAINNET_CHECKPOINT: Checkpoint = {
  height: 2_246_400, // grid slot 259, counted from 0 (8,640 · 260)
  header: fromHex(
    '34b4064fced07341204e3b2283477d5fc6423d7f8244f83d6e1fa1551a74ad470ba7c02fc4c7d16b758e8af266349dc1070727b5ecd5d7fc6c6417d2458018e328818355000000036748585daf74da6b',
  )!,
  hash: fromHex('425a74799bbf9e7ecdd57628bc88be349738add14e988ff31a71f59710e1a5f5')!,
};

export function checkpointOf(p: NetworkParams): Checkpoint | null {
  return p.name === 'mainnet' ? MAINNET_CHECKPOINT : null;
}

/** Heights of the grid of a chain of `length` blocks: 8,640, 17,280, … ≤ length. */
export function gridHeights(length: number): number[] {
  return Array.from({ length: Math.floor(length / GRID_MESH) }, (_, i) => GRID_MESH * (i + 1));
}

/** False iff `hash` at `height` contradicts the network's checkpoint. */
export function agreesWithCheckpoint(p: NetworkParams, height: number, hash: Uint8Array): boolean {
  const c = checkpointOf(p);
  return !c || c.height !== height || equalBytes(c.hash, hash);
}
