// Transaction objects (http-api.md "Transaction"; http-api-details.md §10; exchange.md §5.3, §5.4,
// §6.4, §8.7): `{data, hash, processed?, signedCommon?}`. Implicit transactions (reward, match)
// carry no signedCommon. Mined entries of the types with `processed` always have it (values filled
// in at query time, exchange.md §10.2); pending (mempool) transactions have none, and a lookup of
// a pending transaction shows it as null. Amounts: a buy order's amount is coin (8 decimals, P4),
// liquidity tokens have 8 decimals.
import { formatAddress } from '../../core/address.js';
import { fail } from '../../core/errors.js';
import { COIN_DECIMALS } from '../../core/amount.js';
import { toHex } from '../../core/hex.js';
import { assetNameOf, feeE8OfCode, type TransactionPayload } from '../../core/transaction.js';
import { limitView } from '../../kernel/price.js';
import type { PendingTx } from '../../mempool/pending.js';
import { assetByHash, type Asset } from '../../state/assets.js';
import type { MatchSwap } from '../../state/history.js';
import type {
  MinedAssetCreation,
  MinedCancelation,
  MinedCoinTransfer,
  MinedLimitSwap,
  MinedLiquidityDeposit,
  MinedLiquidityWithdrawal,
  MinedMatch,
  MinedReward,
  MinedTokenTransfer,
  MinedTransaction,
} from '../../state/history_query.js';
import type { KeyReader } from '../../state/ledger.js';
import { LIQUIDITY_DECIMALS } from '../../state/tokens.js';
import { tokenSpecString } from '../token_spec.js';
import { arr, bool, hexStr, int, named, nullable, obj, oneOf, str, u64, type Infer, type Shape } from '../schema.js';
import { BaseQuote, CoinAmount, TokenAmount, baseQuote, coinAmount, tokenAmount } from './amount.js';
import { AssetRef, assetRef } from './asset.js';
import { Price } from './price.js';

const Hash = hexStr(64);
const Address = hexStr(48);

/** Present on every signed transaction; `originAddress` is the 48-char form (details §14.13). */
export const SignedCommon = named(
  'SignedCommon',
  obj({
    originId: u64,
    originAddress: Address,
    fee: CoinAmount,
    nonceId: int,
    pinHeight: int,
  }),
);

export interface SignedFacts {
  originId: bigint;
  originAddress: Uint8Array;
  feeCode: number;
  nonceId: number;
  pinHeight: number;
}

export function signedCommon(s: SignedFacts): Infer<typeof SignedCommon> {
  return {
    originId: s.originId,
    originAddress: formatAddress(s.originAddress),
    fee: coinAmount(feeE8OfCode(s.feeCode)),
    nonceId: s.nonceId,
    pinHeight: s.pinHeight,
  };
}

// ---------------------------------------------------------------------------------------------
// `data` and `processed` of each type

const Swap = named('Swap', obj({ swapped: BaseQuote, historyId: u64 }));

const CoinsToData = obj({ toAddress: Address, amount: CoinAmount });
const TokenTransferData = obj({ toAddress: Address, amount: TokenAmount, asset: AssetRef, isLiquidity: bool, tokenSpec: str });
const LimitSwapData = obj({ baseAsset: AssetRef, amount: TokenAmount, limit: Price, buy: bool });
const LimitSwapProcessed = obj({ remaining: TokenAmount });
const MatchData = obj({ baseAsset: AssetRef, poolBefore: BaseQuote, poolAfter: BaseQuote, buySwaps: arr(Swap), sellSwaps: arr(Swap) });
const LiquidityDepositData = obj({ baseAsset: AssetRef, deposited: BaseQuote });
const LiquidityDepositProcessed = obj({ sharesReceived: TokenAmount });
const LiquidityWithdrawalData = obj({ baseAsset: AssetRef, sharesRedeemed: TokenAmount });
const LiquidityWithdrawalProcessed = obj({ received: BaseQuote });
const CancelationData = obj({ cancelTxid: obj({ accountId: u64, nonceId: int, pinHeight: int }) });
const CancelationProcessed = obj({ canceledTxHash: nullable(Hash) });
const AssetCreationData = obj({ name: str, supply: TokenAmount });
const AssetCreationProcessed = obj({ assetId: u64 });

/** An order's spend-token amount: coin when buying, the asset when selling (§5.3, P4). */
const orderAmount = (v: bigint, buy: boolean, a: Asset) => tokenAmount(v, buy ? COIN_DECIMALS : a.decimals);

function tokenTransferData(to: Uint8Array, amount: bigint, a: Asset, isLiquidity: boolean): Infer<typeof TokenTransferData> {
  return {
    toAddress: formatAddress(to),
    amount: tokenAmount(amount, isLiquidity ? LIQUIDITY_DECIMALS : a.decimals),
    asset: assetRef(a),
    isLiquidity,
    tokenSpec: tokenSpecString(a.hash, isLiquidity),
  };
}

function limitSwapData(a: Asset, buy: boolean, amount: bigint, limit: Uint8Array): Infer<typeof LimitSwapData> {
  return { baseAsset: assetRef(a), amount: orderAmount(amount, buy, a), limit: limitView(limit, a.decimals), buy };
}

const liquidityDepositData = (a: Asset, base: bigint, quote: bigint): Infer<typeof LiquidityDepositData> => ({
  baseAsset: assetRef(a),
  deposited: baseQuote(base, quote, a.decimals),
});

const liquidityWithdrawalData = (a: Asset, shares: bigint): Infer<typeof LiquidityWithdrawalData> => ({
  baseAsset: assetRef(a),
  sharesRedeemed: tokenAmount(shares, LIQUIDITY_DECIMALS),
});

const cancelationData = (accountId: bigint, cancelHeight: number, cancelNonceId: number): Infer<typeof CancelationData> => ({
  cancelTxid: { accountId, nonceId: cancelNonceId, pinHeight: cancelHeight },
});

const assetCreationData = (name: string, supply: bigint, decimals: number): Infer<typeof AssetCreationData> => ({
  name,
  supply: tokenAmount(supply, decimals),
});

// ---------------------------------------------------------------------------------------------
// Whole transactions

/** A signed type's mined form (`processed` never null), lookup form (null while pending) and pending form (none). */
function signedForms<D, P>(name: string, data: Shape<D>, processed: Shape<P>) {
  return {
    mined: named(`${name}Transaction`, obj({ data, hash: Hash, processed, signedCommon: SignedCommon })),
    lookup: obj({ data, hash: Hash, processed: nullable(processed), signedCommon: SignedCommon }),
    pending: named(`Pending${name}Transaction`, obj({ data, hash: Hash, signedCommon: SignedCommon })),
  };
}

export const RewardTransaction = named('RewardTransaction', obj({ data: CoinsToData, hash: Hash }));
export const CoinTransferTransaction = named('CoinTransferTransaction', obj({ data: CoinsToData, hash: Hash, signedCommon: SignedCommon }));
export const TokenTransferTransaction = named('TokenTransferTransaction', obj({ data: TokenTransferData, hash: Hash, signedCommon: SignedCommon }));
export const MatchTransaction = named('MatchTransaction', obj({ data: MatchData, hash: Hash }));
const LimitSwap = signedForms('LimitSwap', LimitSwapData, LimitSwapProcessed);
const LiquidityDeposit = signedForms('LiquidityDeposit', LiquidityDepositData, LiquidityDepositProcessed);
const LiquidityWithdrawal = signedForms('LiquidityWithdrawal', LiquidityWithdrawalData, LiquidityWithdrawalProcessed);
const Cancelation = signedForms('Cancelation', CancelationData, CancelationProcessed);
const AssetCreation = signedForms('AssetCreation', AssetCreationData, AssetCreationProcessed);
export const LimitSwapTransaction = LimitSwap.mined;
export const LiquidityDepositTransaction = LiquidityDeposit.mined;
export const LiquidityWithdrawalTransaction = LiquidityWithdrawal.mined;
export const CancelationTransaction = Cancelation.mined;
export const AssetCreationTransaction = AssetCreation.mined;

/** A pending transaction of any type (`/transaction/mempool`). */
export const PendingTransaction = oneOf(
  CoinTransferTransaction,
  TokenTransferTransaction,
  LimitSwap.pending,
  LiquidityDeposit.pending,
  LiquidityWithdrawal.pending,
  Cancelation.pending,
  AssetCreation.pending,
);

/** A transaction of any type, mined or pending (`/transaction/lookup/:txid`). */
export const AnyTransaction = oneOf(
  RewardTransaction,
  CoinTransferTransaction,
  TokenTransferTransaction,
  LimitSwap.lookup,
  MatchTransaction,
  LiquidityDeposit.lookup,
  LiquidityWithdrawal.lookup,
  Cancelation.lookup,
  AssetCreation.lookup,
);

function minedSigned(t: Exclude<MinedTransaction, MinedReward | MinedMatch>) {
  return signedCommon({
    originId: t.entry.originId,
    originAddress: t.originAddress,
    feeCode: t.entry.feeCode,
    nonceId: t.entry.pinNonce.nonceId,
    pinHeight: t.pinHeight,
  });
}

export function rewardTransaction(t: MinedReward): Infer<typeof RewardTransaction> {
  return { data: { toAddress: formatAddress(t.toAddress), amount: coinAmount(t.amount) }, hash: toHex(t.hash) };
}

export function coinTransferTransaction(t: MinedCoinTransfer): Infer<typeof CoinTransferTransaction> {
  return { data: { toAddress: formatAddress(t.toAddress), amount: coinAmount(t.entry.amount) }, hash: toHex(t.hash), signedCommon: minedSigned(t) };
}

export function tokenTransferTransaction(t: MinedTokenTransfer): Infer<typeof TokenTransferTransaction> {
  return { data: tokenTransferData(t.toAddress, t.entry.amount, t.asset, t.isLiquidity), hash: toHex(t.hash), signedCommon: minedSigned(t) };
}

export function limitSwapTransaction(t: MinedLimitSwap): Infer<typeof LimitSwapTransaction> {
  const e = t.entry;
  return {
    data: limitSwapData(t.asset, e.buy, e.amount, e.limit),
    hash: toHex(t.hash),
    processed: { remaining: orderAmount(t.remaining, e.buy, t.asset) },
    signedCommon: minedSigned(t),
  };
}

export function matchTransaction(t: MinedMatch): Infer<typeof MatchTransaction> {
  const { record: m, asset: a } = t;
  const swaps = (list: MatchSwap[]) => list.map((s) => ({ swapped: baseQuote(s.base, s.quote, a.decimals), historyId: s.historyId }));
  return {
    data: {
      baseAsset: assetRef(a),
      poolBefore: baseQuote(m.poolBefore.base, m.poolBefore.quote, a.decimals),
      poolAfter: baseQuote(m.poolAfter.base, m.poolAfter.quote, a.decimals),
      buySwaps: swaps(m.buySwaps),
      sellSwaps: swaps(m.sellSwaps),
    },
    hash: toHex(t.hash),
  };
}

export function liquidityDepositTransaction(t: MinedLiquidityDeposit): Infer<typeof LiquidityDepositTransaction> {
  return {
    data: liquidityDepositData(t.asset, t.entry.base, t.entry.quote),
    hash: toHex(t.hash),
    processed: { sharesReceived: tokenAmount(t.sharesReceived, LIQUIDITY_DECIMALS) },
    signedCommon: minedSigned(t),
  };
}

export function liquidityWithdrawalTransaction(t: MinedLiquidityWithdrawal): Infer<typeof LiquidityWithdrawalTransaction> {
  return {
    data: liquidityWithdrawalData(t.asset, t.entry.shares),
    hash: toHex(t.hash),
    processed: { received: baseQuote(t.received.base, t.received.quote, t.asset.decimals) },
    signedCommon: minedSigned(t),
  };
}

export function cancelationTransaction(t: MinedCancelation): Infer<typeof CancelationTransaction> {
  const e = t.entry;
  return {
    data: cancelationData(e.originId, e.cancelHeight, e.cancelNonceId),
    hash: toHex(t.hash),
    processed: { canceledTxHash: t.canceledTxHash && toHex(t.canceledTxHash) },
    signedCommon: minedSigned(t),
  };
}

export function assetCreationTransaction(t: MinedAssetCreation): Infer<typeof AssetCreationTransaction> {
  return {
    data: assetCreationData(t.name, t.entry.supply, t.entry.precision),
    hash: toHex(t.hash),
    processed: { assetId: t.assetId },
    signedCommon: minedSigned(t),
  };
}

/** `{type, transaction}` of a mined entry; `type` is its history kind (http-api.md "Transaction"). */
export function minedTransactionView(t: MinedTransaction): { type: MinedTransaction['kind']; transaction: Infer<typeof AnyTransaction> } {
  const v = (transaction: Infer<typeof AnyTransaction>) => ({ type: t.kind, transaction });
  switch (t.kind) {
    case 'reward':
      return v(rewardTransaction(t));
    case 'coinTransfer':
      return v(coinTransferTransaction(t));
    case 'tokenTransfer':
      return v(tokenTransferTransaction(t));
    case 'limitSwap':
      return v(limitSwapTransaction(t));
    case 'match':
      return v(matchTransaction(t));
    case 'liquidityDeposit':
      return v(liquidityDepositTransaction(t));
    case 'liquidityWithdrawal':
      return v(liquidityWithdrawalTransaction(t));
    case 'cancelation':
      return v(cancelationTransaction(t));
    case 'assetCreation':
      return v(assetCreationTransaction(t));
  }
}

// ---------------------------------------------------------------------------------------------
// Pending transactions

export const MempoolEntry = named('MempoolEntry', obj({ type: str, transaction: PendingTransaction }));
type PendingView = Infer<typeof MempoolEntry>;

/** The asset a payload names by hash (null for the coin-only types). */
const assetHashOf = (p: TransactionPayload): Uint8Array | null => ('assetHash' in p ? p.assetHash : null);

/**
 * `{type, transaction: {data, hash, signedCommon}}` of a pending transaction; `asset` is the
 * record of the asset its payload names (ignored for the types that name none).
 */
export function pendingTransactionView(tx: PendingTx, asset: Asset | null): PendingView {
  const p = tx.payload;
  // The asset may have left the chain with a rolled-back creation.
  const need = (): Asset => asset ?? fail('ENOTFOUND', `the asset of pending ${p.type} ${toHex(tx.hash)} is not on chain`);
  const common = { hash: toHex(tx.hash), signedCommon: signedCommon(tx) };
  // Each branch pairs its type's data with the common fields: one member of the union.
  const v = (data: PendingView['transaction']['data']): PendingView => ({ type: p.type, transaction: { data, ...common } as PendingView['transaction'] });
  switch (p.type) {
    case 'coinTransfer':
      return v({ toAddress: formatAddress(p.toAddress), amount: coinAmount(p.amount) });
    case 'tokenTransfer':
      return v(tokenTransferData(p.toAddress, p.amount, need(), p.isLiquidity));
    case 'limitSwap':
      return v(limitSwapData(need(), p.isBuy, p.amount, p.limit));
    case 'liquidityDeposit':
      return v(liquidityDepositData(need(), p.base, p.quote));
    case 'liquidityWithdrawal':
      return v(liquidityWithdrawalData(need(), p.shares));
    case 'cancelation':
      return v(cancelationData(tx.originId, p.cancelHeight, p.cancelNonceId));
    case 'assetCreation':
      return v(assetCreationData(assetNameOf(p.name) ?? '', p.supply, p.precision));
  }
}

/** Types whose mined form has `processed` (http-api.md "Transaction"). */
const HAS_PROCESSED = new Set(['limitSwap', 'liquidityDeposit', 'liquidityWithdrawal', 'cancelation', 'assetCreation']);

/** A pending transaction as `/transaction/lookup` shows it: `processed` null where the type has one. */
export function pendingLookupView(tx: PendingTx, asset: Asset | null): { type: string; transaction: Infer<typeof AnyTransaction> } {
  const { type, transaction: t } = pendingTransactionView(tx, asset);
  const transaction = HAS_PROCESSED.has(type) ? { data: t.data, hash: t.hash, processed: null, signedCommon: t.signedCommon } : t;
  return { type, transaction: transaction as Infer<typeof AnyTransaction> };
}

/** The asset of each pending transaction, read once per hash; null when it names none or it no longer exists. */
export async function pendingAssets(s: KeyReader, txs: PendingTx[]): Promise<(Asset | null)[]> {
  const known = new Map<string, Asset | null>();
  const out: (Asset | null)[] = [];
  for (const tx of txs) {
    const h = assetHashOf(tx.payload);
    if (!h) {
      out.push(null);
      continue;
    }
    const k = toHex(h);
    if (!known.has(k)) known.set(k, await assetByHash(s, h));
    out.push(known.get(k)!);
  }
  return out;
}

/** Mempool listing entries of `txs`, in order; a transaction whose asset left the chain (a rolled-back creation) is left out. */
export async function mempoolEntries(s: KeyReader, txs: PendingTx[]): Promise<PendingView[]> {
  const assets = await pendingAssets(s, txs);
  return txs.flatMap((tx, i) => (assetHashOf(tx.payload) && !assets[i] ? [] : [pendingTransactionView(tx, assets[i])]));
}
