// Seeds (issue 10) and honest status without peers (issue 9 §3). The built-in lists are the
// reference's; `--seeds` dials them, `--connect` replaces them, and nothing is dialled unless
// asked. A mainnet node started with --seeds dials the built-in list: tested with the list
// replaced by loopback listeners (these machines must never send traffic off loopback).
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP, parseArgs, type Config } from '../../ts/config.js';
import { Chain } from '../../ts/chain/chain.js';
import { MAINNET } from '../../ts/consensus/params.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import { SEEDS, dialPlanLine, pinnedPeers, type SeedTable } from '../../ts/p2p/seeds.js';
import { P2PNode, noPeersLine } from '../../ts/p2p/service.js';
import { openDatabase } from '../../ts/store/database.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { waitFor } from '../helpers/peers.js';

const env = { HOME: '/home/u' };
const config = (args: string[]): Config => {
  const r = parseArgs(args, env);
  if (r.kind !== 'run') throw new Error(`not a run: ${JSON.stringify(r)}`);
  return r.config;
};
const text = (es: readonly { host: string; port: number }[]) => es.map((e) => `${e.host}:${e.port}`);

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('the built-in seed lists', () => {
  it('are the reference lists: mainnet the union of 0.10 and 0.8.20, testnet two, regtest none', () => {
    const mainnet = text(SEEDS.mainnet);
    expect(mainnet).toHaveLength(20 + 13 - 5);
    expect(new Set(mainnet).size).toBe(mainnet.length);
    // One of 0.10's only, one of 0.8.20's only, one in both, the one on a non-default port.
    for (const e of ['122.148.197.165:9186', '15.235.162.190:9186', '135.181.77.214:9186', '213.199.59.252:20016']) expect(mainnet).toContain(e);
    expect(text(SEEDS.testnet)).toEqual(['193.218.118.57:9286', '98.71.18.140:9286']);
    expect(SEEDS.regtest).toEqual([]);
  });

  it('are dialled only with --seeds; --connect replaces them', () => {
    const connect = [{ host: '127.0.0.1', port: 1 }];
    expect(pinnedPeers('mainnet', undefined, false)).toEqual([]);
    expect(text(pinnedPeers('mainnet', undefined, true))).toEqual(text(SEEDS.mainnet));
    expect(pinnedPeers('testnet', connect, true)).toEqual(connect);
    expect(config(['--seeds']).seeds).toBe(true);
    expect(config([]).seeds).toBeUndefined();
    expect(parseArgs(['--seeds=1'], env).kind).toBe('error');
    expect(dialPlanLine('mainnet', undefined, false)).toMatch(/Dialling no peers/);
    expect(dialPlanLine('mainnet', undefined, true)).toBe('Dialling the 28 built-in mainnet seed peers (--seeds)');
    expect(dialPlanLine('regtest', undefined, true)).toMatch(/no built-in regtest seed peers/);
    expect(dialPlanLine('mainnet', connect, true)).toBe('Peers to dial (--connect, which replaces --seeds): 127.0.0.1:1');
  });

  it('--help and the README say the same about seeds', async () => {
    expect(HELP).toMatch(/--seeds +dial the network's built-in seed peers/);
    expect(HELP).toMatch(/replaces the seed list/);
    expect(HELP).not.toMatch(/replacing the built-in seed list/);
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile('README.md', 'utf8');
    expect(readme).toMatch(/--seeds/);
    expect(readme).not.toMatch(/no built-in seed list/i);
  });
});

/** A loopback listener standing in for a seed: records the first bytes each dialler sends. */
async function fakeSeed(): Promise<{ server: Server; port: number; hellos: Buffer[] }> {
  const hellos: Buffer[] = [];
  const server = createServer((s) => {
    let got = Buffer.alloc(0);
    s.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.length >= 14) {
        hellos.push(got);
        s.destroy();
      }
    });
    s.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise((r) => server.close(() => r())));
  return { server, port: (server.address() as AddressInfo).port, hellos };
}

describe('a mainnet node started with --seeds', () => {
  it('dials every built-in seed (the list replaced by loopback listeners), with the mainnet magic', async () => {
    await initKernel();
    const seeds = [await fakeSeed(), await fakeSeed(), await fakeSeed()];
    const table: SeedTable = { mainnet: seeds.map((s) => ({ host: '127.0.0.1', port: s.port })), testnet: [], regtest: [] };
    const c = config(['--seeds']);
    expect(c.network).toBe('mainnet');

    const dir = await mkdtemp(join(tmpdir(), 'wartnode-seeds-'));
    const { db } = await openDatabase(dir);
    const chain = await Chain.open(db, MAINNET);
    const lines: string[] = [];
    const log = { info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) };
    const p2p = await P2PNode.start({
      network: c.network,
      bind: { host: '127.0.0.1', port: 0 },
      connect: pinnedPeers(c.network, c.connect, !!c.seeds, table),
      chain,
      mempool: new MempoolService(chain, new MinFeePolicy()),
      log,
      noPeerLogMs: 100,
    });
    cleanups.push(async () => {
      await p2p.stop();
      await db.close();
      await removeDir(dir);
    });

    for (const s of seeds) {
      const hello = await waitFor('the seed is dialled', async () => s.hellos[0]);
      expect(hello.subarray(0, 14).toString()).toBe('WARTHOG GRUNT?');
    }
    // None of them completes a handshake: the node has no peer, says so, and is not synced.
    expect(p2p.synced()).toBe(false);
    await waitFor('the no-peer line', async () => lines.find((l) => l.startsWith('No peers')));
    expect(lines).toContain(noPeersLine('mainnet', 3));
  }, 60_000);
});

describe('a node that was not asked to dial anyone', () => {
  let node: TestNode;
  afterAll(async () => {
    await node?.stop();
    if (node) await removeDir(node.dataDir);
  });

  it('dials no one, and on testnet answers synced: false in /chain/head and /chain/mine', async () => {
    node = await startNode(['--testnet', '--bind=127.0.0.1:0']);
    await waitFor('the dial plan line', async () => /Dialling no peers \(neither --connect nor --seeds given\)/.test(node.output()));
    expect((await node.data('/chain/head')).synced).toBe(false);
    const address = (await node.data('/tools/wallet/new')).address as string;
    expect((await node.data(`/chain/mine/${address}`)).synced).toBe(false);
    expect(await node.data('/peers/connected')).toEqual([]);
  }, 60_000);

  it('the no-peer line names both ways out', () => {
    expect(noPeersLine('mainnet', 0)).toMatch(/synced: false.*--connect=IP:PORT.*--seeds/);
    expect(noPeersLine('testnet', 2)).toMatch(/none of the 2 pinned peers answers/);
  });
});
