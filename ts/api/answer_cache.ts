// Whole answers as written bytes (issue 20): a full block's `/chain/block/:id` is built once per
// block hash and API generation (the cache is per listener, so per generation) and then served from
// memory; answers that depend on the chain state (candles, richlists, a market) once per tip and
// mempool version (route.ts dependsOn). The one value of such answers that moves with the chain, the block's
// `confirmations`, is cut out of the stored text and written per request. Bounded in bytes: the
// least recently used answers go first.

/** A stored answer: its UTF-8 bytes split where `"confirmations":N` stood. */
interface Stored {
  key: string;
  pieces: Buffer[];
  bytes: number;
  /** The answer as last written whole, with its confirmations (served again until the tip moves). */
  last?: { confirmations: number; text: Buffer };
  state?: string;
}

/** What a route names its answer by; `confirmations` is the value of that field in it, if any. */
export interface AnswerKey {
  key: string;
  confirmations?: number;
  /**
   * Answers that supersede each other (a miner's block template, stamped each second): only the
   * latest `key` of a slot is kept, so a stream of short-lived keys holds one entry, not a trail.
   */
  slot?: string;
  /**
   * The chain state (and mempool version) the answer was computed on, for answers that hold only
   * until it changes: a cache keeps one state's answers, and drops them all when a later state's
   * arrives (else a stream of new tips and admissions fills the budget with answers no request can
   * name again: run 4 of issue 28 held 3,055 of them, of which a handful current).
   */
  state?: string;
}

/** Where an answer is kept: its slot, or its key. */
const entryOf = (k: AnswerKey) => (k.slot === undefined ? `key ${k.key}` : `slot ${k.slot}`);

/**
 * The key of an answer that is a function of the chain alone (the transaction-id window, the latest
 * mined transactions): the tip's hash, which names the whole state (rolling back and re-applying
 * gives it again, with the same state).
 */
export function tipAnswerKey(what: string, chain: { length: number; hashAt(h: number): Uint8Array }): AnswerKey {
  return { key: `${what} ${tipOf(chain)}` };
}

const tipOf = (chain: { length: number; hashAt(h: number): Uint8Array }) => `${chain.length} ${Buffer.from(chain.hashAt(chain.length)).toString('hex')}`;

/**
 * The key of an answer that is a function of the request URL and the chain state (`mempoolVersion`
 * null) or also of the pending transactions (route.ts dependsOn); it holds until that state changes.
 */
export function stateAnswerKey(url: string, chain: { length: number; hashAt(h: number): Uint8Array }, mempoolVersion: number | null): AnswerKey {
  const state = mempoolVersion === null ? tipOf(chain) : `${tipOf(chain)} mempool ${mempoolVersion}`;
  return { key: `url ${url} ${state}`, state };
}

/** The default budget of immutable answers, per listener. */
export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;
/** States left behind that are remembered, so an answer computed on one of them is not kept. */
const LEFT_STATES = 8;
/** Larger answers are not kept (a few would push everything else out). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export class AnswerCache {
  private readonly map = new Map<string, Stored>();
  private used = 0;
  /** The state whose answers are kept (AnswerKey.state), and the last ones left, newest last. */
  private state: string | undefined;
  private readonly left: string[] = [];
  hits = 0;
  misses = 0;

  constructor(private readonly capacity = ANSWER_CACHE_BYTES) {}

  /** The answer for `k`, with its confirmations written as `number(k.confirmations)`; undefined when absent. */
  get(k: AnswerKey, number: (n: number) => string): Buffer | undefined {
    const at = entryOf(k);
    const hit = this.map.get(at);
    if (!hit || hit.key !== k.key) {
      this.misses++;
      return undefined;
    }
    this.map.delete(at); // most recently used last
    this.map.set(at, hit);
    this.hits++;
    if (hit.pieces.length === 1) return hit.pieces[0];
    const confirmations = k.confirmations ?? 0;
    if (hit.last?.confirmations === confirmations) return hit.last.text;
    const c = Buffer.from(confirmationsText(confirmations, number));
    const text = Buffer.concat(hit.pieces.flatMap((p, i) => (i === 0 ? [p] : [c, p])));
    hit.last = { confirmations, text };
    return text;
  }

  /** Keeps `text`, the answer for `k` written with `number`. */
  set(k: AnswerKey, text: string, number: (n: number) => string): void {
    // The number ends where the field does (so confirmations 1 does not cut "confirmations":12).
    const pieces = (k.confirmations === undefined ? [text] : text.split(new RegExp(`${escape(confirmationsText(k.confirmations, number))}(?=[,}\\]])`))).map(
      (p) => Buffer.from(p),
    );
    if (k.state !== undefined && k.state !== this.state) {
      if (this.left.includes(k.state)) return; // computed on a state already left
      if (this.state !== undefined) this.left.push(this.state);
      if (this.left.length > LEFT_STATES) this.left.shift();
      this.state = k.state;
      for (const [at, v] of this.map) {
        if (v.state === undefined) continue;
        this.map.delete(at);
        this.used -= v.bytes;
      }
    }
    const at = entryOf(k);
    // A split answer also holds its last whole form (`last`): counted twice.
    const bytes = pieces.reduce((n, p) => n + (pieces.length > 1 ? 2 : 1) * p.length + 80, 64 + (k.key.length + at.length) * 2 + (pieces.length > 1 ? 64 : 0));
    if (bytes > MAX_ANSWER_BYTES || bytes > this.capacity) return;
    const old = this.map.get(at);
    if (old) {
      this.used -= old.bytes;
      this.map.delete(at);
    }
    this.map.set(at, k.state === undefined ? { key: k.key, pieces, bytes } : { key: k.key, pieces, bytes, state: k.state });
    this.used += bytes;
    while (this.used > this.capacity) {
      const [first, v] = this.map.entries().next().value!;
      this.map.delete(first);
      this.used -= v.bytes;
    }
  }

  get size(): number {
    return this.map.size;
  }
  get bytes(): number {
    return this.used;
  }
}

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const confirmationsText = (c: number, number: (n: number) => string) => `"confirmations":${number(c)}`;
