// Seeds (issues 10, 27) and honest status without peers (issue 9 §3). The built-in lists are the
// reference's; a mainnet or testnet node dials its network's list by default, `--connect` replaces
// it, `--no-seeds` and `--isolated` turn it off, local networks (regtest) have none. Nodes that dial
// their seeds are tested with the list replaced by loopback listeners (these machines must never
// send traffic off loopback): in process (a seed table given to pinnedPeers) and spawned (the test
// hook WARTNODE_SEEDS). Every node a test spawns has an empty seed list unless the test gives one
// (vitest.config.ts, test/helpers/node.ts): the guard tests below hold that.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP, parseArgs, type Config } from '../../ts/config.js';
import { Chain } from '../../ts/chain/chain.js';
import { MAINNET } from '../../ts/consensus/params.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import { SEEDS, dialPlanLine, pinnedPeers, seedsOf, type SeedTable } from '../../ts/p2p/seeds.js';
import { P2PNode, noPeersLine } from '../../ts/p2p/service.js';
import { openDatabase } from '../../ts/store/database.js';
import { BIN, loopbackOnly, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { waitFor } from '../helpers/peers.js';

const env = { HOME: '/home/u' };
const config = (args: string[], seeds?: string): Config => {
  const r = parseArgs(args, { ...env, WARTNODE_SEEDS: seeds });
  if (r.kind !== 'run') throw new Error(`not a run: ${JSON.stringify(r)}`);
  return r.config;
};
/** The peers the node started with `args` dials (main.ts). */
const dialled = (args: string[], table?: SeedTable) => {
  const c = config(args);
  return text(pinnedPeers(c.network, c.connect, !c.noSeeds, table));
};
const text = (es: readonly { host: string; port: number }[]) => es.map((e) => `${e.host}:${e.port}`);

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('the built-in seed lists', () => {
  it('are the reference lists: mainnet the union of 0.10 and 0.8.20, testnet two, regtest none', () => {
    const mainnet = text(SEEDS.mainnet!);
    expect(mainnet).toHaveLength(20 + 13 - 5);
    expect(new Set(mainnet).size).toBe(mainnet.length);
    // One of 0.10's only, one of 0.8.20's only, one in both, the one on a non-default port.
    for (const e of ['122.148.197.165:9186', '15.235.162.190:9186', '135.181.77.214:9186', '213.199.59.252:20016']) expect(mainnet).toContain(e);
    expect(text(SEEDS.testnet!)).toEqual(['193.218.118.57:9286', '98.71.18.140:9286']);
    expect(seedsOf('regtest')).toEqual([]);
  });

  it('are dialled by default on mainnet and testnet; --connect replaces them; --no-seeds and --isolated turn them off', () => {
    expect(dialled([])).toEqual(text(SEEDS.mainnet!));
    expect(dialled(['--testnet'])).toEqual(text(SEEDS.testnet!));
    expect(dialled(['--regtest'])).toEqual([]);
    expect(dialled(['--no-seeds'])).toEqual([]);
    expect(dialled(['--testnet', '--no-seeds'])).toEqual([]);
    expect(dialled(['--connect=127.0.0.1:1,127.0.0.1:2'])).toEqual(['127.0.0.1:1', '127.0.0.1:2']);
    expect(dialled(['--testnet', '--no-seeds', '--connect=127.0.0.1:1'])).toEqual(['127.0.0.1:1']);
    expect(dialled(['--regtest', '--connect=127.0.0.1:1'])).toEqual(['127.0.0.1:1']);
    // --isolated: main.ts starts no peer-to-peer service at all.
    expect(config(['--isolated']).isolated).toBe(true);
    // A network without an entry in the table (a local one) has no seeds.
    const table: SeedTable = { mainnet: [{ host: '127.0.0.1', port: 1 }] };
    expect(dialled([], table)).toEqual(['127.0.0.1:1']);
    expect(dialled(['--testnet'], table)).toEqual([]);
  });

  it('--seeds is still accepted and changes nothing; --no-seeds is a flag; they exclude each other', () => {
    expect(config(['--seeds'])).toEqual(config([]));
    expect(config([]).noSeeds).toBeUndefined();
    expect(config(['--no-seeds']).noSeeds).toBe(true);
    expect(parseArgs(['--seeds=1'], env).kind).toBe('error');
    expect(parseArgs(['--no-seeds=1'], env).kind).toBe('error');
    expect(parseArgs(['--seeds', '--no-seeds'], env)).toEqual({ kind: 'error', message: '--seeds and --no-seeds exclude each other' });
  });

  it('WARTNODE_SEEDS (the test hook) replaces the seed list of the network run', () => {
    expect(config([]).seedTable).toBeUndefined();
    expect(config([], '')).toMatchObject({ seedTable: { mainnet: [] } });
    expect(config(['--testnet'], '127.0.0.1:5, 127.0.0.1:6')).toMatchObject({
      seedTable: {
        testnet: [
          { host: '127.0.0.1', port: 5 },
          { host: '127.0.0.1', port: 6 },
        ],
      },
    });
    expect(parseArgs([], { ...env, WARTNODE_SEEDS: 'seed.example:9186' })).toEqual({
      kind: 'error',
      message: "bad WARTNODE_SEEDS 'seed.example:9186' (expected IP:PORT,...)",
    });
  });

  it('the dial plan line says whom the node dials', () => {
    const connect = [{ host: '127.0.0.1', port: 1 }];
    expect(dialPlanLine('mainnet', undefined, true)).toMatch(
      /^Dialling the 28 built-in mainnet seed peers \(--no-seeds turns this off\): 122\.148\.197\.165:9186, .*, 96\.41\.20\.26:9186$/,
    );
    expect(dialPlanLine('testnet', undefined, true)).toBe(
      'Dialling the 2 built-in testnet seed peers (--no-seeds turns this off): 193.218.118.57:9286, 98.71.18.140:9286',
    );
    expect(dialPlanLine('mainnet', undefined, false)).toBe('Dialling no peers (--no-seeds); inbound peers are accepted');
    expect(dialPlanLine('regtest', undefined, true)).toBe(
      'Dialling no peers: regtest has no built-in seed peers (give peers with --connect); inbound peers are accepted',
    );
    expect(dialPlanLine('mainnet', connect, true)).toBe('Peers to dial (--connect, which replaces the seed list): 127.0.0.1:1');
    expect(dialPlanLine('mainnet', undefined, true, { mainnet: connect }, 'WARTNODE_SEEDS')).toBe(
      'Dialling the 1 WARTNODE_SEEDS mainnet seed peers (--no-seeds turns this off): 127.0.0.1:1',
    );
  });

  it('the no-peer line names the ways out', () => {
    expect(noPeersLine('mainnet', 0)).toMatch(/synced: false.*--no-seeds.*--connect=IP:PORT/);
    expect(noPeersLine('mainnet', 0)).not.toMatch(/with --seeds/);
    expect(noPeersLine('testnet', 2)).toMatch(/none of the 2 peers it dials answers/);
  });

  it('--help and the README say the same about seeds', async () => {
    expect(HELP).toMatch(/--no-seeds +do not dial the network's built-in seed peers/);
    expect(HELP).toMatch(/which mainnet and testnet dial by default/);
    expect(HELP).toMatch(/--seeds +dial the seed peers: the default/);
    expect(HELP).toMatch(/replaces the seed list/);
    const readme = await readFile('README.md', 'utf8');
    expect(readme).toMatch(/`--no-seeds`/);
    expect(readme).not.toMatch(/dials no one and only accepts inbound peers/);
    expect(readme).not.toMatch(/no built-in seed list/i);
  });
});

/** A loopback listener standing in for a seed: `hello` resolves to the first 14 bytes a dialler sends. */
async function fakeSeed(): Promise<{ port: number; endpoint: string; connections: () => number; hello: Promise<Buffer> }> {
  let connections = 0;
  let hello!: (b: Buffer) => void;
  const first = new Promise<Buffer>((r) => (hello = r));
  const server = createServer((s) => {
    connections++;
    let got = Buffer.alloc(0);
    s.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.length >= 14) {
        hello(got.subarray(0, 14));
        s.destroy();
      }
    });
    s.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise((r) => server.close(() => r())));
  const port = (server.address() as AddressInfo).port;
  return { port, endpoint: `127.0.0.1:${port}`, connections: () => connections, hello: first };
}

/** Fails after `ms` (a guard against a hang, never the expected path). */
const guard = <T>(p: Promise<T>, what: string, ms = 30_000): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms).unref())]);

/** Every address in the node's connection schedule (what it dials). */
async function scheduled(node: TestNode): Promise<string[]> {
  const s = await node.data('/peers/connection_schedule');
  return [...s.connectedVerified.map((e: any) => e.schedule), ...s.disconnectedVerified.map((e: any) => e.schedule), ...s.feelers].map((e: any) => e.address);
}

async function started(args: string[], seeds = ''): Promise<TestNode> {
  const node = await startNode(args, undefined, seeds);
  cleanups.push(async () => {
    await node.stop();
    await removeDir(node.dataDir);
  });
  return node;
}

const planLine = (node: TestNode) => waitFor('the dial plan line', async () => /^.*(Dialling|Peers to dial|Isolated).*$/m.exec(node.output())?.[0]);

describe('a mainnet node in process, started without seed options', () => {
  it('dials every seed of its table (loopback listeners), with the mainnet magic; none answers, so it says it has no peers', async () => {
    await initKernel();
    const seeds = [await fakeSeed(), await fakeSeed(), await fakeSeed()];
    const table: SeedTable = { mainnet: seeds.map((s) => ({ host: '127.0.0.1', port: s.port })) };
    const c = config([]);
    expect(c.network).toBe('mainnet');

    const dir = await mkdtemp(join(tmpdir(), 'wartnode-seeds-'));
    const { db } = await openDatabase(dir);
    const chain = await Chain.open(db, MAINNET);
    const lines: string[] = [];
    let noPeers!: () => void;
    const saidNoPeers = new Promise<void>((r) => (noPeers = r));
    const log = {
      info: (l: string) => {
        lines.push(l);
        if (l.startsWith('No peers')) noPeers();
      },
      warn: (l: string) => lines.push(l),
    };
    const p2p = await P2PNode.start({
      network: c.network,
      bind: { host: '127.0.0.1', port: 0 },
      connect: pinnedPeers(c.network, c.connect, !c.noSeeds, table),
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

    for (const s of seeds) expect((await guard(s.hello, 'the seed to be dialled')).toString()).toBe('WARTHOG GRUNT?');
    // None of them completes a handshake: the node has no peer, says so, and is not synced.
    expect(p2p.synced()).toBe(false);
    await guard(saidNoPeers, 'the no-peer line');
    expect(lines).toContain(noPeersLine('mainnet', 3));
  });
});

describe('a spawned mainnet node', () => {
  it('dials its seed list without --seeds (WARTNODE_SEEDS: a loopback listener)', async () => {
    const seed = await fakeSeed();
    const node = await started(['--bind=127.0.0.1:0'], seed.endpoint);
    expect((await guard(seed.hello, 'the seed to be dialled')).toString()).toBe('WARTHOG GRUNT?');
    expect(await planLine(node)).toMatch(`Dialling the 1 WARTNODE_SEEDS mainnet seed peers (--no-seeds turns this off): ${seed.endpoint}`);
    expect(await scheduled(node)).toEqual([seed.endpoint]);
  });

  it('with --no-seeds dials no one: its connection schedule is empty', async () => {
    const seed = await fakeSeed();
    const node = await started(['--bind=127.0.0.1:0', '--no-seeds'], seed.endpoint);
    expect(await planLine(node)).toMatch('Dialling no peers (--no-seeds); inbound peers are accepted');
    expect(await scheduled(node)).toEqual([]);
    expect(seed.connections()).toBe(0);
  });

  it('with --isolated starts no peer-to-peer service', async () => {
    const seed = await fakeSeed();
    const node = await started(['--isolated'], seed.endpoint);
    expect(await planLine(node)).toMatch('Isolated: no peer-to-peer connections');
    expect(node.output()).not.toMatch(/P2P endpoint/);
    expect(await scheduled(node)).toEqual([]);
    expect(seed.connections()).toBe(0);
  });

  it('with --connect dials those peers instead of the seeds', async () => {
    const seed = await fakeSeed();
    const other = await fakeSeed();
    const node = await started(['--bind=127.0.0.1:0', `--connect=${other.endpoint}`], seed.endpoint);
    expect((await guard(other.hello, 'the --connect peer to be dialled')).toString()).toBe('WARTHOG GRUNT?');
    expect(await planLine(node)).toMatch(`Peers to dial (--connect, which replaces the seed list): ${other.endpoint}`);
    expect(await scheduled(node)).toEqual([other.endpoint]);
  });
});

describe('a testnet node with --no-seeds', () => {
  it('dials no one, and answers synced: false in /chain/head and /chain/mine', async () => {
    const node = await started(['--testnet', '--bind=127.0.0.1:0', '--no-seeds']);
    expect(await planLine(node)).toMatch('Dialling no peers (--no-seeds)');
    expect((await node.data('/chain/head')).synced).toBe(false);
    const address = (await node.data('/tools/wallet/new')).address as string;
    expect((await node.data(`/chain/mine/${address}`)).synced).toBe(false);
    expect(await node.data('/peers/connected')).toEqual([]);
  });
});

describe('guard: test nodes never dial a public address', () => {
  it('every process a test spawns inherits an empty seed list (vitest.config.ts)', () => {
    expect(process.env.WARTNODE_SEEDS).toBe('');
  });

  it('a mainnet node spawned bare, with P2P on and no seed options, dials no one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-seeds-'));
    const proc = spawn(process.execPath, [BIN, '--rpc=127.0.0.1:0', '--bind=127.0.0.1:0', `--datadir=${dir}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(proc, 'exit');
    cleanups.push(async () => {
      if (proc.exitCode === null) proc.kill();
      await exited;
      await removeDir(dir);
    });
    let out = '';
    const line = new Promise<string>((resolve, reject) => {
      proc.stdout!.on('data', (d) => {
        out += d;
        const m = /^.*Dialling.*$/m.exec(out);
        if (m) resolve(m[0]);
      });
      proc.once('exit', (code) => reject(new Error(`node exited with ${code}:\n${out}`)));
    });
    expect(await guard(line, 'the dial plan line')).toMatch(
      'Dialling no peers: mainnet has no WARTNODE_SEEDS seed peers (give peers with --connect); inbound peers are accepted',
    );
  });

  it('the node helper refuses to give a test node a public address to dial', async () => {
    expect(loopbackOnly('127.0.0.1:1, localhost:2')).toBe('127.0.0.1:1, localhost:2');
    expect(() => loopbackOnly('127.0.0.1:1,8.8.8.8:9186')).toThrow(/loopback addresses only, not 8\.8\.8\.8:9186/);
    await expect(startNode(['--bind=127.0.0.1:0'], undefined, '203.25.209.147:9186')).rejects.toThrow(/loopback addresses only/);
    await expect(startNode(['--testnet', '--connect=193.218.118.57:9286'])).rejects.toThrow(/loopback addresses only/);
  });
});
