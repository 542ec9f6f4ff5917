// The head marker: a small file beside LevelDB's own files naming a block the database holds
// (height, hash). A damaged or truncated write-ahead log makes LevelDB drop the newest writes
// without a word, and nothing inside the database can tell; this file, outside it, can. It is
// written after a block is committed and before one is rolled back, so it never names a block
// the database does not hold — unless the database lost it.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

export const HEAD_MARKER_FILE = 'WARTNODE-HEAD';

const SIZE = 4 + 32 + 4;

export interface HeadMark { height: number; hash: Uint8Array }

export class HeadMarker {
  private readonly path: string;
  constructor(dbPath: string) { this.path = join(dbPath, HEAD_MARKER_FILE); }

  /** The mark, null when there is none, 'unreadable' when the file is not one this node wrote. */
  async read(): Promise<HeadMark | null | 'unreadable'> {
    let b: Buffer;
    try {
      b = await readFile(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    if (b.length !== SIZE || b.readUInt32BE(SIZE - 4) !== crc32(b.subarray(0, SIZE - 4))) return 'unreadable';
    return { height: b.readUInt32BE(0), hash: new Uint8Array(b.subarray(4, 36)) };
  }

  /** Replaces the mark (a rename, so a crash leaves the old or the new one, never a torn file). */
  async write(height: number, hash: Uint8Array): Promise<void> {
    const b = Buffer.alloc(SIZE);
    b.writeUInt32BE(height, 0);
    b.set(hash, 4);
    b.writeUInt32BE(crc32(b.subarray(0, SIZE - 4)), SIZE - 4);
    await writeFile(this.path + '.new', b);
    await rename(this.path + '.new', this.path);
  }
}
