// GET /metrics on a started regtest node (Prometheus text exposition format 0.0.4): the figures
// move with fakemined blocks and a submitted transaction (height, blocks counter, block
// application histogram, mempool size and bytes, HTTP requests by listener and route group); the
// route is absent on the public listener (`--publicrpc`: 404, or the connection closed in the
// reference generations) and served on the RPC endpoint in every `--api` generation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { genesisHash, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { waitFor } from '../helpers/peers.js';
import { sample, scrape } from '../helpers/metrics.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(281),
  B = TestWallet.fromSeed(282);
const nodes: TestNode[] = [];

async function publicPort(n: TestNode): Promise<number> {
  return waitFor('the public endpoint', async () => Number(/Public RPC endpoint is [\d.]+:(\d+)\./.exec(n.output())?.[1] ?? 0), 10_000);
}

/** The status of GET `path` on 127.0.0.1:`port`, or 'closed' when the connection closes unanswered. */
const statusOf = (port: number, path: string) =>
  fetch(`http://127.0.0.1:${port}${path}`).then(
    async (r) => (await r.text(), r.status),
    () => 'closed' as const,
  );

let node: TestNode;
let pub: number;
beforeAll(async () => {
  node = await startNode(['--regtest', '--publicrpc=127.0.0.1:0']);
  nodes.push(node);
  pub = await publicPort(node);
});
afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

describe('/metrics', () => {
  it('moves with blocks and transactions', async () => {
    let m = await scrape(node.url);
    expect(m.text).toMatch(/^# HELP wartnode_info /);
    expect(sample(m, 'wartnode_info{version="v0.10.3",network="regtest",api="contract"}')).toBe(1);
    expect(sample(m, 'wartnode_chain_height')).toBe(0);
    expect(sample(m, 'wartnode_chain_header_height')).toBe(0);
    expect(sample(m, 'wartnode_chain_synced')).toBe(1);
    expect(sample(m, 'wartnode_chain_blocks_appended_total')).toBe(0);
    expect(sample(m, 'wartnode_chain_block_apply_seconds_count')).toBe(0);
    expect(sample(m, 'wartnode_mempool_transactions')).toBe(0);
    expect(sample(m, 'wartnode_mempool_bytes')).toBe(0);
    expect(sample(m, 'wartnode_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(m, 'wartnode_nodejs_heap_used_bytes')).toBeGreaterThan(0);
    expect(sample(m, 'wartnode_nodejs_heap_total_bytes')).toBeGreaterThan(0);
    expect(sample(m, 'wartnode_database_size_bytes')).toBeGreaterThan(0);
    expect(sample(m, 'wartnode_database_memory_bytes')).toBeGreaterThan(0); // the memtable's first arena block
    if (process.platform === 'linux') expect(sample(m, 'wartnode_process_open_fds')).toBeGreaterThan(0);
    expect(sample(m, 'wartnode_nodejs_heap_space_size_bytes{space="old_space"}')).toBeGreaterThan(0);
    expect(sample(m, 'wartnode_nodejs_heap_space_used_bytes{space="new_space"}')).toBeGreaterThan(0);
    const delay = ['0.5', '0.99', '1'].map((q) => sample(m, `wartnode_nodejs_eventloop_delay_seconds{quantile="${q}"}`) ?? Number.NaN);
    expect(delay[0]).toBeGreaterThanOrEqual(0);
    expect(delay[1]).toBeGreaterThanOrEqual(delay[0]);
    expect(delay[2]).toBeGreaterThanOrEqual(delay[1]);
    // Isolated: no peers, no relay.
    expect([...m.samples.keys()].filter((k) => k.startsWith('wartnode_peers{'))).toEqual([]);
    expect(sample(m, 'wartnode_relay_transactions_received_total')).toBe(0);

    expect((await node.get(`/debug/fakemine/${A.addressText}`)).body.code).toBe(0);
    const genesis = await genesisHash(node);
    const tx = signRequest(
      A.sk,
      { type: 'coinTransfer', toAddress: B.address, amount: 1234n },
      { pinHeight: 0, pinHash: genesis, nonceId: 1, feeCode: 0x4fa2 },
    );
    const added = await node.post('/transaction/add', requestJson(tx));
    expect(added.body.code, added.text).toBe(0);
    m = await scrape(node.url);
    expect(sample(m, 'wartnode_chain_height')).toBe(1);
    expect(sample(m, 'wartnode_chain_blocks_appended_total')).toBe(1);
    expect(sample(m, 'wartnode_chain_block_apply_seconds_count')).toBe(1);
    expect(sample(m, 'wartnode_chain_block_apply_seconds_bucket{le="+Inf"}')).toBe(1);
    expect(sample(m, 'wartnode_mempool_transactions')).toBe(1);
    expect(sample(m, 'wartnode_mempool_bytes')).toBe(115); // a coin transfer's Txrep entry: type byte + 114

    expect((await node.get(`/debug/fakemine/${B.addressText}`)).body.code).toBe(0);
    m = await scrape(node.url);
    expect(sample(m, 'wartnode_chain_height')).toBe(2);
    expect(sample(m, 'wartnode_chain_header_height')).toBe(2);
    expect(sample(m, 'wartnode_chain_blocks_appended_total')).toBe(2);
    expect(sample(m, 'wartnode_chain_blocks_rolled_back_total')).toBe(0);
    expect(sample(m, 'wartnode_chain_block_apply_seconds_count')).toBe(2);
    expect(sample(m, 'wartnode_chain_worksum')).toBeGreaterThan(0);
    expect(sample(m, 'wartnode_mempool_transactions')).toBe(0);
    expect(sample(m, 'wartnode_mempool_bytes')).toBe(0);

    expect((await node.get('/debug/rollback')).body.code).toBe(0);
    m = await scrape(node.url);
    expect(sample(m, 'wartnode_chain_height')).toBe(1);
    expect(sample(m, 'wartnode_chain_blocks_rolled_back_total')).toBe(1);
    expect(sample(m, 'wartnode_chain_reorgs_total')).toBe(0);
  });

  it('times HTTP requests by listener, route group and status class', async () => {
    expect(await statusOf(pub, '/chain/head')).toBe(200);
    // A request is counted when its response has closed: wait for it, not for a time.
    const m = await waitFor('the requests counted', async () => {
      const s = await scrape(node.url);
      const debug = sample(s, 'wartnode_http_request_duration_seconds_count{listener="rpc",group="debug",status="2xx"}') ?? 0;
      const head = sample(s, 'wartnode_http_request_duration_seconds_count{listener="public",group="chain",status="2xx"}') ?? 0;
      const scrapes = sample(s, 'wartnode_http_request_duration_seconds_count{listener="rpc",group="metrics",status="2xx"}') ?? 0;
      return debug >= 3 && head >= 1 && scrapes >= 4 && s;
    });
    expect(sample(m, 'wartnode_http_request_duration_seconds_bucket{listener="public",group="chain",status="2xx",le="+Inf"}')).toBe(1);
    expect(sample(m, 'wartnode_http_request_duration_seconds_count{listener="rpc",group="transaction",status="2xx"}')).toBe(1);
  });

  it('reports the answer caches by listener and kind', async () => {
    const before = await scrape(node.url);
    for (const kind of ['immutable', 'chain', 'mempool']) {
      expect(sample(before, `wartnode_http_answer_cache_entries{listener="public",kind="${kind}"}`)).toBeGreaterThanOrEqual(0);
    }
    const kept = sample(before, 'wartnode_http_answer_cache_entries{listener="rpc",kind="immutable"}') ?? Number.NaN;
    expect((await node.get('/chain/block/1')).body.code).toBe(0);
    const m = await scrape(node.url);
    expect(sample(m, 'wartnode_http_answer_cache_entries{listener="rpc",kind="immutable"}')).toBe(kept + 1);
    expect(sample(m, 'wartnode_http_answer_cache_bytes{listener="rpc",kind="immutable"}')).toBeGreaterThan(
      sample(before, 'wartnode_http_answer_cache_bytes{listener="rpc",kind="immutable"}') ?? Number.NaN,
    );
  });

  it('is absent on the public listener, like the other private routes', async () => {
    expect(await statusOf(pub, '/debug/fakemine')).toBe(404);
    expect(await statusOf(pub, '/metrics')).toBe(404);
  });

  it('is served in every API generation, absent on their public listeners', async () => {
    for (const api of ['0.10', '0.8']) {
      const n = await startNode(['--regtest', `--api=${api}`, '--publicrpc=127.0.0.1:0']);
      nodes.push(n);
      const m = await scrape(n.url);
      expect(sample(m, `wartnode_info{version="v0.10.3",network="regtest",api="${api}"}`)).toBe(1);
      const privateRoute = await statusOf(await publicPort(n), '/debug/fakemine');
      // What the generation does with a route it does not serve (404, or the connection closed).
      expect(await statusOf(await publicPort(n), '/metrics')).toBe(privateRoute);
      expect([404, 'closed']).toContain(privateRoute);
    }
  });
});
