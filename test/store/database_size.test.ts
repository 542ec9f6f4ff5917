// databaseSizeEvery (issue 20): /tools/info lists the database folder at most once per interval.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseSize, databaseSizeEvery } from '../../ts/store/database.js';

describe('databaseSizeEvery', () => {
  it('answers the last figure within the interval and refreshes after it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-size-'));
    try {
      await writeFile(join(dir, 'a'), new Uint8Array(100));
      let t = 0;
      const size = databaseSizeEvery(dir, 1000, () => t);
      expect(await size()).toBe(100n);
      await writeFile(join(dir, 'b'), new Uint8Array(50));
      t = 999;
      expect(await size()).toBe(100n); // within the interval: no walk
      t = 1000;
      expect(await size()).toBe(100n); // stale: the old figure, a walk starts
      await new Promise((r) => setTimeout(r, 50));
      expect(await size()).toBe(150n);
      expect(await databaseSize(dir)).toBe(150n);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
