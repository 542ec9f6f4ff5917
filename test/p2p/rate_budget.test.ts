// A peer's transaction messages beyond their bucket (budget.ts): a bunch is dropped unanswered and
// forgiven — messages of an honest peer arrive bunched behind a slow link (scripts/network.mjs's
// slow node was banned by its peers for that) — while a flood ends in EMSGFLOOD after twice the burst.
import { describe, expect, it } from 'vitest';
import { PEER_BUDGETS, RateBudget } from '../../ts/p2p/budget.js';

const spec = PEER_BUDGETS.requestMessages;

describe('RateBudget.spendOrDrop', () => {
  it('answers within the burst, drops the next burst, then closes (EMSGFLOOD)', () => {
    const b = new RateBudget(spec, 0);
    for (let i = 0; i < spec.burst; i++) expect(b.spendOrDrop(1, 'Txreq messages', 0)).toBe(true);
    for (let i = 0; i < spec.burst; i++) expect(b.spendOrDrop(1, 'Txreq messages', 0)).toBe(false);
    expect(() => b.spendOrDrop(1, 'Txreq messages', 0)).toThrow(/Txreq messages: more than 20 at once or 5 a second/);
  });

  it('a bunch after a stall is forgiven: the debt is paid back at the steady rate, then messages are answered again', () => {
    const b = new RateBudget(spec, 0);
    // 36 at once after a quiet while (a sender at 4 a second held up for 9 s): 20 answered, 16 dropped.
    const answered = Array.from({ length: 36 }, () => b.spendOrDrop(1, 'Txreq messages', 9_000)).filter(Boolean).length;
    expect(answered).toBe(spec.burst);
    // The 16 of debt and one more token come back in (16 + 1) / 5 s.
    expect(b.spendOrDrop(1, 'Txreq messages', 9_000 + (17 * 1000) / spec.perSecond)).toBe(true);
  });
});
