// Transactions and the mempool: POST /transaction/add, /transaction/mempool,
// /account/:account/mempool, /transaction/lookup/:txid, /settings/mempool/minfee/:feeE8
// (http-api.md "Transactions and mempool"; http-api-details.md §4).
import { fail } from '../../core/errors.js';
import { fromHexExact, toHex } from '../../core/hex.js';
import { transactionByHash } from '../../state/history_query.js';
import type { PendingTx } from '../../mempool/pending.js';
import { route } from '../route.js';
import { accountParam, resolveAccount, u64Param } from '../params.js';
import { arr, hexStr, int, named, nullable, obj, oneOf, str, u64, type Infer } from '../schema.js';
import { parseTxRequest } from '../tx_request.js';
import { coinAmount } from '../views/amount.js';
import { CoinTransferTransaction, RewardTransaction, coinTransferTransaction, rewardTransaction, signedCommon } from '../views/transaction.js';
import { formatAddress } from '../../core/address.js';

/** The reference lists at most this many mempool entries (http-api-details.md §4.2). */
const MEMPOOL_LISTING_LIMIT = 2000;

const MempoolEntry = named('MempoolEntry', obj({ type: str, transaction: CoinTransferTransaction }));

function pendingView(tx: PendingTx): Infer<typeof MempoolEntry> {
  const p = tx.payload;
  if (p.type !== 'coinTransfer') throw new Error(`no view for pending ${p.type}`);
  return {
    type: p.type,
    transaction: {
      data: { toAddress: formatAddress(p.toAddress), amount: coinAmount(p.amount) },
      hash: toHex(tx.hash),
      signedCommon: signedCommon(tx),
    },
  };
}

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
    handler: ({ node }) => node.mempool.pool.all().slice(0, MEMPOOL_LISTING_LIMIT).map(pendingView),
  }),
  route({
    method: 'GET', path: '/account/:account/mempool', response: arr(MempoolEntry),
    handler: async ({ params, node }) => {
      const a = await resolveAccount(node, accountParam(params.account));
      return a.accountId === null ? [] : node.mempool.pool.ofAccount(a.accountId).slice(0, MEMPOOL_LISTING_LIMIT).map(pendingView);
    },
  }),
  route({
    method: 'GET', path: '/transaction/lookup/:txid',
    response: named('TransactionLookup', obj({
      confirmations: int, mined: nullable(Mined), type: str, transaction: oneOf(RewardTransaction, CoinTransferTransaction),
    })),
    handler: async ({ params, node }) => {
      const hash = fromHexExact(params.txid, 32) ?? fail('EINV_HEX', 'a transaction hash is 64 hex chars');
      const pending = node.mempool.pool.byTxHash(hash);
      if (pending) {
        const v = pendingView(pending);
        return { confirmations: 0, mined: null, type: v.type, transaction: v.transaction };
      }
      const tx = await transactionByHash(node.db, hash);
      if (!tx || tx.height > node.chain.length) fail('ENOTFOUND', 'no pending or mined transaction has this hash');
      const c = node.chain;
      return {
        confirmations: c.length - tx!.height + 1,
        mined: { historyId: tx!.id, block: { height: tx!.height, hash: toHex(c.hashAt(tx!.height)), timestamp: c.timestampAt(tx!.height) } },
        type: tx!.kind,
        transaction: tx!.kind === 'reward' ? rewardTransaction(tx!) : coinTransferTransaction(tx!),
      };
    },
  }),
  route({
    method: 'GET', path: '/settings/mempool/minfee/:feeE8', response: named('MinFeeDeleted', obj({ deleted: int })),
    handler: ({ params, node }) => ({ deleted: node.mempool.setMinFee(u64Param(params.feeE8, 'feeE8')) }),
  }),
];
