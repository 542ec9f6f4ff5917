// Trades for the charts (exchange.md §11.1): one per asset per block with a match whose base and
// quote totals are both non-zero; stored with the block, so rollback removes them.
import type { Db } from '../store/database.js';
import { keysStartingWith, readU32, tradeKey } from '../store/keys.js';
import type { KeyWriter } from './ledger.js';

export interface Trade {
  height: number;
  timestamp: number;
  /** Whole asset units (double, as the reference converts). */
  base: number;
  /** Coin (double). */
  quote: number;
}

export async function addTrade(s: KeyWriter, assetId: bigint, t: Trade): Promise<void> {
  const v = new Uint8Array(20);
  const d = new DataView(v.buffer);
  d.setUint32(0, t.timestamp);
  d.setFloat64(4, t.base);
  d.setFloat64(12, t.quote);
  await s.put(tradeKey(assetId, t.height), v);
}

/** All trades of an asset in ascending height. */
export async function tradesOf(db: Db, assetId: bigint): Promise<Trade[]> {
  const out: Trade[] = [];
  for await (const [k, v] of db.iterator(keysStartingWith(tradeKey(assetId, 0).subarray(0, 9)))) {
    const d = new DataView(v.buffer, v.byteOffset, v.byteLength);
    out.push({ height: readU32(k, 9), timestamp: d.getUint32(0), base: d.getFloat64(4), quote: d.getFloat64(12) });
  }
  return out;
}
