// Naming assets and tokens on the command line: an asset by hash (64 hex), id (digits) or exact name
// (the node's /asset/complete, refused when two assets share it); a token by spec
// (`asset:<hash>`, `liquidity:<hash>`) or as an asset (the asset itself).
import { WalletError } from './wallet_error.js';
import { isAssetName } from './inputs.js';
import type { NodeClient } from './node_client.js';

/** The interface's AssetRef (http-api.md "Value types"). */
export interface AssetRef {
  hash: string;
  id: number;
  name: string;
  decimals: number;
}

/** A token as the balance route describes it. */
export interface TokenRef {
  id: number;
  spec: string;
  name: string;
  decimals: number;
}

export async function resolveAsset(node: NodeClient, text: string): Promise<AssetRef> {
  if (/^[0-9a-fA-F]{64}$/.test(text) || /^\d{1,19}$/.test(text)) return node.get<AssetRef>(`/asset/lookup/${text}`);
  if (!isAssetName(text)) throw new WalletError(`'${text}' names no asset: give its hash (64 hex), id or name`);
  const found = await node.get<{ match: AssetRef[] }>(`/asset/complete?namePrefix=${encodeURIComponent(text)}`);
  const exact = found.match.filter((a) => a.name === text);
  if (exact.length === 0) throw new WalletError(`no asset is named '${text}'`);
  if (exact.length > 1) throw new WalletError(`${exact.length} assets are named '${text}': give the hash of one (${exact.map((a) => a.hash).join(', ')})`);
  return exact[0];
}

/** A token spec, or an asset named as above (meaning the asset itself): the spec string and whether it is the pool's liquidity token. */
export async function resolveTokenSpec(node: NodeClient, text: string): Promise<{ spec: string; hash: string; isLiquidity: boolean }> {
  const m = /^(asset|liquidity):([0-9a-fA-F]{64})$/.exec(text);
  if (m) return { spec: `${m[1]}:${m[2].toLowerCase()}`, hash: m[2].toLowerCase(), isLiquidity: m[1] === 'liquidity' };
  if (/^(asset|liquidity):/.test(text)) throw new WalletError(`'${text}': a token spec is asset:<64 hex> or liquidity:<64 hex>`);
  const a = await resolveAsset(node, text);
  return { spec: `asset:${a.hash}`, hash: a.hash, isLiquidity: false };
}

/** The token (its decimals and name) and `address`'s balance of it. */
export function tokenBalance(node: NodeClient, address: string, spec: string) {
  return node.get<{ balance: Record<'locked' | 'mempool' | 'total', { str: string; u64: number | bigint }>; token: TokenRef }>(
    `/account/${address}/balance/${spec}`,
  );
}
