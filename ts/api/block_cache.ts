// The transactions of recently viewed blocks, by block hash: what a block holds never changes for
// its hash, so `/chain/block/:id` answers a repeated block from memory instead of four database
// round trips (issue 12: block views were 3–4× slower than the reference's). Two values depend on
// the chain as it is now and are computed per request: `confirmations` (the view does it) and a
// limitSwap's `processed.remaining`, the order's remaining at query time (exchange.md §5.3).
import { toHex } from '../core/hex.js';
import { Lru } from '../core/lru.js';
import type { KeyReader } from '../state/ledger.js';
import type { MinedTransaction } from '../state/history_query.js';
import { orderById } from '../state/orders.js';

// Bounded by transactions, not blocks: 2,048 blocks of up to thousands of transactions each let a
// reader walking the chain grow the cache without a useful bound (each kept transaction is a tree of objects).
const TRANSACTIONS = 8192;

export class BlockCache {
  private readonly byHash = new Lru<string, MinedTransaction[]>(TRANSACTIONS, (txs) => txs.length + 1);

  /** The cached transactions of block `hash`, or `load()`'s (then cached). */
  async transactions(hash: Uint8Array, load: () => Promise<MinedTransaction[]>, s: KeyReader): Promise<MinedTransaction[]> {
    const key = toHex(hash);
    const hit = this.byHash.get(key);
    if (!hit) {
      const txs = await load();
      this.byHash.set(key, txs);
      return txs;
    }
    return Promise.all(
      hit.map(async (t) => {
        if (t.kind !== 'limitSwap') return t;
        const order = await orderById(s, t.id); // the order id is its limitSwap's history id
        return { ...t, remaining: order ? order.amount - order.filled : 0n };
      }),
    );
  }
}
