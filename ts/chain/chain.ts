// The chain manager: the header chain in memory, blocks and ledger in the database. Every change
// (append, rollback) runs alone, in order, and commits as one atomic batch: the ledger changes, the
// block, its undo record and the new head (docs/architecture.md "One change at a time"). A node
// killed at any moment restarts on the last complete block.
import { NodeError, fail } from '../core/errors.js';
import type { NetworkParams } from '../consensus/params.js';
import { HEADER_SIZE, blockHash, parseHeader, type Header } from '../core/header.js';
import type { Body } from '../core/body.js';
import { checkHeader, type HeaderChainView } from '../consensus/header_check.js';
import { checkBlockBody, checkParsedBody } from '../consensus/block_check.js';
import { targetAt } from '../consensus/header_check.js';
import { targetWork } from '../consensus/target.js';
import { PackedHeaders } from './packed_headers.js';
import { writeBatch, type BatchOp, type Db, type StateSource } from '../store/database.js';
import { onReopen, readyToWrite } from '../store/write_recovery.js';
import { WriteGroup } from '../store/write_group.js';
import {
  HEADER_CHUNK,
  META_CHECK,
  META_HEAD,
  SIGNED_SNAPSHOT,
  blockMetaKey,
  hashIndexKey,
  headerChunkKey,
  headerKey,
  readU32,
  u32Value,
  undoKey,
} from '../store/keys.js';
import { blockDeletes, blockPuts, decodeBlockMeta, type StoredBlock } from '../store/block_records.js';
import { StateOverlay, undoOps } from '../state/overlay.js';
import { applyBlock } from '../state/apply_block.js';
import { Prerecovery, type BranchBlock } from './prerecover.js';
import {
  agreesWithSnapshot,
  comparePriority,
  decodeSnapshot,
  encodeSnapshot,
  priorityOf,
  snapshotCompatible,
  verifySnapshot,
  type VerifiedSnapshot,
} from '../consensus/signed_snapshot.js';
import { toHex } from '../core/hex.js';
import { HeadMarker } from '../store/head_marker.js';
import { damaged, isCorruption, writeFailureText } from '../store/failure.js';
import { encodeCheck, extendCrc, verifyLoaded } from './integrity.js';
import { ReadView, readStoredBlock } from './read_view.js';
import { log } from '../log.js';
import { nextTurn } from './next_turn.js';

/** The chain's blocks are the store's (store/block_records.ts); importers of the chain get the type here. */
export type { StoredBlock };

/**
 * A branch's writes wait in its group up to this many records (~3 MB): ~12 blocks full of transfers,
 * a whole 30-block range of empty ones.
 */
const GROUP_RECORDS = 20_000;

/** Seconds since an arbitrary origin, never going back. */
const monotonicSeconds = (): number => performance.now() / 1000;

export interface AppendOptions {
  /** Local clock for the future-timestamp rule (Unix seconds). */
  now: number;
  /** Skip the proof of work (this node's own `/debug/fakemine` blocks; headers sync verified already). */
  skipPow?: boolean;
}

export class Chain implements HeaderChainView {
  /** The header chain of the applied blocks, packed (no object per header). */
  private readonly headers: PackedHeaders;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners: ((e: ChainEvent) => void | Promise<void>)[] = [];
  private readonly rollbackHooks: ((block: StoredBlock) => Promise<void>)[] = [];
  private readonly settledListeners: (() => Promise<void>)[] = [];
  /** The best signed snapshot received (consensus.md §5.6); no chain contradicting it is accepted. */
  private pinned: VerifiedSnapshot | null = null;
  /** CRC-32 over the raw headers 1 … length (integrity.ts). */
  private headerCrc = 0;
  private readonly marker: HeadMarker;
  /** What reads see (read_view.ts), and every view still read from. */
  private current!: ReadView;
  private readonly live = new Set<ReadView>();
  /** The writes of the branch being applied (switchBranch), not yet made. */
  private group: WriteGroup | null = null;
  /** The last write failed (said once in the log until a write succeeds). */
  private writeFailing = false;

  private constructor(
    readonly db: Db,
    readonly params: NetworkParams,
    /** A branch's group is written once it holds this many records (smaller in tests). */
    private readonly groupRecords = GROUP_RECORDS,
    /** Seconds on a monotonic clock: how long each block's application took (the append event's `applySeconds`). */
    private readonly clock: () => number = monotonicSeconds,
  ) {
    this.headers = new PackedHeaders(params);
    this.marker = new HeadMarker(db.location);
  }

  /**
   * Loads the header chain of the last complete block and checks it against what was committed
   * (integrity.ts); throws a StoreFailure naming the damage.
   */
  static async open(db: Db, params: NetworkParams, opts: { groupRecords?: number; clock?: () => number } = {}): Promise<Chain> {
    const c = new Chain(db, params, opts.groupRecords, opts.clock);
    let check: Uint8Array | undefined;
    let length: number;
    try {
      const [head, record] = await db.getMany([META_HEAD, META_CHECK]);
      length = head ? readU32(head) : 0;
      check = record;
      await c.loadHeaders(length);
    } catch (e) {
      if (isCorruption(e)) throw damaged(db.location, (e as Error).message.replace(/\.$/, ''));
      throw e;
    }
    verifyLoaded({ path: db.location, head: length, length: c.length, hashAt: (h) => c.hashAt(h), headerCrc: c.headerCrc }, check, c.marker.read());
    const snapshot = await db.get(SIGNED_SNAPSHOT);
    if (snapshot) {
      try {
        c.pinned = verifySnapshot(params, decodeSnapshot(snapshot));
      } catch {
        /* signed by a key no longer listed */
      }
    }
    c.publish();
    onReopen(db, () => c.renewSnapshot());
    return c;
  }

  /**
   * Reads the committed headers: whole chunks of 4,096 from their chunk records, the rest one by
   * one. They were verified when they were appended: no proof of work is recomputed, and only the
   * last header of each chunk is hashed. A chunk without its record (a store written before them)
   * is read from the single headers and its record written, once. A missing header ends the chain
   * there (open() reports the shortfall).
   */
  private async loadHeaders(length: number): Promise<void> {
    const chunks = Math.floor(length / HEADER_CHUNK);
    const it = this.db.iterator({ gte: headerChunkKey(0), lt: headerChunkKey(chunks) });
    try {
      for (let rows = await it.nextv(64); rows.length > 0; rows = await it.nextv(64)) {
        for (const [key, raws] of rows) {
          const chunk = readU32(key, 1);
          while (this.length < chunk * HEADER_CHUNK) if (!(await this.loadSingles(this.length + HEADER_CHUNK, true))) return;
          if (raws.length !== HEADER_CHUNK * HEADER_SIZE) throw damaged(this.db.location, `its header chunk record ${chunk} has ${raws.length} bytes`);
          this.pushLoaded(raws);
        }
      }
    } finally {
      await it.close();
    }
    while (this.length < chunks * HEADER_CHUNK) if (!(await this.loadSingles(this.length + HEADER_CHUNK, true))) return;
    if (this.length < length) await this.loadSingles(length, false);
  }

  /**
   * Headers length + 1 … to from their single records, up to the first missing one; `record`: also
   * write their chunk record. Returns whether all of them were there.
   */
  private async loadSingles(to: number, record: boolean): Promise<boolean> {
    const from = this.length + 1;
    const raws = new Uint8Array((to - from + 1) * HEADER_SIZE);
    let n = 0;
    for (const [key, raw] of await this.db.iterator({ gte: headerKey(from), lt: headerKey(to + 1) }).all()) {
      if (readU32(key, 1) !== from + n) break;
      if (raw.length !== HEADER_SIZE) throw damaged(this.db.location, `its header ${from + n} has ${raw.length} bytes`);
      raws.set(raw, n++ * HEADER_SIZE);
    }
    if (n === 0) return false;
    if (record && n === to - from + 1) await this.db.put(headerChunkKey(to / HEADER_CHUNK - 1), raws);
    this.pushLoaded(raws.subarray(0, n * HEADER_SIZE));
    return n === to - from + 1;
  }

  private pushLoaded(raws: Uint8Array): void {
    this.headers.pushMany(raws, blockHash(raws.subarray(raws.length - HEADER_SIZE)));
    this.headerCrc = extendCrc(this.headerCrc, raws);
  }

  get length(): number {
    return this.headers.length;
  }
  get tipHash(): Uint8Array {
    return this.headers.tipHash;
  }
  get worksum(): bigint {
    return this.headers.worksum;
  }

  hashAt(height: number): Uint8Array {
    return this.headers.hashAt(height);
  }
  headerAt(height: number): Header {
    return this.headers.headerAt(height);
  }
  rawHeaderAt(height: number): Uint8Array {
    return this.headers.rawAt(height);
  }
  /** Headers from … to, concatenated (80 bytes each). */
  rawHeadersAt(from: number, to: number): Uint8Array {
    return this.headers.rangeAt(from, to);
  }
  timestampAt(height: number): number {
    return this.headers.timestampAt(height);
  }
  targetAt(height: number): number {
    return this.headers.targetAt(height);
  }
  worksumAt(height: number): bigint {
    return this.headers.worksumAt(height);
  }

  /** The best signed snapshot received, or null (§5.6). */
  get snapshot(): VerifiedSnapshot | null {
    return this.pinned;
  }

  /** Fails with ELEADERMISMATCH if block `hash` at `height` contradicts the signed snapshot (§5.6). */
  checkSnapshot(height: number, hash: Uint8Array): void {
    if (!agreesWithSnapshot(this.params, this.pinned, height, hash)) {
      fail('ELEADERMISMATCH', `block ${height} ${toHex(hash)} contradicts the signed snapshot`);
    }
  }

  /**
   * Keeps `s` if its priority is strictly greater than the held snapshot's (§5.6); if the chain
   * contradicts it, rolls back to height − 1 first. Returns whether `s` was kept.
   */
  applySnapshot(s: VerifiedSnapshot): Promise<boolean> {
    return this.change(async () => {
      if (comparePriority(priorityOf(s), priorityOf(this.pinned)) <= 0) return false;
      const rolledBack = !snapshotCompatible(this.params, s, this.length, (h) => this.hashAt(h));
      if (rolledBack) while (this.length >= s.height) await this.rollbackTip();
      await this.db.put(SIGNED_SNAPSHOT, encodeSnapshot(s));
      this.pinned = s;
      await this.emit({ kind: 'snapshot', snapshot: s, rolledBack });
      return true;
    });
  }

  /** Height of a block hash on this chain, or null. */
  async heightOfHash(hash: Uint8Array): Promise<number | null> {
    const v = this.source.getSync(hashIndexKey(hash));
    return v ? readU32(v) : null;
  }

  /** Called after each change, inside the change's turn: no other change runs until it returns. */
  onChange(listener: (e: ChainEvent) => void | Promise<void>): void {
    this.listeners.push(listener);
  }

  /**
   * Called once at the end of every change (an append, a rollback, a whole branch switch), still
   * inside its turn: the place to re-check things against the new chain once, not per block.
   */
  onSettled(listener: () => Promise<void>): void {
    this.settledListeners.push(listener);
  }

  /** Called before a block is rolled back, while the ledger still has its accounts. */
  onBeforeRollback(hook: (block: StoredBlock) => Promise<void>): void {
    this.rollbackHooks.push(hook);
  }

  /** Runs `task` alone, between chain changes: it sees one consistent chain and ledger. */
  locked<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(task);
  }

  /** Runs `task` after every earlier change has finished. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * After a change's commits, the head marker names the tip: it never names a block the database
   * does not hold. Once per change, not per block (a branch of 30 blocks is one file write); a
   * marker left behind, by a kill or a failed write, is accepted at start-up.
   */
  private markTip(): void {
    if (this.length === 0) return;
    try {
      this.marker.write(this.length, this.tipHash);
    } catch (e) {
      log.warn(`head marker not written: ${(e as Error).message}`);
    }
  }

  /** A change: runs alone, then the settled listeners run (also when the change failed). */
  private change<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      try {
        return await task();
      } finally {
        await nextTurn();
        this.markTip();
        for (const l of this.settledListeners) {
          try {
            await l();
          } catch (err) {
            log.error(`chain listener failed: ${(err as Error)?.stack ?? err}`);
          }
        }
        this.publish();
      }
    });
  }

  /** Validates and appends the block at height length + 1; throws NodeError and changes nothing on failure. */
  append(raw: Uint8Array, bodyBytes: Uint8Array, opts: AppendOptions): Promise<StoredBlock> {
    return this.change(async () => {
      const start = this.clock();
      const pre = new Prerecovery(this.params, this.db, [{ header: raw, body: bodyBytes }], this.length, (h) => this.hashAt(h));
      await pre.before(0);
      await nextTurn();
      return this.appendBlock(raw, bodyBytes, opts, pre.parsed(0), false, start);
    });
  }

  /**
   * `body`: the body parsed already (parseBlockBody for this header's version and height; checked
   * here) or, with `checked`, checkBlockBody's answer for this very header and body. `start`: when
   * the block's application began on the clock (its signatures' recovery included).
   */
  private async appendBlock(
    raw: Uint8Array,
    bodyBytes: Uint8Array,
    opts: AppendOptions,
    body?: Body,
    checked = false,
    start = this.clock(),
  ): Promise<StoredBlock> {
    const hc = checkHeader(this.params, this, raw, { now: opts.now, skipPow: opts.skipPow });
    const h = hc.height;
    this.checkSnapshot(h, hc.hash);
    if (!body) body = checkBlockBody(this.params, h, hc.header, bodyBytes);
    else if (!checked) checkParsedBody(this.params, h, hc.header, body);
    const source = this.source;
    const overlay = new StateOverlay(source);
    const applied = await applyBlock(source, overlay, {
      height: h,
      hash: hc.hash,
      timestamp: hc.header.timestamp,
      body,
      hashAt: (k) => this.hashAt(k),
    });
    const headerCrc = extendCrc(this.headerCrc, hc.raw);
    await this.write(
      overlay.ops(),
      blockPuts({
        height: h,
        raw: hc.raw,
        hash: hc.hash,
        body: bodyBytes,
        undo: overlay.undoRecord(),
        meta: { firstStateId: applied.firstStateId, firstHistoryId: applied.firstHistoryId, headerCrc },
        chunkHeaders: () => {
          const raws = new Uint8Array(HEADER_CHUNK * HEADER_SIZE);
          raws.set(this.rawHeadersAt(h - HEADER_CHUNK + 1, h - 1));
          raws.set(hc.raw, raws.length - HEADER_SIZE);
          return raws;
        },
      }),
      headRecords(h, hc.hash, headerCrc),
    );
    this.headers.push(hc.raw, hc.hash);
    this.headerCrc = headerCrc;
    const block: StoredBlock = {
      height: h,
      header: hc.header,
      raw: hc.raw,
      hash: hc.hash,
      body: bodyBytes,
      firstHistoryId: applied.firstHistoryId,
    };
    await this.emit({ kind: 'append', block, body, applySeconds: this.clock() - start });
    return block;
  }

  /** Removes the tip block, restoring the ledger from its undo record (consensus.md §9.4). */
  rollback(): Promise<StoredBlock> {
    return this.change(() => this.rollbackTip());
  }

  /**
   * Fork choice (consensus.md §2.6): replaces the blocks above `fork` by `branch` if, and only if,
   * the branch carries strictly more work. The branch is validated block by block as it is applied;
   * if any block fails, the original blocks are restored and the error is thrown. Returns the
   * blocks that left the chain (their transactions may return to the mempool).
   */
  switchBranch(fork: number, branch: BranchBlock[], opts: AppendOptions): Promise<StoredBlock[]> {
    return this.change(async () => {
      if (!Number.isInteger(fork) || fork < 0 || fork > this.length) fail('EFORKHEIGHT', `fork height ${fork}, chain length ${this.length}`);
      let work = this.worksumAt(fork);
      branch.forEach((b, i) => {
        this.checkSnapshot(fork + 1 + i, blockHash(b.header));
        work += targetWork(targetAt(this.params, fork + 1 + i, parseHeader(b.header).target));
      });
      if (work <= this.worksum) fail('EREORGWORK', 'the branch does not carry more work than the current chain');
      const removed: StoredBlock[] = [];
      while (this.length > fork) removed.unshift(await this.rollbackTip());
      const applied: StoredBlock[] = [];
      try {
        // The branch's blocks are written together (WriteGroup), and the signatures of the blocks
        // ahead are recovered in worker threads while each block is applied.
        this.group = new WriteGroup(this.db);
        const pre = new Prerecovery(this.params, this.group, branch, fork, (h) => this.hashAt(h));
        try {
          for (const [i, b] of branch.entries()) {
            const start = this.clock();
            await pre.before(i);
            applied.push(await this.appendBlock(b.header, b.body, opts, b.checked ?? pre.parsed(i), b.checked !== undefined, start));
          }
        } finally {
          // The blocks applied are valid, even when a later one is not: written, then rolled back below.
          const group = this.group;
          this.group = null;
          await this.commit(() => group.flush());
        }
      } catch (e) {
        // A failed write: what the database holds is what the chain is (then the usual way back).
        await this.forgetUnwritten(applied);
        while (this.length > fork) await this.rollbackTip();
        for (const b of removed) await this.appendBlock(b.raw, b.body, { now: opts.now, skipPow: true });
        throw e;
      }
      return removed;
    });
  }

  /**
   * After a failed write of a branch's group: the blocks above the database's head were applied in
   * memory only. They leave the chain as in a rollback (hooks and listeners told), with no write;
   * reads then never see a state the database does not hold.
   */
  private async forgetUnwritten(applied: StoredBlock[]): Promise<void> {
    const head = await this.db.get(META_HEAD);
    const written = head ? readU32(head) : 0;
    if (written >= this.length) return;
    log.warn(`blocks ${written + 1}-${this.length} were not written: the chain goes back to block ${written}, which the database holds`);
    while (this.length > written) {
      const block = applied.pop();
      if (block?.height !== this.length) throw new Error(`bug: block ${this.length} was not applied in this change`);
      for (const hook of this.rollbackHooks) await hook(block);
      this.headers.pop();
      await this.emit({ kind: 'rollback', block });
    }
    this.headerCrc = await this.headerCrcAt(written);
  }

  /** The CRC-32 of headers 1 … `height`: from that block's meta record, else computed. */
  private async headerCrcAt(height: number): Promise<number> {
    const meta = height > 0 ? await this.db.get(blockMetaKey(height)) : undefined;
    return (meta && decodeBlockMeta(meta).headerCrc) ?? (height > 0 ? extendCrc(0, this.rawHeadersAt(1, height)) : 0);
  }

  private async rollbackTip(): Promise<StoredBlock> {
    const h = this.length;
    if (h === 0) fail('EBADROLLBACK', 'the chain is empty');
    const block = await this.block(h);
    const undo = await this.db.get(undoKey(h));
    if (!block || !undo) {
      // The store lost a record it committed: the damaged-store error (2001), and the way out in the log.
      const damage = damaged(this.db.location, `block ${h} has no ${block ? 'undo record' : 'body or block meta'}`);
      log.error(damage.message);
      throw new NodeError('EDBDAMAGED', damage.message);
    }
    for (const hook of this.rollbackHooks) await hook(block);
    const headerCrc = await this.headerCrcAt(h - 1);
    // Before the commit, for the same reason as in appendBlock.
    this.marker.write(h - 1, this.hashAt(h - 1));
    await this.commit(() => writeBatch(this.db, undoOps(undo), blockDeletes(h, block.hash), headRecords(h - 1, this.hashAt(h - 1), headerCrc)));
    for (const v of this.live) v.keepPopped(h, this.rawHeaderAt(h), this.hashAt(h), this.worksumAt(h));
    this.headers.pop();
    this.headerCrc = headerCrc;
    await this.emit({ kind: 'rollback', block });
    return block;
  }

  /** The stored block at `height` of this chain, or null. */
  block(height: number): Promise<StoredBlock | null> {
    return readStoredBlock(this, this.source, height);
  }

  /** The database, seen with the writes of a branch being applied not yet made. */
  private get source(): StateSource {
    return this.group ?? this.db;
  }

  /**
   * Writes a block's operations: with a branch's group, to it (its write starts once it is large,
   * and runs while the next blocks are applied; the branch's end waits for it).
   */
  private async write(...lists: BatchOp[][]): Promise<void> {
    const group = this.group;
    if (!group) return this.commit(() => writeBatch(this.db, ...lists));
    group.add(...lists);
    if (group.size >= this.groupRecords) await this.commit(() => group.startWrite());
  }

  /**
   * Runs one write of the database. Its failure (disk full, I/O error) is the database's, not the
   * block's: EDBWRITE, said once in the log until a write succeeds again; what was not written is
   * never served (forgetUnwritten), and the next attempt continues from what was.
   */
  private async commit(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (e) {
      const reason = writeFailureText(e);
      if (!this.writeFailing) log.error(`cannot write to the database ${this.db.location}: ${reason}; the node keeps the chain it has written and tries again`);
      this.writeFailing = true;
      throw new NodeError('EDBWRITE', reason);
    }
    if (this.writeFailing) log.info(`writing to the database ${this.db.location} again`);
    this.writeFailing = false;
  }

  /** True from a failed write of the database until a write succeeds again. */
  get writeFailed(): boolean {
    return this.writeFailing;
  }

  /**
   * Whether a write may be tried now: after a failed one, false while the disk is still full (the
   * database is reopened otherwise, write_recovery.ts). Lets the sync client wait instead of
   * downloading blocks it cannot keep.
   */
  async writable(): Promise<boolean> {
    if (!this.writeFailing) return true;
    // In the chain's turn: a reopening closes the database under reads of a change in progress.
    return this.exclusive(() =>
      readyToWrite(this.db).then(
        () => true,
        () => false,
      ),
    );
  }

  /** The chain as of the end of the last change (for synchronous reads: keep no reference across an await). */
  get view(): ReadView {
    return this.current;
  }

  /**
   * Runs `task` on the chain as of the end of the last change: it never waits for a change, and
   * what it reads stays that state however long it takes (a reorg meanwhile is not seen).
   */
  async read<T>(task: (view: ReadView) => Promise<T>): Promise<T> {
    const v = this.current;
    v.refs++;
    try {
      return await task(v);
    } finally {
      if (--v.refs === 0 && v !== this.current) {
        this.live.delete(v);
        v.close();
      }
    }
  }

  /**
   * After the database was reopened (a failed write, write_recovery.ts) the published view's
   * snapshot is closed: the same view of the written chain, on a new snapshot. The reopening happens
   * before a change writes, so the published view is still what the database holds.
   */
  private renewSnapshot(): void {
    this.publish(this.current);
  }

  /** Makes the chain as it is now (or as `at` says) the one reads see, on a new snapshot. */
  private publish(at: { length: number; tipHash: Uint8Array; worksum: bigint } = this): void {
    const old = this.current as ReadView | undefined;
    this.current = new ReadView(this, at.length, at.tipHash, at.worksum, this.db.snapshot(), this.db);
    this.live.add(this.current);
    if (old && old.refs === 0) {
      this.live.delete(old);
      old.close();
    }
  }

  /** Waits until every queued change has been applied. */
  idle(): Promise<void> {
    return this.exclusive(async () => undefined);
  }

  private async emit(e: ChainEvent): Promise<void> {
    // The block is committed already: a failing listener must not make it look refused.
    for (const l of this.listeners) {
      try {
        await l(e);
      } catch (err) {
        log.error(`chain listener failed: ${(err as Error)?.stack ?? err}`);
      }
    }
  }
}

/** The head records of a chain of `height` blocks ending in `tipHash`: the head length and the check record. */
function headRecords(height: number, tipHash: Uint8Array, headerCrc: number): BatchOp[] {
  return [
    { type: 'put', key: META_HEAD, value: u32Value(height) },
    { type: 'put', key: META_CHECK, value: encodeCheck({ height, tipHash, headerCrc }) },
  ];
}

export type ChainEvent =
  /**
   * `applySeconds`: how long the block's application took (checks, signature recovery, ledger,
   * its write; in a branch the group's write is shared and not counted), on the chain's clock.
   */
  | { kind: 'append'; block: StoredBlock; body: Body; applySeconds: number }
  | { kind: 'rollback'; block: StoredBlock }
  /** A better signed snapshot was kept; `rolledBack`: the chain was cut to its height − 1 first. */
  | { kind: 'snapshot'; snapshot: VerifiedSnapshot; rolledBack: boolean };
