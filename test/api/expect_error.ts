// Asserts that a GET answers the error envelope with `code`.
import { expect } from 'vitest';
import type { TestNode } from '../helpers/node.js';

export async function expectError(node: TestNode, path: string, code: number): Promise<void> {
  const r = await node.get(path);
  expect(r.body.code, `${path} → ${r.text}`).toBe(code);
  expect(r.body.error.length).toBeGreaterThan(0);
  expect(r.status).toBe(200);
}
