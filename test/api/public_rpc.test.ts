// The public RPC listener (`--publicrpc`): only public routes, a per-IP request budget that holds
// under a flood from one address while another address is served, and the per-IP connection cap.
// Clients bind distinct loopback addresses (127.0.0.1, .2, .4) to be distinct IPs. The budget is
// tested on a listener in this process whose budget clock is stopped: its answers cannot depend
// on how fast the machine is.
import { mkdtemp, rm } from 'node:fs/promises';
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../ts/api/routes/index.js';
import { PRIVATE_ROUTES, PUBLIC_ROUTES, routeKey } from '../../ts/api/public_routes.js';
import { PUBLIC_BUDGET, RequestBudget } from '../../ts/api/request_budget.js';
import { PUBLIC_MAX_CONNECTIONS_PER_IP, startPublicRpc } from '../../ts/api/public_rpc.js';
import type { NodeServices } from '../../ts/api/services.js';
import { StreamHub } from '../../ts/api/streams/hub.js';
import { Chain } from '../../ts/chain/chain.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import { openDatabase } from '../../ts/store/database.js';
import { freeLoopbackPort, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet } from '../helpers/wallet.js';
import { parseArgs } from '../../ts/config.js';
import WebSocket from 'ws';
import { StreamClient } from '../helpers/stream.js';
import { initKernel } from '../../ts/kernel/instance.js';

await initKernel();
const ADDRESS = TestWallet.fromSeed(3).addressText;

let node: TestNode;
let pubPort: number;

async function publicEndpoint(n: TestNode): Promise<number> {
  for (;;) {
    const m = /Public RPC endpoint is [\d.]+:(\d+)\./.exec(n.output());
    if (m) return Number(m[1]);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  node = await startNode(['--regtest', '--publicrpc=127.0.0.1:0']);
  pubPort = await publicEndpoint(node);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

function call(port: number, method: string, path: string, agent: Agent, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      // JSON, but for the text routes (`/metrics`).
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: /^text\/plain/.test(res.headers['content-type'] ?? '') ? text : JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const agentFrom = (ip: string) => new Agent({ keepAlive: true, maxSockets: 8, localAddress: ip });

/** A concrete path for a route pattern. */
function concrete(path: string): string {
  return path
    .replace(/:(account|address)\b/g, ADDRESS)
    .replace(/:tokenspec\b/g, '0')
    .replace(/:interval\b/g, '1h')
    .replace(/:[A-Za-z_]+/g, '1');
}

const noRoute = (a: Answer) => a.status === 404 && a.body.code === 56 && /no route/.test(a.body.error);

describe('public RPC', () => {
  it('takes --publicrpc and --enable-public', () => {
    const cfg = (...a: string[]) => {
      const r = parseArgs(a, { HOME: '/h' });
      return r.kind === 'run' ? r.config.publicRpc : r.kind;
    };
    expect(cfg()).toBeUndefined();
    expect(cfg('--enable-public')).toEqual({ host: '0.0.0.0', port: 3001 });
    expect(cfg('--enable-public', '--publicrpc=127.0.0.1:3005')).toEqual({ host: '127.0.0.1', port: 3005 });
    expect(cfg('--publicrpc=nonsense')).toBe('error');
    expect(cfg('--enable-public=1')).toBe('error');
  });

  it('classifies every route as public or private', () => {
    for (const r of ROUTES) {
      const k = routeKey(r);
      expect(PUBLIC_ROUTES.has(k) !== PRIVATE_ROUTES.has(k), `${k} must be in exactly one list`).toBe(true);
    }
  });

  it('serves public routes and no private route', async () => {
    const agent = agentFrom('127.0.0.3');
    const rpcPort = Number(new URL(node.url).port);
    for (const r of ROUTES) {
      const path = concrete(r.path);
      const body = r.method === 'POST' ? '{}' : undefined;
      const pub = await call(pubPort, r.method, path, agent, body);
      if (PUBLIC_ROUTES.has(routeKey(r))) expect(noRoute(pub), `${r.method} ${path} on the public listener`).toBe(false);
      else {
        expect(noRoute(pub), `${r.method} ${path} must be absent on the public listener`).toBe(true);
        // …while the RPC endpoint has it (the request may still fail on its arguments).
        if (!/fakemine|rollback|disconnect|unban/.test(path)) {
          expect(noRoute(await call(rpcPort, r.method, path, agent, body)), `${r.method} ${path} on the RPC endpoint`).toBe(false);
        }
      }
    }
    agent.destroy();
  });

  it('caps concurrent connections per IP', async () => {
    const N = PUBLIC_MAX_CONNECTIONS_PER_IP + 8;
    const sockets: ReturnType<typeof connect>[] = [];
    const outcomes = await Promise.all(
      Array.from(
        { length: N },
        () =>
          new Promise<'answered' | 'dropped'>((resolve) => {
            const s = connect({ host: '127.0.0.1', port: pubPort, localAddress: '127.0.0.4' });
            sockets.push(s);
            let got = '';
            s.on('connect', () => s.write('GET /tools/encode16bit/from_e8/100 HTTP/1.1\r\nHost: x\r\n\r\n'));
            s.on('data', (d) => {
              got += d;
              if (got.includes('\r\n\r\n')) resolve('answered'); // the socket stays open (keep-alive)
            });
            s.on('error', () => undefined);
            s.on('close', () => resolve(got ? 'answered' : 'dropped'));
          }),
      ),
    );
    for (const s of sockets) s.destroy();
    expect(outcomes.filter((o) => o === 'answered').length).toBe(PUBLIC_MAX_CONNECTIONS_PER_IP);
    expect(outcomes.filter((o) => o === 'dropped').length).toBe(8);
  });
});

describe('the request budget', () => {
  // In this process, with the budget's clock stopped: no token comes back while the tests run,
  // however long the machine takes, so what is allowed and refused is exact.
  let dir: string;
  let db: Awaited<ReturnType<typeof openDatabase>>['db'];
  let pub: Awaited<ReturnType<typeof startPublicRpc>>;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wartnode-public-budget-'));
    ({ db } = await openDatabase(dir));
    const chain = await Chain.open(db, REGTEST);
    const services = {
      config: { api: 'contract', network: 'regtest' },
      chain,
      mempool: new MempoolService(chain, new MinFeePolicy()),
      synced: () => true,
      p2p: () => null,
      signedSnapshot: () => null,
      now: () => 1_700_000_000,
    } as unknown as NodeServices;
    const hub = new StreamHub(services, { recent: () => [], subscribe: () => () => undefined });
    pub = await startPublicRpc(ROUTES, services, '127.0.0.1', await freeLoopbackPort(), () => undefined, hub, new RequestBudget(PUBLIC_BUDGET, () => 0));
    port = (pub.server.address() as { port: number }).port;
  });

  afterAll(async () => {
    pub.closeStreams();
    pub.server.closeAllConnections();
    await new Promise<void>((r) => pub.server.close(() => r()));
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the per-IP budget under a flood while another IP is served', async () => {
    const flooder = agentFrom('127.0.0.4');
    const other = agentFrom('127.0.0.2');
    const FLOOD = PUBLIC_BUDGET.burst * 4;
    const floodAnswers: Answer[] = [];
    const flood = async () => {
      for (let i = 0; i < FLOOD / 8; i++) floodAnswers.push(await call(port, 'GET', '/chain/head', flooder));
    };
    const otherAnswers: Answer[] = [];
    const polite = async () => {
      for (let i = 0; i < 20; i++) otherAnswers.push(await call(port, 'GET', '/chain/head', other));
    };
    await Promise.all([...Array.from({ length: 8 }, flood), polite()]);
    // Exactly the burst, then every request refused, with when to come back.
    expect(floodAnswers.filter((a) => a.status === 200 && a.body.code === 0)).toHaveLength(PUBLIC_BUDGET.burst);
    const limited = floodAnswers.filter((a) => a.status !== 200);
    expect(limited).toHaveLength(FLOOD - PUBLIC_BUDGET.burst);
    for (const l of limited) {
      expect([l.status, l.body.code]).toEqual([429, 124]);
      expect(Number(l.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    for (const a of otherAnswers) expect([a.status, a.body.code]).toEqual([200, 0]);
    // The RPC endpoint has no budget.
    expect((await node.get('/chain/head')).body.code).toBe(0);
    flooder.destroy();
    other.destroy();
  });

  it('serves the streams, counted in the budget', async () => {
    const c = await StreamClient.open(`http://127.0.0.1:${port}`, '/stream');
    c.subscribe('chain');
    expect((await c.next('chain.state')).event.head.height).toBe(0);
    c.close();
    expect(c.problems).toEqual([]);
    // The upgrade took one request of the budget of 127.0.0.1: the rest goes to requests, then one is refused.
    const agent = agentFrom('127.0.0.1');
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_BUDGET.burst; i++) statuses.push((await call(port, 'GET', '/chain/head', agent)).status);
    agent.destroy();
    expect(statuses.filter((x) => x === 200)).toHaveLength(PUBLIC_BUDGET.burst - 1);
    expect(statuses.at(-1)).toBe(429);
    // An address that spent its budget on requests is refused the upgrade as well.
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/stream`);
      ws.on('unexpected-response', (_, res) => resolve(res.statusCode!));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('error', () => undefined);
    });
    expect(refused).toBe(429);
  });
});
