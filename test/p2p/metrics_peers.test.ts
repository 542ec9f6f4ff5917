// /metrics of two regtest nodes on loopback: B dials A; each counts the other as a peer (A
// inbound, B outbound, generation 0.10, the version line of our handshake), the connection opened
// on both sides; a transaction submitted to A reaches B through the relay (A sends it, B receives
// and accepts it); A's blocks are announced to B. A restart of A makes B reconnect: the closed
// connection and the reconnect are counted. Every figure is awaited (polled), never timed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { genesisHash, removeDir, type TestNode } from '../helpers/node.js';
import { freePorts, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { sample, scrape, type Scrape } from '../helpers/metrics.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(291),
  PAYEE = TestWallet.fromSeed(292);
let A: TestNode, B: TestNode;
let portA: number;

beforeAll(async () => {
  // A listens on the higher port: B's outbound connection is the one kept if A dials back (mutualDial).
  const [pb, pa] = await freePorts(2);
  portA = pa;
  A = await startPeerNode([], undefined, [`--bind=127.0.0.1:${pa}`]);
  B = await startPeerNode([A], undefined, [`--bind=127.0.0.1:${pb}`]);
});
afterAll(async () => {
  for (const n of [A, B]) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

/** Scrapes `n` until `ok` holds (polled). */
const until = (what: string, n: TestNode, ok: (m: Scrape) => boolean): Promise<Scrape> =>
  waitFor(what, async () => {
    const m = await scrape(n.url);
    return ok(m) && m;
  });

const v = (m: Scrape, key: string) => sample(m, key) ?? 0;

describe('peer and relay metrics', () => {
  it('show the connection on both sides', async () => {
    const a = await until('A sees B', A, (m) => v(m, 'wartnode_peers{direction="inbound",generation="0.10"}') === 1);
    const b = await until('B sees A', B, (m) => v(m, 'wartnode_peers{direction="outbound",generation="0.10"}') === 1);
    expect(v(a, 'wartnode_peer_connections_opened_total{direction="inbound"}')).toBeGreaterThanOrEqual(1);
    expect(v(b, 'wartnode_peer_connections_opened_total{direction="outbound"}')).toBeGreaterThanOrEqual(1);
    expect(v(b, 'wartnode_peer_bans_active')).toBe(0);
    expect(v(b, 'wartnode_peer_bans_total')).toBe(0);
  });

  it('count a relayed transaction and announced blocks', async () => {
    expect((await A.get(`/debug/fakemine/${MINER.addressText}`)).body.code).toBe(0);
    await sameHead(A, [B]);
    await until('the block announced to B', A, (m) => v(m, 'wartnode_relay_block_announcements_sent_total') >= 1);
    const tx = signRequest(
      MINER.sk,
      { type: 'coinTransfer', toAddress: PAYEE.address, amount: 5_000n },
      { pinHeight: 0, pinHash: await genesisHash(A), nonceId: 3, feeCode: 0x4fa2 },
    );
    const added = await A.post('/transaction/add', requestJson(tx));
    expect(added.body.code, added.text).toBe(0);
    const b = await until('B accepts the relayed transaction', B, (m) => v(m, 'wartnode_relay_transactions_accepted_total') === 1);
    expect(v(b, 'wartnode_relay_transactions_received_total')).toBe(1);
    expect(v(b, 'wartnode_relay_transactions_refused_total')).toBe(0);
    expect(v(b, 'wartnode_mempool_transactions')).toBe(1);
    expect(v(b, 'wartnode_chain_height')).toBe(1);
    expect(v(b, 'wartnode_chain_blocks_appended_total')).toBe(1);
    const a = await until('A sent it', A, (m) => v(m, 'wartnode_relay_transactions_sent_total') >= 1);
    expect(v(a, 'wartnode_relay_transactions_accepted_total')).toBe(0);
  });

  it('count a closed connection and the reconnect', async () => {
    const dir = A.dataDir;
    await A.stop();
    await until('B lost A', B, (m) => v(m, 'wartnode_peer_connections_closed_total{direction="outbound"}') >= 1);
    A = await startPeerNode([], dir, [`--bind=127.0.0.1:${portA}`]);
    const b = await until('B reconnected', B, (m) => v(m, 'wartnode_peer_reconnects_total') >= 1);
    expect(v(b, 'wartnode_peer_connections_opened_total{direction="outbound"}')).toBeGreaterThanOrEqual(2);
    await until('A sees B again', A, (m) => v(m, 'wartnode_peers{direction="inbound",generation="0.10"}') === 1);
  });
});
