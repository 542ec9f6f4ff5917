// What the next block would do to the ledger, as far as this node can know: the block it would
// mine now (its template: the best-paying pending transactions the ledger accepts, template.ts)
// applied by the very function that applies every block (state/apply_block.ts), on the state the
// template was built on. `/dex/market` reads its `match` preview (exchange.md §8.8) from it, so the
// preview runs under the block's own conditions: the lazy order loading of lazy_book.ts, the
// block's cancelations skipped, and a match only in a token section with new orders, i.e. none
// for an asset without a pending limit swap the block would carry. It holds for the next block
// when that block is this template: another miner's block, or transactions arriving or leaving
// first, can do otherwise.
import type { ChainReadState } from '../chain/read_view.js';
import { bodyLayoutAt } from '../consensus/params.js';
import { parseBody } from '../core/body.js';
import { parseHeader } from '../core/header.js';
import type { MarketMatch } from '../dex/matching.js';
import { applyBlock } from '../state/apply_block.js';
import { decodeHistoryEntry, decodeMatch, matchTxHash } from '../state/history.js';
import { StateOverlay } from '../state/overlay.js';
import type { Db } from '../store/database.js';
import { historyKey, readU64, txHashKey } from '../store/keys.js';
import type { BlockCandidate } from './candidate.js';
import { buildTemplate } from './template.js';

export interface NextBlock {
  /** The next block's match of `assetId` in `Market.match` terms; all zero when the block runs none. */
  match(assetId: bigint): Promise<MarketMatch>;
}

/** The reward of the trial block goes to nobody's address: a new account, apart from every other. */
const TRIAL_MINER = new Uint8Array(20);
/** The trial block's hash; no block has it, and the overlay it names entries in is discarded. */
const TRIAL_HASH = new Uint8Array(32);

const NO_MATCH: MarketMatch = { filled: { base: 0n, quote: 0n }, toPool: { isQuote: false, amount: 0n } };

/**
 * The next block on `chain` and `db` (one consistent state: a read view and its snapshot) from
 * `pending`, best-paying first. Throws the NodeError of a template the ledger refuses.
 */
export async function nextBlock(chain: ChainReadState, db: Db, pending: BlockCandidate[], now: number): Promise<NextBlock> {
  const t = await buildTemplate(chain, db, TRIAL_MINER, now, pending);
  const header = parseHeader(t.header);
  const body = parseBody(t.body, bodyLayoutAt(chain.params, t.height, header.version));
  const applied = new StateOverlay(db);
  await applyBlock(db, applied, {
    height: t.height,
    hash: TRIAL_HASH,
    timestamp: header.timestamp,
    body,
    hashAt: (h) => chain.hashAt(h),
    verifySignatures: false,
  });
  return {
    async match(assetId) {
      const id = await applied.get(txHashKey(matchTxHash(TRIAL_HASH, assetId)));
      if (!id) return NO_MATCH;
      const m = decodeMatch(decodeHistoryEntry((await applied.get(historyKey(readU64(id))))!).payload);
      const sum = (swaps: { base: bigint; quote: bigint }[], side: 'base' | 'quote') => swaps.reduce((t, s) => t + s[side], 0n);
      // The pool keeps its fee from what it pays out (exchange.md §6.2): the reserve paid into grows by exactly the amount routed to it.
      const quoteIn = m.poolAfter.quote - m.poolBefore.quote,
        baseIn = m.poolAfter.base - m.poolBefore.base;
      return {
        filled: { base: sum(m.sellSwaps, 'base'), quote: sum(m.buySwaps, 'quote') },
        toPool: quoteIn > 0n ? { isQuote: true, amount: quoteIn } : baseIn > 0n ? { isQuote: false, amount: baseIn } : NO_MATCH.toPool,
      };
    },
  };
}
