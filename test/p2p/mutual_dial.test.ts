// Two nodes that both --connect to each other keep one connection, not two (issue 9 §3): both
// sides keep the connection dialled by the node with the lower listen port, and close the other
// without an offense.
import { afterAll, expect, it } from 'vitest';
import { removeDir, type TestNode } from '../helpers/node.js';
import { freePorts, startPeerNode, waitFor } from '../helpers/peers.js';

const nodes: TestNode[] = [];
afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

it('two nodes dialling each other end with the one connection the lower port dialled', async () => {
  const [low, high] = await freePorts(2);
  const A = await startPeerNode([], undefined, [`--bind=127.0.0.1:${low}`, `--connect=127.0.0.1:${high}`]);
  nodes.push(A);
  const B = await startPeerNode([], undefined, [`--bind=127.0.0.1:${high}`, `--connect=127.0.0.1:${low}`]);
  nodes.push(B);
  const connections = async (n: TestNode) => (await n.data('/peers/connected/connection')) as { port: number }[];
  // Both dialled: both see two connections at some point or one at once; in the end, one each.
  await waitFor(
    'the duplicate to close',
    async () => (await connections(A)).length === 1 && (await connections(B)).length === 1 && /both nodes dialled each other/.test(A.output() + B.output()),
    30_000,
  );
  // A (lower port) holds its outbound connection to B's listen port; B holds the inbound end.
  expect((await connections(A))[0].port).toBe(high);
  expect((await connections(B))[0].port).not.toBe(low);
  // It stays that way: the pinned redial of the closed side does not bring a second one back.
  await new Promise((r) => setTimeout(r, 3_000));
  expect(await connections(A)).toHaveLength(1);
  expect(await connections(B)).toHaveLength(1);
  expect(A.output() + B.output()).not.toMatch(/offense recorded/);
}, 60_000);
