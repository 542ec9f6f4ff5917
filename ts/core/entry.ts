// Signed body entries (consensus.md §6.5): originAccountId u64 ‖ PinNonce (8) ‖ compact fee u16 ‖
// type-specific fields ‖ signature (65). Orders use L's 3-byte price (95 bytes, §6.4/§7.5).
import { fail } from './errors.js';
import { Reader, Writer } from './bytes.js';
import { Annotator } from './annotation.js';
import { isCanonicalSignature } from './keys.js';
import { isPinHeight, pinHeightOf, readPinNonce, writePinNonce, type PinNonce } from './pin.js';
import {
  ASSET_NAME_BYTES,
  LIMIT_PRICE_BYTES,
  assetNameOf,
  feeE8OfCode,
  txHash,
  type SigningCommon,
  type TransactionId,
  type TransactionPayload,
} from './transaction.js';

export const SIGNATURE_SIZE = 65;
export const MAX_PRECISION = 18;

export interface SignedHead {
  originId: bigint; // u64 account id
  pinNonce: PinNonce;
  feeCode: number; // u16 compact fee (§7.4)
  signature: Uint8Array; // r ‖ s ‖ recid
}

export interface CoinTransferEntry extends SignedHead {
  kind: 'coinTransfer';
  toId: bigint;
  amount: bigint;
}
export interface AssetTransferEntry extends SignedHead {
  kind: 'assetTransfer';
  toId: bigint;
  amount: bigint;
}
export interface ShareTransferEntry extends SignedHead {
  kind: 'shareTransfer';
  toId: bigint;
  amount: bigint;
}
export interface LimitSwapEntry extends SignedHead {
  kind: 'limitSwap';
  buy: boolean;
  amount: bigint;
  limit: Uint8Array;
}
/** Body order (0.10.x, measured against the live reference): base (asset units) first, then quote (coin E8). */
export interface LiquidityDepositEntry extends SignedHead {
  kind: 'liquidityDeposit';
  base: bigint;
  quote: bigint;
}
export interface LiquidityWithdrawalEntry extends SignedHead {
  kind: 'liquidityWithdrawal';
  shares: bigint;
}
export interface CancelationEntry extends SignedHead {
  kind: 'cancelation';
  cancelHeight: number;
  cancelNonceId: number;
}
export interface AssetCreationEntry extends SignedHead {
  kind: 'assetCreation';
  supply: bigint;
  precision: number;
  name: Uint8Array;
}

export type SignedEntry =
  | CoinTransferEntry
  | AssetTransferEntry
  | ShareTransferEntry
  | LimitSwapEntry
  | LiquidityDepositEntry
  | LiquidityWithdrawalEntry
  | CancelationEntry
  | AssetCreationEntry;

export type EntryKind = SignedEntry['kind'];
export type EntryOf<K extends EntryKind> = Extract<SignedEntry, { kind: K }>;

const HEAD_SIZE = 18;

/** Serialized sizes (§6.5; the order size is L's). */
export const ENTRY_SIZE: Record<EntryKind, number> = {
  coinTransfer: HEAD_SIZE + 16 + SIGNATURE_SIZE, // 99
  assetTransfer: HEAD_SIZE + 16 + SIGNATURE_SIZE, // 99
  shareTransfer: HEAD_SIZE + 16 + SIGNATURE_SIZE, // 99
  limitSwap: HEAD_SIZE + 1 + 8 + LIMIT_PRICE_BYTES + SIGNATURE_SIZE, // 95
  liquidityDeposit: HEAD_SIZE + 16 + SIGNATURE_SIZE, // 99
  liquidityWithdrawal: HEAD_SIZE + 8 + SIGNATURE_SIZE, // 91
  cancelation: HEAD_SIZE + 8 + SIGNATURE_SIZE, // 91
  assetCreation: HEAD_SIZE + 9 + ASSET_NAME_BYTES + SIGNATURE_SIZE, // 97
};

// ---------------------------------------------------------------------------------------------
// Reading (with the field checks §9.2 item 9 makes at parse) and writing.

/**
 * The bytes each entry read from a body was read from (a view of the body): entryBytes gives them
 * instead of writing the entry again (its merkle leaf, its history record). Held only while the
 * entry is.
 */
const readFrom = new WeakMap<SignedEntry, Uint8Array>();

export function readEntry<K extends EntryKind>(kind: K, r: Reader, a: Annotator): EntryOf<K> {
  return a.mark(kind, () => {
    const start = r.offset;
    const originId = a.mark('originAccountId', () => r.u64());
    const pinNonce = a.mark('pinNonce', () => readPinNonce(r));
    const feeCode = a.mark('compactFee', () => r.u16());
    const fields = readFields(kind, r, a);
    const signature = a.mark('signature', () => r.view(SIGNATURE_SIZE));
    if (!isCanonicalSignature(signature)) fail('ECORRUPTEDSIG', 'signature not parseable or high s');
    const e = { kind, originId, pinNonce, feeCode, ...fields, signature } as EntryOf<K>;
    readFrom.set(e, r.viewFrom(start));
    return e;
  });
}

function readFields(kind: EntryKind, r: Reader, a: Annotator): Record<string, unknown> {
  const u64 = (tag: string) => a.mark(tag, () => r.u64());
  switch (kind) {
    case 'coinTransfer':
      return { toId: u64('toAccountId'), amount: u64('coin') };
    case 'assetTransfer':
    case 'shareTransfer':
      return { toId: u64('toAccountId'), amount: u64('amount') };
    case 'limitSwap': {
      const flag = a.mark('buy', () => r.u8());
      if (flag > 1) fail('EINVBUY', `buy flag ${flag}`);
      const amount = u64('amount');
      // Any 3 bytes: the reference reads the limit without a check (price.cpp:4; dex/limit.ts).
      const limit = a.mark('limitPrice', () => r.bytes(LIMIT_PRICE_BYTES));
      return { buy: flag === 1, amount, limit };
    }
    case 'liquidityDeposit':
      return { base: u64('base'), quote: u64('quote') };
    case 'liquidityWithdrawal':
      return { shares: u64('shares') };
    case 'cancelation': {
      const cancelHeight = a.mark('cancelHeight', () => r.u32());
      if (!isPinHeight(cancelHeight)) fail('ENOPINHEIGHT', `cancel height ${cancelHeight}`);
      return { cancelHeight, cancelNonceId: a.mark('cancelNonceId', () => r.u32()) };
    }
    case 'assetCreation': {
      const supply = u64('supply');
      const precision = a.mark('precision', () => r.u8());
      if (precision > MAX_PRECISION) fail('EBADASSETDECIMALS', `precision ${precision}`);
      // The supply is at least one whole unit (funds.cpp:98–106, AssetSupply).
      if (supply < 10n ** BigInt(precision)) fail('EINV_SUPPLY', `supply ${supply} is less than one unit at precision ${precision}`);
      const name = a.mark('name', () => r.bytes(ASSET_NAME_BYTES));
      if (assetNameOf(name) === null) fail('EASSETNAME');
      return { supply, precision, name };
    }
  }
}

export function writeEntry(w: Writer, e: SignedEntry): void {
  w.u64(e.originId);
  writePinNonce(w, e.pinNonce);
  w.u16(e.feeCode);
  switch (e.kind) {
    case 'coinTransfer':
    case 'assetTransfer':
    case 'shareTransfer':
      w.u64(e.toId).u64(e.amount);
      break;
    case 'limitSwap':
      w.u8(e.buy ? 1 : 0)
        .u64(e.amount)
        .bytes(e.limit, LIMIT_PRICE_BYTES);
      break;
    case 'liquidityDeposit':
      w.u64(e.base).u64(e.quote);
      break;
    case 'liquidityWithdrawal':
      w.u64(e.shares);
      break;
    case 'cancelation':
      w.u32(e.cancelHeight).u32(e.cancelNonceId);
      break;
    case 'assetCreation':
      w.u64(e.supply).u8(e.precision).bytes(e.name, ASSET_NAME_BYTES);
      break;
  }
  w.bytes(e.signature, SIGNATURE_SIZE);
}

/**
 * The entry's serialized bytes (its merkle leaf is SHA256 of these, §6.7): for an entry read from a
 * body, the bytes it was read from (writeEntry writes exactly what readEntry reads); callers must
 * not modify them.
 */
export function entryBytes(e: SignedEntry): Uint8Array {
  const read = readFrom.get(e);
  if (read) return read;
  const w = new Writer(ENTRY_SIZE[e.kind]);
  writeEntry(w, e);
  return w.finish();
}

// ---------------------------------------------------------------------------------------------
// Identity and signed hash of an entry in block `height`.

export function entryPinHeight(e: SignedEntry, height: number): number {
  return pinHeightOf(height, e.pinNonce.relativePin);
}

export function entryTransactionId(e: SignedEntry, height: number): TransactionId {
  return { accountId: e.originId, pinHeight: entryPinHeight(e, height), nonceId: e.pinNonce.nonceId };
}

/** The id a cancelation cancels: (its own origin, cancelHeight, cancelNonceId) (§7.6). */
export function canceledTransactionId(e: CancelationEntry): TransactionId {
  return { accountId: e.originId, pinHeight: e.cancelHeight, nonceId: e.cancelNonceId };
}

export function entrySigningCommon(e: SignedEntry, height: number, pinHash: Uint8Array): SigningCommon {
  return {
    pinHash,
    pinHeight: entryPinHeight(e, height),
    nonceId: e.pinNonce.nonceId,
    reserved: e.pinNonce.reserved,
    feeE8: feeE8OfCode(e.feeCode),
  };
}

/** What the signed bytes need beyond the entry: the recipient's address and the section's asset hash. */
export interface EntryContext {
  toAddress?: Uint8Array;
  assetHash?: Uint8Array;
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) fail('EBUG', `signing bytes need ${what}`);
  return v as T;
}

/** The API-level payload whose signed bytes the entry's signature covers (L/seed layouts, §7.2). */
export function entryPayload(e: SignedEntry, ctx: EntryContext): TransactionPayload {
  switch (e.kind) {
    case 'coinTransfer':
      return { type: 'coinTransfer', toAddress: need(ctx.toAddress, 'toAddress'), amount: e.amount };
    case 'assetTransfer':
    case 'shareTransfer':
      return {
        type: 'tokenTransfer',
        assetHash: need(ctx.assetHash, 'assetHash'),
        isLiquidity: e.kind === 'shareTransfer',
        toAddress: need(ctx.toAddress, 'toAddress'),
        amount: e.amount,
      };
    case 'limitSwap':
      return { type: 'limitSwap', assetHash: need(ctx.assetHash, 'assetHash'), isBuy: e.buy, amount: e.amount, limit: e.limit };
    case 'liquidityDeposit':
      return { type: 'liquidityDeposit', assetHash: need(ctx.assetHash, 'assetHash'), base: e.base, quote: e.quote };
    case 'liquidityWithdrawal':
      return { type: 'liquidityWithdrawal', assetHash: need(ctx.assetHash, 'assetHash'), shares: e.shares };
    case 'cancelation':
      return { type: 'cancelation', cancelHeight: e.cancelHeight, cancelNonceId: e.cancelNonceId };
    case 'assetCreation':
      return { type: 'assetCreation', supply: e.supply, precision: e.precision, name: e.name };
  }
}

export function entryTxHash(e: SignedEntry, height: number, pinHash: Uint8Array, ctx: EntryContext): Uint8Array {
  return txHash(entrySigningCommon(e, height, pinHash), entryPayload(e, ctx));
}
