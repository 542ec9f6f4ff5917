// A block whose undo record the store lost cannot be rolled back: that is the damaged-store error
// (2001, EDBDAMAGED, with the way out in its text), not an internal error, and nothing changes.
import { rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { NodeError } from '../../ts/core/errors.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { undoKey } from '../../ts/store/keys.js';
import { ChainBuilder, wallet } from '../state/chain_fixture.js';

await initKernel();

test("a rollback without the block's undo record fails with EDBDAMAGED and leaves the chain as it was", async () => {
  const c = await ChainBuilder.create();
  try {
    await c.mineMany(2, () => wallet(1).address);
    await c.db.del(undoKey(2));
    const e = await c.chain.rollback().catch((err: unknown) => err);
    expect(e).toBeInstanceOf(NodeError);
    expect((e as NodeError).errorName).toBe('EDBDAMAGED');
    expect((e as NodeError).message).toMatch(/block 2 has no undo record.*--reindex/);
    expect(c.chain.length).toBe(2);
  } finally {
    await c.close();
    await rm(c.dir, { recursive: true, force: true });
  }
});
