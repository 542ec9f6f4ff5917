// Body rules that need no ledger (consensus.md §6.8, §6.9, §9.2 items 7–10 and the static parts of
// 14–19, 22; exchange.md §3.2, §5.1, §5.4, §6.3, §6.4). Rules that read account state (ids, balances,
// the tx-id cache, signatures' origin addresses) belong to the state layer, which calls these first.
import { fail } from '../core/errors.js';
import type { Header } from '../core/header.js';
import { equalBytes, toHex } from '../core/hex.js';
import { MAX_BODY_SIZE, bodyMerkleRoot, parseBody, signedEntries, type Body } from '../core/body.js';
import { canceledTransactionId, entryPinHeight, entryTransactionId } from '../core/entry.js';
import { feeE8OfCode, transactionIdKey, type TransactionId } from '../core/transaction.js';
import { bodyLayoutAt, merkleNewTypeAt, tokenFeaturesAllowed, type NetworkParams } from './params.js';
import { maxRewardClaim } from './reward.js';

export function checkBodySize(bytes: Uint8Array): void {
  if (bytes.length > MAX_BODY_SIZE) fail('EBLOCKSIZE', `${bytes.length} bytes > ${MAX_BODY_SIZE}`);
}

/** Size limit, layout by height and version, parse, and no token-era sections below version 4. */
export function parseBlockBody(p: NetworkParams, height: number, version: number, bytes: Uint8Array): Body {
  checkBodySize(bytes);
  const body = parseBody(bytes, bodyLayoutAt(p, height, version));
  if (!tokenFeaturesAllowed(version) && (body.cancelations.length || body.tokenSections.length || body.assetCreations.length)) {
    fail('EBLOCKV4', `header version ${version} carries token-era sections`);
  }
  return body;
}

/** The header's merkle root must be the body's (P; R and L never compare, §10 item 1). */
export function checkMerkleRoot(p: NetworkParams, height: number, body: Body, merkleRoot: Uint8Array): void {
  const root = bodyMerkleRoot(body, merkleNewTypeAt(p, height));
  if (!equalBytes(root, merkleRoot)) fail('EMROOT', `body root ${toHex(root)}`);
}

/** Everything about a block's body that needs neither the ledger nor other blocks. */
export function checkBlockBody(p: NetworkParams, height: number, header: Header, bytes: Uint8Array): Body {
  return checkParsedBody(p, height, header, parseBlockBody(p, height, header.version, bytes));
}

/** checkBlockBody of a body parseBlockBody gave for this height and header's version. */
export function checkParsedBody(p: NetworkParams, height: number, header: Header, body: Body): Body {
  checkMerkleRoot(p, height, body, header.merkleRoot);
  checkRewardClaim(height, body);
  checkEntryRules(p, height, body);
  blockTransactionIds(height, body);
  return body;
}

/** Σ decoded fees of every signed entry (fees are always coin). */
export function totalFees(body: Body): bigint {
  let sum = 0n;
  for (const { entry } of signedEntries(body)) sum += feeE8OfCode(entry.feeCode);
  return sum;
}

/** The reward entry may claim at most reward(h) + all fees (§5.4); claiming less is valid. */
export function checkRewardClaim(height: number, body: Body): void {
  const max = maxRewardClaim(height, totalFees(body));
  if (body.reward.amount > max) fail('EBALANCE', `reward ${body.reward.amount} > ${max}`);
}

/** Per-entry rules readable from the body alone. */
export function checkEntryRules(p: NetworkParams, height: number, body: Body): void {
  const frozen = p.frozenAccount;
  const isFrozen = frozen !== null && height >= frozen.fromHeight && height <= frozen.toHeight;
  for (const { entry: e } of signedEntries(body)) {
    if (isFrozen && e.originId === frozen.accountId) fail('EFROZENACC', `account ${e.originId}`);
    switch (e.kind) {
      case 'coinTransfer':
        if (e.amount === 0n && height > p.zeroAmountForbiddenAfter) fail('EZEROAMOUNT');
        if (e.toId === e.originId) fail('ESELFSEND');
        break;
      case 'assetTransfer':
      case 'shareTransfer': // token transfers must be non-zero at any height (exchange.md §3.2)
        if (e.amount === 0n) fail('EZEROAMOUNT');
        if (e.toId === e.originId) fail('ESELFSEND');
        break;
      case 'limitSwap':
        if (e.amount === 0n) fail('EZEROAMOUNT', 'order amount 0');
        break;
      case 'liquidityDeposit':
        if (e.base === 0n && e.quote === 0n) fail('EZEROBASEQUOTE');
        break;
      case 'liquidityWithdrawal':
        if (e.shares === 0n) fail('EZEROAMOUNT', 'withdrawal of 0 shares');
        break;
      case 'cancelation':
        if (e.cancelHeight > entryPinHeight(e, height)) fail('ECANCELFUTURE');
        if (e.cancelHeight === entryPinHeight(e, height) && e.cancelNonceId === e.pinNonce.nonceId) fail('ECANCELSELF');
        break;
      case 'assetCreation':
        break; // supply and precision are checked at parse (core/entry.ts)
    }
  }
}

export interface BlockTransactionIds {
  /** The ids of the block's signed entries, in body order. */
  ids: TransactionId[];
  /** The ids its cancelations cancel. */
  canceled: TransactionId[];
}

/**
 * The block's transaction ids (§7.6), claimed in the reference's processing order: each
 * cancelation claims its own id, then marks the id it cancels as used without a check; then every
 * other entry claims its id. Claiming a used id is ENONCE, so nothing may carry an id an earlier
 * cancelation canceled, while canceling an id twice, or one an earlier cancelation carries, is
 * accepted (block_applier.cpp:1216–1239 inserts canceled ids into a set, ignoring repeats).
 * The caller checks `ids` against the tx-id cache (canceled ids may be in it).
 */
export function blockTransactionIds(height: number, body: Body): BlockTransactionIds {
  const used = new Set<string>();
  const claim = (id: TransactionId): TransactionId => {
    const key = transactionIdKey(id);
    if (used.has(key)) fail('ENONCE', `duplicate transaction id ${key}`);
    used.add(key);
    return id;
  };
  const canceled: TransactionId[] = [];
  for (const c of body.cancelations) {
    claim(entryTransactionId(c, height));
    const target = canceledTransactionId(c);
    used.add(transactionIdKey(target));
    canceled.push(target);
  }
  const ids: TransactionId[] = [];
  for (const { entry } of signedEntries(body)) {
    if (entry.kind === 'cancelation') ids.push(entryTransactionId(entry, height));
    else ids.push(claim(entryTransactionId(entry, height)));
  }
  return { ids, canceled };
}
