// A header chain segment in compact form: the raw 80-byte headers of heights base+1 … length packed
// into fixed-size chunks, no JS object per header (mainnet carries millions of them). Hashes are
// not stored: the hash of block h is the prevHash field of block h+1 (consensus.md §2.1, §2.2), so
// only the tip's is kept. Worksums (§2.6) are kept every SUM_STEP heights and completed from the
// targets on demand. Views handed out are copies, so later pops and pushes never change them.
import { HASH_SIZE, HEADER_SIZE, parseHeader, type Header } from '../core/header.js';
import { targetAt, type HeaderChainView } from '../consensus/header_check.js';
import { targetKindAt, type NetworkParams } from '../consensus/params.js';
import { addWork, targetWork } from '../consensus/target.js';

/** Headers per chunk: 5 MB buffers, allocated as the chain grows, never copied. */
const CHUNK_HEADERS = 1 << 16;
/** Heights between two stored worksums: at most this many additions per worksumAt. */
const SUM_STEP = 64;
// Field offsets in the 80-byte header (§2.1).
const TARGET_AT = 32;
const TIMESTAMP_AT = 72;

export class PackedHeaders implements HeaderChainView {
  private readonly chunks: Uint8Array[] = [];
  private readonly views: DataView[] = [];
  private count = 0;
  /** Leading chunks whose memory was given back (release). */
  private released = 0;
  private readonly tip: Uint8Array;
  private tipSum: bigint;
  /** sums[i]: the worksum at height base + i·SUM_STEP. */
  private readonly sums: bigint[];
  /** Work of a (kind, raw target) pair: targets repeat for thousands of blocks. */
  private readonly works = new Map<number, bigint>();
  private lastWork = { key: -1, work: 0n };

  constructor(
    readonly params: NetworkParams,
    /** Height below the first header held (0: from genesis). */
    readonly base = 0,
    baseHash: Uint8Array = params.genesisHash,
    baseWorksum = 0n,
  ) {
    this.tip = baseHash.slice();
    this.tipSum = baseWorksum;
    this.sums = [baseWorksum];
  }

  /** Height of the last header held (base when none is). */
  get length(): number {
    return this.base + this.count;
  }
  /** Headers held. */
  get size(): number {
    return this.count;
  }
  get tipHash(): Uint8Array {
    return this.tip.slice();
  }
  get worksum(): bigint {
    return this.tipSum;
  }

  /** Appends `raw` (80 bytes) whose hash is `hash`, as height length + 1. The caller has checked it. */
  push(raw: Uint8Array, hash: Uint8Array): void {
    if (raw.length !== HEADER_SIZE || hash.length !== HASH_SIZE) throw new RangeError('header of 80 bytes and hash of 32 expected');
    const i = this.count;
    if (i % CHUNK_HEADERS === 0 && this.chunks.length === i / CHUNK_HEADERS) {
      const chunk = new Uint8Array(CHUNK_HEADERS * HEADER_SIZE);
      this.chunks.push(chunk);
      this.views.push(new DataView(chunk.buffer));
    }
    this.chunks[Math.floor(i / CHUNK_HEADERS)].set(raw, (i % CHUNK_HEADERS) * HEADER_SIZE);
    this.count++;
    this.tip.set(hash);
    this.tipSum = addWork(this.tipSum, this.workAt(this.length));
    if (this.count % SUM_STEP === 0) this.sums.push(this.tipSum);
  }

  /**
   * Appends the headers concatenated in `raws` (committed ones, read back from the store) in one
   * step; `lastHash` is the hash of the last of them.
   */
  pushMany(raws: Uint8Array, lastHash: Uint8Array): void {
    if (raws.length % HEADER_SIZE !== 0 || raws.length === 0) throw new RangeError('whole headers expected');
    const n = raws.length / HEADER_SIZE;
    for (let done = 0; done < n; ) {
      const i = this.count + done;
      if (i % CHUNK_HEADERS === 0 && this.chunks.length === i / CHUNK_HEADERS) {
        const chunk = new Uint8Array(CHUNK_HEADERS * HEADER_SIZE);
        this.chunks.push(chunk);
        this.views.push(new DataView(chunk.buffer));
      }
      const take = Math.min(n - done, CHUNK_HEADERS - (i % CHUNK_HEADERS));
      this.chunks[Math.floor(i / CHUNK_HEADERS)].set(raws.subarray(done * HEADER_SIZE, (done + take) * HEADER_SIZE), (i % CHUNK_HEADERS) * HEADER_SIZE);
      done += take;
    }
    let sum = this.tipSum;
    for (let k = 0; k < n; k++) {
      this.count++;
      sum = addWork(sum, this.workAt(this.length));
      if (this.count % SUM_STEP === 0) this.sums.push(sum);
    }
    this.tipSum = sum;
    this.tip.set(lastHash);
  }

  /** Removes the last header; its prevHash becomes the tip hash. */
  pop(): void {
    if (this.count === 0) throw new RangeError('no header to remove');
    const h = this.length;
    if (this.count % SUM_STEP === 0) this.sums.pop();
    this.tipSum -= this.workAt(h);
    this.tip.set(this.slot(h).subarray(0, HASH_SIZE));
    this.count--;
    // Keep one spare chunk so that a reorg around a chunk boundary does not reallocate.
    while (this.chunks.length > Math.floor(this.count / CHUNK_HEADERS) + 2) {
      this.chunks.pop();
      this.views.pop();
    }
  }

  /**
   * Gives back the memory of whole chunks below `height` − SUM_STEP (worksumAt above `height` still
   * reads up to SUM_STEP headers below it). For a header sync that has applied those headers: the
   * chain holds them now. Reading a released header throws RangeError.
   */
  release(height: number): void {
    const whole = Math.min(Math.floor(Math.max(0, height - this.base - 1 - SUM_STEP) / CHUNK_HEADERS), Math.floor(this.count / CHUNK_HEADERS));
    for (; this.released < whole; this.released++) {
      this.chunks[this.released] = new Uint8Array(0);
      this.views[this.released] = new DataView(new ArrayBuffer(0));
    }
  }

  /** A copy of the header at `height` (base < height ≤ length). */
  rawAt(height: number): Uint8Array {
    return this.slot(height).slice();
  }

  /** Headers from … to (inclusive), concatenated: one copy for a whole range. */
  rangeAt(from: number, to: number): Uint8Array {
    const out = new Uint8Array(Math.max(0, to - from + 1) * HEADER_SIZE);
    for (let h = from; h <= to; h++) out.set(this.slot(h), (h - from) * HEADER_SIZE);
    return out;
  }

  headerAt(height: number): Header {
    return parseHeader(this.rawAt(height));
  }

  /** Hash of block `height`, base ≤ height ≤ length. */
  hashAt(height: number): Uint8Array {
    if (height === this.length) return this.tipHash;
    return this.slot(height + 1).slice(0, HASH_SIZE);
  }

  timestampAt(height: number): number {
    return this.u32(height, TIMESTAMP_AT);
  }
  targetAt(height: number): number {
    return this.u32(height, TARGET_AT);
  }

  /** Cumulative work up to `height`, base ≤ height ≤ length. */
  worksumAt(height: number): bigint {
    if (height === this.length) return this.tipSum;
    this.check(height, this.base);
    const i = Math.floor((height - this.base) / SUM_STEP);
    let sum = this.sums[i];
    for (let h = this.base + i * SUM_STEP + 1; h <= height; h++) sum = addWork(sum, this.workAt(h));
    return sum;
  }

  private workAt(height: number): bigint {
    const raw = this.targetAt(height);
    const kind = targetKindAt(this.params, height);
    const key = kind === 'V1' ? raw : raw + 2 ** 32;
    if (key === this.lastWork.key) return this.lastWork.work;
    let w = this.works.get(key);
    if (w === undefined) {
      if (this.works.size > 4096) this.works.clear();
      w = targetWork(targetAt(this.params, height, raw));
      this.works.set(key, w);
    }
    this.lastWork = { key, work: w };
    return w;
  }

  private u32(height: number, at: number): number {
    this.check(height, this.base + 1 + this.released * CHUNK_HEADERS);
    const i = height - this.base - 1;
    return this.views[Math.floor(i / CHUNK_HEADERS)].getUint32((i % CHUNK_HEADERS) * HEADER_SIZE + at);
  }

  private slot(height: number): Uint8Array {
    this.check(height, this.base + 1 + this.released * CHUNK_HEADERS);
    const i = height - this.base - 1;
    const at = (i % CHUNK_HEADERS) * HEADER_SIZE;
    return this.chunks[Math.floor(i / CHUNK_HEADERS)].subarray(at, at + HEADER_SIZE);
  }

  private check(height: number, lowest: number): void {
    if (!Number.isInteger(height) || height < lowest || height > this.length) {
      throw new RangeError(`height ${height} outside ${lowest}..${this.length}`);
    }
  }
}
