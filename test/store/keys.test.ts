import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { CARRIED_BY_REINDEX, PREFIX } from '../../ts/store/keys.js';

test('every record kind has its own prefix letter', () => {
  const letters = Object.values(PREFIX).map((p) => p.letter);
  expect(letters.every((l) => l.length === 1)).toBe(true);
  expect(new Set(letters).size).toBe(letters.length);
});

test('the layout comment names every prefix letter of the table, and only those', () => {
  const layout = readFileSync('ts/store/keys.ts', 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('//'))
    .join('\n');
  const named = new Set([...layout.matchAll(/^\/\/\s+'(.)' |\s{2,}'(.)' \S/gm)].map((m) => m[1] ?? m[2]));
  expect([...named].sort()).toEqual(
    Object.values(PREFIX)
      .map((p) => p.letter)
      .sort(),
  );
});

test("--reindex carries over what is not derived from blocks: the signed snapshot and the peers' records", () => {
  expect(CARRIED_BY_REINDEX.map((p) => p.letter).sort()).toEqual(['F', 'L', 'R', 'X', 'p']);
});
