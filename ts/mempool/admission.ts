// Admission of a signed transaction into the mempool (http-api-details.md §4.1 chain-server order;
// exchange.md §12.3): pin window, signature (sender recovered), self-send, sender account, replay,
// minimum fee, then the mempool's balance rules. Nothing changes unless every check passes.
import { addressFromPublicKey } from '../core/address.js';
import { fail } from '../core/errors.js';
import { requiredHeaderVersion, tokenFeaturesAllowed, type NetworkParams } from '../consensus/params.js';
import { equalBytes } from '../core/hex.js';
import { recoverRemembered } from '../consensus/signature.js';
import { isMempoolPinHeight } from '../core/pin.js';
import type { SignedRequest } from '../core/signed_request.js';
import { txHash } from '../core/transaction.js';
import { assetByHash } from '../state/assets.js';
import { accountIdOf, balanceOf, type KeyReader } from '../state/ledger.js';
import { hasTxId } from '../state/txids.js';
import type { Mempool } from './mempool.js';
import { reservations, type PendingTx } from './pending.js';

export type { SignedRequest } from '../core/signed_request.js';

export interface ChainTip {
  readonly length: number;
  readonly params: NetworkParams;
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

/**
 * Checks `req` against the chain and inserts it; returns the admitted transaction. `vet` sees the
 * transaction after every other check, before anything changes, and may refuse it by throwing.
 */
export async function admit(
  mempool: Mempool,
  chain: ChainTip,
  state: KeyReader,
  minFeeCode: number,
  req: SignedRequest,
  vet?: (tx: PendingTx) => Promise<void>,
): Promise<PendingTx> {
  if (!isMempoolPinHeight(chain.length, req.pinHeight))
    fail('EPINHEIGHT', `pinHeight ${req.pinHeight} is outside the window of a chain of ${chain.length} blocks`);
  const p = req.payload;
  // Until the token era (mainnet, regtest-mainnet) a block carries coin transfers only (§6.1).
  const version = requiredHeaderVersion(chain.params, chain.length + 1) ?? 1;
  if (p.type !== 'coinTransfer' && !tokenFeaturesAllowed(version)) fail('EBLOCKV4', `a block at height ${chain.length + 1} carries coin transfers only`);
  // Body-level rules a block would enforce (exchange.md §2.1, §3.2, §5.1, §5.4, §6.3, §6.4).
  if ((p.type === 'tokenTransfer' || p.type === 'limitSwap') && p.amount === 0n) fail('EZEROAMOUNT');
  if (p.type === 'liquidityWithdrawal' && p.shares === 0n) fail('EZEROAMOUNT');
  if (p.type === 'liquidityDeposit' && p.base === 0n && p.quote === 0n) fail('EZEROBASEQUOTE');
  if (p.type === 'assetCreation' && p.supply < 10n ** BigInt(p.precision))
    fail('EINV_SUPPLY', 'the supply must be at least one whole unit (10^decimals smallest units)');
  if (p.type === 'cancelation') {
    if (p.cancelHeight > req.pinHeight) fail('ECANCELFUTURE', 'cancelHeight is above the pinHeight');
    if (p.cancelHeight === req.pinHeight && p.cancelNonceId === req.nonceId) fail('ECANCELSELF');
  }
  const pinHash = chain.hashAt(req.pinHeight);
  const hash = txHash({ pinHash, pinHeight: req.pinHeight, nonceId: req.nonceId, feeE8: req.feeE8 }, p);
  const pub = recoverRemembered(hash, req.signature) ?? fail('ECORRUPTEDSIG', 'no public key recovers from the signature');
  const originAddress = addressFromPublicKey(pub);
  if ('toAddress' in p && equalBytes(p.toAddress, originAddress)) fail('ESELFSEND');
  const originId = (await accountIdOf(state, originAddress)) ?? fail('EADDRNOTFOUND', 'the signer has no account on chain');
  let assetId: bigint | undefined;
  if ('assetHash' in p) assetId = ((await assetByHash(state, p.assetHash)) ?? fail('EASSETHASHNOTFOUND')).id;
  if (await hasTxId(state, { accountId: originId, pinHeight: req.pinHeight, nonceId: req.nonceId }))
    fail('ENONCE', 'this (pinHeight, nonceId) was mined already');
  if (req.feeCode < minFeeCode) fail('EMINFEE', 'see /transaction/minfee');
  const tx: PendingTx = {
    hash,
    payload: p,
    originId,
    originAddress,
    pinHeight: req.pinHeight,
    pinHash,
    nonceId: req.nonceId,
    feeCode: req.feeCode,
    feeE8: req.feeE8,
    signature: req.signature,
    assetId,
  };
  // A pending transaction of this id with a fee at least as high is refused before any balance (ENONCE).
  mempool.refuseReplacement(tx);
  const free = await freeBalances(state, originId, [...reservations(tx).keys()]);
  // A balance no eviction can make up for is refused first, as the mempool would (tokens before the
  // coin), not by the vet's trial block, which would name another reason (a sell of a token never held).
  for (const [token, need] of [...reservations(tx)].sort(([a], [b]) => (a === 0n ? 1 : b === 0n ? -1 : a < b ? -1 : 1))) {
    const f = free.get(token) ?? 0n;
    if (need > f) fail(token === 0n ? 'EBALANCE' : 'ETOKBALANCE', `needs ${need}, free balance ${f}`);
  }
  await vet?.(tx);
  mempool.insert(tx, (token) => free.get(token) ?? 0n);
  return tx;
}
