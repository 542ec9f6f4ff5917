// Transactions and the mempool: POST /transaction/add, /transaction/mempool,
// /account/:account/mempool, /transaction/lookup/:txid, /settings/mempool/minfee/:feeE8
// (http-api.md "Transactions and mempool"; http-api-details.md §4).
import { fail } from '../../core/errors.js';
import { fromHexExact, toHex } from '../../core/hex.js';
import { transactionByHash } from '../../state/history_query.js';
import { dbReader } from '../../state/ledger.js';
import { route } from '../route.js';
import { accountParam, resolveAccount, u64Param } from '../params.js';
import { arr, hexStr, int, named, nullable, obj, str, u64 } from '../schema.js';
import { parseTxRequest } from '../tx_request.js';
import { AnyTransaction, MempoolEntry, mempoolEntries, minedTransactionView, pendingAssets, pendingLookupView } from '../views/transaction.js';

/** The reference lists at most this many mempool entries (http-api-details.md §4.2). */
const MEMPOOL_LISTING_LIMIT = 2000;

const Mined = named('Mined', obj({ historyId: u64, block: obj({ height: int, hash: hexStr(64), timestamp: int }) }));

export const transactionRoutes = [
  route({
    method: 'POST', path: '/transaction/add', response: named('TxHash', obj({ txHash: hexStr(64) })),
    handler: async ({ body, node }) => {
      const tx = await node.mempool.add(parseTxRequest(body));
      return { txHash: toHex(tx.hash) };
    },
  }),
  route({
    method: 'GET', path: '/transaction/mempool', response: arr(MempoolEntry),
    handler: ({ node }) => mempoolEntries(dbReader(node.db), node.mempool.pool.all().slice(0, MEMPOOL_LISTING_LIMIT)),
  }),
  route({
    method: 'GET', path: '/account/:account/mempool', response: arr(MempoolEntry),
    handler: async ({ params, node }) => {
      const a = await resolveAccount(node, accountParam(params.account));
      return a.accountId === null ? [] : mempoolEntries(dbReader(node.db), node.mempool.pool.ofAccount(a.accountId).slice(0, MEMPOOL_LISTING_LIMIT));
    },
  }),
  route({
    method: 'GET', path: '/transaction/lookup/:txid',
    response: named('TransactionLookup', obj({
      confirmations: int, mined: nullable(Mined), type: str, transaction: AnyTransaction,
    })),
    handler: async ({ params, node }) => {
      const hash = fromHexExact(params.txid, 32) ?? fail('EINV_HEX', 'a transaction hash is 64 hex chars');
      const pending = node.mempool.pool.byTxHash(hash);
      if (pending) {
        const [asset] = await pendingAssets(dbReader(node.db), [pending]);
        return { confirmations: 0, mined: null, ...pendingLookupView(pending, asset) };
      }
      const tx = await transactionByHash(node.db, hash);
      if (!tx || tx.height > node.chain.length) fail('ENOTFOUND', 'no pending or mined transaction has this hash');
      const c = node.chain;
      return {
        confirmations: c.length - tx!.height + 1,
        mined: { historyId: tx!.id, block: { height: tx!.height, hash: toHex(c.hashAt(tx!.height)), timestamp: c.timestampAt(tx!.height) } },
        ...minedTransactionView(tx!),
      };
    },
  }),
  route({
    method: 'GET', path: '/settings/mempool/minfee/:feeE8', response: named('MinFeeDeleted', obj({ deleted: int })),
    handler: ({ params, node }) => ({ deleted: node.mempool.setMinFee(u64Param(params.feeE8, 'feeE8')) }),
  }),
];
