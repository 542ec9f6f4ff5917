// The JSON body of POST /transaction/add (http-api.md "Adding a transaction"; members, codes and
// evaluation order of http-api-details.md §4.1): parsing stops at the first bad member. A request
// is unambiguous, so every generation's naming is accepted (clients.md §2.1.1, §2.2, §3): `coin…`
// or `wart…` names, `precision` or `decimals`, and 0.8's untyped coin transfer.
import { COIN_DECIMALS, U64_MAX, parseUnits } from '../core/amount.js';
import { parseAddress } from '../core/address.js';
import { fail, type ErrorName } from '../core/errors.js';
import { fromHexExact } from '../core/hex.js';
import { isCanonicalSignature } from '../core/keys.js';
import { isPinHeight } from '../core/pin.js';
import { assetNameBytes, type TransactionPayload, type TransactionType } from '../core/transaction.js';
import { fee16Decode, fee16Encode, fee16IsExact } from '../kernel/fee16.js';
import { priceFromBytes } from '../kernel/price.js';
import type { SignedRequest } from '../mempool/admission.js';

const TYPES: TransactionType[] = ['coinTransfer', 'tokenTransfer', 'limitSwap', 'liquidityDeposit', 'liquidityWithdrawal', 'cancelation', 'assetCreation'];
const MAX_PRECISION = 18;
const ASSET_NAME = /^[A-Za-z0-9]{1,5}$/;

type Json = Record<string, unknown>;

const has = (o: Json, k: string) => o[k] !== undefined;

/** A JSON integer within [0, max], as bigint; null when absent or of another type. */
function uint(v: unknown, max: bigint): bigint | null {
  if (typeof v === 'bigint') return v >= 0n && v <= max ? v : null;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v) <= max ? BigInt(v) : null;
  return null;
}

function u32Member(o: Json, k: string, code: ErrorName): number {
  const v = uint(o[k], 0xffffffffn);
  if (v === null) fail(code, `'${k}' must be an unsigned 32-bit integer`);
  return Number(v);
}

function u64Member(o: Json, k: string, code: ErrorName): bigint {
  const v = uint(o[k], U64_MAX);
  if (v === null) fail(code, `'${k}' must be an unsigned 64-bit integer`);
  return v!;
}

function boolMember(o: Json, k: string, code: ErrorName): boolean {
  if (typeof o[k] !== 'boolean') fail(code, `'${k}' must be true or false`);
  return o[k] as boolean;
}

function hashMember(o: Json, k: string): Uint8Array {
  const v = typeof o[k] === 'string' ? fromHexExact(o[k] as string, 32) : null;
  return v ?? fail('EPARSEHASH', `'${k}' must be 64 hex chars`);
}

function addressMember(o: Json, k: string): Uint8Array {
  const v = typeof o[k] === 'string' ? parseAddress(o[k] as string) : null;
  return v ?? fail('EBADADDRESS', `'${k}' must be a 48-hex address with a valid checksum`);
}

/** Names of a coin amount: integer E8 forms and text forms. */
interface CoinNames {
  e8: string[];
  text: string[];
}
const COIN: CoinNames = { e8: ['coinE8', 'wartE8'], text: ['coinStr', 'wartStr', 'coin'] };
/** 0.8 names a transfer's amount `amountE8` / `amount` (clients.md §2.2); 0.10 ignores them. */
const AMOUNT_0_8: CoinNames = { e8: ['amountE8'], text: ['amount'] };

const given = (o: Json, n: CoinNames) => [...n.e8, ...n.text].filter((k) => has(o, k));

/** Exactly one of the names (an integer E8 form or a coin amount text). */
function coinMember(o: Json, names: CoinNames, what: string): bigint {
  const present = given(o, names);
  if (present.length !== 1) fail('EBADAMOUNT', `give exactly one of ${[...names.e8, ...names.text].map((k) => `'${k}'`).join(', ')} for ${what}`);
  const strName = present[0];
  if (names.e8.includes(strName)) return u64Member(o, strName, 'EBADAMOUNT');
  const text = o[strName];
  const v = typeof text === 'string' ? parseUnits(text, COIN_DECIMALS) : null;
  return v ?? fail('EBADAMOUNT', `'${strName}' must be a coin amount string with at most 8 decimals`);
}

/** A fee the 16-bit fee code writes exactly (not 0). */
export const isExactFee = (e8: bigint): boolean => e8 !== 0n && fee16IsExact(e8);

function feeMember(o: Json): { feeCode: number; feeE8: bigint } {
  const strName = ['feeStr', 'fee'].find((n) => has(o, n));
  if (has(o, 'feeE8') === (strName !== undefined)) fail('EBADFEE', "give exactly one of 'feeE8' or 'feeStr'", strName === undefined ? 'feeMissing' : undefined);
  let e8: bigint;
  if (strName === undefined) {
    e8 = u64Member(o, 'feeE8', 'EBADFEE');
  } else {
    const text = o[strName];
    const v = typeof text === 'string' ? parseUnits(text, COIN_DECIMALS) : null;
    if (v === null) fail('EINV_FUNDS', `'${strName}' must be a coin amount string with at most 8 decimals`);
    e8 = v!;
  }
  if (!isExactFee(e8)) fail('EINEXACTFEE', `fee ${e8} E8 is not exactly representable; /tools/encode16bit gives the nearest`);
  const feeCode = fee16Encode(e8, 'down');
  return { feeCode, feeE8: fee16Decode(feeCode) };
}

function typePayload(type: TransactionType, o: Json): TransactionPayload {
  switch (type) {
    case 'coinTransfer': {
      const toAddress = addressMember(o, 'toAddr');
      // A body may carry both 0.10 and 0.8 members (mobile-wallet, clients.md §4.2): 0.10's win.
      const amount = coinMember(o, given(o, COIN).length ? COIN : AMOUNT_0_8, 'the amount');
      if (amount === 0n) fail('EZEROWART');
      return { type, toAddress, amount };
    }
    case 'tokenTransfer': {
      const assetHash = hashMember(o, 'assetHash');
      const isLiquidity = boolMember(o, 'isLiquidity', 'EBADLIQUIDITYFLAG');
      const toAddress = addressMember(o, 'toAddr');
      return { type, assetHash, isLiquidity, toAddress, amount: u64Member(o, 'amountU64', 'EBADAMOUNT') };
    }
    case 'limitSwap': {
      const assetHash = hashMember(o, 'assetHash');
      const isBuy = boolMember(o, 'isBuy', 'EBADBUYFLAG');
      const amount = u64Member(o, 'amountU64', 'EBADAMOUNT');
      const limit = typeof o.limit === 'string' ? fromHexExact(o.limit, 3) : null;
      if (!limit || !priceFromBytes(limit)) fail('EBADPRICE', "'limit' must be 6 hex chars of a valid price (see /tools/parse_price)");
      return { type, assetHash, isBuy, amount, limit: limit! };
    }
    case 'liquidityDeposit': {
      const assetHash = hashMember(o, 'assetHash');
      const base = u64Member(o, 'amountU64', 'EBADAMOUNT');
      return { type, assetHash, base, quote: coinMember(o, COIN, 'the coin deposit') };
    }
    case 'liquidityWithdrawal':
      return { type, assetHash: hashMember(o, 'assetHash'), shares: u64Member(o, 'amountE8', 'EBADAMOUNT') };
    case 'cancelation': {
      const cancelHeight = u32Member(o, 'cancelHeight', 'EBADCANCELHEIGHT');
      if (!isPinHeight(cancelHeight)) fail('ECANCLHNOPINH');
      return { type, cancelHeight, cancelNonceId: u32Member(o, 'cancelNonceId', 'EBADCANCELNONCE') };
    }
    case 'assetCreation': {
      const supply = u64Member(o, 'supplyU64', 'EBADASSETUNITS');
      const precisionKey = has(o, 'precision') ? 'precision' : 'decimals';
      const precision = u32Member(o, precisionKey, 'EBADASSETDECIMALS');
      if (precision > MAX_PRECISION) fail('EBADASSETDECIMALS', `'${precisionKey}' must be 0 to ${MAX_PRECISION}`);
      if (typeof o.name !== 'string' || !ASSET_NAME.test(o.name)) fail('EASSETNAME', "'name' must be 1 to 5 letters or digits");
      return { type, supply, precision, name: assetNameBytes(o.name as string) };
    }
  }
}

/** Other generations' type names (clients.md §3). */
const TYPE_ALIASES: Record<string, TransactionType> = { wartTransfer: 'coinTransfer' };

/** Whether `t` names a transaction type in some generation. */
export const isTransactionTypeName = (t: unknown): boolean => typeof t === 'string' && (TYPES.includes(t as TransactionType) || Object.hasOwn(TYPE_ALIASES, t));

/** The transaction type; 0.8 sends coin transfers without one (clients.md §2.2). */
function typeOf(o: Json): TransactionType {
  if (o.type === undefined && has(o, 'toAddr') && given(o, AMOUNT_0_8).length) return 'coinTransfer';
  const t = typeof o.type === 'string' ? (Object.hasOwn(TYPE_ALIASES, o.type) ? TYPE_ALIASES[o.type] : o.type) : '';
  if (!TYPES.includes(t as TransactionType)) fail('ETXTYPE', `'type' must be one of ${[...TYPES, ...Object.keys(TYPE_ALIASES)].join(', ')}`);
  return t as TransactionType;
}

/**
 * What is wrong with a `signature65` member: not 130 hex chars ('unparsable'); no low-s compact
 * signature with recovery id 0–3 ('form'); a zero r or s, well formed otherwise, from which no key
 * recovers ('zero'); nothing (null).
 */
export function signatureDefect(v: unknown): 'unparsable' | 'form' | 'zero' | null {
  const sig = typeof v === 'string' ? fromHexExact(v, 65) : null;
  if (!sig) return 'unparsable';
  if (isCanonicalSignature(sig)) return null;
  const zero = (from: number) => sig.subarray(from, from + 32).every((b) => b === 0);
  if (!zero(0) && !zero(32)) return 'form';
  const patched = sig.slice();
  if (zero(0)) patched[31] = 1;
  if (zero(32)) patched[63] = 1;
  return isCanonicalSignature(patched) ? 'zero' : 'form';
}

export function parseTxRequest(body: unknown): SignedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('ETXTYPE', 'the body must be a JSON object with a "type"');
  const o = body as Json;
  const type = typeOf(o);
  const pinHeight = u32Member(o, 'pinHeight', 'EBADHEIGHT');
  if (!isPinHeight(pinHeight)) fail('EBADHEIGHT', "'pinHeight' must be a multiple of 32");
  const nonceId = u32Member(o, 'nonceId', 'EBADNONCE');
  const { feeCode, feeE8 } = feeMember(o);
  const payload = typePayload(type, o);
  const defect = signatureDefect(o.signature65);
  if (defect === 'unparsable') fail('EPARSESIG', "'signature65' must be 130 hex chars");
  if (defect)
    fail('ECORRUPTEDSIG', 'not a valid compact recoverable signature with low s and recovery id 0–3', defect === 'form' ? 'signatureForm' : undefined);
  return { payload, pinHeight, nonceId, feeCode, feeE8, signature: fromHexExact(o.signature65 as string, 65)! };
}
