// Assets as the interface shows them (http-api.md "Value types" AssetRef, "Asset record";
// exchange.md §2.3): groupId is the asset's token id, parentId is always null (forked assets do not exist, §2.6).
import { toHex } from '../../core/hex.js';
import type { Asset } from '../../state/assets.js';
import { assetTokenId } from '../../state/tokens.js';
import { hexStr, int, named, nul, obj, str, u64, type Infer } from '../schema.js';
import { TokenAmount, tokenAmount } from './amount.js';

export const AssetRef = named('AssetRef', obj({ hash: hexStr(64), id: u64, name: str, decimals: int }));

export const AssetRecord = named(
  'AssetRecord',
  obj({
    id: u64,
    hash: hexStr(64),
    name: str,
    decimals: int,
    height: int,
    groupId: u64,
    ownerAccountId: u64,
    parentId: nul,
    totalSupply: TokenAmount,
  }),
);

export function assetRef(a: Asset): Infer<typeof AssetRef> {
  return { hash: toHex(a.hash), id: a.id, name: a.name, decimals: a.decimals };
}

export function assetRecord(a: Asset): Infer<typeof AssetRecord> {
  return {
    id: a.id,
    hash: toHex(a.hash),
    name: a.name,
    decimals: a.decimals,
    height: a.height,
    groupId: assetTokenId(a.id),
    ownerAccountId: a.ownerAccountId,
    parentId: null,
    totalSupply: tokenAmount(a.supply, a.decimals),
  };
}
