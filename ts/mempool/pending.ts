// A pending (mempool) transaction: everything needed to list it, check it again after each block,
// and put it into a block, in the API's terms (addresses, not account ids, for recipients).
import type { TransactionId, TransactionPayload, TransactionType } from '../core/transaction.js';
import { COIN_TOKEN_ID } from '../state/ledger.js';

export interface PendingTx {
  hash: Uint8Array;
  payload: TransactionPayload;
  originId: bigint;
  originAddress: Uint8Array;
  pinHeight: number;
  /** Hash of the block at pinHeight when admitted; a reorganization that changes it invalidates the tx. */
  pinHash: Uint8Array;
  nonceId: number;
  feeCode: number;
  feeE8: bigint;
  signature: Uint8Array;
}

export const txType = (tx: PendingTx): TransactionType => tx.payload.type;

export const txId = (tx: PendingTx): TransactionId => ({ accountId: tx.originId, pinHeight: tx.pinHeight, nonceId: tx.nonceId });

/** What a pending transaction reserves per token (exchange.md §12.2); the coin part includes the fee. */
export function reservations(tx: PendingTx): Map<bigint, bigint> {
  const r = new Map<bigint, bigint>([[COIN_TOKEN_ID, tx.feeE8]]);
  const p = tx.payload;
  switch (p.type) {
    case 'coinTransfer':
      r.set(COIN_TOKEN_ID, tx.feeE8 + p.amount);
      break;
    default:
      // The token-era types reserve asset and liquidity tokens; they are admitted with the exchange ledger.
      break;
  }
  return r;
}
