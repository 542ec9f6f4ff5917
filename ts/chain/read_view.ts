// What reads see of the chain: the header chain and the database as they were at the end of one
// change (an append, a rollback, a whole branch switch), never a state in between (issue 12).
// A view holds a LevelDB snapshot for the store and reads headers from the live packed chain,
// except those the chain has popped since: rollbacks hand them to every live view first.
import type { NetworkParams } from '../consensus/params.js';
import type { HeaderChainView } from '../consensus/header_check.js';
import { parseHeader, type Header } from '../core/header.js';
import type { Db, StateSource } from '../store/database.js';
import { blockMetaKey, bodyKey, hashIndexKey, readU32 } from '../store/keys.js';
import { decodeBlockMeta, type StoredBlock } from '../store/block_records.js';
import { snapshotDb, type Snapshot } from '../store/snapshot.js';

/** The chain's read accessors: the live Chain and a ReadView both have them. */
export interface ChainReadState extends HeaderChainView {
  readonly params: NetworkParams;
  readonly worksum: bigint;
  hashAt(height: number): Uint8Array;
  headerAt(height: number): Header;
  rawHeaderAt(height: number): Uint8Array;
  worksumAt(height: number): bigint;
}

/** The stored block at `height` of `state`, read from `db` (of the same moment), or null. */
export async function readStoredBlock(state: ChainReadState, db: Pick<StateSource, 'getMany'>, height: number): Promise<StoredBlock | null> {
  if (!Number.isInteger(height) || height < 1 || height > state.length) return null;
  const [body, meta] = await db.getMany([bodyKey(height), blockMetaKey(height)]);
  if (!body || !meta) return null;
  return {
    height,
    header: state.headerAt(height),
    raw: state.rawHeaderAt(height),
    hash: state.hashAt(height),
    body,
    firstHistoryId: decodeBlockMeta(meta).firstHistoryId,
  };
}

/** Results kept per view (memo); beyond, results are computed each time. */
const MEMOS_PER_VIEW = 1024;

interface Popped {
  raw: Uint8Array;
  hash: Uint8Array;
  worksum: bigint;
}

export class ReadView implements ChainReadState {
  /** Reads in progress on this view. */
  refs = 0;
  /** The database at the view's moment (read-only). */
  readonly db: Db;
  private readonly popped = new Map<number, Popped>();
  private readonly memos = new Map<string, Promise<unknown>>();

  constructor(
    private readonly live: ChainReadState,
    readonly length: number,
    readonly tipHash: Uint8Array,
    readonly worksum: bigint,
    private readonly snapshot: Snapshot,
    db: Db,
  ) {
    this.db = snapshotDb(db, snapshot);
  }

  get params(): NetworkParams {
    return this.live.params;
  }

  /** The chain is about to pop `height`; the first pop of a height is the one this view saw. */
  keepPopped(height: number, raw: Uint8Array, hash: Uint8Array, worksum: bigint): void {
    if (height <= this.length && !this.popped.has(height)) this.popped.set(height, { raw, hash, worksum });
  }

  hashAt(height: number): Uint8Array {
    if (height === 0) return this.params.genesisHash;
    this.check(height);
    if (height === this.length) return this.tipHash.slice();
    return this.popped.get(height)?.hash.slice() ?? this.live.hashAt(height);
  }
  rawHeaderAt(height: number): Uint8Array {
    this.check(height);
    return this.popped.get(height)?.raw.slice() ?? this.live.rawHeaderAt(height);
  }
  headerAt(height: number): Header {
    const p = this.popped.get(height);
    return p ? parseHeader(p.raw) : (this.check(height), this.live.headerAt(height));
  }
  timestampAt(height: number): number {
    const p = this.popped.get(height);
    return p ? parseHeader(p.raw).timestamp : (this.check(height), this.live.timestampAt(height));
  }
  targetAt(height: number): number {
    const p = this.popped.get(height);
    return p ? parseHeader(p.raw).target : (this.check(height), this.live.targetAt(height));
  }
  worksumAt(height: number): bigint {
    if (height === this.length) return this.worksum;
    if (height === 0) return 0n;
    this.check(height);
    return this.popped.get(height)?.worksum ?? this.live.worksumAt(height);
  }

  /** Height of a block hash on this view's chain, or null. */
  async heightOfHash(hash: Uint8Array): Promise<number | null> {
    const v = await this.db.get(hashIndexKey(hash));
    return v ? readU32(v) : null;
  }

  /**
   * `compute()`'s result for `key`, computed once per view: what is derived from one chain state
   * alone is the same for every read of that state (200 readers of one order book read it once).
   * The result is shared: callers must not change it.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let p = this.memos.get(key) as Promise<T> | undefined;
    if (!p) {
      p = compute();
      if (this.memos.size < MEMOS_PER_VIEW) {
        this.memos.set(key, p);
        p.catch(() => this.memos.delete(key));
      }
    }
    return p;
  }

  /** The stored block at `height` of this view's chain, or null. */
  block(height: number): Promise<StoredBlock | null> {
    return readStoredBlock(this, this.db, height);
  }

  close(): void {
    this.snapshot.close().catch(() => undefined);
  }

  private check(height: number): void {
    if (!Number.isInteger(height) || height < 1 || height > this.length) throw new RangeError(`height ${height} outside 1..${this.length}`);
  }
}

/**
 * The live chain with its reads pinned to `view`: the header accessors, `db`, `block`,
 * `heightOfHash` and nested `read`s see the view; anything else (changes) goes to the chain.
 */
export function pinnedTo<C extends object>(chain: C, view: ReadView): C {
  return new Proxy(chain, {
    get(target, prop) {
      if (prop === 'read') return <T>(task: (v: ReadView) => Promise<T>) => task(view);
      if (prop === 'view') return view;
      const source: object = prop in view ? view : target;
      const v = Reflect.get(source, prop, source);
      return typeof v === 'function' ? v.bind(source) : v;
    },
  });
}
