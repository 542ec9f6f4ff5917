// Token specs (exchange.md §1.2; http-api-details.md §1.5): `asset:<64 hex>` names an asset,
// `liquidity:<64 hex>` its pool's liquidity token, `asset:` with 64 zeros the coin; a parameter
// shorter than 64 chars is a numeric token id (exchange.md §1.1: coin 0, asset a → 2a + 1,
// its liquidity token → 2a + 2).
import { COIN_DECIMALS, parseUint } from '../core/amount.js';
import { fail, quoted } from '../core/errors.js';
import { equalBytes, fromHexExact, toHex } from '../core/hex.js';
import { assetByHash, assetById, type Asset } from '../state/assets.js';
import { dbReader } from '../state/ledger.js';
import { COIN_TOKEN_ID, LIQUIDITY_DECIMALS, assetTokenId, liquidityTokenId, tokenAsset } from '../state/tokens.js';
import type { ReadView } from '../chain/read_view.js';

const HASH_CHARS = 64;
const COIN_HASH = new Uint8Array(32);
/** The coin's token name, as the reference reports it. */
export const COIN_TOKEN_NAME = 'WART';

export type TokenSpecParam = { hash: Uint8Array; isLiquidity: boolean } | { tokenId: bigint };

/** A token (the coin, an asset or a liquidity token) with what its views show. */
export interface Token {
  id: bigint;
  spec: string;
  name: string;
  decimals: number;
  /** null for the coin. */
  asset: Asset | null;
}

export function tokenSpecString(assetHash: Uint8Array, isLiquidity: boolean): string {
  return `${isLiquidity ? 'liquidity' : 'asset'}:${toHex(assetHash)}`;
}

/** `:tokenspec` syntax; anything malformed ⇒ 307. */
export function tokenSpecParam(text: string): TokenSpecParam {
  if (text.length < HASH_CHARS) {
    return { tokenId: parseUint(text, 64) ?? fail('EINV_TOKEN', `${quoted(text)} is neither a token spec nor a token id`, 'tokenIdNotNumber') };
  }
  const m = /^(asset|liquidity):(.*)$/.exec(text);
  const hash = m && fromHexExact(m[2], 32);
  if (!m || !hash) fail('EINV_TOKEN', `expected asset:<64 hex> or liquidity:<64 hex>, got ${quoted(text)}`);
  return { hash: hash!, isLiquidity: m![1] === 'liquidity' };
}

const COIN: Token = { id: COIN_TOKEN_ID, spec: tokenSpecString(COIN_HASH, false), name: COIN_TOKEN_NAME, decimals: COIN_DECIMALS, asset: null };

function assetToken(a: Asset, isLiquidity: boolean): Token {
  return {
    id: isLiquidity ? liquidityTokenId(a.id) : assetTokenId(a.id),
    spec: tokenSpecString(a.hash, isLiquidity),
    name: a.name,
    decimals: isLiquidity ? LIQUIDITY_DECIMALS : a.decimals,
    asset: a,
  };
}

/**
 * The token a spec names on `view`, or null when its asset does not exist (the caller picks the code).
 * `liquidity:` with the coin's zero hash names no token.
 */
export async function resolveToken(view: ReadView, p: TokenSpecParam): Promise<Token | null> {
  const s = dbReader(view.db);
  if ('tokenId' in p) {
    const t = tokenAsset(p.tokenId);
    if (!t) return COIN;
    const a = await assetById(s, t.assetId);
    return a && assetToken(a, t.isLiquidity);
  }
  if (equalBytes(p.hash, COIN_HASH)) return p.isLiquidity ? null : COIN;
  const a = await assetByHash(s, p.hash);
  return a && assetToken(a, p.isLiquidity);
}
