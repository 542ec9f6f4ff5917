// The transaction message of Txrep (p2p.md §2.1 "Transaction message"): a type indicator, 21
// common bytes (TransactionId 16 ‖ 3 reserved bytes ‖ fee code u16), the type's fields, a 65-byte
// signature. The sender is not a field: the receiver recovers it from the signature.
// The 0.10.x line writes every field as the block body does (measured against the live 0.10.3
// reference; p2p.md §2.1, §8 item 10): the limit price in its 3 bytes `mantissa(2) ‖ exponent(1)`,
// a deposit's base (asset) before its quote (coin). Field checks are the reference's parse checks:
// non-zero amounts, a deposit of something, a cancelation of an earlier, other transaction.
import { Reader, Writer } from '../core/bytes.js';
import { fail } from '../core/errors.js';
import { ADDRESS_BYTES } from '../core/address.js';
import { HASH_SIZE } from '../core/header.js';
import { ASSET_NAME_BYTES, LIMIT_PRICE_BYTES, type TransactionId, type TransactionPayload, type TransactionType } from '../core/transaction.js';
import { readTxId, writeTxId } from './elements.js';

export interface WireTransaction {
  id: TransactionId;
  reserved: Uint8Array; // 3 bytes
  feeCode: number;
  payload: TransactionPayload;
  signature: Uint8Array; // 65 bytes
}

const INDICATOR: Record<TransactionType, number> = {
  coinTransfer: 1,
  tokenTransfer: 2,
  assetCreation: 3,
  limitSwap: 4,
  liquidityDeposit: 5,
  liquidityWithdrawal: 6,
  cancelation: 7,
};

/** Size of each type's message without the indicator (§2.1 table). */
export const TX_MESSAGE_SIZE: Record<TransactionType, number> = {
  coinTransfer: 114,
  tokenTransfer: 147,
  assetCreation: 100,
  limitSwap: 130,
  liquidityDeposit: 134,
  liquidityWithdrawal: 126,
  cancelation: 94,
};

function flag(r: Reader): boolean {
  const v = r.u8();
  if (v > 1) fail('EINVBUY', `flag byte ${v}`); // the reference's one code for both flags
  return v === 1;
}

function nonzero(v: bigint): bigint {
  if (v === 0n) fail('EZEROAMOUNT');
  return v;
}

function readPayload(r: Reader, type: TransactionType): TransactionPayload {
  switch (type) {
    case 'coinTransfer':
      return { type, toAddress: r.bytes(ADDRESS_BYTES), amount: nonzero(r.u64()) };
    case 'tokenTransfer':
      return { type, assetHash: r.bytes(HASH_SIZE), isLiquidity: flag(r), toAddress: r.bytes(ADDRESS_BYTES), amount: nonzero(r.u64()) };
    case 'assetCreation':
      return { type, supply: r.u64(), precision: r.u8(), name: r.bytes(ASSET_NAME_BYTES) };
    case 'limitSwap':
      return { type, assetHash: r.bytes(HASH_SIZE), isBuy: flag(r), amount: nonzero(r.u64()), limit: r.bytes(LIMIT_PRICE_BYTES) };
    case 'liquidityDeposit': {
      const assetHash = r.bytes(HASH_SIZE);
      const base = r.u64();
      const quote = r.u64();
      if (base === 0n && quote === 0n) fail('EZEROAMOUNT', 'deposit of nothing');
      return { type, assetHash, base, quote };
    }
    case 'liquidityWithdrawal':
      return { type, assetHash: r.bytes(HASH_SIZE), shares: nonzero(r.u64()) };
    case 'cancelation':
      return { type, cancelHeight: r.u32(), cancelNonceId: r.u32() };
  }
}

function writePayload(w: Writer, p: TransactionPayload): void {
  switch (p.type) {
    case 'coinTransfer':
      w.bytes(p.toAddress, ADDRESS_BYTES).u64(p.amount);
      break;
    case 'tokenTransfer':
      w.bytes(p.assetHash, HASH_SIZE)
        .u8(p.isLiquidity ? 1 : 0)
        .bytes(p.toAddress, ADDRESS_BYTES)
        .u64(p.amount);
      break;
    case 'assetCreation':
      w.u64(p.supply).u8(p.precision).bytes(p.name, ASSET_NAME_BYTES);
      break;
    case 'limitSwap':
      w.bytes(p.assetHash, HASH_SIZE)
        .u8(p.isBuy ? 1 : 0)
        .u64(p.amount)
        .bytes(p.limit, LIMIT_PRICE_BYTES);
      break;
    case 'liquidityDeposit':
      w.bytes(p.assetHash, HASH_SIZE).u64(p.base).u64(p.quote);
      break;
    case 'liquidityWithdrawal':
      w.bytes(p.assetHash, HASH_SIZE).u64(p.shares);
      break;
    case 'cancelation':
      w.u32(p.cancelHeight).u32(p.cancelNonceId);
      break;
  }
}

/** The message without its indicator byte, for a known type (LegacyTxrep carries coin transfers so). */
export function readTransactionBody(r: Reader, type: TransactionType): WireTransaction {
  const id = readTxId(r);
  const reserved = r.bytes(3);
  const feeCode = r.u16();
  const payload = readPayload(r, type);
  if (payload.type === 'cancelation') {
    if (payload.cancelHeight > id.pinHeight) fail('ECANCELFUTURE');
    if (payload.cancelHeight === id.pinHeight && payload.cancelNonceId === id.nonceId) fail('ECANCELSELF');
  }
  return { id, reserved, feeCode, payload, signature: r.bytes(65) };
}

export function writeTransactionBody(w: Writer, tx: WireTransaction): void {
  writeTxId(w, tx.id);
  w.bytes(tx.reserved, 3).u16(tx.feeCode);
  writePayload(w, tx.payload);
  w.bytes(tx.signature, 65);
}

/** Indicator byte, then the message; ETXTYPE for an unknown indicator. */
export function readTransaction(r: Reader): WireTransaction {
  const indicator = r.u8();
  const type = (Object.keys(INDICATOR) as TransactionType[]).find((t) => INDICATOR[t] === indicator);
  if (!type) fail('ETXTYPE', `transaction indicator ${indicator}`);
  return readTransactionBody(r, type!);
}

export function writeTransaction(w: Writer, tx: WireTransaction): void {
  w.u8(INDICATOR[tx.payload.type]);
  writeTransactionBody(w, tx);
}
