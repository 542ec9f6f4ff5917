// Header-first sync client (p2p.md §3.2–§3.5, the simple client of §7(a)): take the peer that
// announces the most work above ours, find the fork point from the grids and probes, download and
// verify its headers (8,640 per request), then its bodies (30 per request), and apply them through
// Chain.switchBranch once the branch carries strictly more work than the local chain (fork choice
// stays the chain's). A peer that sends invalid data is closed with the error, which records the
// offense; a slow peer is set aside for a while.
import type { Chain, ChainEvent } from '../chain/chain.js';
import type { BranchBlock } from '../chain/prerecover.js';
import { checkpointOf } from '../consensus/checkpoint.js';
import { NodeError } from '../core/errors.js';
import { blockHash } from '../core/header.js';
import { equalBytes, toHex } from '../core/hex.js';
import { BlockPlan } from './block_plan.js';
import { blockrepBodies, type CheckedBody } from './blockrep_bodies.js';
import { applyProbe, gridForkRange, probeHeight, type ForkRange } from './fork_range.js';
import { powPool, type PowVerdicts } from '../kernel/pow_pool.js';
import { ChainMoved, HeaderStage, verifyPow } from './header_stage.js';
import type { BatchrepMsg, BlockrepMsg, ProberepMsg } from './messages.js';
import { PeerGone, RequestExpired, type Peer } from './peer.js';
import { BATCH_SIZE, BLOCK_BATCH } from './protocol.js';
import { LIVE_BLOCKS, newBlockLine, SyncProgress } from './sync_progress.js';

const SET_ASIDE_MS = 30_000; // a peer that timed out or could not help is not asked again for this long
const RETRY_MS = 2_000; // a peer whose sync made no progress
const HEADER_PIPELINE = 4; // header batches asked for and not yet checked (8,640 headers each)
const BLOCK_WINDOW = 16; // body ranges asked for or held above the applied ones (30 blocks each)
const MAX_HELPERS = 7; // peers fetching bodies besides the leader
/**
 * After a failed write of the database (a full disk): no download until it may write again, then
 * waits doubling from RETRY_MS to this between attempts that fail again. Each attempt fetches the
 * same blocks once more, and peers throttle re-fetching (§3.8): held 20 s, the node's next 15
 * messages end in EMSGFLOOD and a ban (found by scripts/network.mjs).
 */
const STORE_RETRY_MAX_MS = 60_000;
/** Errors of switchBranch that are not the peer's fault. */
const LOCAL_ERRORS = new Set(['EREORGWORK', 'EFORKHEIGHT', 'EBUG', 'EDBWRITE']);

/** Nothing useful can be done with this peer now (not its fault). */
class Abort extends Error {}

export interface SyncLog {
  info(line: string): void;
  warn(line: string): void;
}

/** This client follows one leader at a time with one batch outstanding (`/debug/header_download`). */
export const SYNC_CONFIG = { maxLeaders: 1, pendingDepth: 1 } as const;

/** What the client is doing now: the peer it syncs from, its outstanding header batch, the verified headers. */
export interface SyncStatus {
  leader: Peer | null;
  batch: { start: number; count: number } | null;
  stagedHeaders: number;
}

export class SyncClient {
  private running = false;
  private again = false;
  private stopped = false;
  private readonly setAside = new WeakMap<Peer, number>();
  /** Peers whose chain contradicts our signed snapshot: ignored until their descriptor changes (§3.3). */
  private readonly mismatched = new WeakMap<Peer, number>();
  private retryTimer: NodeJS.Timeout | null = null;
  /** Failed writes of the database in a row, and the time before which no download starts. */
  private storeFailures = 0;
  private pausedUntil = 0;
  /** Local rollbacks so far: comparisons with the local chain hold while this is unchanged. */
  private rollbacks = 0;
  readonly status: SyncStatus = { leader: null, batch: null, stagedHeaders: 0 };

  constructor(
    private readonly chain: Chain,
    private readonly peers: () => Peer[],
    private readonly log: SyncLog,
    /** The clock (Unix ms): every time the client reads, so that tests can move it instead of waiting. */
    private readonly nowMs: () => number = Date.now,
    /** Called when a pass ends with no peer ahead of the local chain. */
    private readonly caughtUp: () => void = () => {},
  ) {}

  /** The clock in Unix seconds (the chain's timestamp rules). */
  private nowS(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** True while some connected peer we would sync from announces more work than the local chain. */
  get behind(): boolean {
    return this.peers().some((p) => this.eligible(p) && p.chain!.worksum > this.chain.worksum);
  }

  /** Schedules a pass (after a peer's announcement, a chain change, a reply). */
  kick(): void {
    if (this.stopped) return;
    this.again = true;
    if (!this.running) this.loop().catch((e) => this.log.warn(`sync: ${(e as Error)?.stack ?? e}`));
  }

  /** A local chain change: a rollback invalidates comparisons made before it. */
  chainChanged(e: ChainEvent): void {
    if (e.kind === 'rollback') this.rollbacks++;
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.again && !this.stopped) {
        this.again = false;
        if (!(await this.storeReady())) break;
        const peer = this.pick();
        if (!peer) break;
        this.status.leader = peer;
        try {
          if (!(await this.syncFrom(peer))) this.setAside.set(peer, this.nowMs() + RETRY_MS);
        } catch (e) {
          this.setAside.set(peer, this.nowMs() + RETRY_MS);
          this.failed(peer, e);
        } finally {
          Object.assign(this.status, { leader: null, batch: null, stagedHeaders: 0 });
        }
        this.again = true;
      }
    } finally {
      this.running = false;
    }
    if (!this.stopped && !this.behind) this.caughtUp();
    this.scheduleRetry();
  }

  /** A peer set aside may become useful again: look again when the first one's time is up. */
  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer || !this.behind) return;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        this.kick();
      },
      Math.max(RETRY_MS, this.pausedUntil - this.nowMs()),
    );
  }

  /** False while downloads wait for the database: the pause after a failed write, then a disk still full. */
  private async storeReady(): Promise<boolean> {
    if (this.nowMs() < this.pausedUntil) return false;
    if (!this.chain.writeFailed || (await this.chain.writable())) return true;
    this.pausedUntil = this.nowMs() + RETRY_MS;
    return false;
  }

  private writeFailed(): void {
    this.storeFailures++;
    this.pausedUntil = this.nowMs() + Math.min(RETRY_MS * 2 ** (this.storeFailures - 1), STORE_RETRY_MAX_MS);
  }

  private failed(peer: Peer, e: unknown): void {
    if (e instanceof NodeError && e.errorName === 'ELEADERMISMATCH') {
      // Not the peer's fault (§3.3 "Leader mismatch with the signed snapshot").
      this.log.warn(`Sync from ${peer.address}: its chain contradicts the signed snapshot`);
      this.mismatched.set(peer, peer.chain!.descriptor);
    } else if (e instanceof NodeError) {
      this.log.warn(`Sync from ${peer.address} failed: ${e.message} (${e.errorName})`);
      peer.close(e);
    } else if (e instanceof RequestExpired) {
      this.log.warn(`Sync from ${peer.address}: request timed out`);
      this.setAside.set(peer, this.nowMs() + SET_ASIDE_MS);
    } else if (!(e instanceof PeerGone || e instanceof ChainMoved || e instanceof Abort)) {
      this.log.warn(`Sync from ${peer.address} stopped: ${(e as Error)?.stack ?? e}`);
      this.setAside.set(peer, this.nowMs() + SET_ASIDE_MS);
    }
  }

  /** A peer whose chain may be synced from: initialized, a version that may lead, the checkpoint in its grid (§3.3). */
  private eligible(p: Peer): boolean {
    if (!p.initialized || p.stalled || !p.caps.mayLeadSync) return false;
    if (this.mismatched.get(p) === p.chain!.descriptor) return false;
    const checkpoint = checkpointOf(this.chain.params);
    if (!checkpoint) return true;
    const slot = checkpoint.height / BATCH_SIZE - 1;
    return p.chain!.grid.length > slot && equalBytes(p.chain!.grid[slot], checkpoint.header);
  }

  /** The idle eligible peer with the most announced work above ours (§3.3 minWork). */
  private pick(): Peer | null {
    let best: Peer | null = null;
    for (const p of this.peers()) {
      if (!this.eligible(p) || p.busy || (this.setAside.get(p) ?? 0) > this.nowMs()) continue;
      const w = p.chain!.worksum;
      if (w > this.chain.worksum && (!best || w > best.chain!.worksum)) best = p;
    }
    return best;
  }

  /** One attempt to catch up with `peer`; returns whether blocks were applied. */
  private async syncFrom(peer: Peer): Promise<boolean> {
    const c = peer.chain!;
    const descriptor = c.descriptor,
      length = c.length,
      claimed = c.worksum;
    const rollbacks = this.rollbacks;
    const range = await this.findFork(peer, descriptor, length);
    // Headers from `lower` on; the ones equal to ours move the fork point up.
    let fork = range.lower - 1;
    let stage: HeaderStage | null = null;
    const started = performance.now();
    // Batches asked for, oldest first: one request at a time (§2.3), and the proof of work of each
    // reply starts in the worker pool as soon as it arrives, while earlier ones are still checked.
    const queue: { start: number; count: number; headers: Promise<Uint8Array[]>; pow: Promise<PowVerdicts | null> }[] = [];
    let nextStart = range.lower,
      done = false;
    const fill = (): void => {
      if (done || nextStart > length || queue.length >= HEADER_PIPELINE || (peer.busy && queue.length > 0)) return;
      const start = nextStart,
        count = Math.min(BATCH_SIZE, length - start + 1);
      nextStart += count;
      this.status.batch = { start, count };
      const headers = peer.request<BatchrepMsg>({ kind: 'Batchreq', descriptor, start, count }).then((rep) => {
        if (this.status.batch?.start === start) this.status.batch = null;
        if (rep.headers.length === count) fill();
        return rep.headers;
      });
      const pow = headers.then((raws) => (raws.length === count ? verifyPow(this.chain.params, start, raws, powPool()) : null));
      headers.catch(() => undefined); // awaited below, or left behind when an earlier batch fails
      pow.catch(() => undefined);
      queue.push({ start, count, headers, pow });
    };
    try {
      for (fill(); queue.length > 0; fill()) {
        const { start, count, headers, pow } = queue[0];
        const raws = await headers;
        if (raws.length !== count) {
          if (peer.chain?.expectsAnswers(descriptor, this.nowMs())) throw new NodeError('EBATCHSIZE3', `${raws.length} of ${count} headers`);
          throw new Abort();
        }
        if (this.rollbacks !== rollbacks) throw new ChainMoved();
        const verdicts = (await pow)!;
        queue.shift();
        let i = 0;
        for (; !stage && i < count; i++) {
          const h = start + i;
          if (h > this.chain.length || !equalBytes(blockHash(raws[i]), this.chain.hashAt(h))) break;
          fork = h;
        }
        if (i === count) continue;
        stage ??= new HeaderStage(this.chain, fork);
        stage.addBatch(raws, this.nowS(), verdicts, i);
        this.status.stagedHeaders = stage.size;
      }
    } finally {
      done = true;
      this.status.batch = null;
    }
    if (stage && stage.size >= BATCH_SIZE) {
      const s = (performance.now() - started) / 1000;
      this.log.info(`Verified ${stage.size} headers of ${peer.address} up to height ${stage.length} in ${s.toFixed(1)} s (${Math.round(stage.size / s)}/s)`);
    }
    if (!stage) {
      // The peer's chain is a prefix of ours: it cannot carry the work it announced.
      if (this.rollbacks !== rollbacks) throw new ChainMoved();
      if (this.chain.length >= length && this.chain.worksumAt(length) < claimed) throw new NodeError('EFAKEWORK', 'announced work of a chain we hold');
      return false;
    }
    if (stage.worksum < claimed) throw new NodeError('EFAKEWORK', `headers carry less work than announced`);
    if (stage.worksum <= this.chain.worksum) return false;
    return this.downloadBlocks(peer, descriptor, stage);
  }

  /** Grid comparison, then probes until the balanced rule allows downloading (§3.2). */
  private async findFork(peer: Peer, descriptor: number, length: number): Promise<ForkRange> {
    const ours = this.chain;
    const rollbacks = this.rollbacks;
    let range = gridForkRange((i) => ours.rawHeaderAt((i + 1) * BATCH_SIZE), ours.length, peer.chain!.grid, length);
    const probe = async (h: number): Promise<void> => {
      const rep = await peer.request<ProberepMsg>({ kind: 'Probereq', descriptor, height: h });
      const pc = peer.chain!;
      if (rep.descriptor !== pc.descriptor) throw new NodeError('EPROBEDESCRIPTOR');
      if ((rep.current !== null) !== h <= pc.length)
        throw new NodeError('EBADPROBE', `current header ${rep.current ? 'present' : 'absent'} at ${h}, length ${pc.length}`);
      if (!rep.requested) {
        if (pc.expectsAnswers(descriptor, this.nowMs())) throw new NodeError('EEMPTY', 'probe without the requested header');
        throw new Abort();
      }
      if (h > ours.length || this.rollbacks !== rollbacks) throw new ChainMoved();
      range = applyProbe(range, h, equalBytes(blockHash(rep.requested), ours.hashAt(h)));
    };
    for (let h = probeHeight(range, length); h !== null; h = probeHeight(range, length)) await probe(h);
    // While following a peer our tip is usually on its chain: one probe there spares re-fetching the
    // headers of the whole partial grid slot after every announcement, which a reference peer
    // throttles (§3.8) and which held bursts of blocks back for tens of seconds.
    const tip = Math.min(ours.length, length);
    if (tip > range.lower && tip < range.upper) await probe(tip);
    return range;
  }

  /**
   * Bodies for the stage, 30 at a time, applied in order once the branch outweighs the local chain
   * (§3.4). Beyond a few blocks, other peers whose chain holds the stage's headers fetch ranges too.
   */
  private async downloadBlocks(leader: Peer, descriptor: number, stage: HeaderStage): Promise<boolean> {
    const params = this.chain.params;
    const size = Math.min(BLOCK_BATCH, leader.caps.maxBlocksPerRequest);
    const plan = new BlockPlan<CheckedBody[]>(stage.fork + 1, stage.length, size, BLOCK_WINDOW);
    const live = stage.length - stage.fork <= LIVE_BLOCKS;
    const served = new Set<Peer>();

    // Asks `peer` for open ranges up to `maxHeight` until the download ends.
    const fetchFrom = async (peer: Peer, desc: number, maxHeight: number, lead: boolean): Promise<void> => {
      while (!plan.finished) {
        const r = plan.take(maxHeight);
        if (!r) {
          await plan.changes();
          continue;
        }
        let bodies: CheckedBody[];
        try {
          const rep = await peer.request<BlockrepMsg>({ kind: 'Blockreq', first: r.first, last: r.last, descriptor: desc });
          if (plan.finished) return;
          if (rep.bodies?.length === 0) {
            if (lead && peer.chain?.expectsAnswers(desc, this.nowMs())) throw new NodeError('EEMPTY', `no blocks ${r.first}..${r.last}`);
            throw new Abort();
          }
          const headers = Array.from({ length: r.last - r.first + 1 }, (_, i) => stage.headerAt(r.first + i));
          bodies = blockrepBodies(params, rep, r.first, headers);
        } catch (e) {
          plan.giveBack(r);
          throw e;
        }
        served.add(peer);
        plan.complete(r, bodies);
      }
    };
    // The leader's failure ends the download (a later pass picks a leader again).
    const leading = fetchFrom(leader, descriptor, stage.length, true).then(
      () => null,
      (e: unknown) => {
        plan.close();
        return { e };
      },
    );
    // Peers connected later join while the download lasts.
    const recruited = new Set<Peer>([leader]);
    const recruit = (): void => {
      if (live || recruited.size > MAX_HELPERS) return;
      for (const h of this.helpers(leader, stage, size)) {
        if (recruited.size > MAX_HELPERS) break;
        if (!recruited.has(h)) {
          recruited.add(h);
          this.help(h, stage, fetchFrom);
        }
      }
    };

    let fork = stage.fork;
    let pending: BranchBlock[] = [];
    let applied = 0;
    const startedMs = this.nowMs();
    const progress = new SyncProgress(stage.fork, startedMs);
    try {
      while (!plan.finished) {
        recruit();
        const ready = plan.ready();
        if (ready.length === 0) {
          await plan.changes();
          continue;
        }
        for (const { range, value } of ready) value.forEach((b, i) => pending.push({ header: stage.rawAt(range.first + i), body: b.bytes, checked: b.body }));
        const last = ready[ready.length - 1].range.last;
        if (!stage.anchored) throw new ChainMoved();
        if (stage.worksumAt(last) <= this.chain.worksum) continue;
        try {
          // Every header of a stage passed checkHeader with its proof of work (HeaderStage.add, in the
          // PoW workers): not computed a second time on this thread (a tenth of an empty block's cost).
          const removed = await this.chain.switchBranch(fork, pending, { now: this.nowS(), skipPow: true });
          this.storeFailures = 0;
          if (removed.length) this.log.info(`Switched to the branch of ${leader.address} at height ${fork + 1}: ${removed.length} block(s) rolled back`);
        } catch (e) {
          if (e instanceof NodeError && e.errorName === 'EDBWRITE') this.writeFailed();
          if (e instanceof NodeError && LOCAL_ERRORS.has(e.errorName)) throw new ChainMoved();
          throw e;
        }
        if (live) for (let h = fork + 1; h <= last; h++) this.log.info(newBlockLine(h, toHex(this.chain.hashAt(h)), leader.address));
        else {
          const line = progress.line(last, stage.length, this.nowMs(), leader.address);
          if (line) this.log.info(line);
        }
        applied += pending.length;
        fork = last;
        stage.release(fork + 1);
        pending = [];
        if (this.stopped) break;
      }
    } finally {
      plan.close();
    }
    const failure = await leading;
    if (failure && fork < stage.length) throw failure.e;
    if (applied > 0 && !live) {
      const s = Math.max(0.001, (this.nowMs() - startedMs) / 1000);
      const others = [...served].filter((p) => p !== leader).length;
      const from = others ? `${leader.address} and ${others} other peer${others > 1 ? 's' : ''}` : leader.address;
      this.log.info(`Synced to height ${fork} from ${from} (${applied} blocks in ${s.toFixed(1)} s, ${(applied / s).toFixed(1)} blocks/s)`);
    }
    return applied > 0;
  }

  /** Idle peers that may serve bodies of the stage besides its leader (their chain is checked by `help`). */
  private helpers(leader: Peer, stage: HeaderStage, size: number): Peer[] {
    return this.peers().filter(
      (p) =>
        p !== leader &&
        this.eligible(p) &&
        !p.busy &&
        (this.setAside.get(p) ?? 0) <= this.nowMs() &&
        p.chain!.length > stage.fork &&
        p.caps.maxBlocksPerRequest >= size,
    );
  }

  /**
   * A helper serves ranges up to the highest height where its chain holds the stage's header: one
   * probe there proves, by the hash links, every header below. A helper on another branch, slow or
   * gone just stops; one that sends bodies its own chain cannot have is closed with the error.
   */
  private help(peer: Peer, stage: HeaderStage, fetchFrom: (p: Peer, desc: number, maxHeight: number, lead: boolean) => Promise<void>): void {
    const desc = peer.chain!.descriptor;
    const height = Math.min(peer.chain!.length, stage.length);
    (async () => {
      const rep = await peer.request<ProberepMsg>({ kind: 'Probereq', descriptor: desc, height });
      if (!rep.requested || !equalBytes(blockHash(rep.requested), stage.hashAt(height))) return;
      await fetchFrom(peer, desc, height, false);
    })()
      .catch((e) => {
        if (e instanceof NodeError) peer.close(e);
        else if (e instanceof RequestExpired) this.setAside.set(peer, this.nowMs() + SET_ASIDE_MS);
      })
      .finally(() => {
        // Idle again: if the leader's download ended meanwhile (its peer gone), this peer may lead the
        // next pass now rather than after the retry timer (pick skips busy peers).
        if (!this.running) this.kick();
      });
  }
}
