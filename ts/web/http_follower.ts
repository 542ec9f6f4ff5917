// The light node where the serving node has no WebSocket P2P port (issue 14): the headers come
// over the node's HTTP interface instead (`/chain/head`, `/chain/block/:height/header`, in every
// API generation), and each is verified with the same LightChain as over P2P before it is kept.
// It polls the head, follows new blocks, and on a reorg walks back to the last header the node
// still has, cutting the verified chain there. On mainnet it starts at the checkpoint (light_chain.ts).
import { NodeError } from '../core/errors.js';
import { fromHex } from '../core/hex.js';
import type { NetworkParams } from '../consensus/params.js';
import { anchorStart, LightChain } from './light_chain.js';
import { checkpointOf, type Checkpoint } from '../consensus/checkpoint.js';
import type { LightStatus } from './light_node.js';

/** Headers fetched at once (in parallel), then verified in order. */
const WINDOW = 64;
const POLL_MS = 1_000;

export interface HttpFollowerOptions {
  params: NetworkParams;
  /** GET an API route, resolving to its `data` (the page's `api`). */
  get(path: string): Promise<any>;
  onStatus?(s: LightStatus): void;
  now?(): number;
  clock?(): number;
  pollMs?: number;
  /** Where to start instead of genesis once the node's chain reaches it; default the network's checkpoint. */
  checkpoint?: Checkpoint | null;
}

export class HttpFollower {
  chain: LightChain;
  private readonly checkpoint: Checkpoint | null;
  private peerLength = 0;
  private peerWorksum = 0n;
  private started: { at: number; height: number } | null = null;
  private lastRate = 0;
  private readonly reorgs: number[] = [];
  private error: string | null = null;
  private connected = false;
  private stopped = false;
  private readonly now: () => number;
  private readonly clock: () => number;

  constructor(private readonly opts: HttpFollowerOptions) {
    this.chain = new LightChain(opts.params);
    this.checkpoint = opts.checkpoint === undefined ? checkpointOf(opts.params) : opts.checkpoint;
    this.now = opts.now ?? (() => Math.floor(Date.now() / 1000));
    this.clock = opts.clock ?? (() => performance.now());
    void this.run();
  }

  status(): LightStatus {
    const h = this.chain.length;
    return {
      verified: h,
      verifiedHash: h === 0 ? null : this.chain.hashAt(h),
      worksum: this.chain.worksum.toString(16),
      peerLength: this.peerLength,
      headersPerSecond: this.lastRate,
      reorgs: [...this.reorgs],
      error: this.error,
      connected: this.connected,
      anchor: this.chain.anchor,
    };
  }

  close(): void {
    this.stopped = true;
  }

  private changed(): void {
    this.opts.onStatus?.(this.status());
  }

  private async run(): Promise<void> {
    while (!this.stopped && !this.error) {
      try {
        await this.step();
        this.connected = true;
      } catch (e) {
        if (e instanceof Refused) {
          this.error = e.message;
          this.changed();
          return;
        }
        this.connected = false; // the node is unreachable for now: try again
      }
      this.changed();
      await new Promise((r) => setTimeout(r, this.opts.pollMs ?? POLL_MS));
    }
  }

  /** One poll: the node's head, a walk back on a reorg, then every header up to the head. */
  private async step(): Promise<void> {
    const d = await this.opts.get('/chain/head');
    const head = d.chainHead ?? d; // 0.8 answers the head flat
    this.peerLength = head.height;
    this.peerWorksum = BigInt(head.worksumHex);
    if (this.chain.length > this.peerLength) this.cut(this.peerLength);
    while (this.chain.length > 0 && (await this.header(this.chain.length)).hash !== this.chain.hashAt(this.chain.length)) {
      this.cut(this.chain.length - 1);
    }
    const c = this.checkpoint;
    if (c && this.chain.length === 0 && !this.chain.anchor && this.peerLength >= c.height) {
      // Start at the checkpoint: the headers the rules look back on, each the parent of the next.
      const history: Uint8Array[] = [];
      for (let from = anchorStart(c); from <= c.height; from += WINDOW) {
        const to = Math.min(c.height, from + WINDOW - 1);
        for (const h of await Promise.all(Array.from({ length: to - from + 1 }, (_, i) => this.header(from + i))))
          history.push(fromHex(h.raw) ?? new Uint8Array(0));
      }
      try {
        this.chain = LightChain.anchored(this.opts.params, c, history);
      } catch (e) {
        throw new Refused(`checkpoint refused (${e instanceof NodeError ? `${e.errorName}: ${e.message}` : String(e)})`);
      }
    }
    while (this.chain.length < this.peerLength && !this.stopped) {
      this.started ??= { at: this.clock(), height: this.chain.length };
      const from = this.chain.length + 1,
        to = Math.min(this.peerLength, from + WINDOW - 1);
      const headers = await Promise.all(Array.from({ length: to - from + 1 }, (_, i) => this.header(from + i)));
      const now = this.now();
      for (const [i, h] of headers.entries()) {
        const raw = fromHex(h.raw);
        try {
          if (!raw || raw.length !== 80) throw new NodeError('EBADHEADER', 'not 80 bytes of hex');
          this.chain.append(raw, now);
        } catch (e) {
          const why = e instanceof NodeError ? `${e.errorName}${e.message && e.message !== e.errorName ? `: ${e.message}` : ''}` : String(e);
          throw new Refused(`header ${from + i} refused (${why})`);
        }
      }
      const s = (this.clock() - this.started.at) / 1000;
      if (s > 0) this.lastRate = Math.round((this.chain.length - this.started.height) / s);
      this.changed();
    }
    // At the announced tip, the verified work must be what the node claimed (p2p.md §3.3, EFAKEWORK);
    // from a checkpoint the work before it is unknown.
    if (!this.chain.anchor && this.chain.length === this.peerLength && this.peerLength > 0 && this.chain.worksum < this.peerWorksum) {
      throw new Refused('the node claimed more work than its headers have (EFAKEWORK)');
    }
  }

  private async header(height: number): Promise<{ raw: string; hash: string }> {
    return (await this.opts.get(`/chain/block/${height}/header`)).header;
  }

  private cut(height: number): void {
    if (height < this.chain.length) {
      try {
        this.chain.truncate(height);
      } catch (e) {
        throw new Refused(e instanceof NodeError ? `${e.errorName}: ${e.message}` : String(e));
      }
      this.reorgs.push(height);
    }
  }
}

/** The node's chain broke a consensus rule: verification stops for good. */
class Refused extends Error {}
