// Transaction identities and signed hashes (consensus.md §7.1, §7.2, §7.7; http-api.md "Adding a
// transaction"). For the token-era types we follow the L/seed layouts (the §7.2 recommendation);
// coin transfers are the same in every line.
import { sha256 } from '../kernel/hash.js';
import { fee16Decode } from '../kernel/fee16.js';
import { Writer } from './bytes.js';
import { ADDRESS_BYTES } from './address.js';
import { HASH_SIZE } from './header.js';
import { flat } from './flat_string.js';

// ---------------------------------------------------------------------------------------------
// Transaction id (§7.1): (originAccountId, pinHeight, nonceId), 16 bytes in that order.

export interface TransactionId {
  accountId: bigint; // u64
  pinHeight: number; // u32
  nonceId: number; // u32
}

export function serializeTransactionId(id: TransactionId): Uint8Array {
  return new Writer(16).u64(id.accountId).u32(id.pinHeight).u32(id.nonceId).finish();
}

/** A string key for maps and sets of ids. */
export function transactionIdKey(id: TransactionId): string {
  return flat(`${id.accountId}:${id.pinHeight}:${id.nonceId}`);
}

/** Orders ids as `/chain/txcache` lists them: by pinHeight, then account id, then nonce id. */
export function compareTransactionIds(a: TransactionId, b: TransactionId): number {
  if (a.pinHeight !== b.pinHeight) return a.pinHeight - b.pinHeight;
  if (a.accountId !== b.accountId) return a.accountId < b.accountId ? -1 : 1;
  return a.nonceId - b.nonceId;
}

// ---------------------------------------------------------------------------------------------
// Fee (§7.4): bodies carry a 16-bit code; signing bytes carry its decoded value.

export function feeE8OfCode(code: number): bigint {
  return fee16Decode(code);
}

// ---------------------------------------------------------------------------------------------
// Signing bytes (§7.2): common 51 bytes ‖ type-specific part; txHash = SHA256 of them.

export const ZERO_RESERVED = new Uint8Array(3);
export const ASSET_NAME_BYTES = 5;
export const LIMIT_PRICE_BYTES = 3; // L/seed 3-byte price (§7.5, exchange.md §4.1)

export interface SigningCommon {
  pinHash: Uint8Array; // hash of the block at pinHeight (genesis hash for 0)
  pinHeight: number;
  nonceId: number;
  reserved?: Uint8Array; // the PinNonce's 3 reserved bytes; zero when omitted (all the API creates)
  feeE8: bigint; // the decoded fee
}

/** The seven transaction types with the fields their signed bytes cover, named as in http-api.md. */
export type TransactionPayload =
  | { type: 'coinTransfer'; toAddress: Uint8Array; amount: bigint }
  | { type: 'tokenTransfer'; assetHash: Uint8Array; isLiquidity: boolean; toAddress: Uint8Array; amount: bigint }
  | { type: 'limitSwap'; assetHash: Uint8Array; isBuy: boolean; amount: bigint; limit: Uint8Array }
  | { type: 'liquidityDeposit'; assetHash: Uint8Array; base: bigint; quote: bigint }
  | { type: 'liquidityWithdrawal'; assetHash: Uint8Array; shares: bigint }
  | { type: 'cancelation'; cancelHeight: number; cancelNonceId: number }
  | { type: 'assetCreation'; supply: bigint; precision: number; name: Uint8Array };

export type TransactionType = TransactionPayload['type'];

export function signingBytes(common: SigningCommon, payload: TransactionPayload): Uint8Array {
  return writeSigningBytes(new Writer(128), common, payload).finish();
}

function writeSigningBytes(w: Writer, common: SigningCommon, payload: TransactionPayload): Writer {
  w.bytes(common.pinHash, HASH_SIZE)
    .u32(common.pinHeight)
    .u32(common.nonceId)
    .bytes(common.reserved ?? ZERO_RESERVED, 3)
    .u64(common.feeE8);
  switch (payload.type) {
    case 'coinTransfer': // bytes 52–79
      w.bytes(payload.toAddress, ADDRESS_BYTES).u64(payload.amount);
      break;
    case 'tokenTransfer': // 52–112
      w.bytes(payload.assetHash, HASH_SIZE)
        .u8(payload.isLiquidity ? 1 : 0)
        .bytes(payload.toAddress, ADDRESS_BYTES)
        .u64(payload.amount);
      break;
    case 'limitSwap': // 52–95
      w.bytes(payload.assetHash, HASH_SIZE)
        .u8(payload.isBuy ? 1 : 0)
        .u64(payload.amount)
        .bytes(payload.limit, LIMIT_PRICE_BYTES);
      break;
    case 'liquidityDeposit': // 52–99: base (asset units) before quote (coin), as in the body and Txrep
      w.bytes(payload.assetHash, HASH_SIZE).u64(payload.base).u64(payload.quote);
      break;
    case 'liquidityWithdrawal': // 52–91
      w.bytes(payload.assetHash, HASH_SIZE).u64(payload.shares);
      break;
    case 'cancelation': // 52–59
      w.u32(payload.cancelHeight).u32(payload.cancelNonceId);
      break;
    case 'assetCreation': // 52–65
      w.u64(payload.supply).u8(payload.precision).bytes(payload.name, ASSET_NAME_BYTES);
      break;
  }
  return w;
}

/** Reused for the signing bytes of txHash: hashed at once, never kept (one allocation less per entry). */
const scratch = new Writer(128);

/** The signed hash: SHA256 of the signing bytes; the ECDSA signature is made over it directly. */
export function txHash(common: SigningCommon, payload: TransactionPayload): Uint8Array {
  return sha256(writeSigningBytes(scratch.reset(), common, payload).written());
}

// ---------------------------------------------------------------------------------------------
// Implicit transactions (§7.7).

/** Reward hash: SHA256(toAddress ‖ amount u64 ‖ height u32 ‖ u16 0). */
export function rewardHash(toAddress: Uint8Array, amount: bigint, height: number): Uint8Array {
  return sha256(new Writer(34).bytes(toAddress, ADDRESS_BYTES).u64(amount).u32(height).u16(0).finish());
}

/** Asset name as the 5 wire bytes, zero-padded at the end (the caller validates the characters). */
export function assetNameBytes(name: string): Uint8Array {
  const out = new Uint8Array(ASSET_NAME_BYTES);
  for (let i = 0; i < name.length && i < ASSET_NAME_BYTES; i++) out[i] = name.charCodeAt(i) & 0xff;
  return out;
}

/**
 * Decodes the 5 name bytes; null unless 1–5 characters from A–Z a–z 0–9 followed only by zero
 * padding (exchange.md §2.1 rule 1).
 */
export function assetNameOf(bytes: Uint8Array): string | null {
  let n = 0;
  while (n < bytes.length && bytes[n] !== 0) n++;
  if (n === 0) return null;
  for (let i = n; i < bytes.length; i++) if (bytes[i] !== 0) return null;
  const s = String.fromCharCode(...bytes.subarray(0, n));
  return /^[A-Za-z0-9]{1,5}$/.test(s) ? s : null;
}
