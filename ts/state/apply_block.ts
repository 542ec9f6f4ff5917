// Applies a block's effects to the ledger (consensus.md §6.6, §9.1–§9.3) through a StateOverlay:
// new accounts, the reward, coin transfers with signature and replay checks, net balance flows,
// the transaction-id cache and history entries. Throws NodeError on the first violated rule; the
// caller then discards the overlay, so nothing is half-applied.
// The body has already passed checkBlockBody (size, layout, merkle root, reward claim, per-entry
// rules, duplicate ids inside the block).
import { U64_MAX } from '../core/amount.js';
import type { Body } from '../core/body.js';
import { entryBytes, entryPinHeight, entryTransactionId } from '../core/entry.js';
import { fail } from '../core/errors.js';
import { toHex } from '../core/hex.js';
import { pinBegin } from '../core/pin.js';
import { feeE8OfCode, rewardHash } from '../core/transaction.js';
import { verifyEntrySignature } from '../consensus/signature.js';
import type { Db } from '../store/database.js';
import { addHistoryEntry } from './history.js';
import {
  COIN_TOKEN_ID, accountIdOf, addAccount, addressOf, balanceOf, nextHistoryId, nextStateId, setBalance,
  setNextHistoryId, setNextStateId,
} from './ledger.js';
import type { StateOverlay } from './overlay.js';
import { addTxId, hasTxId, pruneTxIds } from './txids.js';

export interface BlockToApply {
  height: number;
  body: Body;
  /** Hash of an earlier block of this chain (pinned hashes, §7.2); 0 is the genesis hash. */
  hashAt(height: number): Uint8Array;
}

export interface AppliedBlock {
  firstStateId: bigint;
  firstHistoryId: bigint;
}

export async function applyBlock(db: Db, s: StateOverlay, b: BlockToApply): Promise<AppliedBlock> {
  const { height, body } = b;
  if (body.cancelations.length || body.tokenSections.length || body.assetCreations.length) {
    fail('EBLOCKV4', 'token-era transactions are not supported by this node yet');
  }

  // New accounts first (§6.6): ids N + i, distinct, not yet existing.
  const firstStateId = await nextStateId(s);
  const n = BigInt(body.newAddresses.length);
  const seen = new Set<string>();
  for (const [i, address] of body.newAddresses.entries()) {
    const k = toHex(address);
    if (seen.has(k) || (await accountIdOf(s, address)) !== undefined) fail('EADDRPOLICY', `address ${k} exists already`);
    seen.add(k);
    await addAccount(s, firstStateId + BigInt(i), address);
  }
  const isNew = (id: bigint) => id >= firstStateId;
  const addressOfId = async (id: bigint): Promise<Uint8Array> => {
    if (id >= firstStateId + n) fail('EIDNOTREFERENCED', `account id ${id}`);
    return (await addressOf(s, id)) ?? fail('EIDNOTREFERENCED', `account id ${id}`);
  };

  const credits = new Map<bigint, bigint>();
  const debits = new Map<bigint, bigint>();
  const add = (m: Map<bigint, bigint>, id: bigint, v: bigint) => m.set(id, (m.get(id) ?? 0n) + v);

  // History ids in processing order (exchange.md §7.1): reward, cancelations, coin transfers, …
  const firstHistoryId = await nextHistoryId(s);
  let historyId = firstHistoryId;

  const rewardAddress = await addressOfId(body.reward.toId);
  add(credits, body.reward.toId, body.reward.amount);
  await addHistoryEntry(s, historyId++, {
    kind: 'reward', height, hash: rewardHash(rewardAddress, body.reward.amount, height),
    payload: entryBytesOfReward(body.reward.toId, body.reward.amount),
  }, [body.reward.toId]);

  for (const t of body.coinTransfers) {
    if (isNew(t.originId)) fail('EADDRPOLICY', `new account ${t.originId} cannot send in its first block`);
    const origin = await addressOfId(t.originId);
    const to = await addressOfId(t.toId);
    const id = entryTransactionId(t, height);
    if (await hasTxId(s, id)) fail('ENONCE', `transaction ${id.accountId}/${id.pinHeight}/${id.nonceId} was mined before`);
    const hash = verifyEntrySignature(t, height, b.hashAt(entryPinHeight(t, height)), origin, { toAddress: to });
    if (id.pinHeight >= pinBegin(height + 1)) await addTxId(s, id, height); // else pruned at once
    add(debits, t.originId, t.amount + feeE8OfCode(t.feeCode));
    add(credits, t.toId, t.amount);
    await addHistoryEntry(s, historyId++, { kind: 'coinTransfer', height, hash, payload: entryBytes(t) }, [t.originId, t.toId]);
  }

  // Net flows per account (§9.1 step 4, §9.2 item 20).
  for (const id of new Set([...credits.keys(), ...debits.keys()])) {
    const old = await balanceOf(s, id, COIN_TOKEN_ID);
    const total = old.total + (credits.get(id) ?? 0n) - (debits.get(id) ?? 0n);
    if (total < old.locked) fail('EBALANCE', `account ${id} would have ${total} < locked ${old.locked}`);
    if (total > U64_MAX) fail('EBALANCE', `account ${id} balance overflows`);
    await setBalance(s, id, COIN_TOKEN_ID, { total, locked: old.locked });
  }
  for (let i = 0n; i < n; i++) {
    if ((credits.get(firstStateId + i) ?? 0n) === 0n) fail('EADDRPOLICY', `new account ${firstStateId + i} receives nothing`);
  }

  await pruneTxIds(db, s, pinBegin(height + 1));
  await setNextStateId(s, firstStateId + n);
  await setNextHistoryId(s, historyId);
  return { firstStateId, firstHistoryId };
}

function entryBytesOfReward(toId: bigint, amount: bigint): Uint8Array {
  const b = new Uint8Array(16);
  const v = new DataView(b.buffer);
  v.setBigUint64(0, toId);
  v.setBigUint64(8, amount);
  return b;
}
