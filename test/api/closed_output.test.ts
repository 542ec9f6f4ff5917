// A node whose reader went away (`wartnode | head`) keeps running: writing a log line to a closed
// stdout or stderr (EPIPE) is not fatal (issue 9 §3).
import { expect, test } from 'vitest';
import { sharedNode } from '../helpers/shared_node.js';

const node = sharedNode();

test('closing the pipes of stdout and stderr leaves the node serving', async () => {
  node().proc.stdout!.destroy();
  node().proc.stderr!.destroy();
  // Each faked block logs a line to the closed stdout; the first write fails with EPIPE.
  for (let i = 0; i < 5; i++) expect((await node().get('/debug/fakemine')).body.code).toBe(0);
  const head = await node().data('/chain/head');
  expect(head.chainHead.height).toBe(5);
  expect(node().proc.exitCode).toBe(null);
  // Shutting down logs too; it still ends cleanly.
  expect(await node().stop()).toBe(0);
});
