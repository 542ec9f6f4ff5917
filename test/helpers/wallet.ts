// A test wallet: a key, its address, and signed coin transfers, both in the mempool's form (for
// block templates) and as body entries (for blocks built by hand).
import { addressOfPrivateKey, signDigest } from '../../ts/core/keys.js';
import { formatAddress } from '../../ts/core/address.js';
import { fee16Decode } from '../../ts/kernel/fee16.js';
import { relativePinFor } from '../../ts/core/pin.js';
import { assetNameOf, txHash, type TransactionPayload } from '../../ts/core/transaction.js';
import { toHex } from '../../ts/core/hex.js';
import type { SignedRequest } from '../../ts/mempool/admission.js';
import type { CoinTransferEntry } from '../../ts/core/entry.js';
import type { PendingTx } from '../../ts/mempool/pending.js';

export interface TransferFields {
  pinHeight: number; pinHash: Uint8Array; nonceId: number; feeCode: number;
  originId: bigint; toAddress: Uint8Array; amount: bigint;
}

/** Signs a coin transfer (consensus.md §7.2) with `sk`, as the mempool holds it. */
export function signCoinTransfer(sk: Uint8Array, o: TransferFields): PendingTx {
  const feeE8 = fee16Decode(o.feeCode);
  const payload = { type: 'coinTransfer' as const, toAddress: o.toAddress, amount: o.amount };
  const hash = txHash({ pinHash: o.pinHash, pinHeight: o.pinHeight, nonceId: o.nonceId, feeE8 }, payload);
  return {
    hash, payload, originId: o.originId, originAddress: addressOfPrivateKey(sk), pinHeight: o.pinHeight, pinHash: o.pinHash,
    nonceId: o.nonceId, feeCode: o.feeCode, feeE8, signature: signDigest(hash, sk),
  };
}

/** The body entry of a signed transfer in block `height`, to account `toId`. */
export function asBlockEntry(t: PendingTx, height: number, toId: bigint): CoinTransferEntry {
  if (t.payload.type !== 'coinTransfer') throw new Error('not a coin transfer');
  const k = relativePinFor(height, t.pinHeight);
  if (k === null) throw new Error(`pin ${t.pinHeight} not usable at height ${height}`);
  return {
    kind: 'coinTransfer', originId: t.originId, pinNonce: { nonceId: t.nonceId, relativePin: k, reserved: new Uint8Array(3) },
    feeCode: t.feeCode, signature: t.signature, toId, amount: t.payload.amount,
  };
}

export class TestWallet {
  readonly address: Uint8Array;
  constructor(readonly sk: Uint8Array) { this.address = addressOfPrivateKey(sk); }

  static fromSeed(seed: number): TestWallet {
    const sk = new Uint8Array(32);
    new DataView(sk.buffer).setUint32(28, seed + 1);
    sk[0] = 0x42;
    return new TestWallet(sk);
  }

  get addressText(): string { return formatAddress(this.address); }

  transfer(o: TransferFields): PendingTx {
    return signCoinTransfer(this.sk, o);
  }

  coinTransferEntry(o: TransferFields & { height: number; toId: bigint }): CoinTransferEntry {
    return asBlockEntry(this.transfer(o), o.height, o.toId);
  }
}

export interface SignOptions { pinHeight: number; pinHash: Uint8Array; nonceId: number; feeCode: number }

/** Any of the seven transaction types, signed: what POST /transaction/add carries (parsed). */
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
    case 'coinTransfer': return { ...common, toAddr: formatAddress(p.toAddress), coinE8: p.amount };
    case 'tokenTransfer': return { ...common, assetHash: toHex(p.assetHash), isLiquidity: p.isLiquidity, toAddr: formatAddress(p.toAddress), amountU64: p.amount };
    case 'limitSwap': return { ...common, assetHash: toHex(p.assetHash), isBuy: p.isBuy, amountU64: p.amount, limit: toHex(p.limit) };
    case 'liquidityDeposit': return { ...common, assetHash: toHex(p.assetHash), amountU64: p.base, coinE8: p.quote };
    case 'liquidityWithdrawal': return { ...common, assetHash: toHex(p.assetHash), amountE8: p.shares };
    case 'cancelation': return { ...common, cancelHeight: p.cancelHeight, cancelNonceId: p.cancelNonceId };
    case 'assetCreation': return { ...common, name: assetNameOf(p.name), precision: p.precision, supplyU64: p.supply };
  }
}
