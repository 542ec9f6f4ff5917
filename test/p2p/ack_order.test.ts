// A 0.8.20 reference dialling us may write its Init before the handshake's ack byte (its connection
// thread wakes the event loop, which queues the Init, before it writes the ack: a59f7ddf
// src/node/asyncio/connection.cpp:85–90; seen live with strace). Our node took the Init's first byte
// for the ack, waited for a frame that never completed and closed the connection after 30 s
// (ETIMEOUT). A real node on loopback and a scripted 0.8.20 connector, in both orders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import { connectorHello, REPLY_SIZE } from '../../ts/p2p/handshake.js';
import { encodeMessage } from '../../ts/p2p/messages.js';
import { NO_PRIORITY } from '../../ts/p2p/elements.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { RawPeer } from '../helpers/raw_peer.js';
import { mine, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const V0_8_20 = 0x000814;
let A: TestNode;
const peers: RawPeer[] = [];

beforeAll(async () => {
  A = await startPeerNode();
  await mine(A, TestWallet.fromSeed(192).addressText, 2);
});

afterAll(async () => {
  for (const p of peers) p.socket.destroy();
  await A.stop();
  await removeDir(A.dataDir);
});

/** A 0.8.20 connector that sends its InitV1 (length 0) and a Ping with the ack byte before, between or after them. */
async function connector(order: 'ack first' | 'Init first' | 'Init, Ping, ack'): Promise<RawPeer> {
  const p = new RawPeer(A.p2p!);
  peers.push(p);
  await p.ready();
  p.write(connectorHello('regtest', V0_8_20, 0));
  await waitFor('the acceptor reply', async () => p.received.length >= REPLY_SIZE, 5_000);
  p.received = p.received.slice(REPLY_SIZE);
  const { type, payload } = encodeMessage({ kind: 'Init', v3: false, descriptor: 0, priority: NO_PRIORITY, length: 0, worksum: 0n, grid: [], flags: null });
  const init = encodeFrame(type, payload);
  const ping = encodeMessage({ kind: 'Ping', v2: false, nonce: 42, priority: NO_PRIORITY, maxAddresses: 0, maxTransactions: 0, ndiscard: 0 });
  const pingFrame = encodeFrame(ping.type, ping.payload);
  const ack = new Uint8Array([0]);
  const parts = order === 'ack first' ? [ack, init, pingFrame] : order === 'Init first' ? [init, ack, pingFrame] : [init, pingFrame, ack];
  for (const b of parts) p.write(b);
  return p;
}

describe('the handshake ack of a 0.8.20 connector', () => {
  for (const order of ['ack first', 'Init first', 'Init, Ping, ack'] as const) {
    it(`${order}: the Init is taken and the ping answered`, async () => {
      const p = await connector(order);
      const pong = await waitFor('the pong', async () => p.messages().find((m) => m.kind === 'Pong'), 10_000);
      expect(pong).toMatchObject({ kind: 'Pong', v2: false, nonce: 42 });
      expect(p.messages().find((m) => m.kind === 'Init')).toMatchObject({ kind: 'Init', v3: false, length: 2 });
      expect(p.closed).toBe(false);
    });
  }
});
