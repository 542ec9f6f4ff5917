// Per-IP request budget of the public RPC listener: a token bucket per client address (`burst`
// requests at once, refilled at `perSecond`). The table of addresses is bounded: buckets that
// are full again carry no information and are dropped first, then the oldest. The clock is the
// budget's own (injected), so what it allows is a function of the requests and that clock alone:
// a test stops it and gets the same answers on a busy machine as on an idle one.
import { NodeError } from '../core/errors.js';

export interface BudgetLimits {
  /** Requests a client may make at once. */
  burst: number;
  /** Requests per second a client regains. */
  perSecond: number;
  /** Most client addresses tracked at a time. */
  maxClients: number;
}

/** The refusal of a request (or stream upgrade) beyond the budget: retry in `wait` seconds. */
export const budgetSpent = (wait: number): NodeError => new NodeError('ECONNRATELIMIT', `request budget of this address spent, retry in ${wait} s`);

export const PUBLIC_BUDGET: BudgetLimits = { burst: 100, perSecond: 20, maxClients: 10_000 };

interface Bucket {
  tokens: number;
  atMs: number;
}

export class RequestBudget {
  private readonly buckets = new Map<string, Bucket>();

  /** `nowMs`: milliseconds of the clock the buckets refill by. */
  constructor(
    readonly limits: BudgetLimits = PUBLIC_BUDGET,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Takes one request from `ip`'s budget: 0 when allowed, else the seconds until one is available. */
  take(ip: string): number {
    const { burst, perSecond } = this.limits;
    const nowMs = this.nowMs();
    let b = this.buckets.get(ip);
    if (b) {
      b.tokens = Math.min(burst, b.tokens + ((nowMs - b.atMs) / 1000) * perSecond);
      b.atMs = nowMs;
    } else {
      if (this.buckets.size >= this.limits.maxClients) this.prune(nowMs);
      b = { tokens: burst, atMs: nowMs };
      this.buckets.set(ip, b);
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / perSecond));
  }

  get tracked(): number {
    return this.buckets.size;
  }

  private prune(nowMs: number): void {
    const { burst, perSecond } = this.limits;
    for (const [ip, b] of this.buckets) {
      if (b.tokens + ((nowMs - b.atMs) / 1000) * perSecond >= burst) this.buckets.delete(ip);
    }
    // Still full: forget the oldest quarter (they start again with a full budget).
    if (this.buckets.size >= this.limits.maxClients) {
      let drop = Math.ceil(this.limits.maxClients / 4);
      for (const ip of this.buckets.keys()) {
        if (drop-- <= 0) break;
        this.buckets.delete(ip);
      }
    }
  }
}
