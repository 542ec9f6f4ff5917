// Trades for the charts (exchange.md §11.1): one per asset per block with a match whose base and
// quote totals are both non-zero; stored with the block, so rollback removes them. A trade keeps
// the block's totals twice: exactly, in smallest units (what the contract API prints), and as the
// reference sums them in doubles swap by swap (what `--api=0.10` prints): the doubles cannot be
// had back from the exact totals, nor the totals from the doubles.
import type { Db } from '../store/database.js';
import { keysStartingWith, readU32, tradeKey } from '../store/keys.js';
import { matchTxHash } from './history.js';
import { transactionByHash } from './history_query.js';
import type { KeyWriter } from './ledger.js';

export interface Trade {
  height: number;
  timestamp: number;
  /** The asset paid by the block's swaps, in smallest units (may exceed u64: both sides count). */
  base: bigint;
  /** The coin paid by them, in E8. */
  quote: bigint;
  /** The same totals as the reference computes them (§11.1): whole asset units and coin, doubles. */
  reference: { base: number; quote: number };
}

/** A match's swaps (buy swaps then sell swaps, as §11.1 sums them). */
export interface TradeSwaps {
  buySwaps: readonly { base: bigint; quote: bigint }[];
  sellSwaps: readonly { base: bigint; quote: bigint }[];
}

/** The totals of one match: exact, and as doubles summed swap by swap as the reference does (§11.1). */
export function tradeTotals(m: TradeSwaps, decimals: number): Pick<Trade, 'base' | 'quote' | 'reference'> {
  let base = 0n,
    quote = 0n,
    baseDouble = 0,
    quoteDouble = 0;
  for (const s of [...m.buySwaps, ...m.sellSwaps]) {
    base += s.base;
    quote += s.quote;
    let b = Number(s.base);
    for (let i = 0; i < decimals; i++) b *= 0.1;
    baseDouble += b;
    quoteDouble += Number(s.quote) * 1e-8;
  }
  return { base, quote, reference: { base: baseDouble, quote: quoteDouble } };
}

/** Bytes of a record: timestamp u32, the reference's doubles (f64 ×2), the exact totals (u128 ×2). */
const RECORD_SIZE = 4 + 8 + 8 + 16 + 16;
/** A record written before the exact totals were kept: timestamp and doubles only. */
const OLD_RECORD_SIZE = 20;

const U64_MASK = (1n << 64n) - 1n;

export async function addTrade(s: KeyWriter, assetId: bigint, t: Trade): Promise<void> {
  const v = new Uint8Array(RECORD_SIZE);
  const d = new DataView(v.buffer);
  d.setUint32(0, t.timestamp);
  d.setFloat64(4, t.reference.base);
  d.setFloat64(12, t.reference.quote);
  for (const [at, x] of [
    [20, t.base],
    [36, t.quote],
  ] as const) {
    d.setBigUint64(at, x >> 64n);
    d.setBigUint64(at + 8, x & U64_MASK);
  }
  await s.put(tradeKey(assetId, t.height), v);
}

/**
 * All trades of an asset in ascending height. `hashAt` gives the block hash of a height of the
 * same chain state: a record written before the exact totals were kept gets them from the block's
 * match entry (the swaps it records).
 */
export async function tradesOf(db: Db, assetId: bigint, hashAt: (height: number) => Uint8Array): Promise<Trade[]> {
  const out: Trade[] = [];
  for await (const [k, v] of db.iterator(keysStartingWith(tradeKey(assetId, 0).subarray(0, 9)))) {
    const d = new DataView(v.buffer, v.byteOffset, v.byteLength);
    const height = readU32(k, 9);
    const reference = { base: d.getFloat64(4), quote: d.getFloat64(12) };
    const u128 = (at: number) => (d.getBigUint64(at) << 64n) | d.getBigUint64(at + 8);
    out.push(
      v.length === OLD_RECORD_SIZE
        ? { height, timestamp: d.getUint32(0), reference, ...(await totalsFromMatch(db, assetId, hashAt(height))) }
        : { height, timestamp: d.getUint32(0), reference, base: u128(20), quote: u128(36) },
    );
  }
  return out;
}

async function totalsFromMatch(db: Db, assetId: bigint, blockHash: Uint8Array): Promise<{ base: bigint; quote: bigint }> {
  const m = await transactionByHash(db, matchTxHash(blockHash, assetId));
  if (m?.kind !== 'match') throw new Error(`database corrupt: a trade of asset ${assetId} without its block's match entry`);
  const { base, quote } = tradeTotals(m.record, 0);
  return { base, quote };
}
