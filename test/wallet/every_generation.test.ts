// Every wallet command, as a user runs the built wallet, against a node of ours in each API
// generation (`--api=contract|0.10|0.8`): the wallet finds the generation itself (its commands as A)
// or is told it (`--api`, its commands as B). Each command either works, its effect checked on the
// node, or, where the generation has no assets, orders or pools (0.8), fails with one clear line and
// sends nothing. A node taken for another generation is one clear line too, never a stack trace.
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiName } from '../../ts/api/generations/generation.js';
import { toHex } from '../../ts/core/hex.js';
import { fee16Decode, fee16Encode } from '../../ts/kernel/fee16.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { GENERATIONS } from '../../ts/wallet/generations.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet } from '../helpers/wallet.js';
import { WALLET_BIN, start, wallet, walletOk } from './cli.js';

await initKernel();

const A = TestWallet.fromSeed(71),
  B = TestWallet.fromSeed(72);
const HASH = /^[0-9a-f]{64}\n$/;

/** A failure of the wallet: exit 1, nothing on stdout, one line of its own on stderr, no stack trace. */
function expectOneLine(r: { code: number | null; stdout: string; stderr: string }, text: string | RegExp): void {
  expect([r.code, r.stdout], r.stderr).toEqual([1, '']);
  expect(r.stderr).toMatch(/^wartnode-wallet: [^\n]+\n$/);
  expect(r.stderr).not.toMatch(/TypeError|\n\s+at /);
  expect(r.stderr).toMatch(text);
}

describe.each<ApiName>(['contract', '0.10', '0.8'])('the wallet against a node with --api=%s', { timeout: 180_000 }, (api) => {
  let node: TestNode;
  let dir: string;
  let asA: string[], asB: string[];
  const runA = (...args: string[]) => walletOk([...asA, ...args]);
  const runB = (...args: string[]) => walletOk([...asB, ...args]);
  const hashOf = (out: string) => {
    expect(out).toMatch(HASH);
    return out.trim();
  };
  const mine = () => node.data('/debug/fakemine');
  // What the node holds, read in the generation's own shapes.
  const mempool = async (): Promise<unknown[]> => {
    const d = await node.data('/transaction/mempool');
    return api === '0.8' ? d.data : d;
  };
  const minedAt = async (hash: string): Promise<number> => {
    const d = await node.data(`/transaction/lookup/${hash}`);
    return api === '0.8' ? d.transaction.blockHeight : (d.mined?.block.height ?? 0);
  };
  const coinE8 = async (address: string): Promise<bigint> => {
    if (api === '0.8') return BigInt((await node.data(`/account/${address}/balance`)).balanceE8);
    const d = await node.data(`/account/${address}/${api === '0.10' ? 'wart' : 'coin'}_balance`);
    return BigInt((d.wart ?? d.coin).total.E8);
  };
  const tokenU64 = async (address: string, spec: string) => BigInt((await node.data(`/account/${address}/balance/${spec}`)).balance.total.u64);

  beforeAll(async () => {
    node = await startNode(['--regtest', `--api=${api}`]);
    dir = await mkdtemp(join(tmpdir(), 'wartnode-wallet-gen-'));
    asA = ['--node', node.url, '--wallet', join(dir, 'a.json')];
    asB = ['--node', node.url, '--api', api, '--wallet', join(dir, 'b.json')];
  });
  afterAll(async () => {
    await node.stop();
    await removeDir(node.dataDir);
    await removeDir(dir);
  });

  it("the node's numbers of the errors the wallet tells apart are its table's", async () => {
    const errors = GENERATIONS[api].errors;
    expect((await node.get(`/transaction/lookup/${'00'.repeat(32)}`)).body.code).toBe(errors.notFound);
    expect((await node.get(`/account/${A.addressText}/history/9223372036854775807`)).body.code).toBe(errors.notFound);
    if (api !== '0.8')
      expect((await node.get(`/account/${A.addressText}/open_orders`)).body).toMatchObject(
        api === '0.10' ? { code: errors.addressNotFound } : { code: 0, data: [] },
      );
  });

  it('create, restore, address, show', async () => {
    expect(await runA('restore', toHex(A.sk))).toBe(`${A.addressText}\n`);
    expect(await runB('restore', toHex(B.sk))).toBe(`${B.addressText}\n`);
    const created = await walletOk(['--node', node.url, '--wallet', join(dir, 'c.json'), 'create']);
    expect(created).toMatch(/^[0-9a-f]{48}\n$/);
    expect(await walletOk(['--wallet', join(dir, 'c.json'), 'address'])).toBe(created);
    expect(await runA('address')).toBe(`${A.addressText}\n`);
    expect(await runB('show')).toContain(`private key ${toHex(B.sk)}\n`);
  });

  it('balance, send, history: the transfer pending, then mined, on the node', async () => {
    for (let i = 0; i < 3; i++) await node.data(`/debug/fakemine/${A.addressText}`);
    expect(await runA('balance')).toBe(`address ${A.addressText}\nWART${' '.repeat(17)}9.00000000\n`);
    expect(await runB('balance')).toBe(`address ${B.addressText}\nWART${' '.repeat(26)}0\n`);
    expect(await runB('history')).toBe('no history\n');

    const hash = hashOf(await runA('send', B.addressText, '1.5'));
    expect(await mempool()).toHaveLength(1);
    expect(await minedAt(hash)).toBe(0);
    expect(await runA('balance')).toContain('WART                 9.00000000  (pending 1.51000448)\n');
    expect(await runB('history')).toContain(`pending        -  coinTransfer         received 1.50000000 WART from ${A.addressText}  ${hash}`);

    await mine();
    expect(await minedAt(hash)).toBe(4);
    expect(await coinE8(B.addressText)).toBe(150_000_000n);
    expect(await runB('balance')).toBe(`address ${B.addressText}\nWART${' '.repeat(17)}1.50000000\n`);
    const id = api === '0.8' ? '-' : '\\d+';
    expect(await runA('history')).toMatch(
      new RegExp(
        `^ height +id +type +what +transaction\n +4 +${id}  coinTransfer +sent 1.50000000 WART to ${B.addressText}, fee 0.01000448  ${hash}\n +3 +${id}  reward +mining reward 3.00000000 WART`,
      ),
    );
    expect(await runB('history')).toMatch(new RegExp(` +4 +${id}  coinTransfer +received 1.50000000 WART from ${A.addressText}  ${hash}\n$`));
  });

  it('send --wait prints the height of the block that includes it; --fee raises the fee', async () => {
    const p = start(WALLET_BIN, [...asB, '--wait', '--timeout', '60', '--fee', '0.02', 'send', A.addressText, '0.25']);
    while ((await mempool()).length === 0) await new Promise((r) => setTimeout(r, 100));
    await mine();
    const r = await p.done;
    expect(r.code, r.stderr).toBe(0);
    const [hash, mined] = r.stdout.trim().split('\n');
    expect(mined).toBe('mined in block 5');
    expect(await minedAt(hash)).toBe(5);
    expect(await coinE8(B.addressText)).toBe(150_000_000n - 25_000_000n - fee16Decode(fee16Encode(2_000_000n, 'up')));
  });

  if (api === '0.8') {
    it('every command of assets, orders or pools: one line, exit 1, nothing sent', async () => {
      const tx = '11'.repeat(32);
      for (const [args, command] of [
        [['orders'], 'orders'],
        [['token', 'send', 'TOKA', B.addressText, '1'], 'token send'],
        [['asset', 'create', 'TOKA', '1000', '3'], 'asset create'],
        [['buy', 'TOKA', '1', '0.01'], 'buy'],
        [['sell', 'TOKA', '1', '0.05'], 'sell'],
        [['cancel', tx], 'cancel'],
        [['liquidity', 'deposit', 'TOKA', '100', '2'], 'liquidity deposit'],
        [['liquidity', 'withdraw', 'TOKA', '0.01'], 'liquidity withdraw'],
      ]) {
        for (const as of [asA, asB]) {
          expectOneLine(
            await wallet([...as, ...args]),
            `wartnode-wallet: '${command}' needs assets, orders and pools, which the node at ${node.url} does not have: it speaks API generation 0.8 (the mainnet reference node 0.8.20, or ours with --api=0.8)\n`,
          );
        }
      }
      expect(await mempool()).toEqual([]);
    });
  } else {
    it('asset create, token send, liquidity deposit, buy, sell, orders, cancel, liquidity withdraw: each on the node', async () => {
      const asset = hashOf(await runA('asset', 'create', 'TOKA', '1000', '3'));
      await mine();
      expect(await tokenU64(A.addressText, `asset:${asset}`)).toBe(1_000_000n);

      const sent = hashOf(await runA('token', 'send', 'TOKA', B.addressText, '12.5'));
      const deposit = hashOf(await runA('liquidity', 'deposit', 'TOKA', '100', '2'));
      await mine();
      expect([await minedAt(sent), await minedAt(deposit)]).toEqual([7, 7]);
      expect(await tokenU64(B.addressText, `asset:${asset}`)).toBe(12_500n);
      expect(await tokenU64(A.addressText, `liquidity:${asset}`)).toBeGreaterThan(0n);
      expect(await runB('balance')).toContain(`TOKA                     12.500  asset:${asset}\n`);

      // Pool price 0.02 WART/TOKA: a buy at 0.01 and a sell at 0.05 rest in the book.
      const buy = hashOf(await runA('buy', 'TOKA', '1', '0.01'));
      const sell = hashOf(await runB('sell', asset, '10', '0.05'));
      expect(await runA('orders')).toBe(`buy  TOKA  1.00000000 WART at 0.01 WART/TOKA, filled 0 (in mempool)  ${buy}\n`);
      await mine();
      expect(await runB('orders')).toBe(`sell TOKA  10.000 TOKA at 0.05 WART/TOKA, filled 0  ${sell}\n`);
      const book = (await node.data(`/dex/market/${asset}`)) as Record<string, unknown>;
      expect(Object.values(book).filter(Array.isArray).flat()).toHaveLength(2);

      const cancel = hashOf(await runA('cancel', buy));
      await mine();
      expect((await node.data(`/transaction/lookup/${cancel}`)).transaction.processed.canceledTxHash).toBe(buy);
      expect(await runA('orders')).toBe('no open orders\n');

      const withdraw = hashOf(await runA('liquidity', 'withdraw', 'TOKA', '0.01'));
      await mine();
      expect(await minedAt(withdraw)).toBe(10);
      const history = await runA('history');
      expect(history).toMatch(new RegExp(`withdrew 0.01000000 TOKA-LP for [\\d.]+ TOKA and [\\d.]+ WART, fee 0.01000448  ${withdraw}`));
      expect(history).toContain(`buy order: 1.00000000 WART at 0.01 WART/TOKA, canceled, fee 0.01000448  ${buy}`);
      expect(history).toContain(`canceled ${buy}, fee 0.01000448  ${cancel}`);
      const balance = await runA('balance');
      expect(balance).toMatch(new RegExp(`TOKA +\\d+\\.\\d{3}  asset:${asset}\n`));
      expect(balance).toMatch(new RegExp(`TOKA-LP +0\\.\\d{8}  liquidity:${asset}\n`));
    });
  }

  it('a node taken for another generation: one clear line', async () => {
    const other = api === '0.8' ? '0.10' : '0.8';
    const taken = ['--node', node.url, '--api', other, '--wallet', join(dir, 'a.json')];
    expectOneLine(
      await wallet([...taken, 'history']),
      /^wartnode-wallet: the node's answer to GET \/account\/\w+\/history\/9223372036854775807 is not what the wallet reads of API generation /,
    );
    if (api === '0.8')
      expectOneLine(
        await wallet([...taken, 'send', B.addressText, '1']),
        "the node's answer to GET /transaction/minfee is not what the wallet reads of API generation 0.10",
      );
    expect(await mempool()).toEqual([]);
  });
});

describe('a node that closes the connection without an answer', () => {
  it('is one clear line (the references close it on a route they do not serve)', async () => {
    const server = createServer((socket) => socket.on('data', () => socket.destroy()));
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    try {
      const dir = await mkdtemp(join(tmpdir(), 'wartnode-wallet-closed-'));
      await walletOk(['--wallet', join(dir, 'a.json'), 'restore', toHex(A.sk)]);
      expectOneLine(
        await wallet(['--node', `http://127.0.0.1:${port}`, '--wallet', join(dir, 'a.json'), 'balance']),
        `wartnode-wallet: the node at http://127.0.0.1:${port} closed the connection without answering GET /transaction/minfee: it does not serve that route`,
      );
      await removeDir(dir);
    } finally {
      server.close();
    }
  });
});
