// Admission of a signed transaction into the mempool (http-api-details.md §4.1 chain-server order;
// exchange.md §12.3): pin window, signature (sender recovered), self-send, sender account, replay,
// minimum fee, then the mempool's balance rules. Nothing changes unless every check passes.
import { addressFromPublicKey } from '../core/address.js';
import { fail } from '../core/errors.js';
import { equalBytes } from '../core/hex.js';
import { recoverPublicKey } from '../core/keys.js';
import { isMempoolPinHeight } from '../core/pin.js';
import { txHash, type TransactionPayload } from '../core/transaction.js';
import { accountIdOf, balanceOf, type KeyReader } from '../state/ledger.js';
import { hasTxId } from '../state/txids.js';
import type { Mempool } from './mempool.js';
import { reservations, type PendingTx } from './pending.js';

export interface SignedRequest {
  payload: TransactionPayload;
  pinHeight: number;
  nonceId: number;
  feeCode: number;
  feeE8: bigint;
  signature: Uint8Array;
}

export interface ChainTip {
  readonly length: number;
  hashAt(height: number): Uint8Array;
}

/** Free (total − locked) balances of an account, read once. */
export async function freeBalances(state: KeyReader, accountId: bigint, tokens: bigint[]): Promise<Map<bigint, bigint>> {
  const out = new Map<bigint, bigint>();
  for (const t of tokens) {
    const b = await balanceOf(state, accountId, t);
    out.set(t, b.total - b.locked);
  }
  return out;
}

/** Checks `req` against the chain and inserts it; returns the admitted transaction. */
export async function admit(mempool: Mempool, chain: ChainTip, state: KeyReader, minFeeCode: number, req: SignedRequest): Promise<PendingTx> {
  if (!isMempoolPinHeight(chain.length, req.pinHeight)) fail('EPINHEIGHT', `pinHeight ${req.pinHeight} is outside the window of a chain of ${chain.length} blocks`);
  if (req.payload.type !== 'coinTransfer') fail('ETXTYPESTATE', `${req.payload.type} transactions are not supported by this node yet`);
  const pinHash = chain.hashAt(req.pinHeight);
  const hash = txHash({ pinHash, pinHeight: req.pinHeight, nonceId: req.nonceId, feeE8: req.feeE8 }, req.payload);
  const pub = recoverPublicKey(hash, req.signature) ?? fail('ECORRUPTEDSIG', 'no public key recovers from the signature');
  const originAddress = addressFromPublicKey(pub);
  if ('toAddress' in req.payload && equalBytes(req.payload.toAddress, originAddress)) fail('ESELFSEND');
  const originId = (await accountIdOf(state, originAddress)) ?? fail('EADDRNOTFOUND', 'the signer has no account on chain');
  if (await hasTxId(state, { accountId: originId, pinHeight: req.pinHeight, nonceId: req.nonceId })) fail('ENONCE', 'this (pinHeight, nonceId) was mined already');
  if (req.feeCode < minFeeCode) fail('EMINFEE', 'see /transaction/minfee');
  const tx: PendingTx = {
    hash, payload: req.payload, originId, originAddress, pinHeight: req.pinHeight, pinHash, nonceId: req.nonceId,
    feeCode: req.feeCode, feeE8: req.feeE8, signature: req.signature,
  };
  const free = await freeBalances(state, originId, [...reservations(tx).keys()]);
  mempool.insert(tx, (token) => free.get(token) ?? 0n);
  return tx;
}
