// The largest holders of a token by total balance (http-api-details.md §7.4), from the holder
// index: every balance row is listed under its token when created (ledger.ts setBalance).
import type { Db } from '../store/database.js';
import { holderKey, keysStartingWith, readU64 } from '../store/keys.js';
import { addressOf, balanceOf, dbReader } from './ledger.js';

export interface Holder {
  accountId: bigint;
  address: Uint8Array;
  total: bigint;
}

/** The `limit` accounts with the largest total of `tokenId`, descending; ties by ascending account id. */
export async function richlist(db: Db, tokenId: bigint, limit: number): Promise<Holder[]> {
  const s = dbReader(db);
  const all: { accountId: bigint; total: bigint }[] = [];
  for await (const k of db.keys(keysStartingWith(holderKey(tokenId, 0n).subarray(0, 9)))) {
    const accountId = readU64(k, 9);
    all.push({ accountId, total: (await balanceOf(s, accountId, tokenId)).total });
  }
  all.sort((a, b) => (a.total !== b.total ? (a.total > b.total ? -1 : 1) : a.accountId < b.accountId ? -1 : 1));
  const out: Holder[] = [];
  for (const h of all.slice(0, limit)) {
    const address = await addressOf(s, h.accountId);
    if (!address) throw new Error(`database corrupt: holder ${h.accountId} has no account`);
    out.push({ ...h, address });
  }
  return out;
}
