// Token ids (exchange.md §1.1): coin 0, asset a → 2a + 1, its liquidity token → 2a + 2.
export const COIN_TOKEN_ID = 0n;

export const assetTokenId = (assetId: bigint): bigint => 2n * assetId + 1n;
export const liquidityTokenId = (assetId: bigint): bigint => 2n * assetId + 2n;

/** The asset of a non-coin token id, and whether it is the liquidity token. */
export function tokenAsset(tokenId: bigint): { assetId: bigint; isLiquidity: boolean } | null {
  if (tokenId === COIN_TOKEN_ID) return null;
  return { assetId: (tokenId - 1n) / 2n, isLiquidity: tokenId % 2n === 0n };
}

/** Liquidity tokens always have 8 decimals, like the coin (exchange.md §1.3). */
export const LIQUIDITY_DECIMALS = 8;
