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
