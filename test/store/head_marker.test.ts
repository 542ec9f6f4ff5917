// The head marker file (store/head_marker.ts): written in place, read back exactly; an empty file
// (a kill between its creation and its first write) is no marker; anything else foreign is unreadable.
import { expect, test } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEAD_MARKER_FILE, HeadMarker } from '../../ts/store/head_marker.js';

test('head marker: absent, written, overwritten in place, empty, foreign', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-marker-'));
  try {
    const m = new HeadMarker(dir);
    expect(m.read()).toBeNull();
    const hash = (b: number) => new Uint8Array(32).fill(b);
    m.write(7, hash(1));
    expect(m.read()).toEqual({ height: 7, hash: hash(1) });
    m.write(123_456, hash(2));
    expect(m.read()).toEqual({ height: 123_456, hash: hash(2) });
    await writeFile(join(dir, HEAD_MARKER_FILE), '');
    expect(m.read()).toBeNull();
    m.write(8, hash(3));
    expect(m.read()).toEqual({ height: 8, hash: hash(3) });
    await writeFile(join(dir, HEAD_MARKER_FILE), Buffer.alloc(40, 7));
    expect(m.read()).toBe('unreadable');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
