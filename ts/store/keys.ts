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
//   'h' historyId u64   → history entry            'x' accountId u64 historyId u64 → the account's further
//                         history ids of that block, u32 differences (one record per account and block)
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
// `--reindex` rebuilds every record from the stored blocks except 'L', 'p', 'X', 'F' and 'R', which
// it carries over (PREFIX below says so per kind).

/** What `--reindex` (chain/reindex.ts) does with a record kind. */
export type OnReindex =
  /** Derived from the blocks: written again as the stored blocks are applied afresh. */
  | 'rebuilt'
  /** Not derived from the blocks (what peers sent, what this node saw of them): copied as it is. */
  | 'carried';

export interface Prefix {
  readonly letter: string;
  readonly reindex: OnReindex;
}

/** Every record kind's prefix letter (the layout above), the one place the letters are written. */
export const PREFIX = {
  meta: { letter: 'm', reindex: 'rebuilt' },
  header: { letter: 'H', reindex: 'rebuilt' },
  body: { letter: 'B', reindex: 'rebuilt' },
  hashIndex: { letter: 'I', reindex: 'rebuilt' },
  undo: { letter: 'U', reindex: 'rebuilt' },
  headerChunk: { letter: 'G', reindex: 'rebuilt' },
  blockMeta: { letter: 'k', reindex: 'rebuilt' },
  account: { letter: 'a', reindex: 'rebuilt' },
  address: { letter: 'A', reindex: 'rebuilt' },
  balance: { letter: 'b', reindex: 'rebuilt' },
  history: { letter: 'h', reindex: 'rebuilt' },
  accountHistory: { letter: 'x', reindex: 'rebuilt' },
  txHash: { letter: 't', reindex: 'rebuilt' },
  txId: { letter: 'n', reindex: 'rebuilt' },
  counter: { letter: 'c', reindex: 'rebuilt' },
  holder: { letter: 'r', reindex: 'rebuilt' },
  asset: { letter: 'S', reindex: 'rebuilt' },
  assetHash: { letter: 'Z', reindex: 'rebuilt' },
  pool: { letter: 'P', reindex: 'rebuilt' },
  order: { letter: 'o', reindex: 'rebuilt' },
  book: { letter: 'O', reindex: 'rebuilt' },
  orderTx: { letter: 'q', reindex: 'rebuilt' },
  accountOrder: { letter: 'y', reindex: 'rebuilt' },
  trade: { letter: 'T', reindex: 'rebuilt' },
  // A snapshot received from a peer, not a block: a rebuilt chain must still honour it.
  signedSnapshot: { letter: 'L', reindex: 'carried' },
  peerAddress: { letter: 'p', reindex: 'carried' },
  ban: { letter: 'X', reindex: 'carried' },
  offense: { letter: 'F', reindex: 'carried' },
  transmission: { letter: 'R', reindex: 'carried' },
} as const satisfies Record<string, Prefix>;

/** The record kinds `--reindex` copies from the old database. */
export const CARRIED_BY_REINDEX: readonly Prefix[] = Object.values(PREFIX).filter((p) => p.reindex === 'carried');

export const META_HEAD = named(PREFIX.meta, 'head');
export const META_CHECK = named(PREFIX.meta, 'check');
export const COUNTER_STATE_ID = named(PREFIX.counter, 'stateId');
export const COUNTER_HISTORY_ID = named(PREFIX.counter, 'historyId');
export const SIGNED_SNAPSHOT = named(PREFIX.signedSnapshot, '');

function named(prefix: Prefix, name: string): Uint8Array {
  return new TextEncoder().encode(prefix.letter + name);
}

// Keys are written in one scratch buffer and copied out: a DataView per key (a block writes
// thousands of keys) cost more than the key itself.
const SCRATCH = new Uint8Array(64);
const SCRATCH_VIEW = new DataView(SCRATCH.buffer, 1);
function key(prefix: Prefix, size: number, fill: (v: DataView) => void): Uint8Array {
  SCRATCH[0] = prefix.letter.charCodeAt(0);
  fill(SCRATCH_VIEW);
  return SCRATCH.slice(0, 1 + size);
}

function withBytes(prefix: Prefix, bytes: Uint8Array): Uint8Array {
  const k = new Uint8Array(1 + bytes.length);
  k[0] = prefix.letter.charCodeAt(0);
  k.set(bytes, 1);
  return k;
}

export const headerKey = (h: number) => key(PREFIX.header, 4, (v) => v.setUint32(0, h));
export const HEADER_CHUNK = 4096;
export const headerChunkKey = (chunk: number) => key(PREFIX.headerChunk, 4, (v) => v.setUint32(0, chunk));
export const bodyKey = (h: number) => key(PREFIX.body, 4, (v) => v.setUint32(0, h));
export const undoKey = (h: number) => key(PREFIX.undo, 4, (v) => v.setUint32(0, h));
export const blockMetaKey = (h: number) => key(PREFIX.blockMeta, 4, (v) => v.setUint32(0, h));
export const hashIndexKey = (hash: Uint8Array) => withBytes(PREFIX.hashIndex, hash);
export const accountKey = (id: bigint) => key(PREFIX.account, 8, (v) => v.setBigUint64(0, id));
export const addressKey = (address: Uint8Array) => withBytes(PREFIX.address, address);
export const balanceKey = (accountId: bigint, tokenId: bigint) =>
  key(PREFIX.balance, 16, (v) => {
    v.setBigUint64(0, accountId);
    v.setBigUint64(8, tokenId);
  });
export const historyKey = (id: bigint) => key(PREFIX.history, 8, (v) => v.setBigUint64(0, id));
export const accountHistoryKey = (accountId: bigint, historyId: bigint) =>
  key(PREFIX.accountHistory, 16, (v) => {
    v.setBigUint64(0, accountId);
    v.setBigUint64(8, historyId);
  });
export const txHashKey = (hash: Uint8Array) => withBytes(PREFIX.txHash, hash);
export const txIdKey = (pinHeight: number, accountId: bigint, nonceId: number) =>
  key(PREFIX.txId, 16, (v) => {
    v.setUint32(0, pinHeight);
    v.setBigUint64(4, accountId);
    v.setUint32(12, nonceId);
  });

export const holderKey = (tokenId: bigint, accountId: bigint) =>
  key(PREFIX.holder, 16, (v) => {
    v.setBigUint64(0, tokenId);
    v.setBigUint64(8, accountId);
  });
export const assetKey = (id: bigint) => key(PREFIX.asset, 8, (v) => v.setBigUint64(0, id));
export const assetHashKey = (hash: Uint8Array) => withBytes(PREFIX.assetHash, hash);
export const poolKey = (assetId: bigint) => key(PREFIX.pool, 8, (v) => v.setBigUint64(0, assetId));
export const orderKey = (id: bigint) => key(PREFIX.order, 8, (v) => v.setBigUint64(0, id));
export const bookKey = (assetId: bigint, orderId: bigint) =>
  key(PREFIX.book, 16, (v) => {
    v.setBigUint64(0, assetId);
    v.setBigUint64(8, orderId);
  });
export const orderTxKey = (accountId: bigint, pinHeight: number, nonceId: number) =>
  key(PREFIX.orderTx, 16, (v) => {
    v.setBigUint64(0, accountId);
    v.setUint32(8, pinHeight);
    v.setUint32(12, nonceId);
  });
export const accountOrderKey = (accountId: bigint, orderId: bigint) =>
  key(PREFIX.accountOrder, 16, (v) => {
    v.setBigUint64(0, accountId);
    v.setBigUint64(8, orderId);
  });
export const tradeKey = (assetId: bigint, height: number) =>
  key(PREFIX.trade, 12, (v) => {
    v.setBigUint64(0, assetId);
    v.setUint32(8, height);
  });

const utf8 = new TextEncoder();
export const peerAddressKey = (address: string) => withBytes(PREFIX.peerAddress, utf8.encode(address));
export const banRecordKey = (key: string) => withBytes(PREFIX.ban, utf8.encode(key));
export const offenseKey = (seq: bigint) => key(PREFIX.offense, 8, (v) => v.setBigUint64(0, seq));
export const rxtxKey = (width: 'm' | 'h', begin: number, host: string) => {
  const k = withBytes(PREFIX.transmission, new Uint8Array(5 + utf8.encode(host).length));
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

/** The key range of one record kind. */
export function prefixRange(prefix: Prefix): { gte: Uint8Array; lt: Uint8Array } {
  const c = prefix.letter.charCodeAt(0);
  return { gte: Uint8Array.of(c), lt: Uint8Array.of(c + 1) };
}

export const u32Value = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
export const u64Value = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};
export const readU32 = (b: Uint8Array, at = 0) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at);
export const readU64 = (b: Uint8Array, at = 0) => new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(at);
