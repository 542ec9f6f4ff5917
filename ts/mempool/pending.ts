// A pending (mempool) transaction: everything needed to list it, check it again after each block,
// and put it into a block, in the API's terms (addresses, not account ids, for recipients).
import type { TransactionId, TransactionType } from '../core/transaction.js';
import { COIN_TOKEN_ID, assetTokenId, liquidityTokenId } from '../state/tokens.js';
import type { BlockCandidate } from '../mining/candidate.js';

export interface PendingTx extends BlockCandidate {
  hash: Uint8Array;
  originAddress: Uint8Array;
  /** Hash of the block at pinHeight when admitted; a reorganization that changes it invalidates the tx. */
  pinHash: Uint8Array;
}

export const txType = (tx: PendingTx): TransactionType => tx.payload.type;

export const txId = (tx: PendingTx): TransactionId => ({ accountId: tx.originId, pinHeight: tx.pinHeight, nonceId: tx.nonceId });

/** What a pending transaction reserves per token (exchange.md §12.2); the coin part includes the fee. */
export function reservations(tx: PendingTx): Map<bigint, bigint> {
  const r = new Map<bigint, bigint>([[COIN_TOKEN_ID, tx.feeE8]]);
  const addCoin = (v: bigint) => r.set(COIN_TOKEN_ID, tx.feeE8 + v);
  const p = tx.payload;
  const asset = tx.assetId ?? 0n;
  switch (p.type) {
    case 'coinTransfer':
      addCoin(p.amount);
      break;
    case 'tokenTransfer':
      r.set(p.isLiquidity ? liquidityTokenId(asset) : assetTokenId(asset), p.amount);
      break;
    case 'limitSwap':
      if (p.isBuy) addCoin(p.amount);
      else r.set(assetTokenId(asset), p.amount);
      break;
    case 'liquidityDeposit':
      addCoin(p.quote);
      if (p.base > 0n) r.set(assetTokenId(asset), p.base);
      break;
    case 'liquidityWithdrawal':
      r.set(liquidityTokenId(asset), p.shares);
      break;
    case 'cancelation':
    case 'assetCreation':
      break;
  }
  return r;
}
