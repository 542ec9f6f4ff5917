// The chain manager: the header chain in memory, blocks and ledger in the database. Every change
// (append, rollback) runs alone, in order, and commits as one atomic batch: the ledger changes, the
// block, its undo record and the new head (DESIGN.md "One atomic batch per block"). A node killed
// at any moment restarts on the last complete block.
import { fail } from '../core/errors.js';
import type { NetworkParams } from '../consensus/params.js';
import { blockHash, parseHeader, type Header } from '../core/header.js';
import type { Body } from '../core/body.js';
import { checkHeader, type HeaderChainView } from '../consensus/header_check.js';
import { checkBlockBody } from '../consensus/block_check.js';
import { targetAt } from '../consensus/header_check.js';
import { addWork, targetWork } from '../consensus/target.js';
import type { Db } from '../store/database.js';
import {
  META_HEAD, SIGNED_SNAPSHOT, blockMetaKey, bodyKey, hashIndexKey, headerKey, prefixRange, readU32, readU64, u32Value, undoKey,
} from '../store/keys.js';
import { StateOverlay, undoOps, type BatchOp } from '../state/overlay.js';
import { applyBlock } from '../state/apply_block.js';
import { Writer } from '../core/bytes.js';
import {
  agreesWithSnapshot, comparePriority, decodeSnapshot, encodeSnapshot, priorityOf, snapshotCompatible, verifySnapshot,
  type VerifiedSnapshot,
} from '../consensus/signed_snapshot.js';
import { toHex } from '../core/hex.js';

export interface AppendOptions {
  /** Local clock for the future-timestamp rule (Unix seconds). */
  now: number;
  /** Skip the proof of work (only for this node's own `/debug/fakemine` blocks). */
  skipPow?: boolean;
}

export interface StoredBlock {
  height: number;
  header: Header;
  raw: Uint8Array;
  hash: Uint8Array;
  body: Uint8Array;
  firstHistoryId: bigint;
}

export class Chain implements HeaderChainView {
  private readonly headers: Uint8Array[] = []; // raw headers, index height − 1
  private readonly parsed: Header[] = [];
  private readonly hashes: Uint8Array[] = [];
  private readonly worksums: bigint[] = [];    // cumulative work, index height − 1
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners: ((e: ChainEvent) => void | Promise<void>)[] = [];
  private readonly rollbackHooks: ((block: StoredBlock) => Promise<void>)[] = [];
  private readonly settledListeners: (() => Promise<void>)[] = [];
  /** The best signed snapshot received (consensus.md §5.6); no chain contradicting it is accepted. */
  private pinned: VerifiedSnapshot | null = null;

  private constructor(readonly db: Db, readonly params: NetworkParams) {}

  /** Loads the header chain of the last complete block. */
  static async open(db: Db, params: NetworkParams): Promise<Chain> {
    const c = new Chain(db, params);
    const head = await db.get(META_HEAD);
    const length = head ? readU32(head) : 0;
    const { gte } = prefixRange('H');
    for await (const [, raw] of db.iterator({ gte, lt: headerKey(length + 1) })) c.push(raw);
    if (c.length !== length) throw new Error(`database corrupt: head ${length} but ${c.length} headers`);
    const snapshot = await db.get(SIGNED_SNAPSHOT);
    if (snapshot) {
      try { c.pinned = verifySnapshot(params, decodeSnapshot(snapshot)); } catch { /* signed by a key no longer listed */ }
    }
    return c;
  }

  get length(): number { return this.headers.length; }
  get tipHash(): Uint8Array { return this.hashAt(this.length); }
  get worksum(): bigint { return this.length === 0 ? 0n : this.worksums[this.length - 1]; }

  hashAt(height: number): Uint8Array {
    if (height === 0) return this.params.genesisHash;
    return this.hashes[height - 1];
  }
  headerAt(height: number): Header { return this.parsed[height - 1]; }
  rawHeaderAt(height: number): Uint8Array { return this.headers[height - 1]; }
  timestampAt(height: number): number { return this.parsed[height - 1].timestamp; }
  targetAt(height: number): number { return this.parsed[height - 1].target; }
  worksumAt(height: number): bigint { return height === 0 ? 0n : this.worksums[height - 1]; }

  /** The best signed snapshot received, or null (§5.6). */
  get snapshot(): VerifiedSnapshot | null { return this.pinned; }

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
    const v = await this.db.get(hashIndexKey(hash));
    return v ? readU32(v) : null;
  }

  /** Called after each change, inside the change's turn: no other change runs until it returns. */
  onChange(listener: (e: ChainEvent) => void | Promise<void>): void { this.listeners.push(listener); }

  /**
   * Called once at the end of every change (an append, a rollback, a whole branch switch), still
   * inside its turn: the place to re-check things against the new chain once, not per block.
   */
  onSettled(listener: () => Promise<void>): void { this.settledListeners.push(listener); }

  /** Called before a block is rolled back, while the ledger still has its accounts. */
  onBeforeRollback(hook: (block: StoredBlock) => Promise<void>): void { this.rollbackHooks.push(hook); }

  /** Runs `task` alone, between chain changes: it sees one consistent chain and ledger. */
  locked<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(task);
  }

  private push(raw: Uint8Array): void {
    const header = parseHeader(raw);
    const h = this.headers.length + 1;
    const worksum = addWork(this.worksum, targetWork(targetAt(this.params, h, header.target)));
    this.headers.push(raw);
    this.parsed.push(header);
    this.hashes.push(blockHash(raw));
    this.worksums.push(worksum);
  }

  private pop(): void {
    this.headers.pop(); this.parsed.pop(); this.hashes.pop(); this.worksums.pop();
  }

  /** Runs `task` after every earlier change has finished. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A change: runs alone, then the settled listeners run (also when the change failed). */
  private change<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      try {
        return await task();
      } finally {
        for (const l of this.settledListeners) {
          try { await l(); } catch (err) { process.stderr.write(`chain listener failed: ${(err as Error)?.stack ?? err}\n`); }
        }
      }
    });
  }

  /** Validates and appends the block at height length + 1; throws NodeError and changes nothing on failure. */
  append(raw: Uint8Array, bodyBytes: Uint8Array, opts: AppendOptions): Promise<StoredBlock> {
    return this.change(() => this.appendBlock(raw, bodyBytes, opts));
  }

  private async appendBlock(raw: Uint8Array, bodyBytes: Uint8Array, opts: AppendOptions): Promise<StoredBlock> {
    const checked = checkHeader(this.params, this, raw, { now: opts.now, skipPow: opts.skipPow });
    const h = checked.height;
    this.checkSnapshot(h, checked.hash);
    const body: Body = checkBlockBody(this.params, h, checked.header, bodyBytes);
    const overlay = new StateOverlay(this.db);
    const applied = await applyBlock(this.db, overlay, {
      height: h, hash: checked.hash, timestamp: checked.header.timestamp, body, hashAt: (k) => this.hashAt(k),
    });
    const ops: BatchOp[] = [
      ...overlay.ops(),
      { type: 'put', key: headerKey(h), value: checked.raw },
      { type: 'put', key: bodyKey(h), value: bodyBytes },
      { type: 'put', key: hashIndexKey(checked.hash), value: u32Value(h) },
      { type: 'put', key: undoKey(h), value: overlay.undoRecord() },
      { type: 'put', key: blockMetaKey(h), value: new Writer(16).u64(applied.firstStateId).u64(applied.firstHistoryId).finish() },
      { type: 'put', key: META_HEAD, value: u32Value(h) },
    ];
    await this.db.batch(ops);
    this.push(checked.raw);
    const block: StoredBlock = { height: h, header: checked.header, raw: checked.raw, hash: checked.hash, body: bodyBytes, firstHistoryId: applied.firstHistoryId };
    await this.emit({ kind: 'append', block, body });
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
  switchBranch(fork: number, branch: { header: Uint8Array; body: Uint8Array }[], opts: AppendOptions): Promise<StoredBlock[]> {
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
      try {
        for (const b of branch) await this.appendBlock(b.header, b.body, opts);
      } catch (e) {
        while (this.length > fork) await this.rollbackTip();
        for (const b of removed) await this.appendBlock(b.raw, b.body, { now: opts.now, skipPow: true });
        throw e;
      }
      return removed;
    });
  }

  private async rollbackTip(): Promise<StoredBlock> {
    const h = this.length;
    if (h === 0) fail('EBADROLLBACK', 'the chain is empty');
    const block = await this.block(h);
    const undo = await this.db.get(undoKey(h));
    if (!block || !undo) throw new Error(`database corrupt: block ${h} has no undo record`);
    for (const hook of this.rollbackHooks) await hook(block);
    await this.db.batch([
      ...undoOps(undo),
      { type: 'del', key: headerKey(h) },
      { type: 'del', key: bodyKey(h) },
      { type: 'del', key: hashIndexKey(block.hash) },
      { type: 'del', key: undoKey(h) },
      { type: 'del', key: blockMetaKey(h) },
      { type: 'put', key: META_HEAD, value: u32Value(h - 1) },
    ]);
    this.pop();
    await this.emit({ kind: 'rollback', block });
    return block;
  }

  /** The stored block at `height` of this chain, or null. */
  async block(height: number): Promise<StoredBlock | null> {
    if (!Number.isInteger(height) || height < 1 || height > this.length) return null;
    const [body, meta] = await this.db.getMany([bodyKey(height), blockMetaKey(height)]);
    if (!body || !meta) return null;
    return {
      height, header: this.parsed[height - 1], raw: this.headers[height - 1], hash: this.hashes[height - 1],
      body, firstHistoryId: readU64(meta, 8),
    };
  }

  /** Waits until every queued change has been applied. */
  idle(): Promise<void> {
    return this.exclusive(async () => undefined);
  }

  private async emit(e: ChainEvent): Promise<void> {
    // The block is committed already: a failing listener must not make it look refused.
    for (const l of this.listeners) {
      try { await l(e); } catch (err) { process.stderr.write(`chain listener failed: ${(err as Error)?.stack ?? err}\n`); }
    }
  }
}

export type ChainEvent =
  | { kind: 'append'; block: StoredBlock; body: Body }
  | { kind: 'rollback'; block: StoredBlock }
  /** A better signed snapshot was kept; `rolledBack`: the chain was cut to its height − 1 first. */
  | { kind: 'snapshot'; snapshot: VerifiedSnapshot; rolledBack: boolean };
