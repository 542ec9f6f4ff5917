// What a publication of the streams reads of the blocks appended since the last one, from its one
// read view: the entries of each (for the blocks some event shows, and for the account topic) and
// the block view of those an event shows. The chain, chain-delta and account producers share it.
import type { ReadView } from '../../chain/read_view.js';
import { formatAddress } from '../../core/address.js';
import { blockTransactions, type MinedTransaction } from '../../state/history_query.js';
import type { Infer } from '../schema.js';
import { Block, blockView } from '../views/block.js';

export type BlockView = Infer<typeof Block>;

/** A block appended since the last publication, with what was read of it. */
export interface Appended {
  height: number;
  txs: MinedTransaction[] | null;
  view: BlockView | null;
}

/** The entries of block `height` of `view`, or null when it does not have it. */
export async function transactionsAt(view: ReadView, height: number): Promise<MinedTransaction[] | null> {
  const b = await view.block(height);
  return b ? blockTransactions(view.db, height, b.firstHistoryId) : null;
}

/** The views of blocks `from`…`to` of `view` (those it has). */
export async function blockViews(view: ReadView, from: number, to: number): Promise<BlockView[]> {
  const out: BlockView[] = [];
  for (let h = from; h <= to; h++) {
    const txs = await transactionsAt(view, h);
    if (txs) out.push(blockView(view, h, txs));
  }
  return out;
}

/**
 * The appended `heights` (those `view` has): entries for each when `allTxs`, else only for those
 * from index `viewFrom` on, whose block views are built.
 */
export async function readAppended(view: ReadView, heights: number[], viewFrom: number, allTxs: boolean): Promise<Appended[]> {
  const out: Appended[] = [];
  for (const [i, h] of heights.filter((x) => x <= view.length).entries()) {
    const wantView = i >= viewFrom;
    const txs = wantView || allTxs ? await transactionsAt(view, h) : null;
    out.push({ height: h, txs, view: wantView && txs ? blockView(view, h, txs) : null });
  }
  return out;
}

/** Addresses (48 hex) a block's entries name: the reward's recipient, signers and recipients. */
export function addressesOf(txs: readonly MinedTransaction[]): Set<string> {
  const out = new Set<string>();
  for (const t of txs) {
    if ('originAddress' in t) out.add(formatAddress(t.originAddress));
    if ('toAddress' in t) out.add(formatAddress(t.toAddress));
  }
  return out;
}
