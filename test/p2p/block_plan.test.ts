// BlockPlan: the ranges of a download shared by several peers (ts/p2p/block_plan.ts).
import { describe, expect, it } from 'vitest';
import { BlockPlan } from '../../ts/p2p/block_plan.js';

describe('BlockPlan', () => {
  it('hands out ranges lowest first, within the window above the first not handed on', () => {
    const plan = new BlockPlan<string>(11, 100, 30, 2);
    expect(plan.take(100)).toEqual({ first: 11, last: 40 });
    expect(plan.take(100)).toEqual({ first: 41, last: 70 });
    expect(plan.take(100)).toBeNull(); // window: 2 ranges above 11
    plan.complete({ first: 41, last: 70 }, 'b');
    expect(plan.ready()).toEqual([]); // 11..40 has not arrived
    plan.complete({ first: 11, last: 40 }, 'a');
    expect(plan.ready().map((r) => r.value)).toEqual(['a', 'b']);
    expect(plan.take(100)).toEqual({ first: 71, last: 100 });
    expect(plan.finished).toBe(false);
    plan.complete({ first: 71, last: 100 }, 'c');
    expect(plan.ready().map((r) => r.range)).toEqual([{ first: 71, last: 100 }]);
    expect(plan.finished).toBe(true);
  });

  it('a peer whose chain ends lower only gets ranges it holds', () => {
    const plan = new BlockPlan<string>(1, 90, 30, 8);
    expect(plan.take(59)).toEqual({ first: 1, last: 30 });
    expect(plan.take(59)).toBeNull(); // 31..60 ends above 59
    expect(plan.take(90)).toEqual({ first: 31, last: 60 });
  });

  it('a range given back is taken again before higher ones', () => {
    const plan = new BlockPlan<string>(1, 90, 30, 8);
    const a = plan.take(90)!,
      b = plan.take(90)!;
    plan.giveBack(a);
    expect(plan.take(90)).toEqual(a);
    expect(plan.take(90)).toEqual({ first: 61, last: 90 });
    plan.giveBack(b);
    expect(plan.take(90)).toEqual(b);
  });

  it('waiters wake on every change; after close nothing is taken and arrivals are dropped', async () => {
    const plan = new BlockPlan<string>(1, 60, 30, 8);
    const r = plan.take(60)!;
    let woke = 0;
    const waiting = plan.changes().then(() => woke++);
    plan.complete(r, 'x');
    await waiting;
    expect(woke).toBe(1);
    const closing = plan.changes();
    plan.close();
    await closing;
    expect(plan.finished).toBe(true);
    expect(plan.take(60)).toBeNull();
    expect(plan.ready()).toEqual([]);
  });
});
