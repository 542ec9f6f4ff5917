// Transactions and the mempool: POST /transaction/add, /transaction/mempool,
// /account/:account/mempool, /transaction/lookup/:txid, /settings/mempool/minfee/:feeE8
// (http-api.md "Transactions and mempool"; http-api-details.md §4).
import { fail } from '../../core/errors.js';
import { fromHexExact, toHex } from '../../core/hex.js';
import { transactionByHash, transactionIdByHash, type MinedTransaction } from '../../state/history_query.js';
import { Lru } from '../../core/lru.js';
import type { ReadView } from '../../chain/read_view.js';
import type { AnswerKey } from '../answer_cache.js';
import type { ReadRequest } from '../route.js';
import { dbReader } from '../../state/ledger.js';
import { route } from '../route.js';
import { accountParam, resolveAccount, u64Param } from '../params.js';
import { arr, hexStr, int, named, nullable, obj, str, u64 } from '../schema.js';
import { parseTxRequest } from '../tx_request.js';
import { AnyTransaction, MempoolEntry, mempoolEntries, minedTransactionView, pendingAssets, pendingLookupView } from '../views/transaction.js';

/** The reference lists at most this many mempool entries (http-api-details.md §4.2). */
const MEMPOOL_LISTING_LIMIT = 2000;

/** `txs` by fee, highest first, oldest first among equal fees (Mempool.all), with each equal-fee run reversed. */
function newestFirstAmongEqualFees<T extends { feeCode: number }>(txs: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < txs.length; ) {
    let end = i;
    while (end < txs.length && txs[end].feeCode === txs[i].feeCode) end++;
    for (let k = end - 1; k >= i; k--) out.push(txs[k]);
    i = end;
  }
  return out;
}

/** A mined transaction looked up before: its entry and block, and the chain state that was last checked on. */
interface MinedLookup {
  id: bigint;
  height: number;
  blockHash: string;
  kind: string;
  checkedOn: number;
}
const MINED_LOOKUPS = 4096; // the transactions wallets and explorers are asking about now
const minedLookups = new WeakMap<object, Lru<string, MinedLookup | null>>();

/** Per node (its mempool names it), by the hash as the request wrote it. */
function minedLookupsOf(node: { mempool: object }): Lru<string, MinedLookup | null> {
  let m = minedLookups.get(node.mempool);
  if (!m) minedLookups.set(node.mempool, (m = new Lru(MINED_LOOKUPS)));
  return m;
}

/** The key of a mined transaction's answer: per block, or per chain state for a limitSwap. */
function minedKey(txid: string, m: MinedLookup, c: ReadView): AnswerKey {
  if (m.kind === 'limitSwap') return { key: `lookup ${txid} ${m.id} state ${m.checkedOn}` };
  return { key: `lookup ${txid} ${m.id} ${m.blockHash}`, confirmations: c.length - m.height + 1 };
}

/** The entry a request's answer key read, for its handler. */
const loaded = new WeakMap<ReadRequest, MinedTransaction>();

/** A number per read view (one chain state), without keeping the view. */
const stamps = new WeakMap<ReadView, number>();
let lastStamp = 0;
function stampOf(view: ReadView): number {
  let s = stamps.get(view);
  if (s === undefined) stamps.set(view, (s = ++lastStamp));
  return s;
}

const Mined = named('Mined', obj({ historyId: u64, block: obj({ height: int, hash: hexStr(64), timestamp: int }) }));

export const transactionRoutes = [
  route({
    method: 'POST',
    path: '/transaction/add',
    changes: 'mempool',
    // The request parser's and the mempool's codes (test/docs checks this list against their sources).
    errors: [
      'ETXTYPE',
      'EBADHEIGHT',
      'EBADNONCE',
      'EBADFEE',
      'EINV_FUNDS',
      'EINEXACTFEE',
      'EBADADDRESS',
      'EBADAMOUNT',
      'EZEROWART',
      'EPARSEHASH',
      'EBADLIQUIDITYFLAG',
      'EBADBUYFLAG',
      'EBADPRICE',
      'EBADCANCELHEIGHT',
      'ECANCLHNOPINH',
      'EBADCANCELNONCE',
      'EBADASSETUNITS',
      'EBADASSETDECIMALS',
      'EASSETNAME',
      'EPARSESIG',
      'ECORRUPTEDSIG',
      'EPINHEIGHT',
      'EBLOCKV4',
      'ESELFSEND',
      'EADDRNOTFOUND',
      'ENONCE',
      'EMINFEE',
      'EZEROAMOUNT',
      'EZEROBASEQUOTE',
      'ECANCELSELF',
      'ECANCELFUTURE',
      'EINV_SUPPLY',
      'EASSETHASHNOTFOUND',
      'EBALANCE',
      'ETOKBALANCE',
      'EREFABORT',
    ],
    doc: "Submits a signed transaction (see [Transactions](#transactions)); answers its hash once the mempool has admitted it. A member that is missing or malformed answers its code (first bad member wins), then the mempool's checks (pin window, signature, balance, fee) answer theirs.",
    response: named('TxHash', obj({ txHash: hexStr(64) })),
    handler: async ({ body, node }) => {
      const tx = await node.mempool.add(parseTxRequest(body));
      return { txHash: toHex(tx.hash) };
    },
  }),
  route({
    method: 'GET',
    path: '/transaction/mempool',
    dependsOn: 'chain+mempool',
    doc: 'The pending transactions, best-paying first, the latest arrival first among equal fees, as the reference lists them (at most 2,000).',
    response: arr(MempoolEntry),
    handler: ({ node, view }) => mempoolEntries(dbReader(view.db), newestFirstAmongEqualFees(node.mempool.pool.all()).slice(0, MEMPOOL_LISTING_LIMIT)),
  }),
  route({
    method: 'GET',
    path: '/account/:account/mempool',
    dependsOn: 'chain+mempool',
    doc: 'The pending transactions an account has sent, by transaction id (pinHeight, then nonceId), as the reference lists them.',
    response: arr(MempoolEntry),
    handler: async ({ params, node, view }) => {
      const a = await resolveAccount(view, accountParam(params.account));
      if (a.accountId === null) return [];
      const txs = node.mempool.pool.ofAccount(a.accountId).sort((x, y) => x.pinHeight - y.pinHeight || x.nonceId - y.nonceId);
      return mempoolEntries(dbReader(view.db), txs.slice(0, MEMPOOL_LISTING_LIMIT));
    },
  }),
  route({
    method: 'GET',
    path: '/transaction/lookup/:txid',
    dependsOn: 'chain+mempool',
    doc: 'A transaction by hash: pending in the mempool, or mined (with its block).',
    response: named(
      'TransactionLookup',
      obj({
        confirmations: int,
        mined: nullable(Mined),
        type: str,
        transaction: AnyTransaction,
      }),
    ),
    // A mined transaction's answer is kept as written bytes per block (its confirmations written per
    // request), a limitSwap's per chain state (its `processed.remaining` moves with later blocks), so
    // neither is built again when the mempool moves; a pending one's per chain state and mempool
    // version (dependsOn). Once the tx-hash index has been read on the request's chain state, the
    // key reads nothing but memory (minedLookups).
    answerKey: (req) => {
      const { params, node, view: c } = req;
      const hash = fromHexExact(params.txid, 32);
      if (!hash || node.mempool.pool.byTxHash(hash)) return null;
      const lookups = minedLookupsOf(node);
      const m = lookups.get(params.txid);
      const stamp = stampOf(c);
      if (m && m.checkedOn === stamp) return minedKey(params.txid, m, c);
      return (async () => {
        // Not checked on this chain state: the index may name another entry (the block rolled back,
        // or a later block with a transaction of the same hash), or the block may be gone.
        const id = await transactionIdByHash(c.db, hash);
        let found = m && m.id === id && m.height <= c.length && toHex(c.hashAt(m.height)) === m.blockHash ? m : null;
        if (!found && id !== null) {
          // First asked on this state: the entry is read here, and handed to the handler (loaded).
          const tx = await transactionByHash(c.db, hash);
          if (tx && tx.height <= c.length) {
            loaded.set(req, tx);
            found = { id: tx.id, height: tx.height, blockHash: toHex(c.hashAt(tx.height)), kind: tx.kind, checkedOn: stamp };
          }
        }
        lookups.set(params.txid, found);
        if (!found) return null;
        found.checkedOn = stamp;
        return minedKey(params.txid, found, c);
      })();
    },
    handler: async (req) => {
      const { params, node, view: c } = req;
      const hash = fromHexExact(params.txid, 32) ?? fail('EINV_HEX', 'a transaction hash is 64 hex chars');
      const pending = node.mempool.pool.byTxHash(hash);
      if (pending) {
        const [asset] = await pendingAssets(dbReader(c.db), [pending]);
        return { confirmations: 0, mined: null, ...pendingLookupView(pending, asset) };
      }
      const tx = loaded.get(req) ?? (await transactionByHash(c.db, hash));
      if (!tx || tx.height > c.length) fail('ENOTFOUND', 'no pending or mined transaction has this hash');
      return {
        confirmations: c.length - tx!.height + 1,
        mined: { historyId: tx!.id, block: { height: tx!.height, hash: toHex(c.hashAt(tx!.height)), timestamp: c.timestampAt(tx!.height) } },
        ...minedTransactionView(tx!),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/settings/mempool/minfee/:feeE8',
    changes: 'mempool',
    doc: 'Sets the minimum mempool fee (rounded up to the 16-bit fee grid) and drops the pending transactions paying less; answers how many were dropped.',
    response: named('MinFeeDeleted', obj({ deleted: int })),
    handler: ({ params, node }) => ({ deleted: node.mempool.setMinFee(u64Param(params.feeE8, 'feeE8')) }),
  }),
];
