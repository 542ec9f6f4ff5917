// Sync is not held hostage (TIMER.syncReply*, README "Sync is not held hostage"): peers that
// announce far more work in their Init and then do not answer the sync's requests, one silent and
// one that begins its reply and sends no more, leave the sync role after 10 s and are closed with
// ETIMEOUT (an offense) after 25 s, while an honest peer syncs the node. A third peer sends its reply
// at 2 KB/s (a slow link, as in the network harness's `slow` fault): it is closed too, with
// ESLOWPEER, and no offense is recorded against it.
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { MAX_PAYLOAD, MSG } from '../../ts/p2p/protocol.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { head, mine, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { initializedPeer, type RawPeer } from '../helpers/raw_peer.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(421);
const nodes: TestNode[] = [];
const liars: RawPeer[] = [];

afterAll(async () => {
  for (const l of liars) l.socket.destroy();
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

const CLAIM = { length: 1, worksum: 1n << 200n, grid: [] };
const asked = (p: RawPeer) => p.messages().find((m) => m.kind === 'Batchreq' || m.kind === 'Probereq');

describe('peers that claim work and do not deliver', () => {
  it('lose the sync role and get an offense; another peer syncs the node', async () => {
    const A = await startPeerNode();
    nodes.push(A);
    const silent = await initializedPeer(A.p2p!, CLAIM);
    const stuck = await initializedPeer(A.p2p!, CLAIM);
    liars.push(silent, stuck);
    // `stuck` begins the reply to the first request it gets (its 10-byte frame header) and sends no more.
    void waitFor('a sync request to the second liar', async () => asked(stuck), 30_000).then(
      (req) => {
        const header = new Uint8Array(10);
        new DataView(header.buffer).setUint32(0, 2 + 1_000);
        header[9] = req.kind === 'Batchreq' ? MSG.Batchrep : MSG.Proberep;
        stuck.write(header);
      },
      () => {},
    );
    // `slow` begins its reply and sends 2 KB of it every second, below the 8 KB/s an arriving reply must
    // keep. (Its request is a Batchreq, the headers of its one block: a Proberep is too short to trickle.)
    const slow = await initializedPeer(A.p2p!, CLAIM);
    liars.push(slow);
    void waitFor('a sync request to the slow peer', async () => asked(slow), 30_000).then(
      (req) => {
        const type = req.kind === 'Batchreq' ? MSG.Batchrep : MSG.Proberep;
        const header = new Uint8Array(10);
        new DataView(header.buffer).setUint32(0, 2 + MAX_PAYLOAD.get(type)!);
        header[9] = type;
        slow.write(header);
        const trickle = setInterval(() => (slow.closed ? clearInterval(trickle) : slow.write(new Uint8Array(2_000))), 1_000);
      },
      () => {},
    );
    await waitFor('a sync request to a liar', async () => asked(silent) ?? asked(stuck), 10_000);
    expect((await head(A)).synced).toBe(false);
    // An honest peer with a real chain arrives while the sync waits on the liars.
    const B = await startPeerNode([A]);
    nodes.push(B);
    await mine(B, MINER.addressText, 4);
    const h = await sameHead(B, [A], 60_000);
    expect(h.height).toBe(4);
    expect(A.output()).toMatch(/Synced to height 4 from 127\.0\.0\.1:\d+ \(\d blocks in|New block #4 [0-9a-f]{64} from 127\.0\.0\.1:\d+/);
    expect((await head(A)).synced).toBe(true);
    for (const l of [silent, stuck, slow]) await l.waitClosed(40_000);
    const lines = A.output().split('\n');
    expect(lines.filter((x) => x.includes('offense recorded') && x.includes('ETIMEOUT 24'))).toHaveLength(2);
    expect(lines.filter((x) => x.includes('offense recorded'))).toHaveLength(2);
    expect(lines.filter((x) => /disconnected: .*not arriving within 25 s .*\(ESLOWPEER\)/.test(x))).toHaveLength(1);
  }, 120_000);
});
