// Amount value types of http-api.md "Value types".
import { COIN_DECIMALS, formatUnits } from '../../core/amount.js';
import { named, obj, str, u64, int, hexStr, type Infer } from '../schema.js';

export const CoinAmount = named('CoinAmount', obj({ str, E8: u64 }));
export const TokenAmount = named('TokenAmount', obj({ str, u64, decimals: int }));
/** A fee on the 16-bit grid with its 2-byte code (http-api-details.md §4.5). */
export const CompactFee = named('CompactFee', obj({ str, E8: u64, bytes: hexStr(4) }));
/** An asset amount with a coin amount: pool reserves, fills, deposits (http-api-details.md §10). */
export const BaseQuote = named('BaseQuote', obj({ base: TokenAmount, quote: CoinAmount }));

export function coinAmount(e8: bigint): Infer<typeof CoinAmount> {
  return { str: formatUnits(e8, COIN_DECIMALS), E8: e8 };
}

export function tokenAmount(v: bigint, decimals: number): Infer<typeof TokenAmount> {
  return { str: formatUnits(v, decimals), u64: v, decimals };
}

export function compactFee(e8: bigint, code: number): Infer<typeof CompactFee> {
  return { str: formatUnits(e8, COIN_DECIMALS), E8: e8, bytes: code.toString(16).padStart(4, '0') };
}

/** `base` in an asset with `decimals`, `quote` in coin E8. */
export function baseQuote(base: bigint, quote: bigint, decimals: number): Infer<typeof BaseQuote> {
  return { base: tokenAmount(base, decimals), quote: coinAmount(quote) };
}
