// Per-peer rate budgets for what p2p.md §4.4 does not limit: transaction announcements (Txnotify)
// and transaction requests and replies (Txreq, Txrep). The reference bounds only the incoming
// queue (15 messages) and ping spacing (§2.3); these budgets are ours. Each is a token bucket: a
// burst, refilled at a steady rate. A peer that spends beyond a bucket is closed with EMSGFLOOD
// (an offense, §4.4); Txnotify and Txreq are charged by their size, before they are decoded. The
// figures leave honest traffic far below them: a node pushes what entered its mempool every 500 ms
// (a mempool's whole turnover of 10,000 is three Txnotify), and the pull path moves at most 100
// txids per 10 s pong. Messages of an honest peer can still arrive bunched: behind a slow link a
// block holds up what follows it, which then comes at once (scripts/network.mjs's slow node got its
// peers' Txreqs so and was banned). So Txnotify and Txreq beyond their bucket are first dropped
// unanswered — they still cost tokens, down to a debt of one more burst — and only a peer going on
// beyond that is closed: a flood ends in EMSGFLOOD after twice the burst, a bunch is forgiven.
import { fail } from '../core/errors.js';

export interface BudgetSpec {
  burst: number;
  perSecond: number;
}

/** The budgets of one peer (p2p.md §4.4 "beyond the reference"; README "Peer budgets"). */
export const PEER_BUDGETS = {
  /** Txnotify messages: 20 at once, 5 a second. */
  notifyMessages: { burst: 20, perSecond: 5 },
  /** Txids offered by Txnotify: a full mempool (10,000) at once, 2,000 a second. */
  notifyIds: { burst: 10_000, perSecond: 2_000 },
  /** Txreq messages: 20 at once, 5 a second. */
  requestMessages: { burst: 20, perSecond: 5 },
  /** Ids asked for by Txreq: two full requests (5,000 each) at once, 2,000 a second. */
  requestIds: { burst: 10_000, perSecond: 2_000 },
  /** Transactions received in Txrep (each costs a signature recovery): 10,000 at once, 1,000 a second. */
  replyTxs: { burst: 10_000, perSecond: 1_000 },
} as const satisfies Record<string, BudgetSpec>;

/**
 * Our own Txreqs to one peer: below its Txreq budget above and below the 15 messages its incoming
 * queue holds (protocol.ts `inboundQueue`), which a burst of 20 arriving together would overflow.
 */
export const OUR_REQUESTS: BudgetSpec = { burst: 8, perSecond: 4 };

/** A token bucket: `spend` fails (EMSGFLOOD) when the peer exceeds it. */
export class RateBudget {
  private tokens: number;
  private at: number;

  constructor(
    private readonly spec: BudgetSpec,
    now = Date.now(),
  ) {
    this.tokens = spec.burst;
    this.at = now;
  }

  /** Takes `n` tokens; throws EMSGFLOOD naming `what` when fewer are left. */
  spend(n: number, what: string, now = Date.now()): void {
    if (!this.take(n, now)) fail('EMSGFLOOD', `${what}: more than ${this.spec.burst} at once or ${this.spec.perSecond} a second`);
  }

  /**
   * Takes `n` tokens when there are as many (true); else, while the debt stays within one burst,
   * takes them anyway and answers false (the message is dropped); beyond that EMSGFLOOD.
   */
  spendOrDrop(n: number, what: string, now = Date.now()): boolean {
    if (this.take(n, now)) return true;
    if (this.tokens - n < -this.spec.burst) fail('EMSGFLOOD', `${what}: more than ${this.spec.burst} at once or ${this.spec.perSecond} a second`);
    this.tokens -= n;
    return false;
  }

  /** Takes `n` tokens when there are as many (true), else takes none (the sender's side: wait). */
  take(n: number, now = Date.now()): boolean {
    this.tokens = Math.min(this.spec.burst, this.tokens + ((now - this.at) * this.spec.perSecond) / 1000);
    this.at = now;
    if (n > this.tokens) return false;
    this.tokens -= n;
    return true;
  }
}

/** One peer's buckets, in the order of PEER_BUDGETS. */
export class PeerBudgets {
  readonly notifyMessages = new RateBudget(PEER_BUDGETS.notifyMessages);
  readonly notifyIds = new RateBudget(PEER_BUDGETS.notifyIds);
  readonly requestMessages = new RateBudget(PEER_BUDGETS.requestMessages);
  readonly requestIds = new RateBudget(PEER_BUDGETS.requestIds);
  readonly replyTxs = new RateBudget(PEER_BUDGETS.replyTxs);
}
