// Reads LevelDB's own files and checks every checksum in them, as LevelDB's paranoid checks would
// (classic-level does not expose `paranoid_checks` nor `verify_checksums`, and without them a
// flipped byte in an uncompressed table block is served as data). Layouts: LevelDB's
// doc/table_format.md (blocks with a 5-byte trailer: compression type, masked CRC-32C of contents
// and type; a 48-byte footer) and doc/log_format.md (32 KiB blocks of records with a 7-byte header),
// for the files the manifest names (db/version_edit.cc).
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32c(data: Uint8Array, from = 0, to = data.length): number {
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = CRC32C_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** LevelDB stores CRCs masked (crc32c.h `Mask`), so a CRC over data holding CRCs stays sound. */
const masked = (crc: number) => ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;

const readU32LE = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

class Cursor {
  constructor(
    readonly b: Uint8Array,
    public at = 0,
  ) {}
  varint(): number {
    let v = 0,
      shift = 0;
    for (;;) {
      if (this.at >= this.b.length || shift > 63) throw new Error('bad varint');
      const byte = this.b[this.at++];
      v += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return v;
      shift += 7;
    }
  }
}

/** Snappy's raw format (the only compression LevelDB writes). */
function unsnappy(src: Uint8Array): Uint8Array {
  const c = new Cursor(src);
  const out = new Uint8Array(c.varint());
  let o = 0;
  while (c.at < src.length) {
    const tag = src[c.at++];
    let len: number, offset: number;
    if ((tag & 3) === 0) {
      len = tag >>> 2;
      if (len >= 60) {
        const n = len - 59;
        len = 0;
        for (let i = 0; i < n; i++) len |= src[c.at++] << (8 * i);
      }
      len += 1;
      if (c.at + len > src.length || o + len > out.length) throw new Error('bad snappy literal');
      out.set(src.subarray(c.at, c.at + len), o);
      c.at += len;
      o += len;
      continue;
    }
    if ((tag & 3) === 1) {
      len = 4 + ((tag >>> 2) & 7);
      offset = ((tag >>> 5) << 8) | src[c.at++];
    } else if ((tag & 3) === 2) {
      len = 1 + (tag >>> 2);
      offset = src[c.at] | (src[c.at + 1] << 8);
      c.at += 2;
    } else {
      len = 1 + (tag >>> 2);
      offset = readU32LE(src, c.at);
      c.at += 4;
    }
    if (offset === 0 || offset > o || o + len > out.length) throw new Error('bad snappy copy');
    for (let i = 0; i < len; i++, o++) out[o] = out[o - offset];
  }
  if (o !== out.length) throw new Error('bad snappy length');
  return out;
}

interface Handle {
  offset: number;
  size: number;
}

/** The checked contents of the block at `h`; throws naming what is wrong. */
function readBlock(file: Uint8Array, h: Handle): Uint8Array {
  const end = h.offset + h.size;
  if (end + 5 > file.length) throw new Error(`block at ${h.offset} runs past the end of the file`);
  const crc = readU32LE(file, end + 1);
  if (masked(crc32c(file, h.offset, end + 1)) !== crc) throw new Error(`block at ${h.offset} fails its checksum`);
  const contents = file.subarray(h.offset, end);
  if (file[end] === 0) return contents;
  if (file[end] === 1) return unsnappy(contents);
  throw new Error(`block at ${h.offset} has unknown compression ${file[end]}`);
}

/** The values of a block's entries (an index's or metaindex's: block handles). */
function blockValues(block: Uint8Array): Uint8Array[] {
  const restarts = readU32LE(block, block.length - 4);
  const limit = block.length - 4 - 4 * restarts;
  if (limit < 0) throw new Error('bad block restarts');
  const c = new Cursor(block.subarray(0, limit));
  const values: Uint8Array[] = [];
  while (c.at < limit) {
    c.varint(); // shared key bytes
    const unshared = c.varint();
    const valueLength = c.varint();
    c.at += unshared;
    if (c.at + valueLength > limit) throw new Error('bad block entry');
    values.push(block.subarray(c.at, c.at + valueLength));
    c.at += valueLength;
  }
  return values;
}

function handle(b: Uint8Array, c = new Cursor(b)): Handle {
  return { offset: c.varint(), size: c.varint() };
}

const TABLE_MAGIC = Uint8Array.of(0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb);

/** Checks every block of a table file: all its bytes must be covered by blocks with good checksums. */
export function checkTable(file: Uint8Array): void {
  if (file.length < 48 || !TABLE_MAGIC.every((v, i) => file[file.length - 8 + i] === v)) throw new Error('bad table footer');
  const c = new Cursor(file.subarray(file.length - 48, file.length - 8));
  const meta = handle(file, c);
  const index = handle(file, c);
  let covered = 48;
  const check = (h: Handle): Uint8Array => {
    covered += h.size + 5;
    return readBlock(file, h);
  };
  for (const v of blockValues(check(meta))) check(handle(v));
  for (const v of blockValues(check(index))) check(handle(v));
  if (covered !== file.length) throw new Error(`blocks cover ${covered} of ${file.length} bytes`);
}

const LOG_BLOCK = 32768;
const LOG_HEADER = 7;
const FULL = 1,
  FIRST = 2,
  MIDDLE = 3,
  LAST = 4;

/**
 * The records of a log-format file (a write-ahead log or a manifest), fragments joined; throws on
 * a failed checksum. An incomplete record at its very end is what a crash mid-write leaves (that
 * write never completed), not damage: it is left out.
 */
export function logRecords(file: Uint8Array): Uint8Array[] {
  const records: Uint8Array[] = [];
  let parts: Uint8Array[] | null = null;
  for (let at = 0; at < file.length; ) {
    const left = LOG_BLOCK - (at % LOG_BLOCK);
    if (left < LOG_HEADER) {
      at += left;
      continue;
    } // block trailer: zero padding
    if (at + LOG_HEADER > file.length) break;
    const length = file[at + 4] | (file[at + 5] << 8);
    const type = file[at + 6];
    if (type === 0 && length === 0) {
      at += left;
      continue;
    } // zero fill LevelDB may leave
    if (LOG_HEADER + length > left) throw new Error(`record at ${at} is longer than its block`);
    if (at + LOG_HEADER + length > file.length) break;
    if (masked(crc32c(file, at + 6, at + LOG_HEADER + length)) !== readU32LE(file, at)) throw new Error(`record at ${at} fails its checksum`);
    const data = file.subarray(at + LOG_HEADER, at + LOG_HEADER + length);
    if (type === FULL) records.push(data);
    else if (type === FIRST) parts = [data];
    else if ((type === MIDDLE || type === LAST) && parts) {
      parts.push(data);
      if (type === LAST) {
        records.push(Buffer.concat(parts));
        parts = null;
      }
    } else throw new Error(`record at ${at} has type ${type} out of sequence`);
    at += LOG_HEADER + length;
  }
  return records;
}

/** Checks every record checksum of a write-ahead log. */
export function checkLog(file: Uint8Array): void {
  logRecords(file);
}

/** Table files the database consists of, and the oldest write-ahead log it still replays. */
export interface LiveFiles {
  tables: Set<number>;
  minLog: number;
  prevLog: number;
}

/**
 * Replays a manifest's version edits (LevelDB's db/version_edit.cc tags): tables added minus
 * tables deleted, and the log numbers. Any other file is one LevelDB deletes at opening (a table
 * a compaction was writing when the process was killed), not part of the database.
 */
export function liveFiles(manifest: Uint8Array): LiveFiles {
  const tables = new Set<string>();
  let minLog = 0,
    prevLog = 0;
  for (const edit of logRecords(manifest)) {
    const c = new Cursor(edit);
    const skipBytes = () => {
      const n = c.varint();
      c.at += n;
    };
    while (c.at < edit.length) {
      const tag = c.varint();
      switch (tag) {
        case 1:
          skipBytes();
          break; // comparator name
        case 2:
          minLog = c.varint();
          break;
        case 3:
        case 4:
          c.varint();
          break; // next file number, last sequence
        case 5:
          c.varint();
          skipBytes();
          break; // compaction pointer: level, key
        case 6: {
          const level = c.varint();
          tables.delete(`${level}:${c.varint()}`);
          break;
        }
        case 7: {
          const level = c.varint();
          tables.add(`${level}:${c.varint()}`);
          c.varint();
          skipBytes();
          skipBytes();
          break;
        }
        case 9:
          prevLog = c.varint();
          break;
        default:
          throw new Error(`unknown version edit tag ${tag}`);
      }
      if (c.at > edit.length) throw new Error('version edit runs past its record');
    }
  }
  return { tables: new Set([...tables].map((t) => Number(t.split(':')[1]))), minLog, prevLog };
}

async function readIfThere(path: string): Promise<Uint8Array | null> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null; // compacted away meanwhile
    throw e;
  }
}

/**
 * Checks the manifest CURRENT names and every table and write-ahead log of the database at
 * `path` that LevelDB would read at opening; returns the first problem found, or null.
 */
export async function checkDatabaseFiles(path: string): Promise<string | null> {
  const current = await readIfThere(join(path, 'CURRENT'));
  const manifestName = current && Buffer.from(current).toString().trim();
  if (!manifestName || !/^MANIFEST-\d+$/.test(manifestName)) return 'its CURRENT file does not name a manifest';
  const manifest = await readIfThere(join(path, manifestName));
  if (!manifest) return `its manifest ${manifestName} is missing`;
  let live: LiveFiles;
  try {
    live = liveFiles(manifest);
  } catch (e) {
    return `manifest ${manifestName}: ${(e as Error).message}`;
  }
  const present = new Set<number>();
  for (const name of (await readdir(path)).sort()) {
    const m = /^(\d+)\.(ldb|sst|log)$/.exec(name);
    if (!m) continue;
    const number = Number(m[1]),
      kind = m[2] === 'log' ? 'log' : 'table';
    if (kind === 'table') present.add(number);
    if (kind === 'table' ? !live.tables.has(number) : number < live.minLog && number !== live.prevLog) continue;
    const bytes = await readIfThere(join(path, name));
    if (!bytes) continue;
    try {
      if (kind === 'table') checkTable(bytes);
      else checkLog(bytes);
    } catch (e) {
      return `${kind === 'table' ? 'table file' : 'write-ahead log'} ${name}: ${(e as Error).message}`;
    }
  }
  const missing = [...live.tables].find((n) => !present.has(n));
  return missing === undefined ? null : `table file ${String(missing).padStart(6, '0')}.ldb is missing`;
}
