// The block template a miner completes (http-api-details.md §5.6): body with the reward to the
// miner, the best-paying pending transfers that fit (at most 400, within the 35,000-byte body),
// new-address entries for the miner and for recipients without an account, and the header with the
// next target, a valid timestamp, nonce 0 and the body's merkle root; plus the merkle prefix for
// extra-nonce rolling.
import { MAX_BODY_SIZE, bodyMerklePrefix, bodyMerkleRoot, extraNonceSize, serializeBody, type Body } from '../core/body.js';
import { ENTRY_SIZE, type CoinTransferEntry } from '../core/entry.js';
import { serializeHeader } from '../core/header.js';
import { toHex } from '../core/hex.js';
import { relativePinFor } from '../core/pin.js';
import { feeE8OfCode } from '../core/transaction.js';
import { expectedTarget, targetAt, timestampContext } from '../consensus/header_check.js';
import { bodyLayoutAt, merkleNewTypeAt, requiredHeaderVersion } from '../consensus/params.js';
import { maxRewardClaim } from '../consensus/reward.js';
import { targetDifficulty } from '../consensus/target.js';
import { minimumTimestamp } from '../consensus/timestamp.js';
import { accountIdOf, nextStateId, type KeyReader } from '../state/ledger.js';
import type { Chain } from './chain.js';

/** The reference's miner takes at most this many transactions (http-api-details.md §4.6). */
export const MAX_TEMPLATE_TRANSACTIONS = 400;

/** A signed coin transfer waiting for a block, as the mempool holds it (recipient by address). */
export interface TemplateTransfer {
  originId: bigint;
  toAddress: Uint8Array;
  amount: bigint;
  pinHeight: number;
  nonceId: number;
  feeCode: number;
  signature: Uint8Array;
}

export interface BlockTemplate {
  height: number;
  header: Uint8Array;
  body: Uint8Array;
  merklePrefix: Uint8Array;
  /** Subsidy plus the fees of the included transactions. */
  blockReward: bigint;
  difficulty: number;
}

/** Header version the template uses: the required one, or 1 where the height checks none (V1 era). */
function templateVersion(chain: Chain, height: number): number {
  return requiredHeaderVersion(chain.params, height) ?? 1;
}

/**
 * Builds the template for block length + 1. `transfers` come best-paying first; those whose pin
 * is out of reach at this height, or that do not fit, are left out.
 */
export async function buildTemplate(
  chain: Chain, state: KeyReader, miner: Uint8Array, now: number, transfers: TemplateTransfer[] = [],
): Promise<BlockTemplate> {
  const p = chain.params;
  const height = chain.length + 1;
  const version = templateVersion(chain, height);
  const layout = bodyLayoutAt(p, height, version);

  const firstNewId = await nextStateId(state);
  const newAddresses: Uint8Array[] = [];
  const newIds = new Map<string, bigint>();
  const idOf = async (address: Uint8Array): Promise<{ id: bigint; isNew: boolean }> => {
    const existing = await accountIdOf(state, address);
    if (existing !== undefined) return { id: existing, isNew: false };
    const k = toHex(address);
    const known = newIds.get(k);
    if (known !== undefined) return { id: known, isNew: false };
    return { id: firstNewId + BigInt(newAddresses.length), isNew: true };
  };
  const addNew = (address: Uint8Array, id: bigint) => { newAddresses.push(address); newIds.set(toHex(address), id); };

  const minerRef = await idOf(miner);
  if (minerRef.isNew) addNew(miner, minerRef.id);

  // Fixed part: extra nonce, 4 count fields, reward; each entry adds its bytes (and 20 for a new address).
  let size = extraNonceSize(layout) + 2 + 20 * newAddresses.length + 16 + 4 + (layout === 'V4' ? 6 : 0) + (layout === 'V1' ? 2 + 2 : 0);
  const entries: CoinTransferEntry[] = [];
  for (const t of transfers) {
    if (entries.length >= MAX_TEMPLATE_TRANSACTIONS) break;
    const k = relativePinFor(height, t.pinHeight);
    if (k === null) continue;
    const to = await idOf(t.toAddress);
    const bytes = ENTRY_SIZE.coinTransfer + (to.isNew ? 20 : 0);
    if (size + bytes > MAX_BODY_SIZE) continue;
    if (to.isNew) addNew(t.toAddress, to.id);
    size += bytes;
    entries.push({
      kind: 'coinTransfer', originId: t.originId, pinNonce: { nonceId: t.nonceId, relativePin: k, reserved: new Uint8Array(3) },
      feeCode: t.feeCode, signature: t.signature, toId: to.id, amount: t.amount,
    });
  }

  const fees = entries.reduce((sum, e) => sum + feeE8OfCode(e.feeCode), 0n);
  const blockReward = maxRewardClaim(height, fees);
  const body: Body = {
    layout,
    extraNonce: new Uint8Array(extraNonceSize(layout)),
    newAddresses,
    reward: { toId: minerRef.id, amount: blockReward },
    coinTransfers: entries,
    cancelations: [], tokenSections: [], assetCreations: [],
  };

  const ts = timestampContext(chain);
  const target = expectedTarget(p, chain);
  const header = serializeHeader({
    prevHash: chain.tipHash,
    target,
    merkleRoot: bodyMerkleRoot(body, merkleNewTypeAt(p, height)),
    version,
    timestamp: Math.max(now, minimumTimestamp(ts.previous, ts.retargetFloorTimestamp)),
    nonce: 0,
  });
  return {
    height, header, body: serializeBody(body), merklePrefix: bodyMerklePrefix(body), blockReward,
    difficulty: targetDifficulty(targetAt(p, height, target)),
  };
}
