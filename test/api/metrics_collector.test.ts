// The node's metrics fed by a real chain (classic-level) in this process, on injected clocks: each
// block's application time comes from the chain's clock, HTTP latency from the metrics' clock, so
// every figure below is exact. Blocks appended and rolled back, a reorg and its depth (a branch
// switch), a plain rollback that is no reorg, a failed branch that leaves the tip, the mempool's
// size and bytes, the process figures, and HTTP requests by route group and status class.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeMetrics, processFigures, routeGroupOf, routeGroups } from '../../ts/api/metrics.js';
import { Chain } from '../../ts/chain/chain.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { initKernel } from '../../ts/kernel/instance.js';
import type { MempoolService } from '../../ts/mempool/service.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { openDatabase, type Db } from '../../ts/store/database.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();
const T0 = 1_700_000_000;
const dirs: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A clock that moves `step` seconds each time it is read. */
function steppingClock(step: number): () => number {
  let t = 0;
  return () => (t += step);
}

async function fresh(clock?: () => number): Promise<{ db: Db; chain: Chain }> {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-metrics-'));
  dirs.push(dir);
  const { db } = await openDatabase(dir);
  return { db, chain: await Chain.open(db, REGTEST, { clock }) };
}

interface Block {
  header: Uint8Array;
  body: Uint8Array;
}

async function mine(c: { db: Db; chain: Chain }, n: number, payTo: TestWallet, t0: number): Promise<Block[]> {
  const out: Block[] = [];
  for (let i = 0; i < n; i++) {
    const h = c.chain.length + 1;
    const t = await buildTemplate(c.chain, c.db, payTo.address, t0 + h * 20);
    await c.chain.append(t.header, t.body, { now: t0 + h * 20, skipPow: true });
    out.push({ header: t.header, body: t.body });
  }
  return out;
}

/** A mempool of a coin transfer and a limit swap: 1 + 114 and 1 + 130 bytes on the wire. */
const mempool = {
  pool: { size: 2, highest: () => [{ payload: { type: 'coinTransfer' } }, { payload: { type: 'limitSwap' } }] },
} as unknown as Pick<MempoolService, 'pool'>;

function metricsOf(chain: Chain, clock?: () => number): NodeMetrics {
  return new NodeMetrics({
    chain,
    mempool,
    info: { version: 'v0.10.3', network: 'regtest', api: 'contract' },
    startedAt: 1_700_000_123,
    synced: () => true,
    p2p: () => null,
    databaseSize: async () => 123_456n,
    clock,
    processFigures: async () => ({
      residentBytes: 50_000_000,
      heapUsedBytes: 10_000_000,
      heapTotalBytes: 20_000_000,
      externalBytes: 5_000_000,
      openFds: null,
      loopDelay: { p50: 0.0105, p99: 0.25, max: 0.5 },
      heapSpaces: [{ space: 'old_space', size: 16_000_000, used: 9_000_000 }],
    }),
  });
}

/** The sample lines of `text` (no HELP/TYPE), as a set to look lines up in. */
const samples = (text: string) => new Set(text.split('\n').filter((l) => l && !l.startsWith('#')));

describe('node metrics over a real chain', () => {
  it('count blocks, time their application on the chain clock, and tell a reorg from a rollback', async () => {
    // Each block's application reads the chain's clock at its start and its end: 0.125 s per block.
    const a = await fresh(steppingClock(0.125));
    const metrics = metricsOf(a.chain);
    const main = await mine(a, 4, TestWallet.fromSeed(1), T0);
    let s = samples(await metrics.render());
    for (const line of [
      'wartnode_info{version="v0.10.3",network="regtest",api="contract"} 1',
      'wartnode_process_start_time_seconds 1700000123',
      'wartnode_chain_height 4',
      'wartnode_chain_header_height 4',
      'wartnode_chain_synced 1',
      'wartnode_chain_blocks_appended_total 4',
      'wartnode_chain_blocks_rolled_back_total 0',
      'wartnode_chain_reorgs_total 0',
      'wartnode_chain_block_apply_seconds_bucket{le="0.1"} 0',
      'wartnode_chain_block_apply_seconds_bucket{le="0.25"} 4',
      'wartnode_chain_block_apply_seconds_bucket{le="+Inf"} 4',
      'wartnode_chain_block_apply_seconds_sum 0.5',
      'wartnode_chain_block_apply_seconds_count 4',
      'wartnode_mempool_transactions 2',
      'wartnode_mempool_bytes 246',
      'wartnode_process_resident_memory_bytes 50000000',
      'wartnode_nodejs_heap_used_bytes 10000000',
      'wartnode_nodejs_heap_total_bytes 20000000',
      'wartnode_nodejs_external_memory_bytes 5000000',
      'wartnode_nodejs_heap_space_size_bytes{space="old_space"} 16000000',
      'wartnode_nodejs_heap_space_used_bytes{space="old_space"} 9000000',
      'wartnode_nodejs_eventloop_delay_seconds{quantile="0.5"} 0.0105',
      'wartnode_nodejs_eventloop_delay_seconds{quantile="0.99"} 0.25',
      'wartnode_nodejs_eventloop_delay_seconds{quantile="1"} 0.5',
      'wartnode_database_size_bytes 123456',
      'wartnode_peer_connections_opened_total{direction="inbound"} 0',
      'wartnode_peer_connections_opened_total{direction="outbound"} 0',
      'wartnode_relay_transactions_received_total 0',
    ])
      expect([...s], line).toContain(line);
    // Without /proc figures the descriptor gauge has no sample; without P2P no peer series.
    expect([...s].some((l) => l.startsWith('wartnode_process_open_fds') || l.startsWith('wartnode_peers{'))).toBe(false);

    // A branch of four blocks from block 1 replaces blocks 2-4 (depth 3): one reorg.
    const b = await fresh();
    await b.chain.append(main[0].header, main[0].body, { now: T0 + 10_000, skipPow: true });
    const branch = await mine(b, 4, TestWallet.fromSeed(2), T0 + 7);
    await a.chain.switchBranch(1, branch, { now: T0 + 10_000, skipPow: true });
    expect(a.chain.length).toBe(5);
    s = samples(await metrics.render());
    for (const line of [
      'wartnode_chain_height 5',
      'wartnode_chain_blocks_appended_total 8',
      'wartnode_chain_blocks_rolled_back_total 3',
      'wartnode_chain_reorgs_total 1',
      'wartnode_chain_reorg_depth_blocks_bucket{le="2"} 0',
      'wartnode_chain_reorg_depth_blocks_bucket{le="3"} 1',
      'wartnode_chain_reorg_depth_blocks_sum 3',
      'wartnode_chain_reorg_depth_blocks_count 1',
      'wartnode_chain_block_apply_seconds_sum 1',
      'wartnode_chain_block_apply_seconds_count 8',
    ])
      expect([...s], line).toContain(line);

    // A lighter branch is refused before anything moves; a rollback is no reorg.
    await expect(a.chain.switchBranch(4, branch.slice(3), { now: T0 + 10_000, skipPow: true })).rejects.toThrow();
    await a.chain.rollback();
    s = samples(await metrics.render());
    for (const line of ['wartnode_chain_height 4', 'wartnode_chain_blocks_rolled_back_total 4', 'wartnode_chain_reorgs_total 1'])
      expect([...s], line).toContain(line);
  });

  it('time HTTP requests by listener, route group and status class on its clock', async () => {
    const { chain } = await fresh();
    const metrics = metricsOf(chain, steppingClock(0.25));
    const server = createServer((req, res) => {
      res.statusCode = req.url?.startsWith('/chain/head') ? 200 : 404;
      res.end('x');
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    metrics.observeHttp(server, 'rpc', ['/chain/head', '/account/:account/history/:beforeId']);
    const port = (server.address() as { port: number }).port;
    /** Requests counted so far (all series). */
    const counted = async () =>
      [...samples(await metrics.render())]
        .filter((l) => l.startsWith('wartnode_http_request_duration_seconds_count'))
        .reduce((n, l) => n + Number(l.split(' ')[1]), 0);
    const paths = ['/chain/head', '/chain/head?x=1', '/nothing/here', '/'];
    for (const [i, path] of paths.entries()) {
      await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
      // A request is counted when its response closes, which may follow the answer's arrival: the
      // next one starts after that, so each reads the clock at its start and end only (0.25 s).
      while ((await counted()) < i + 1) await new Promise((r) => setTimeout(r, 5));
    }
    const s = samples(await metrics.render());
    for (const line of [
      'wartnode_http_request_duration_seconds_bucket{listener="rpc",group="chain",status="2xx",le="0.1"} 0',
      'wartnode_http_request_duration_seconds_bucket{listener="rpc",group="chain",status="2xx",le="0.25"} 2',
      'wartnode_http_request_duration_seconds_sum{listener="rpc",group="chain",status="2xx"} 0.5',
      'wartnode_http_request_duration_seconds_count{listener="rpc",group="chain",status="2xx"} 2',
      'wartnode_http_request_duration_seconds_count{listener="rpc",group="other",status="4xx"} 1',
      'wartnode_http_request_duration_seconds_count{listener="rpc",group="web",status="4xx"} 1',
    ])
      expect([...s], line).toContain(line);
  });

  it('name the route group of a URL', () => {
    const groups = routeGroups(['/chain/head', '/peers/connected', '/metrics']);
    expect(['/chain/block/5', '/peers/connected?x', '/metrics', '/', '/web/app.js', '/nope', '', '/chain'].map((u) => routeGroupOf(u, groups))).toEqual([
      'chain',
      'peers',
      'metrics',
      'web',
      'web',
      'other',
      'other',
      'chain',
    ]);
  });
});

describe('the process figures', () => {
  it('report how long the event loop was held since the previous reading', async () => {
    await processFigures(); // starts the sampling: its timer measures from its first run on
    await new Promise((r) => setTimeout(r, 30));
    const until = performance.now() + 80;
    while (performance.now() < until); // the loop held for 80 ms: the 10 ms timer runs at least ~70 ms late
    await new Promise((r) => setTimeout(r, 30));
    const held = (await processFigures()).loopDelay;
    expect(held.max).toBeGreaterThanOrEqual(0.06);
    expect(held.p99).toBeLessThanOrEqual(held.max);
  });
});
