// The database schema: one key space, one prefix byte per record kind. Integers in keys are
// big-endian so that key order is numeric order (range scans by height, id, account).
//
//   'm' name            → meta values: 'head' → head length u32; 'check' → the check record
//                         (height u32, tip hash 32, crc32 of the raw headers 1…height u32), see chain/integrity.ts
//   'H' height u32      → 80-byte header           'B' height u32 → body bytes
//   'I' hash 32         → height u32               'U' height u32 → undo record of that block
//   'G' chunk u32       → headers chunk·4096+1 … (chunk+1)·4096 concatenated, written with the block
//                         that completes them: start-up reads the header chain in large records
//   'k' height u32      → block meta (first state id u64, first history id u64, header crc32 up to it u32)
//   'a' accountId u64   → address 20               'A' address 20 → accountId u64
//   'b' accountId u64 tokenId u64 → balance (total u64, locked u64)
//   'h' historyId u64   → history entry            'x' accountId u64 historyId u64 → (empty)
//   't' txHash 32       → historyId u64
//   'n' pinHeight u32 accountId u64 nonceId u32 → height u32 (the transaction-id cache, §7.6)
//   'c' name            → state counters (next state id, next history id)
//   'r' tokenId u64 accountId u64 → (empty): holders of a token, for the richlist
// Exchange (exchange.md):
//   'S' assetId u64     → asset record            'Z' assetHash 32 → assetId u64
//   'P' assetId u64     → pool (base, quote, shares)
//   'o' orderId u64     → open order record       'O' assetId u64 orderId u64 → (empty): the book
//   'q' accountId u64 pinHeight u32 nonceId u32 → orderId (cancelation lookup)
//   'y' accountId u64 orderId u64 → (empty): an account's open orders
//   'T' assetId u64 height u32 → trade of that block (charts, exchange.md §11)
// Signed snapshot (consensus.md §5.6), written by chain/chain.ts:
//   'L'                 → the best signed snapshot received (101-byte wire form)
// Peers (p2p.md §4), written by p2p/peer_db.ts:
//   'p' "ip:port"       → address-book entry (verified u8, lastVerified u32 Unix s)
//   'X' ban key         → ban (until u64 Unix ms, code u32)
//   'F' seq u64         → offense (time u64 Unix ms, code u32, ip)
//   'R' width u8 begin u32 host → transmission bucket (rx u64, tx u64); width 'm' minute, 'h' hour

export const META_HEAD = meta('m', 'head');
export const META_CHECK = meta('m', 'check');
export const COUNTER_STATE_ID = meta('c', 'stateId');
export const COUNTER_HISTORY_ID = meta('c', 'historyId');
export const SIGNED_SNAPSHOT = meta('L', '');

function meta(prefix: string, name: string): Uint8Array {
  return new TextEncoder().encode(prefix + name);
}

function key(prefix: string, size: number, fill: (v: DataView) => void): Uint8Array {
  const k = new Uint8Array(1 + size);
  k[0] = prefix.charCodeAt(0);
  fill(new DataView(k.buffer, 1));
  return k;
}

function withBytes(prefix: string, bytes: Uint8Array): Uint8Array {
  const k = new Uint8Array(1 + bytes.length);
  k[0] = prefix.charCodeAt(0);
  k.set(bytes, 1);
  return k;
}

export const headerKey = (h: number) => key('H', 4, (v) => v.setUint32(0, h));
export const HEADER_CHUNK = 4096;
export const headerChunkKey = (chunk: number) => key('G', 4, (v) => v.setUint32(0, chunk));
export const bodyKey = (h: number) => key('B', 4, (v) => v.setUint32(0, h));
export const undoKey = (h: number) => key('U', 4, (v) => v.setUint32(0, h));
export const blockMetaKey = (h: number) => key('k', 4, (v) => v.setUint32(0, h));
export const hashIndexKey = (hash: Uint8Array) => withBytes('I', hash);
export const accountKey = (id: bigint) => key('a', 8, (v) => v.setBigUint64(0, id));
export const addressKey = (address: Uint8Array) => withBytes('A', address);
export const balanceKey = (accountId: bigint, tokenId: bigint) =>
  key('b', 16, (v) => { v.setBigUint64(0, accountId); v.setBigUint64(8, tokenId); });
export const historyKey = (id: bigint) => key('h', 8, (v) => v.setBigUint64(0, id));
export const accountHistoryKey = (accountId: bigint, historyId: bigint) =>
  key('x', 16, (v) => { v.setBigUint64(0, accountId); v.setBigUint64(8, historyId); });
export const txHashKey = (hash: Uint8Array) => withBytes('t', hash);
export const txIdKey = (pinHeight: number, accountId: bigint, nonceId: number) =>
  key('n', 16, (v) => { v.setUint32(0, pinHeight); v.setBigUint64(4, accountId); v.setUint32(12, nonceId); });

export const holderKey = (tokenId: bigint, accountId: bigint) =>
  key('r', 16, (v) => { v.setBigUint64(0, tokenId); v.setBigUint64(8, accountId); });
export const assetKey = (id: bigint) => key('S', 8, (v) => v.setBigUint64(0, id));
export const assetHashKey = (hash: Uint8Array) => withBytes('Z', hash);
export const poolKey = (assetId: bigint) => key('P', 8, (v) => v.setBigUint64(0, assetId));
export const orderKey = (id: bigint) => key('o', 8, (v) => v.setBigUint64(0, id));
export const bookKey = (assetId: bigint, orderId: bigint) =>
  key('O', 16, (v) => { v.setBigUint64(0, assetId); v.setBigUint64(8, orderId); });
export const orderTxKey = (accountId: bigint, pinHeight: number, nonceId: number) =>
  key('q', 16, (v) => { v.setBigUint64(0, accountId); v.setUint32(8, pinHeight); v.setUint32(12, nonceId); });
export const accountOrderKey = (accountId: bigint, orderId: bigint) =>
  key('y', 16, (v) => { v.setBigUint64(0, accountId); v.setBigUint64(8, orderId); });
export const tradeKey = (assetId: bigint, height: number) =>
  key('T', 12, (v) => { v.setBigUint64(0, assetId); v.setUint32(8, height); });

const utf8 = new TextEncoder();
export const peerAddressKey = (address: string) => withBytes('p', utf8.encode(address));
export const banRecordKey = (key: string) => withBytes('X', utf8.encode(key));
export const offenseKey = (seq: bigint) => key('F', 8, (v) => v.setBigUint64(0, seq));
export const rxtxKey = (width: 'm' | 'h', begin: number, host: string) => {
  const k = withBytes('R', new Uint8Array(5 + utf8.encode(host).length));
  k[1] = width.charCodeAt(0);
  new DataView(k.buffer).setUint32(2, begin);
  k.set(utf8.encode(host), 6);
  return k;
};

/** All keys that start with `prefix` (the range for iterators). */
export function keysStartingWith(prefix: Uint8Array): { gte: Uint8Array; lt: Uint8Array } {
  const lt = prefix.slice();
  let i = lt.length - 1;
  while (i >= 0 && lt[i] === 0xff) i--;
  if (i < 0) throw new Error('prefix of 0xff bytes has no upper bound');
  lt[i]++;
  return { gte: prefix, lt: lt.subarray(0, i + 1) };
}

/** The key range of one prefix, optionally narrowed by a key suffix. */
export function prefixRange(prefix: string): { gte: Uint8Array; lt: Uint8Array } {
  const c = prefix.charCodeAt(0);
  return { gte: Uint8Array.of(c), lt: Uint8Array.of(c + 1) };
}

export const u32Value = (n: number) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, n); return b; };
export const u64Value = (n: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, n); return b; };
export const readU32 = (b: Uint8Array, at = 0) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at);
export const readU64 = (b: Uint8Array, at = 0) => new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(at);
