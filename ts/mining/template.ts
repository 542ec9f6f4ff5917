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
import { equalBytes, toHex } from '../core/hex.js';
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
import { nextTurn } from '../chain/next_turn.js';

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

/** Account ids a workshop keeps for the assemblies after its first (a full block names at most ~1,000). */
const MAX_KNOWN_IDS = 4096;

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
    /** Account ids read before on the same state (hex address → id, null: no account). */
    private readonly known: Map<string, bigint | null>,
  ) {
    // Extra nonce, address count, reward, the count fields of the layout (V1 also has 2 reserved bytes).
    this.size = extraNonceSize(layout) + (layout === 'V1' ? 4 + 2 : 2) + 16 + 4 + (layout === 'V4' ? 6 : 0);
  }

  async idOf(address: Uint8Array): Promise<{ id: bigint; isNew: boolean }> {
    const hex = toHex(address);
    let existing = this.known.get(hex);
    if (existing === undefined) {
      existing = (await accountIdOf(dbReader(this.db), address)) ?? null;
      if (this.known.size < MAX_KNOWN_IDS) this.known.set(hex, existing);
    }
    if (existing !== null) return { id: existing, isNew: false };
    const known = this.newIds.get(hex);
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

/**
 * Assembles bodies for block length + 1 and tries them on the current ledger. `db` is read only
 * while the workshop's own promises run, except by `assemble`, which reads the accounts it has not
 * seen before from the `db` it is given (any database of the same chain state).
 */
async function blockWorkshop(chain: ChainReadState, db: Db) {
  const p = chain.params;
  const height = chain.length + 1;
  const version = templateVersion(chain, height);
  const layout = bodyLayoutAt(p, height, version);
  const ts = timestampContext(chain);
  const earliest = minimumTimestamp(ts.previous, ts.retargetFloorTimestamp);
  const target = expectedTarget(p, chain);
  const firstNewId = await nextStateId(dbReader(db));
  const known = new Map<string, bigint | null>();
  const merkleNew = merkleNewTypeAt(p, height);
  /** The header's timestamp at `now`: the clock, or the earliest the chain allows when later. */
  const timestampAt = (now: number) => Math.max(now, earliest);
  const header = (merkleRoot: Uint8Array, timestamp: number) => serializeHeader({ prevHash: chain.tipHash, target, merkleRoot, version, timestamp, nonce: 0 });
  return {
    height,
    target,
    merkleNew,
    timestampAt,
    header,
    async assemble(miner: Uint8Array, txs: BlockCandidate[], at: Db = db): Promise<Body> {
      const a = new BodyAssembler(at, height, firstNewId, layout, known);
      const minerRef = await a.idOf(miner);
      if (minerRef.isNew) a.addNew(miner, minerRef.id);
      for (const tx of txs) await a.add(tx);
      return a.body(minerRef.id, maxRewardClaim(height, a.fees));
    },
    /** Why this ledger would refuse the block at `now` (proof of work aside), or null if it accepts it. */
    async refusal(body: Body, now: number): Promise<NodeError | null> {
      const timestamp = timestampAt(now);
      try {
        checkBlockBody(p, height, parseHeader(header(bodyMerkleRoot(body, merkleNew), timestamp)), serializeBody(body));
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

/** A template without its timestamp: the body and what the header takes from it. */
interface Assembled {
  body: Uint8Array;
  merkleRoot: Uint8Array;
  merklePrefix: Uint8Array;
  blockReward: bigint;
}

/** Reward addresses whose body a prepared template keeps (more are assembled again when asked). */
const MINERS_PER_TEMPLATE = 64;

/**
 * The next block's transactions, chosen once from the pending ones and tried on the ledger, for
 * any reward address and clock (`/chain/mine`: miners differ in the reward address only, and poll
 * far more often than the chain or the mempool move). Built on one chain state; `forMiner` must be
 * given a database of that same state.
 */
export interface PreparedTemplate {
  readonly height: number;
  /** The transactions the block takes (best-paying first), after the ledger's refusals. */
  readonly transactions: readonly BlockCandidate[];
  /** The template paying `miner`, stamped `now` (or the chain's earliest allowed time when later). */
  forMiner(miner: Uint8Array, now: number, db: Db): Promise<BlockTemplate>;
}

/**
 * Chooses the transactions of the block for length + 1 from `pending` (best-paying first) and
 * tries them on the ledger with the reward to `miner` at `now`, as buildTemplate does. The reward
 * address and the clock do not decide which transactions the ledger takes (the reward is a coin
 * credit applied like any other; the block's refusals are the exchange's, of orders and deposits),
 * so the choice serves every miner; a body that names a new miner's address is 20 bytes longer and
 * may take one transaction less (the last, as buildTemplate's assembly would).
 */
export async function prepareTemplate(
  chain: ChainReadState,
  db: Db,
  miner: Uint8Array,
  now: number,
  pending: BlockCandidate[] = [],
): Promise<PreparedTemplate> {
  const w = await blockWorkshop(chain, db);
  const candidates = choose(pending);
  let kept = candidates;
  // The body tried for `miner`: the one its template takes, unless transactions were left out.
  let tried: Body | null = candidates.length > 0 ? await w.assemble(miner, candidates) : null;
  if (tried && (await w.refusal(tried, now))) {
    // Keep each transaction only if the block stays valid with it (rare: only exchange hazards fail).
    kept = [];
    tried = null;
    for (const tx of candidates) if (!(await w.refusal(await w.assemble(miner, [...kept, tx]), now))) kept.push(tx);
  }
  await nextTurn();
  const difficulty = targetDifficulty(targetAt(chain.params, w.height, w.target));
  const assembled = async (to: Uint8Array, at: Db): Promise<Assembled> => {
    const body = tried && equalBytes(to, miner) ? tried : await w.assemble(to, kept, at);
    return {
      body: serializeBody(body),
      merkleRoot: bodyMerkleRoot(body, w.merkleNew),
      merklePrefix: bodyMerklePrefix(body),
      blockReward: body.reward.amount,
    };
  };
  // Per reward address: the body does not change with the clock, only the header's timestamp does.
  const perMiner = new Map<string, Promise<Assembled>>();
  return {
    height: w.height,
    transactions: kept,
    async forMiner(to, when, at) {
      const hex = toHex(to);
      let pending = perMiner.get(hex);
      if (!pending) {
        pending = assembled(to, at);
        if (perMiner.size >= MINERS_PER_TEMPLATE) perMiner.delete(perMiner.keys().next().value!); // the first asked goes first
        perMiner.set(hex, pending);
        pending.catch(() => perMiner.delete(hex));
      }
      const a = await pending;
      return {
        height: w.height,
        header: w.header(a.merkleRoot, w.timestampAt(when)),
        body: a.body,
        merklePrefix: a.merklePrefix,
        blockReward: a.blockReward,
        difficulty,
      };
    },
  };
}

/**
 * Builds the template for block length + 1 paying `miner`, from `pending` (best-paying first).
 * Call it on one consistent state: a ReadView and its database snapshot (Chain.read), or the live
 * chain between changes (Chain.locked).
 */
export async function buildTemplate(chain: ChainReadState, db: Db, miner: Uint8Array, now: number, pending: BlockCandidate[] = []): Promise<BlockTemplate> {
  return (await prepareTemplate(chain, db, miner, now, pending)).forMiner(miner, now, db);
}

/** Nobody's address: the reward of a trial block goes to a new account, apart from the accounts tried. */
const TRIAL_MINER = new Uint8Array(20);

/**
 * Why the next block would be refused if it held `tx` alone (the mempool asks before admitting a
 * transaction whose block may fail on the exchange's own rules), or null.
 */
export async function soleTransactionRefusal(chain: ChainReadState, db: Db, tx: BlockCandidate, now: number): Promise<NodeError | null> {
  const w = await blockWorkshop(chain, db);
  return w.refusal(await w.assemble(TRIAL_MINER, [tx]), now);
}
