// A bounded map that forgets its least recently used entry first: memory for values that never
// change for their key (views of a block by its hash), so repeated requests skip recomputation.
// The bound is a total weight, one per entry unless `weigh` says otherwise (a block's transactions
// weigh their count: a count of blocks bounded nothing, a block holding from 1 to thousands).

export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private total = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key); // Map keeps insertion order: most recently used last
      this.map.set(key, hit);
    }
    return hit;
  }

  /** Keeps `value` as the most recently used, forgetting the least recently used beyond the capacity (a value heavier than it is not kept). */
  set(key: K, value: V): void {
    this.delete(key);
    const w = this.weigh(value);
    if (w > this.capacity) return;
    this.map.set(key, value);
    this.total += w;
    while (this.total > this.capacity) this.delete(this.map.keys().next().value as K);
  }

  private delete(key: K): void {
    const had = this.map.get(key);
    if (had === undefined) return;
    this.map.delete(key);
    this.total -= this.weigh(had);
  }

  get size(): number {
    return this.map.size;
  }

  /** The entries' total weight (their count when unweighed). */
  get weight(): number {
    return this.total;
  }
}
