// A signed transaction request: what POST /transaction/add carries (http-api.md "Adding a
// transaction"), parsed by the node and built by clients (the wallet, tests) with the same
// signing bytes (consensus.md §7.2).
import { fee16Decode } from '../kernel/fee16.js';
import { formatAddress } from './address.js';
import { toHex } from './hex.js';
import { signDigest } from './keys.js';
import { assetNameOf, txHash, type TransactionPayload } from './transaction.js';

export interface SignedRequest {
  payload: TransactionPayload;
  pinHeight: number;
  nonceId: number;
  feeCode: number;
  feeE8: bigint;
  signature: Uint8Array;
}

export interface SignOptions {
  pinHeight: number;
  pinHash: Uint8Array;
  nonceId: number;
  feeCode: number;
}

/** Signs any of the seven transaction types with the private key `sk`. */
export function signRequest(sk: Uint8Array, payload: TransactionPayload, o: SignOptions): SignedRequest {
  const feeE8 = fee16Decode(o.feeCode);
  const hash = txHash({ pinHash: o.pinHash, pinHeight: o.pinHeight, nonceId: o.nonceId, feeE8 }, payload);
  return { payload, pinHeight: o.pinHeight, nonceId: o.nonceId, feeCode: o.feeCode, feeE8, signature: signDigest(hash, sk) };
}

/** The JSON body of POST /transaction/add for a signed request (member names of http-api.md). */
export function requestJson(r: SignedRequest): Record<string, unknown> {
  const p = r.payload;
  const common = { type: p.type, pinHeight: r.pinHeight, nonceId: r.nonceId, feeE8: r.feeE8, signature65: toHex(r.signature) };
  switch (p.type) {
    case 'coinTransfer':
      return { ...common, toAddr: formatAddress(p.toAddress), coinE8: p.amount };
    case 'tokenTransfer':
      return { ...common, assetHash: toHex(p.assetHash), isLiquidity: p.isLiquidity, toAddr: formatAddress(p.toAddress), amountU64: p.amount };
    case 'limitSwap':
      return { ...common, assetHash: toHex(p.assetHash), isBuy: p.isBuy, amountU64: p.amount, limit: toHex(p.limit) };
    case 'liquidityDeposit':
      return { ...common, assetHash: toHex(p.assetHash), amountU64: p.base, coinE8: p.quote };
    case 'liquidityWithdrawal':
      return { ...common, assetHash: toHex(p.assetHash), amountE8: p.shares };
    case 'cancelation':
      return { ...common, cancelHeight: p.cancelHeight, cancelNonceId: p.cancelNonceId };
    case 'assetCreation':
      return { ...common, name: assetNameOf(p.name), precision: p.precision, supplyU64: p.supply };
  }
}
