// The head marker: a small file beside LevelDB's own files naming a block the database holds
// (height, hash). A damaged or truncated write-ahead log makes LevelDB drop the newest writes
// without a word, and nothing inside the database can tell; this file, outside it, can. It is
// written after a block is committed and before one is rolled back, so it never names a block
// the database does not hold — unless the database lost it.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

export const HEAD_MARKER_FILE = 'WARTNODE-HEAD';

const SIZE = 4 + 32 + 4;

export interface HeadMark {
  height: number;
  hash: Uint8Array;
}

export class HeadMarker {
  private readonly path: string;
  constructor(dbPath: string) {
    this.path = join(dbPath, HEAD_MARKER_FILE);
  }

  /** The mark, null when there is none, 'unreadable' when the file is not one this node wrote. */
  read(): HeadMark | null | 'unreadable' {
    let b: Buffer;
    try {
      b = readFileSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    if (b.length === 0) return null; // created, and the process killed before its first write
    if (b.length !== SIZE || b.readUInt32BE(SIZE - 4) !== crc32(b.subarray(0, SIZE - 4))) return 'unreadable';
    return { height: b.readUInt32BE(0), hash: new Uint8Array(b.subarray(4, 36)) };
  }

  /**
   * Replaces the mark: one 40-byte write at the start of the file, inside one disk sector, so it
   * lands whole or not at all (and the checksum would tell). Synchronous, in place: it runs inside
   * the block's change, where a temporary file and a rename cost 0.2 ms and four round trips
   * through libuv's thread pool, each waiting an event-loop turn behind the reads being served.
   */
  write(height: number, hash: Uint8Array): void {
    const b = Buffer.alloc(SIZE);
    b.writeUInt32BE(height, 0);
    b.set(hash, 4);
    b.writeUInt32BE(crc32(b.subarray(0, SIZE - 4)), SIZE - 4);
    let fd: number;
    try {
      fd = openSync(this.path, 'r+');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      fd = openSync(this.path, 'w');
    }
    try {
      writeSync(fd, b, 0, SIZE, 0);
    } finally {
      closeSync(fd);
    }
  }
}
