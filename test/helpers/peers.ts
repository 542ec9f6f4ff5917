// Multi-node helpers: regtest nodes with P2P on a free loopback port, blocks mined with real proof
// of work over HTTP (GET /chain/mine → solve → POST /chain/append, as a miner does), and polling.
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { toHex } from '../../ts/core/hex.js';
import { solve, type MiningTask } from '../../ts/miner/cpu_miner.js';
import { startNode, type TestNode } from './node.js';

/** A regtest node listening for peers on 127.0.0.1 (any free port), connecting to `connect`. */
export function startPeerNode(connect: TestNode[] = [], dataDir?: string, extra: string[] = []): Promise<TestNode> {
  const args = ['--regtest', ...(extra.some((a) => a.startsWith('--bind')) ? [] : ['--bind=127.0.0.1:0']), ...extra];
  if (connect.length) args.push(`--connect=${connect.map((n) => n.p2p).join(',')}`);
  return startNode(args, dataDir);
}

/**
 * `n` distinct free loopback ports, ascending. Two nodes that dialled each other keep the connection
 * the lower listen port dialled (peer_manager.ts mutualDial): tests that need a given side's
 * outbound connection to stay choose its port with this.
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => createServer().listen(0, '127.0.0.1'));
  await Promise.all(servers.map((s) => once(s, 'listening')));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports.sort((a, b) => a - b);
}

/** Mines `n` blocks paying `address` on `node`, each with a valid proof of work. */
export async function mine(node: TestNode, address: string, n: number): Promise<void> {
  for (let mined = 0; mined < n; ) {
    const task = await node.get(`/chain/mine/${address}`);
    if (task.body.code !== 0) throw new Error(`/chain/mine: ${task.text}`);
    const block = solve(task.body.data as MiningTask);
    if (!block) continue;
    const r = await node.post('/chain/append', { height: block.height, header: toHex(block.header), body: toHex(block.body) });
    if (r.body.code === 0) mined++;
  }
}

export interface Head {
  height: number;
  hash: string;
  synced: boolean;
}

export async function head(node: TestNode): Promise<Head> {
  const d = (await node.get('/chain/head')).body.data;
  return { height: d.chainHead.height, hash: d.chainHead.hash, synced: d.synced };
}

/** Polls `check` every 100 ms until it returns a truthy value; fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until every node reports the same head as `leader`; returns it. */
export async function sameHead(leader: TestNode, others: TestNode[], timeoutMs = 30_000): Promise<Head> {
  return waitFor(
    'the same head on every node',
    async () => {
      const h = await head(leader);
      for (const n of others) if ((await head(n)).hash !== h.hash) return null;
      return h;
    },
    timeoutMs,
  );
}
