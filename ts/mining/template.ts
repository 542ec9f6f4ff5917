// The block template a miner completes (http-api-details.md §5.6): a body with the reward to the
// miner and the best-paying pending transactions that fit (at most 400, within 35,000 bytes), with
// new-address entries for the miner and for recipients without an account, one token section per
// asset (exchange.md §7.1, P6); and the header with the next target, a valid timestamp, nonce 0 and
// the body's merkle root; plus the merkle prefix for extra-nonce rolling.
// The builder tries the block on the current ledger before offering it: transactions that would
// make it invalid (a fill crediting 0 to a new row, a deposit minting 0 shares: exchange.md §3.3,
// §14.3 P3) are left out.
import {
  MAX_BODY_SIZE,
  bodyMerklePrefix,
  bodyMerkleRoot,
  emptyTokenSection,
  extraNonceSize,
  serializeBody,
  type Body,
  type TokenSection,
} from '../core/body.js';
import { ENTRY_SIZE, type SignedEntry, type SignedHead } from '../core/entry.js';
import { NodeError } from '../core/errors.js';
import { parseHeader, serializeHeader } from '../core/header.js';
import { toHex } from '../core/hex.js';
import { relativePinFor } from '../core/pin.js';
import { transactionIdKey } from '../core/transaction.js';
import { checkBlockBody } from '../consensus/block_check.js';
import { expectedTarget, targetAt, timestampContext } from '../consensus/header_check.js';
import { bodyLayoutAt, merkleNewTypeAt, requiredHeaderVersion } from '../consensus/params.js';
import { maxRewardClaim } from '../consensus/reward.js';
import { targetDifficulty } from '../consensus/target.js';
import { minimumTimestamp } from '../consensus/timestamp.js';
import { applyBlock } from '../state/apply_block.js';
import { accountIdOf, dbReader, nextStateId } from '../state/ledger.js';
import { StateOverlay } from '../state/overlay.js';
import type { Db } from '../store/database.js';
import type { ChainReadState } from '../chain/read_view.js';
import type { BlockCandidate } from './candidate.js';

/** The reference's miner takes at most this many transactions (http-api-details.md §4.6). */
export const MAX_TEMPLATE_TRANSACTIONS = 400;

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
function templateVersion(chain: ChainReadState, height: number): number {
  return requiredHeaderVersion(chain.params, height) ?? 1;
}

/** The body entry of a pending transaction, with its relative pin and its recipient's account id. */
export function bodyEntry(tx: BlockCandidate, relativePin: number, toId: bigint | null): SignedEntry {
  const head: SignedHead = {
    originId: tx.originId,
    pinNonce: { nonceId: tx.nonceId, relativePin, reserved: new Uint8Array(3) },
    feeCode: tx.feeCode,
    signature: tx.signature,
  };
  const p = tx.payload;
  switch (p.type) {
    case 'coinTransfer':
      return { kind: 'coinTransfer', ...head, toId: toId!, amount: p.amount };
    case 'tokenTransfer':
      return { kind: p.isLiquidity ? 'shareTransfer' : 'assetTransfer', ...head, toId: toId!, amount: p.amount };
    case 'limitSwap':
      return { kind: 'limitSwap', ...head, buy: p.isBuy, amount: p.amount, limit: p.limit };
    case 'liquidityDeposit':
      return { kind: 'liquidityDeposit', ...head, base: p.base, quote: p.quote };
    case 'liquidityWithdrawal':
      return { kind: 'liquidityWithdrawal', ...head, shares: p.shares };
    case 'cancelation':
      return { kind: 'cancelation', ...head, cancelHeight: p.cancelHeight, cancelNonceId: p.cancelNonceId };
    case 'assetCreation':
      return { kind: 'assetCreation', ...head, supply: p.supply, precision: p.precision, name: p.name };
  }
}

/** Turns pending transactions into a body for `height` (ids resolved, new addresses listed). */
class BodyAssembler {
  readonly newAddresses: Uint8Array[] = [];
  private readonly newIds = new Map<string, bigint>();
  readonly coinTransfers: Extract<SignedEntry, { kind: 'coinTransfer' }>[] = [];
  readonly cancelations: Extract<SignedEntry, { kind: 'cancelation' }>[] = [];
  readonly sections = new Map<bigint, TokenSection>();
  readonly assetCreations: Extract<SignedEntry, { kind: 'assetCreation' }>[] = [];
  fees = 0n;
  size: number;

  constructor(
    private readonly db: Db,
    private readonly height: number,
    private readonly firstNewId: bigint,
    readonly layout: Body['layout'],
  ) {
    // Extra nonce, address count, reward, the count fields of the layout (V1 also has 2 reserved bytes).
    this.size = extraNonceSize(layout) + (layout === 'V1' ? 4 + 2 : 2) + 16 + 4 + (layout === 'V4' ? 6 : 0);
  }

  async idOf(address: Uint8Array): Promise<{ id: bigint; isNew: boolean }> {
    const existing = await accountIdOf(dbReader(this.db), address);
    if (existing !== undefined) return { id: existing, isNew: false };
    const known = this.newIds.get(toHex(address));
    return known !== undefined ? { id: known, isNew: false } : { id: this.firstNewId + BigInt(this.newAddresses.length), isNew: true };
  }

  addNew(address: Uint8Array, id: bigint): void {
    this.newAddresses.push(address);
    this.newIds.set(toHex(address), id);
    this.size += 20;
  }

  /** Adds `tx` if it fits; false when its pin is out of reach or the body would grow too large. */
  async add(tx: BlockCandidate): Promise<boolean> {
    const k = relativePinFor(this.height, tx.pinHeight);
    if (k === null) return false;
    const p = tx.payload;
    if (this.layout !== 'V4' && p.type !== 'coinTransfer') return false;
    const to = 'toAddress' in p ? await this.idOf(p.toAddress) : null;
    const section = tx.assetId !== undefined ? this.sections.get(tx.assetId) : undefined;
    const entry = bodyEntry(tx, k, to?.id ?? null);
    const bytes = ENTRY_SIZE[entry.kind] + (to?.isNew ? 20 : 0) + (tx.assetId !== undefined && !section ? 8 + 7 : 0);
    if (this.size + bytes > MAX_BODY_SIZE) return false;
    this.size += bytes;
    if (to?.isNew) this.addNew((p as { toAddress: Uint8Array }).toAddress, to.id);
    this.fees += tx.feeE8;
    switch (entry.kind) {
      case 'coinTransfer':
        this.coinTransfers.push(entry);
        break;
      case 'cancelation':
        this.cancelations.push(entry);
        break;
      case 'assetCreation':
        this.assetCreations.push(entry);
        break;
      default: {
        let s = section;
        if (!s) this.sections.set(tx.assetId!, (s = emptyTokenSection(tx.assetId!)));
        switch (entry.kind) {
          case 'assetTransfer':
            s.assetTransfers.push(entry);
            break;
          case 'shareTransfer':
            s.shareTransfers.push(entry);
            break;
          case 'limitSwap':
            s.limitSwaps.push(entry);
            break;
          case 'liquidityDeposit':
            s.liquidityDeposits.push(entry);
            break;
          case 'liquidityWithdrawal':
            s.liquidityWithdrawals.push(entry);
            break;
        }
      }
    }
    return true;
  }

  body(rewardTo: bigint, subsidyAndFees: bigint): Body {
    return {
      layout: this.layout,
      extraNonce: new Uint8Array(extraNonceSize(this.layout)),
      newAddresses: this.newAddresses,
      reward: { toId: rewardTo, amount: subsidyAndFees },
      coinTransfers: this.coinTransfers,
      cancelations: this.cancelations,
      tokenSections: [...this.sections.values()],
      assetCreations: this.assetCreations,
    };
  }
}

/**
 * Picks, in the given (best-paying first) order, at most 400 transactions that fit; a cancelation
 * and the transaction it cancels are never both taken: the first one wins (exchange.md §7.1).
 */
function choose(pending: BlockCandidate[]): BlockCandidate[] {
  const taken = new Set<string>();
  const out: BlockCandidate[] = [];
  for (const tx of pending) {
    if (out.length >= MAX_TEMPLATE_TRANSACTIONS) break;
    const own = transactionIdKey({ accountId: tx.originId, pinHeight: tx.pinHeight, nonceId: tx.nonceId });
    const p = tx.payload;
    const target = p.type === 'cancelation' ? transactionIdKey({ accountId: tx.originId, pinHeight: p.cancelHeight, nonceId: p.cancelNonceId }) : null;
    if (taken.has(own) || (target !== null && taken.has(target))) continue;
    taken.add(own);
    if (target !== null) taken.add(target);
    out.push(tx);
  }
  return out;
}

/** Assembles bodies for block length + 1 and tries them on the current ledger. */
async function blockWorkshop(chain: ChainReadState, db: Db, now: number) {
  const p = chain.params;
  const height = chain.length + 1;
  const version = templateVersion(chain, height);
  const layout = bodyLayoutAt(p, height, version);
  const ts = timestampContext(chain);
  const timestamp = Math.max(now, minimumTimestamp(ts.previous, ts.retargetFloorTimestamp));
  const target = expectedTarget(p, chain);
  const firstNewId = await nextStateId(dbReader(db));
  const header = (body: Body) =>
    serializeHeader({
      prevHash: chain.tipHash,
      target,
      merkleRoot: bodyMerkleRoot(body, merkleNewTypeAt(p, height)),
      version,
      timestamp,
      nonce: 0,
    });
  return {
    height,
    target,
    header,
    async assemble(miner: Uint8Array, txs: BlockCandidate[]): Promise<Body> {
      const a = new BodyAssembler(db, height, firstNewId, layout);
      const minerRef = await a.idOf(miner);
      if (minerRef.isNew) a.addNew(miner, minerRef.id);
      for (const tx of txs) await a.add(tx);
      return a.body(minerRef.id, maxRewardClaim(height, a.fees));
    },
    /** Why this ledger would refuse the block (proof of work aside), or null if it accepts it. */
    async refusal(body: Body): Promise<NodeError | null> {
      try {
        checkBlockBody(p, height, parseHeader(header(body)), serializeBody(body));
        await applyBlock(db, new StateOverlay(db), {
          height,
          hash: new Uint8Array(32),
          timestamp,
          body,
          hashAt: (k) => chain.hashAt(k),
          verifySignatures: false,
        });
        return null;
      } catch (e) {
        if (e instanceof NodeError) return e;
        throw e;
      }
    },
  };
}

/**
 * Builds the template for block length + 1 paying `miner`, from `pending` (best-paying first).
 * Call it on one consistent state: a ReadView and its database snapshot (Chain.read), or the live
 * chain between changes (Chain.locked).
 */
export async function buildTemplate(chain: ChainReadState, db: Db, miner: Uint8Array, now: number, pending: BlockCandidate[] = []): Promise<BlockTemplate> {
  const w = await blockWorkshop(chain, db, now);
  const candidates = choose(pending);
  let body = await w.assemble(miner, candidates);
  if (candidates.length > 0 && (await w.refusal(body))) {
    // Keep each transaction only if the block stays valid with it (rare: only exchange hazards fail).
    const kept: BlockCandidate[] = [];
    for (const tx of candidates) if (!(await w.refusal(await w.assemble(miner, [...kept, tx])))) kept.push(tx);
    body = await w.assemble(miner, kept);
  }
  return {
    height: w.height,
    header: w.header(body),
    body: serializeBody(body),
    merklePrefix: bodyMerklePrefix(body),
    blockReward: body.reward.amount,
    difficulty: targetDifficulty(targetAt(chain.params, w.height, w.target)),
  };
}

/** Nobody's address: the reward of a trial block goes to a new account, apart from the accounts tried. */
const TRIAL_MINER = new Uint8Array(20);

/**
 * Why the next block would be refused if it held `tx` alone (the mempool asks before admitting a
 * transaction whose block may fail on the exchange's own rules), or null.
 */
export async function soleTransactionRefusal(chain: ChainReadState, db: Db, tx: BlockCandidate, now: number): Promise<NodeError | null> {
  const w = await blockWorkshop(chain, db, now);
  return w.refusal(await w.assemble(TRIAL_MINER, [tx]));
}
