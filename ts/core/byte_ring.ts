// A bounded cache of fixed-size byte records in one buffer allocated up front: what a long-lived
// node remembers by the ten thousand (recovered signatures, signer keys) costs the same from the
// first record to the last. Kept as a Uint8Array and a small-key Map, a record is its own bytes
// plus a Map entry; kept as objects holding Uint8Arrays, each record measured ~1 KB of RSS
// (an ArrayBuffer and its backing store per array), and the cache's growth read as a leak.

/** At most `capacity` records of `recordBytes` each, by key; a new record overwrites the oldest written. */
export class ByteRing<K> {
  private readonly bytes: Uint8Array;
  private readonly keyOfSlot: (K | undefined)[];
  private readonly slotOf = new Map<K, number>();
  private next = 0;

  constructor(
    readonly capacity: number,
    readonly recordBytes: number,
  ) {
    this.bytes = new Uint8Array(capacity * recordBytes);
    this.keyOfSlot = new Array<K | undefined>(capacity).fill(undefined);
  }

  /** The record of `key`: a view into the ring, valid until the next `set` (copy what is kept). */
  get(key: K): Uint8Array | undefined {
    const slot = this.slotOf.get(key);
    return slot === undefined ? undefined : this.bytes.subarray(slot * this.recordBytes, (slot + 1) * this.recordBytes);
  }

  /** Writes `parts` (recordBytes together) as the newest record of `key`, replacing its older one. */
  set(key: K, ...parts: Uint8Array[]): void {
    const length = parts.reduce((n, p) => n + p.length, 0);
    if (length !== this.recordBytes) throw new RangeError(`a record is ${this.recordBytes} bytes, not ${length}`);
    const had = this.slotOf.get(key);
    if (had !== undefined) this.keyOfSlot[had] = undefined; // its slot is left to be overwritten in turn
    const slot = this.next;
    this.next = (slot + 1) % this.capacity;
    const evicted = this.keyOfSlot[slot];
    if (evicted !== undefined) this.slotOf.delete(evicted);
    let at = slot * this.recordBytes;
    for (const p of parts) {
      this.bytes.set(p, at);
      at += p.length;
    }
    this.keyOfSlot[slot] = key;
    this.slotOf.set(key, slot);
  }

  /** Records kept. */
  get size(): number {
    return this.slotOf.size;
  }
}
