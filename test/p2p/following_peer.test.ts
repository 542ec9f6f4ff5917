// Issue 19: a peer that follows our chain the way the 0.10.3 reference does (its communication.log):
// after each Append it asks for the headers of our tip's batch slot from the slot start
// (Batchreq [1,N]), then for the new body (Blockreq [N,N]), sometimes that body twice. Our node
// throttled it from its second block on (p2p.md §3.8) and held every later request 2–20 s; it must
// answer such a follower without throttling, and still throttle a re-download not tied to an
// announcement. A real node on loopback, a scripted peer on a raw socket; nothing here depends on time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import type { Message } from '../../ts/p2p/messages.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { initializedPeer, type RawPeer } from '../helpers/raw_peer.js';
import { mine, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(191);
let A: TestNode;
let peer: RawPeer;

beforeAll(async () => {
  A = await startPeerNode();
  await mine(A, MINER.addressText, 3);
  peer = await initializedPeer(A.p2p!, { length: 0, worksum: 0n, grid: [] });
});

afterAll(async () => {
  peer?.socket.destroy();
  await A.stop();
  await removeDir(A.dataDir);
});

let nonce = 1;
/** Sends a request and waits for the reply with its nonce. */
async function ask<K extends 'Batchrep' | 'Blockrep'>(m: Message & { nonce: number }, reply: K): Promise<Extract<Message, { kind: K }>> {
  m.nonce = nonce++;
  peer.send(m);
  return waitFor(`${reply} ${m.nonce}`, async () => peer.messages().find((x) => x.kind === reply && x.nonce === m.nonce), 10_000) as Promise<
    Extract<Message, { kind: K }>
  >;
}
const throttled = async () => (await A.data('/peers/throttled')) as { connection: { id: number } }[];

describe('a peer following our chain as the reference does', () => {
  it('is answered without throttling, block after block', async () => {
    // Height 3 was announced in A's Init.
    for (let n = 3; n <= 10; n++) {
      if (n > 3) {
        await mine(A, MINER.addressText, 1);
        await waitFor(`Append ${n}`, async () => peer.messages().some((m) => m.kind === 'Append' && m.length === n), 10_000);
      }
      const headers = await ask({ kind: 'Batchreq', nonce: 0, descriptor: 0, start: 1, count: n }, 'Batchrep');
      expect(headers.headers).toHaveLength(n);
      const first = n === 3 ? 1 : n;
      for (let i = 0; i < 2; i++) {
        const blocks = await ask({ kind: 'Blockreq', nonce: 0, first, last: n, descriptor: 0 }, 'Blockrep');
        expect(blocks.bodies).toHaveLength(n - first + 1);
      }
      expect(await throttled(), `after block ${n}`).toEqual([]);
    }
    expect(peer.closed).toBe(false);
  });

  it('re-downloads that no announcement calls for are still throttled (§3.8)', async () => {
    // At most 3 announcements' free re-requests are held; the 4th re-request is charged in full.
    let list: { connection: { id: number } }[] = [];
    for (let i = 0; i < 4 && list.length === 0; i++) {
      await ask({ kind: 'Batchreq', nonce: 0, descriptor: 0, start: 1, count: 10 }, 'Batchrep');
      list = await throttled();
    }
    expect(list).toHaveLength(1);
  });
});
