import { expect, test } from 'vitest';
import { Lru } from '../../ts/core/lru.js';

test('forgets the least recently used entry first, and a read counts as a use', () => {
  const c = new Lru<string, number>(2);
  c.set('a', 1);
  c.set('b', 2);
  expect(c.get('a')).toBe(1); // now b is the least recently used
  c.set('c', 3);
  expect(c.get('b')).toBeUndefined();
  expect(c.get('a')).toBe(1);
  expect(c.get('c')).toBe(3);
  expect(c.size).toBe(2);
  c.set('a', 10); // replacing keeps one entry
  expect(c.size).toBe(2);
  expect(c.get('a')).toBe(10);
});

test('bounds the total weight: a heavy entry pushes out several light ones, one heavier than the capacity is not kept', () => {
  const c = new Lru<string, number[]>(10, (v) => v.length);
  c.set('a', [1, 2, 3]);
  c.set('b', [1, 2, 3]);
  c.set('c', [1, 2, 3]);
  expect(c.weight).toBe(9);
  c.set('d', [1, 2, 3, 4, 5, 6]); // 15 > 10: a and b go
  expect([c.get('a'), c.get('b')]).toEqual([undefined, undefined]);
  expect(c.get('c')).toEqual([1, 2, 3]);
  expect(c.weight).toBe(9);
  c.set('c', [1]); // replacing counts the new weight only
  expect(c.weight).toBe(7);
  c.set('e', new Array(11).fill(0));
  expect(c.get('e')).toBeUndefined();
  expect(c.weight).toBe(7);
  expect(c.size).toBe(2);
});
