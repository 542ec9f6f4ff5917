// Command-line values checked before anything is signed or sent: addresses (48 hex with checksum),
// amounts (decimal strings in a token's precision, http-api-details.md §1.4), prices, hashes.
import { parseAddress } from '../core/address.js';
import { COIN_DECIMALS, parseUnits } from '../core/amount.js';
import { WalletError } from './wallet_error.js';
import { fromHexExact } from '../core/hex.js';
import { assetNameBytes, assetNameOf } from '../core/transaction.js';
import { fee16Decode, fee16Encode } from '../kernel/fee16.js';
import { parsePrice, type Price } from '../kernel/price.js';

export function addressArg(text: string): Uint8Array {
  return (
    parseAddress(text) ??
    (() => {
      throw new WalletError(`'${text}' is not an address (48 hex chars with a valid checksum)`);
    })()
  );
}

/** A positive amount with at most `decimals` fractional digits, in smallest units. */
export function amountArg(text: string, decimals: number, what: string): bigint {
  if (text.startsWith('-')) throw new WalletError(`${what} '${text}' is negative: amounts are positive decimals (example: 1.5)`);
  const v = parseUnits(text, decimals);
  if (v === null) throw new WalletError(`${what} '${text}' is not a decimal amount with at most ${decimals} decimals (example: 1.5)`);
  if (v === 0n) throw new WalletError(`${what} must be more than 0`);
  return v;
}

export const coinArg = (text: string, what: string): bigint => amountArg(text, COIN_DECIMALS, what);

/** `--fee`: a coin amount, raised to the next value of the 16-bit fee grid (consensus.md §7.4). */
export function feeArg(text: string): { feeCode: number; feeE8: bigint } {
  const feeCode = fee16Encode(coinArg(text, '--fee'), 'up');
  return { feeCode, feeE8: fee16Decode(feeCode) };
}

export function hashArg(text: string, what: string): Uint8Array {
  return (
    fromHexExact(text, 32) ??
    (() => {
      throw new WalletError(`${what} '${text}' is not 64 hex chars`);
    })()
  );
}

/**
 * A decimal price in coins per whole unit of an asset with `decimals`, on the 3-byte price grid
 * (exchange.md §4.4): a buy rounds down and a sell rounds up, so the order never trades worse than asked.
 */
export function priceArg(text: string, decimals: number, isBuy: boolean): Price {
  const p = /^(\d+\.?\d*|\.\d+)$/.test(text) ? parsePrice(text, decimals) : null;
  if (!p) throw new WalletError(`price '${text}' is not a positive decimal number of coins per unit within the price range`);
  return isBuy ? p.floor : p.ceil;
}

/** A non-negative integer option (a count of seconds, a history id). */
export function uintArg(text: string, what: string): number {
  if (!/^\d{1,15}$/.test(text)) throw new WalletError(`${what} '${text}' is not a non-negative integer`);
  return Number(text);
}

/** 1 to 5 letters or digits (exchange.md §2.1 rule 1), by the same codec that writes the name bytes. */
export function isAssetName(text: string): boolean {
  return assetNameOf(assetNameBytes(text)) === text;
}
