// The transaction-id cache (consensus.md §7.6) keeps exactly the ids a next block could repeat:
// those pinned at or above pinBegin(length + 1). Pruning walks the database only where that
// window moves (every 32nd block); this checks the cache block by block across four moves, and
// that rolling back restores what the pruned blocks removed.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rm } from 'node:fs/promises';
import { pinBegin } from '../../ts/core/pin.js';
import { listTxIds } from '../../ts/state/txids.js';
import { ChainBuilder, wallet } from './chain_fixture.js';

const A = wallet(1),
  B = wallet(2);
let c: ChainBuilder;

beforeAll(async () => {
  c = await ChainBuilder.create({ spacing: 1 });
});
afterAll(async () => {
  await c.close();
  await rm(c.dir, { recursive: true, force: true });
});

/** The pin heights of the cached ids, ascending. */
const cachedPins = async () => (await listTxIds(c.db)).map((id) => id.pinHeight);

test("the cache holds the ids pinned inside the next block's window, block by block, and rollback restores them", async () => {
  await c.mine(A.address);
  await c.mine(B.address);
  // One transfer pinned at 0, 32, 64 and 96 (the newest pin height of blocks 5, 40, 70, 100).
  for (let h = c.length + 1; h <= 100; h = c.length + 1) {
    await c.mine(A.address, [5, 40, 70, 100].includes(h) ? { transfers: [{ from: A, to: B.address, amount: 1n, feeE8: 1n, nonceId: h }] } : {});
  }
  expect(await cachedPins()).toEqual([0, 32, 64, 96]);
  const expected = () => [0, 32, 64, 96].filter((p) => p >= pinBegin(c.length + 1));
  while (c.length < 8_180) await c.mine(A.address);
  let seen: number[][] = [];
  while (c.length < 8_300) {
    await c.mine(A.address);
    const pins = await cachedPins();
    expect(pins, `after block ${c.length}`).toEqual(expected());
    if (JSON.stringify(pins) !== JSON.stringify(seen.at(-1))) seen.push(pins);
  }
  expect(seen).toEqual([[0, 32, 64, 96], [32, 64, 96], [64, 96], [96], []]);
  while (c.length > 8_190) {
    await c.chain.rollback();
    expect(await cachedPins(), `after rolling back to ${c.length}`).toEqual(expected());
  }
  expect(await cachedPins()).toEqual([0, 32, 64, 96]);
}, 300_000);
