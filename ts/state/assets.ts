// Asset records (exchange.md §2.3): id, hash (= the creation's txHash), name, decimals, creation
// height, owner; groupId = 2·id + 1 and parentId = null are derived, not stored.
import { Reader, Writer } from '../core/bytes.js';
import { toHex } from '../core/hex.js';
import { assetNameOf } from '../core/transaction.js';
import type { Db } from '../store/database.js';
import { assetHashKey, assetKey, PREFIX, prefixRange, readU64, u64Value } from '../store/keys.js';
import type { KeyReader, KeyWriter } from './ledger.js';

export interface Asset {
  id: bigint;
  hash: Uint8Array;
  name: string;
  decimals: number;
  height: number;
  ownerAccountId: bigint;
  supply: bigint;
}

function encode(a: Asset, nameBytes: Uint8Array): Uint8Array {
  return new Writer(70).bytes(a.hash, 32).bytes(nameBytes, 5).u8(a.decimals).u32(a.height).u64(a.ownerAccountId).u64(a.supply).finish();
}

function decode(id: bigint, v: Uint8Array): Asset {
  const r = new Reader(v);
  const hash = r.bytes(32);
  const name = assetNameOf(r.bytes(5)) ?? '';
  return { id, hash, name, decimals: r.u8(), height: r.u32(), ownerAccountId: r.u64(), supply: r.u64() };
}

export async function addAsset(s: KeyWriter, a: Asset, nameBytes: Uint8Array): Promise<void> {
  await s.put(assetKey(a.id), encode(a, nameBytes));
  await s.put(assetHashKey(a.hash), u64Value(a.id));
}

export async function assetById(s: KeyReader, id: bigint): Promise<Asset | null> {
  const v = await s.get(assetKey(id));
  return v ? decode(id, v) : null;
}

export async function assetByHash(s: KeyReader, hash: Uint8Array): Promise<Asset | null> {
  const id = await s.get(assetHashKey(hash));
  return id ? assetById(s, readU64(id)) : null;
}

/** SQL `LIKE 'prefix%'` as the reference matches names: ASCII case-insensitive, `%` and `_` wildcards. */
function namePattern(prefix: string): RegExp {
  const body = [...prefix].map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'))).join('');
  return new RegExp(`^${body}`, 'is');
}

/**
 * Assets whose name begins with `namePrefix` (as SQL LIKE) and whose hex hash begins with
 * `hashPrefix` (case-insensitive, any length; non-hex matches nothing), ascending id (proposal P5),
 * at most `limit` (§2.5).
 */
export async function searchAssets(db: Db, namePrefix: string, hashPrefix: string, limit: number): Promise<Asset[]> {
  const name = namePattern(namePrefix),
    hash = hashPrefix.toLowerCase();
  const out: Asset[] = [];
  for await (const [k, v] of db.iterator(prefixRange(PREFIX.asset))) {
    const a = decode(readU64(k, 1), v);
    if (name.test(a.name) && toHex(a.hash).startsWith(hash)) out.push(a);
    if (out.length >= limit) break;
  }
  return out;
}
