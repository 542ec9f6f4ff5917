// The peers' records in the node's database (p2p.md §4.1 address book, §4.4 bans and offenses,
// §4.5 transmission buckets; key layout in store/keys.ts). Writes are queued and never awaited by
// the network code; `idle()` waits for them before the database closes.
import type { Db } from '../store/database.js';
import { PREFIX, banRecordKey, offenseKey, peerAddressKey, prefixRange, readU32, readU64, rxtxKey, u64Value, type Prefix } from '../store/keys.js';

export interface StoredPeer {
  address: string;
  verified: boolean;
  lastVerifiedS: number;
}
export interface StoredBan {
  key: string;
  untilMs: number;
  code: number;
}
export interface StoredOffense {
  seq: bigint;
  ip: string;
  timeMs: number;
  code: number;
}
export interface StoredBucket {
  width: 'm' | 'h';
  begin: number;
  host: string;
  rx: number;
  tx: number;
}

const utf8 = new TextEncoder();
const text = new TextDecoder();

export class PeerDb {
  private pending: Promise<unknown> = Promise.resolve();
  /** The last write failed: the next failures are not reported again (a full disk, one line) until one succeeds. */
  private failing = false;

  constructor(
    private readonly db: Db,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Resolves once every queued write has been done. */
  idle(): Promise<unknown> {
    return this.pending;
  }

  private write(op: () => Promise<unknown>): void {
    this.pending = this.pending.then(op).then(
      () => {
        this.failing = false;
      },
      (e) => {
        if (!this.failing) this.onError(e);
        this.failing = true;
      },
    );
  }

  private async *scan(prefix: Prefix): AsyncGenerator<[Uint8Array, Uint8Array]> {
    for await (const kv of this.db.iterator(prefixRange(prefix))) yield kv;
  }

  // --- address book ---------------------------------------------------------------------------

  async peers(): Promise<StoredPeer[]> {
    const out: StoredPeer[] = [];
    for await (const [k, v] of this.scan(PREFIX.peerAddress))
      out.push({ address: text.decode(k.subarray(1)), verified: v[0] === 1, lastVerifiedS: readU32(v, 1) });
    return out;
  }

  putPeer(p: StoredPeer): void {
    const v = new Uint8Array(5);
    v[0] = p.verified ? 1 : 0;
    new DataView(v.buffer).setUint32(1, p.lastVerifiedS);
    this.write(() => this.db.put(peerAddressKey(p.address), v));
  }

  deletePeer(address: string): void {
    this.write(() => this.db.del(peerAddressKey(address)));
  }

  // --- bans -----------------------------------------------------------------------------------

  async bans(): Promise<StoredBan[]> {
    const out: StoredBan[] = [];
    for await (const [k, v] of this.scan(PREFIX.ban)) out.push({ key: text.decode(k.subarray(1)), untilMs: Number(readU64(v)), code: readU32(v, 8) });
    return out;
  }

  putBan(b: StoredBan): void {
    const v = new Uint8Array(12);
    const d = new DataView(v.buffer);
    d.setBigUint64(0, BigInt(b.untilMs));
    d.setUint32(8, b.code);
    this.write(() => this.db.put(banRecordKey(b.key), v));
  }

  deleteBans(keys: string[]): void {
    if (keys.length) this.write(() => this.db.batch(keys.map((k) => ({ type: 'del' as const, key: banRecordKey(k) }))));
  }

  // --- offenses -------------------------------------------------------------------------------

  async offenses(): Promise<StoredOffense[]> {
    const out: StoredOffense[] = [];
    for await (const [k, v] of this.scan(PREFIX.offense)) {
      out.push({ seq: readU64(k, 1), timeMs: Number(readU64(v)), code: readU32(v, 8), ip: text.decode(v.subarray(12)) });
    }
    return out;
  }

  putOffense(o: StoredOffense): void {
    const ip = utf8.encode(o.ip);
    const v = new Uint8Array(12 + ip.length);
    const d = new DataView(v.buffer);
    d.setBigUint64(0, BigInt(o.timeMs));
    d.setUint32(8, o.code);
    v.set(ip, 12);
    this.write(() => this.db.put(offenseKey(o.seq), v));
  }

  deleteOffenses(seqs: bigint[]): void {
    if (seqs.length) this.write(() => this.db.batch(seqs.map((s) => ({ type: 'del' as const, key: offenseKey(s) }))));
  }

  // --- transmission buckets -------------------------------------------------------------------

  async buckets(): Promise<StoredBucket[]> {
    const out: StoredBucket[] = [];
    for await (const [k, v] of this.scan(PREFIX.transmission)) {
      const width = String.fromCharCode(k[1]) as 'm' | 'h';
      out.push({ width, begin: readU32(k, 2), host: text.decode(k.subarray(6)), rx: Number(readU64(v)), tx: Number(readU64(v, 8)) });
    }
    return out;
  }

  putBucket(b: StoredBucket): void {
    const v = new Uint8Array(16);
    v.set(u64Value(BigInt(b.rx)), 0);
    v.set(u64Value(BigInt(b.tx)), 8);
    this.write(() => this.db.put(rxtxKey(b.width, b.begin, b.host), v));
  }

  deleteBuckets(bs: StoredBucket[]): void {
    if (bs.length) this.write(() => this.db.batch(bs.map((b) => ({ type: 'del' as const, key: rxtxKey(b.width, b.begin, b.host) }))));
  }
}
