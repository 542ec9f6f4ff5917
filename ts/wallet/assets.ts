// Naming assets and tokens on the command line: an asset by hash (64 hex), id (digits) or exact name
// (the node's /asset/complete, refused when two assets share it); a token by spec
// (`asset:<hash>`, `liquidity:<hash>`) or as an asset (the asset itself).
import { WalletError } from './wallet_error.js';
import { isAssetName } from './inputs.js';
import type { AssetRef, NodeApi } from './node_api.js';

export async function resolveAsset(api: NodeApi, text: string): Promise<AssetRef> {
  if (/^[0-9a-fA-F]{64}$/.test(text) || /^\d{1,19}$/.test(text)) return api.assetLookup(text);
  if (!isAssetName(text)) throw new WalletError(`'${text}' names no asset: give its hash (64 hex), id or name`);
  const exact = (await api.assetsNamed(text)).filter((a) => a.name === text);
  if (exact.length === 0) throw new WalletError(`no asset is named '${text}'`);
  if (exact.length > 1) throw new WalletError(`${exact.length} assets are named '${text}': give the hash of one (${exact.map((a) => a.hash).join(', ')})`);
  return exact[0];
}

/** A token spec, or an asset named as above (meaning the asset itself): the spec string and whether it is the pool's liquidity token. */
export async function resolveTokenSpec(api: NodeApi, text: string): Promise<{ spec: string; hash: string; isLiquidity: boolean }> {
  const m = /^(asset|liquidity):([0-9a-fA-F]{64})$/.exec(text);
  if (m) return { spec: `${m[1]}:${m[2].toLowerCase()}`, hash: m[2].toLowerCase(), isLiquidity: m[1] === 'liquidity' };
  if (/^(asset|liquidity):/.test(text)) throw new WalletError(`'${text}': a token spec is asset:<64 hex> or liquidity:<64 hex>`);
  const a = await resolveAsset(api, text);
  return { spec: `asset:${a.hash}`, hash: a.hash, isLiquidity: false };
}
