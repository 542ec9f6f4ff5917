import { expect, test } from 'vitest';
import { blockDeletes, blockPuts, decodeBlockMeta, encodeBlockMeta } from '../../ts/store/block_records.js';
import { HEADER_CHUNK } from '../../ts/store/keys.js';
import { toHex } from '../../ts/core/hex.js';

const keys = (ops: { key: Uint8Array }[]) => ops.map((o) => toHex(o.key)).sort();

test('a rollback deletes exactly the records an append wrote, chunk record included', () => {
  for (const height of [1, HEADER_CHUNK - 1, HEADER_CHUNK, 2 * HEADER_CHUNK]) {
    const hash = new Uint8Array(32).fill(height & 0xff);
    let chunkRead = false;
    const puts = blockPuts({
      height,
      raw: new Uint8Array(80),
      hash,
      body: new Uint8Array(10),
      undo: new Uint8Array(4),
      meta: { firstStateId: 1n, firstHistoryId: 2n, headerCrc: 3 },
      chunkHeaders: () => {
        chunkRead = true;
        return new Uint8Array(80 * HEADER_CHUNK);
      },
    });
    expect(chunkRead).toBe(height % HEADER_CHUNK === 0);
    expect(keys(blockDeletes(height, hash))).toEqual(keys(puts));
  }
});

test('block meta: encoded and decoded; records from before the header CRC decode without one', () => {
  const meta = { firstStateId: 7n << 40n, firstHistoryId: 9n, headerCrc: 0xdeadbeef };
  expect(decodeBlockMeta(encodeBlockMeta(meta))).toEqual(meta);
  expect(decodeBlockMeta(encodeBlockMeta(meta).subarray(0, 16))).toEqual({ ...meta, headerCrc: null });
});
