// A node never talks to itself and never hands a peer its own address (issue 10; the reference
// dials whatever a pong lists, itself included). A connection to ourselves is recognised by our own
// ping arriving on it (the handshake has no node nonce), closed without offense, and its address
// is never dialled again.
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { NO_PRIORITY } from '../../ts/p2p/elements.js';
import type { Message } from '../../ts/p2p/messages.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { freePorts, startPeerNode, waitFor } from '../helpers/peers.js';
import { RawPeer } from '../helpers/raw_peer.js';

await initKernel();
const nodes: TestNode[] = [];
afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

describe('a connection to ourselves', () => {
  it('is closed when our own ping arrives, and the address is not dialled again', async () => {
    const [port] = await freePorts(1);
    const n = await startPeerNode([], undefined, [`--bind=127.0.0.1:${port}`, `--connect=127.0.0.1:${port}`]);
    nodes.push(n);
    await waitFor('the self-connection to be recognised', async () => n.output().includes(`127.0.0.1:${port} is this node itself`), 30_000);
    await waitFor('no connection left', async () => (await n.data('/peers/connected')).length === 0, 10_000);
    const s = await n.data('/peers/connection_schedule');
    const all = [...s.connectedVerified, ...s.disconnectedVerified, ...s.feelers].map((e: any) => e.schedule.address);
    expect(all).not.toContain(`127.0.0.1:${port}`);
    expect(n.output()).not.toMatch(/offense recorded/);
  }, 60_000);
});

describe('pong addresses', () => {
  it("never list the asking peer's own address", async () => {
    const A = await startPeerNode();
    nodes.push(A);
    const B = await startPeerNode([A]);
    nodes.push(B);
    const C = await startPeerNode([A]);
    nodes.push(C);
    // A verifies B and C by connecting back to their claimed listen ports (§4.1).
    await waitFor('A to verify B and C', async () => {
      const v: string[] = await A.data('/tools/sample_verified_peers/10');
      return v.includes(B.p2p!) && v.includes(C.p2p!);
    });
    // B goes away; a raw peer at B's address (it claims B's listen port) asks A for addresses:
    // it gets C's, never its own.
    await B.stop();
    const raw = new RawPeer(A.p2p!);
    try {
      await raw.handshake(undefined, Number(B.p2p!.split(':')[1]));
      await waitFor("A's Init", async () => raw.messages().some((m) => m.kind === 'Init'), 10_000);
      const init = raw.messages().find((m) => m.kind === 'Init') as Extract<Message, { kind: 'Init' }>;
      raw.send({ ...init, priority: NO_PRIORITY, flags: 0 });
      raw.send({ kind: 'Ping', v2: true, nonce: 7, priority: NO_PRIORITY, maxAddresses: 10, maxTransactions: 0, ndiscard: 0 });
      const pong = (await waitFor("A's pong", async () => raw.messages().find((m) => m.kind === 'Pong' && m.nonce === 7), 10_000)) as Extract<
        Message,
        { kind: 'Pong' }
      >;
      const listed = pong.addresses.map((a) => `${a.ip}:${a.port}`);
      expect(listed).toContain(C.p2p);
      expect(listed).not.toContain(B.p2p);
    } finally {
      raw.socket.destroy();
    }
  }, 90_000);
});
