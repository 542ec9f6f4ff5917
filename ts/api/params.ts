// Path and query parameter parsing (http-api-details.md §1.5). Each parser either returns the
// value or throws a NodeError with the code the reference uses for that parameter kind.
import { parseUint } from '../core/amount.js';
import { parseAddress } from '../core/address.js';
import { fail, quoted, type RefusalCase } from '../core/errors.js';
import { fromHexExact, toHex } from '../core/hex.js';
import { assetByHash, assetById, type Asset } from '../state/assets.js';
import { accountIdOf, addressOf, dbReader } from '../state/ledger.js';
import type { ReadView } from '../chain/read_view.js';

/** The case of a hex parameter of odd length (see RefusalCase), for the refusal of a malformed one. */
export const oddHex = (text: string): RefusalCase | undefined => (text.length % 2 === 1 ? 'oddHex' : undefined);

export function uintParam(text: string, bits: number, what: string): bigint {
  return parseUint(text, bits) ?? fail('EINV_ARGS', `${what} must be an unsigned ${bits}-bit integer, got ${quoted(text)}`);
}

export function u32Param(text: string, what: string): number {
  return Number(uintParam(text, 32, what));
}

export function u64Param(text: string, what: string): bigint {
  return uintParam(text, 64, what);
}

const ADDRESS_CHARS = 48;

export type AccountParam = { address: Uint8Array } | { accountId: bigint };

/** `:account` (details §1.5): exactly 48 chars is an address (bad hex or checksum ⇒ 71), anything else an account id (⇒ 94). */
export function accountParam(text: string): AccountParam {
  if (text.length === ADDRESS_CHARS) {
    return { address: parseAddress(text) ?? fail('EBADADDRESS', `${quoted(text)} is not a 48-hex address with a valid checksum`) };
  }
  return { accountId: u64Param(text, 'account id') };
}

/**
 * The account a parameter names on `view`. An address without an account yet (it never received anything)
 * has accountId null; an unknown account id ⇒ 56.
 */
export async function resolveAccount(view: ReadView, p: AccountParam): Promise<{ accountId: bigint | null; address: Uint8Array }> {
  const s = dbReader(view.db);
  if ('address' in p) return { accountId: (await accountIdOf(s, p.address)) ?? null, address: p.address };
  const address = (await addressOf(s, p.accountId)) ?? fail('ENOTFOUND', `no account with id ${p.accountId}`, 'unknownAccountId');
  return { accountId: p.accountId, address };
}

/**
 * The account a parameter names, or null when there is none: an address that never received
 * anything, or an unknown account id (balances answer `account: null` then, details §7.1–7.2).
 */
export async function findAccount(view: ReadView, p: AccountParam): Promise<{ accountId: bigint; address: Uint8Array } | null> {
  const s = dbReader(view.db);
  if ('address' in p) {
    const accountId = await accountIdOf(s, p.address);
    return accountId === undefined ? null : { accountId, address: p.address };
  }
  const address = await addressOf(s, p.accountId);
  return address ? { accountId: p.accountId, address } : null;
}

const HASH_CHARS = 64;

type AssetParam = { hash: Uint8Array } | { assetId: bigint };

/** `:asset` (details §1.5): exactly 64 chars is an asset hash (bad hex ⇒ 300), anything else an asset id (⇒ 94). */
export function assetParam(text: string): AssetParam {
  if (text.length === HASH_CHARS) return { hash: fromHexExact(text, 32) ?? fail('EINV_HEX', `${quoted(text)} is not a 64-hex asset hash`) };
  return { assetId: u64Param(text, 'asset id') };
}

/** The asset a parameter names; unknown ⇒ 185 (by hash) or 186 (by id). */
export async function resolveAsset(view: ReadView, p: AssetParam): Promise<Asset> {
  const s = dbReader(view.db);
  if ('hash' in p) return (await assetByHash(s, p.hash)) ?? fail('EASSETHASHNOTFOUND', `no asset has hash ${toHex(p.hash)}`);
  return (await assetById(s, p.assetId)) ?? fail('EASSETIDNOTFOUND', `no asset has id ${p.assetId}`);
}
