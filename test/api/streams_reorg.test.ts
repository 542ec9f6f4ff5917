// A real reorganisation seen through the streams, in process: the chain switches to a heavier
// branch (Chain.switchBranch: two blocks rolled back and four applied in one change) while `/stream`
// and `/ws/chain_delta` clients listen over WebSocket. Every message is checked against its schema.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { Chain } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { toHex } from '../../ts/core/hex.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import { openDatabase, type Db } from '../../ts/store/database.js';
import type { NodeServices } from '../../ts/api/services.js';
import { StreamHub } from '../../ts/api/streams/hub.js';
import { attachStreams } from '../../ts/api/streams/endpoint.js';
import { StreamClient } from '../helpers/stream.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const T0 = 1_700_000_000;
const NOW = T0 + 10_000;
const A = TestWallet.fromSeed(51);
const B = TestWallet.fromSeed(52);

let dir: string;
let db: Db;
let chain: Chain;
let server: Server;
let closeStreams: () => void;
let url: string;

interface Raw {
  header: Uint8Array;
  body: Uint8Array;
}

async function mine(to: Uint8Array): Promise<Raw> {
  const h = chain.length + 1;
  const t = await buildTemplate(chain, db, to, T0 + 20 * h);
  await chain.append(t.header, t.body, { now: NOW, skipPow: true });
  return { header: t.header, body: t.body };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wartnode-streams-reorg-'));
  ({ db } = await openDatabase(dir));
  chain = await Chain.open(db, REGTEST);
  const mempool = new MempoolService(chain, new MinFeePolicy());
  const node = { chain, mempool, config: { api: 'contract' } } as unknown as NodeServices;
  const hub = new StreamHub(node, { recent: () => [], subscribe: () => () => undefined });
  server = createServer((_, res) => res.end());
  closeStreams = attachStreams(server, hub, () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  closeStreams();
  await new Promise<void>((r) => server.close(() => r()));
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('streams through a reorganisation', () => {
  it('reports a switch to a heavier branch as one fork, and every block of the branch', async () => {
    // Main chain: 1..3 paying A. Branch: 2..5 paying B on top of block 1 (more work: 4 blocks against 2).
    await mine(A.address);
    const main = [await mine(A.address), await mine(A.address)];
    await chain.rollback();
    await chain.rollback();
    const branch: Raw[] = [];
    for (let i = 0; i < 4; i++) branch.push(await mine(B.address));
    for (let i = 0; i < 4; i++) await chain.rollback();
    for (const b of main) await chain.append(b.header, b.body, { now: NOW, skipPow: true });
    expect(chain.length).toBe(3);

    const s = await StreamClient.open(url, '/stream');
    const d = await StreamClient.open(url, '/ws/chain_delta');
    s.subscribe('chain');
    s.subscribe('minerdist');
    s.subscribe('account', { address: A.addressText });
    expect((await s.next('chain.state')).event.head.height).toBe(3);
    expect((await s.next('minerdist.state')).event.counts).toEqual([{ address: A.addressText, count: 3 }]);
    await s.next('account.state');

    const removed = await chain.switchBranch(1, branch, { now: NOW, skipPow: true });
    expect(removed.map((b) => b.height)).toEqual([2, 3]);

    const fork = (await s.next('chain.fork')).event;
    expect(fork.rollbackLength).toBe(1);
    expect(fork.head.height).toBe(5);
    expect(fork.latestBlocks.map((b: any) => b.height)).toEqual([1, 2, 3, 4, 5]);
    expect(fork.latestBlocks.slice(1).map((b: any) => b.header.hash)).toEqual([2, 3, 4, 5].map((h) => toHex(chain.hashAt(h))));
    expect(fork.latestBlocks.map((b: any) => b.confirmations)).toEqual([5, 4, 3, 2, 1]);
    expect(new Map((await s.next('minerdist.delta')).event.deltas.map((x: any) => [x.address, x.count]))).toEqual(
      new Map([
        [A.addressText, -2],
        [B.addressText, 4],
      ]),
    );
    const acc = (await s.next('account.delta')).event;
    expect(acc.address).toBe(A.addressText);
    expect(acc.history).toEqual([]); // A's blocks left; none of the branch names A

    expect((await d.next('rollback')).data).toEqual({ length: 1 });
    for (let h = 2; h <= 5; h++) {
      const b = (await d.next('blockAppend')).data;
      expect([b.height, b.header.hash]).toEqual([h, toHex(chain.hashAt(h))]);
    }
    expect(s.all('chain.append')).toEqual([]);
    expect([...s.problems, ...d.problems]).toEqual([]);
    s.ws.terminate();
    d.ws.terminate();
  });
});
