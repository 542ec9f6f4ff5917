// The block template a miner completes (http-api-details.md §5.6): body with the reward to the
// miner (a new-address entry if the miner has no account yet), the header with the next target, a
// valid timestamp, nonce 0 and the body's merkle root, and the merkle prefix for extra-nonce rolling.
import { bodyMerklePrefix, bodyMerkleRoot, serializeBody, type Body } from '../core/body.js';
import type { CoinTransferEntry } from '../core/entry.js';
import { serializeHeader } from '../core/header.js';
import { expectedTarget, targetAt, timestampContext } from '../consensus/header_check.js';
import { bodyLayoutAt, merkleNewTypeAt, requiredHeaderVersion } from '../consensus/params.js';
import { maxRewardClaim } from '../consensus/reward.js';
import { targetDifficulty } from '../consensus/target.js';
import { minimumTimestamp } from '../consensus/timestamp.js';
import { feeE8OfCode } from '../core/transaction.js';
import { extraNonceSize } from '../core/body.js';
import { accountIdOf, nextStateId, type KeyReader } from '../state/ledger.js';
import type { Chain } from './chain.js';

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

export async function buildTemplate(
  chain: Chain, state: KeyReader, miner: Uint8Array, now: number, transfers: CoinTransferEntry[] = [],
): Promise<BlockTemplate> {
  const p = chain.params;
  const height = chain.length + 1;
  const version = templateVersion(chain, height);
  const layout = bodyLayoutAt(p, height, version);

  const minerId = await accountIdOf(state, miner);
  const fees = transfers.reduce((sum, t) => sum + feeE8OfCode(t.feeCode), 0n);
  const blockReward = maxRewardClaim(height, fees);
  const body: Body = {
    layout,
    extraNonce: new Uint8Array(extraNonceSize(layout)),
    newAddresses: minerId === undefined ? [miner] : [],
    reward: { toId: minerId ?? (await nextStateId(state)), amount: blockReward },
    coinTransfers: transfers,
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
