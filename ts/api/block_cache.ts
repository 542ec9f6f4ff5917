// The transactions of recently viewed blocks, by block hash: what a block holds never changes for
// its hash, so `/chain/block/:id` answers a repeated block from memory instead of four database
// round trips (issue 12: block views were 3–4× slower than the reference's). Only `confirmations`
// depends on the tip, and the view computes it per request.
import { toHex } from '../core/hex.js';
import { Lru } from '../core/lru.js';
import type { MinedTransaction } from '../state/history_query.js';

const ENTRIES = 2048;

export class BlockCache {
  private readonly byHash = new Lru<string, MinedTransaction[]>(ENTRIES);

  /** The cached transactions of block `hash`, or `load()`'s (then cached). */
  async transactions(hash: Uint8Array, load: () => Promise<MinedTransaction[]>): Promise<MinedTransaction[]> {
    const key = toHex(hash);
    const hit = this.byHash.get(key);
    if (hit) return hit;
    const txs = await load();
    this.byHash.set(key, txs);
    return txs;
  }
}
