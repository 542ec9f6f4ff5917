// A bounded map that forgets its least recently used entry first: memory for values that never
// change for their key (views of a block by its hash), so repeated requests skip recomputation.

export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key); // Map keeps insertion order: most recently used last
      this.map.set(key, hit);
    }
    return hit;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  get size(): number {
    return this.map.size;
  }
}
