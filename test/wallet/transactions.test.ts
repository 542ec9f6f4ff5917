// Every transaction type end to end through the wallet's command line against a regtest node:
// created, mined (the CPU miner, /debug/fakemine), and visible in balance, history and orders;
// --wait; and the failures: wrong passphrase, bad address, bad amount, a node refusal with its
// code. A failure sends nothing (the mempool stays empty).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex } from '../../ts/core/hex.js';
import { fee16Decode, fee16Encode } from '../../ts/kernel/fee16.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet } from '../helpers/wallet.js';
import { MINER_BIN, WALLET_BIN, start, wallet, walletOk } from './cli.js';

await initKernel();

const A = TestWallet.fromSeed(61),
  B = TestWallet.fromSeed(62);
const PASS = 'a passphrase for A';
let node: TestNode;
let dir: string;
/** A's wallet is encrypted (the passphrase from a file), B's is not. */
let asA: string[], asB: string[];

const runA = (...args: string[]) => walletOk([...asA, ...args]);
const runB = (...args: string[]) => walletOk([...asB, ...args]);
const txHashOf = (out: string) => {
  expect(out).toMatch(/^[0-9a-f]{64}\n$/);
  return out.trim();
};
const mine = () => node.data('/debug/fakemine');
const mempool = async () => (await node.data('/transaction/mempool')) as unknown[];
const lookup = (hash: string) => node.data(`/transaction/lookup/${hash}`);

beforeAll(async () => {
  node = await startNode(['--regtest']);
  dir = await mkdtemp(join(tmpdir(), 'wartnode-wallet-tx-'));
  await writeFile(join(dir, 'pass'), PASS + '\n');
  await writeFile(join(dir, 'wrong'), 'not it\n');
  asA = ['--node', node.url, '--wallet', join(dir, 'a.json'), '--passphrase-file', join(dir, 'pass')];
  asB = ['--node', node.url, '--wallet', join(dir, 'b.json')];
  await runA('restore', toHex(A.sk));
  await runB('restore', toHex(B.sk));
  // Real proof of work for A's first coins, as the README's walk-through does.
  const miner = await start(MINER_BIN, ['--rpc', node.url, '--address', A.addressText, '--blocks', '3']).done;
  expect(miner.code, miner.stderr).toBe(0);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
  await removeDir(dir);
});

describe('the wallet end to end', { timeout: 180_000 }, () => {
  let asset = '';

  it('balance shows the mined coins', async () => {
    expect(await runA('balance')).toBe(`address ${A.addressText}\nWART${' '.repeat(17)}9.00000000\n`);
    expect(await runA('history')).toMatch(/^ height +id +type +what +transaction\n +3 +\d+ +reward +mining reward 3.00000000 WART +[0-9a-f]{64}\n/);
    expect(await runA('orders')).toBe('no open orders\n');
  });

  it('an address the chain has never seen: zero balance, no history, no orders', async () => {
    const C = TestWallet.fromSeed(63).addressText;
    expect(await runA('balance', C)).toMatch(new RegExp(`^address ${C}\nWART +0\n$`));
    expect(await runA('history', C)).toBe('no history\n');
    expect(await runA('orders', C)).toBe('no open orders\n');
  });

  it('send: a coin transfer, mined, in both balances and histories', async () => {
    const hash = txHashOf(await runA('send', B.addressText, '1.5'));
    expect((await lookup(hash)).transaction.data.amount.str).toBe('1.50000000');
    expect(await runA('balance')).toContain('(pending 1.51000448)');
    await mine();
    expect(await runB('balance')).toContain(`WART${' '.repeat(17)}1.50000000\n`);
    expect(await runA('balance')).toContain('WART                 7.48999552');
    expect(await runA('history')).toContain(`coinTransfer         sent 1.50000000 WART to ${B.addressText}, fee 0.01000448  ${hash}`);
    expect(await runB('history')).toContain(`received 1.50000000 WART from ${A.addressText}  ${hash}`);
  });

  it('--wait prints the height of the block that includes the transaction; --fee raises the fee', async () => {
    const p = start(WALLET_BIN, [...asA, '--wait', '--timeout', '60', '--fee', '0.02', 'send', B.addressText, '0.25']);
    while ((await mempool()).length === 0) await new Promise((r) => setTimeout(r, 100));
    await mine();
    const height = (await node.data('/chain/head')).chainHead.height;
    const r = await p.done;
    expect(r.code, r.stderr).toBe(0);
    const [hash, mined] = r.stdout.trim().split('\n');
    expect(mined).toBe(`mined in block ${height}`);
    const t = await lookup(hash);
    expect(t.mined.block.height).toBe(height);
    // 0.02 is not on the 16-bit fee grid: the next value above it.
    expect(BigInt(t.transaction.signedCommon.fee.E8)).toBe(fee16Decode(fee16Encode(2_000_000n, 'up')));
    expect(t.transaction.signedCommon.fee.E8).toBeGreaterThan(2_000_000);
  });

  it('asset create, token send: the token appears in both balances', async () => {
    asset = txHashOf(await runA('asset', 'create', 'TOKA', '1000', '3'));
    await mine();
    expect(await runA('balance')).toContain(`TOKA                   1000.000  asset:${asset}\n`);
    expect(await runA('history')).toContain(`created asset TOKA, supply 1000.000`);
    const byName = txHashOf(await runA('token', 'send', 'TOKA', B.addressText, '12.5'));
    const bySpec = txHashOf(await runA('token', 'send', `asset:${asset}`, B.addressText, '0.5'));
    await mine();
    expect(await runB('balance')).toContain(`TOKA                     13.000  asset:${asset}\n`);
    expect(await runB('history')).toContain(`received 12.500 TOKA from ${A.addressText}  ${byName}`);
    expect(await runA('history')).toContain(`sent 0.500 TOKA to ${B.addressText}, fee 0.01000448  ${bySpec}`);
  });

  it('liquidity deposit, then buy and sell orders that rest in the book, then a cancel', async () => {
    txHashOf(await runA('liquidity', 'deposit', 'TOKA', '100', '2'));
    await mine();
    expect(await runA('balance')).toContain(`TOKA-LP               0.04472135  liquidity:${asset}\n`);
    // Pool price 0.02 WART/TOKA: a buy at 0.01 and a sell at 0.05 do not trade.
    const buy = txHashOf(await runA('buy', 'TOKA', '1', '0.01'));
    const sell = txHashOf(await runA('sell', asset, '10', '0.05'));
    expect(await runA('orders')).toBe(
      `buy  TOKA  1.00000000 WART at 0.01 WART/TOKA, filled 0 (in mempool)  ${buy}\n` +
        `sell TOKA  10.000 TOKA at 0.05 WART/TOKA, filled 0 (in mempool)  ${sell}\n`,
    );
    await mine();
    const balance = await runA('balance');
    expect(balance).toContain('(locked in orders 1.00000000)');
    expect(balance).toContain('(locked in orders 10.000)');
    expect(await runA('history')).toContain(`sell order: 10.000 TOKA at 0.05 WART/TOKA, open 10.000, fee 0.01000448  ${sell}`);

    const cancel = txHashOf(await runA('cancel', buy));
    await mine();
    expect(await runA('orders')).toBe(`sell TOKA  10.000 TOKA at 0.05 WART/TOKA, filled 0  ${sell}\n`);
    const history = await runA('history');
    expect(history).toContain(`canceled ${buy}, fee 0.01000448  ${cancel}`);
    expect(history).toContain(`buy order: 1.00000000 WART at 0.01 WART/TOKA, canceled, fee 0.01000448  ${buy}`);
    // B can look at A's orders by address.
    expect(await runB('orders', A.addressText)).toContain(sell);
  });

  it('a buy that crosses the pool trades: the match is in the history and the bought tokens in the balance', async () => {
    const buy = txHashOf(await runB('buy', 'TOKA', '0.1', '0.03'));
    await mine();
    expect(await runB('history')).toMatch(/match +trade in TOKA: 1 buy and 0 sell fills/);
    expect((await lookup(buy)).transaction.processed.remaining.str).toBe('0');
    expect(await runB('balance')).toMatch(/TOKA +1[3-9]\.\d{3}  asset:/);
  });

  it('liquidity withdraw, and a liquidity token sent as a token', async () => {
    const w = txHashOf(await runA('liquidity', 'withdraw', 'TOKA', '0.01'));
    const t = txHashOf(await runA('token', 'send', `liquidity:${asset}`, B.addressText, '0.001'));
    await mine();
    expect(await runA('history')).toMatch(new RegExp(`withdrew 0.01000000 TOKA-LP for [\\d.]+ TOKA and [\\d.]+ WART, fee 0.01000448  ${w}`));
    expect(await runB('balance')).toContain(`TOKA-LP               0.00100000  liquidity:${asset}\n`);
    expect(await runB('history')).toContain(`received 0.00100000 TOKA-LP from ${A.addressText}  ${t}`);
  });

  it('history pages back with --before, and names the next page only when there is one', async () => {
    // Ids are global: B's oldest entry has a large id, yet nothing of B's is older.
    const newestB = await runB('history');
    expect(newestB).not.toContain('older entries');
    const idsB = [...newestB.matchAll(/^ +\d+ +(\d+) /gm)].map((m) => Number(m[1]));
    expect(Math.min(...idsB)).toBeGreaterThan(1);
    expect(await runB('history', '--before', String(Math.min(...idsB)))).toBe(`no entries before id ${Math.min(...idsB)}\n`);
    const newest = await runA('history');
    const before = /older entries: history --before (\d+)/.exec(newest);
    if (before) {
      const older = await runA('history', '--before', before[1]);
      expect(older.split('\n')[1]).toMatch(/^ +\d+ +\d+ /);
      const ids = [...older.matchAll(/^ +\d+ +(\d+) /gm)].map((m) => Number(m[1]));
      expect(Math.max(...ids)).toBeLessThan(Number(before[1]));
    }
  });

  it('history shows pending transfers, incoming ones too', async () => {
    const hash = txHashOf(await runA('send', B.addressText, '0.125'));
    expect(await runB('history')).toContain(`pending        -  coinTransfer         received 0.12500000 WART from ${A.addressText}  ${hash}`);
    expect(await runA('history')).toContain(`pending        -  coinTransfer         sent 0.12500000 WART to ${B.addressText}, fee 0.01000448  ${hash}`);
    await mine();
    expect(await runB('history')).not.toContain('pending');
  });

  it('prices print as exact decimals of the price grid', async () => {
    // 0.011 WART/TOKA is on the grid; the API's double for it is 0.011000000000000001.
    const buy = txHashOf(await runB('buy', 'TOKA', '0.01', '0.011'));
    expect((await lookup(buy)).transaction.data.limit.doubleAdjusted).toBe(0.011000000000000001);
    expect(await runB('orders')).toBe(`buy  TOKA  0.01000000 WART at 0.011 WART/TOKA, filled 0 (in mempool)  ${buy}\n`);
    await mine();
    expect(await runB('history')).toContain(`buy order: 0.01000000 WART at 0.011 WART/TOKA, open 0.01000000, fee 0.01000448  ${buy}`);
  });
});

describe('wallet failures send nothing', { timeout: 180_000 }, () => {
  const expectFails = async (args: string[], code: number, text: string) => {
    const r = await wallet(args);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain(text);
    expect(r.stdout).toBe('');
    expect(await mempool()).toEqual([]);
  };

  it('a wrong passphrase', async () => {
    const wrong = ['--node', node.url, '--wallet', join(dir, 'a.json'), '--passphrase-file', join(dir, 'wrong')];
    await expectFails([...wrong, 'send', B.addressText, '1'], 1, 'wartnode-wallet: wrong passphrase');
    await expectFails(['--node', node.url, '--wallet', join(dir, 'a.json'), 'send', B.addressText, '1'], 1, 'is encrypted');
  });

  it('a malformed address', async () => {
    const bad = B.addressText.slice(0, -1) + (B.addressText.endsWith('0') ? '1' : '0');
    await expectFails([...asA, 'send', bad, '1'], 1, `wartnode-wallet: '${bad}' is not an address`);
    await expectFails([...asA, 'token', 'send', 'TOKA', 'xyz', '1'], 1, "'xyz' is not an address");
  });

  it('a malformed amount or price', async () => {
    for (const amount of ['1.123456789', '1e3', 'abc', '']) {
      await expectFails(
        [...asA, 'send', B.addressText, '--', amount],
        1,
        `wartnode-wallet: amount '${amount}' is not a decimal amount with at most 8 decimals`,
      );
    }
    await expectFails([...asA, 'send', B.addressText, '0'], 1, 'wartnode-wallet: amount must be more than 0\n');
    // A negative number is the amount, not an option; either way one line of the wallet's own.
    await expectFails([...asA, 'send', B.addressText, '-1'], 1, "wartnode-wallet: amount '-1' is negative");
    await expectFails([...asA, '--fee', '-1', 'send', B.addressText, '1'], 1, "wartnode-wallet: --fee '-1' is negative");
    await expectFails([...asA, 'token', 'send', 'TOKA', B.addressText, '1.0001'], 1, 'at most 3 decimals');
    await expectFails([...asA, 'buy', 'TOKA', '1', 'cheap'], 1, "wartnode-wallet: price 'cheap' is not");
    await expectFails([...asA, '--fee', 'x', 'send', B.addressText, '1'], 1, "wartnode-wallet: --fee 'x' is not a decimal amount");
    await expectFails([...asA, 'asset', 'create', 'TOOLONG', '1', '0'], 1, "wartnode-wallet: 'TOOLONG' must be 1 to 5 letters or digits");
  });

  it('local failures are one line of the wallet, with no API error name', async () => {
    for (const args of [['send', B.addressText, '-1'], ['--fee', '-1', 'send', B.addressText, '1'], ['--bogus'], ['send', B.addressText]]) {
      const r = await wallet([...asA, ...args]);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(/^wartnode-wallet: [^\n]+$/);
      expect(r.stderr, args.join(' ')).not.toMatch(/error \d+|Invalid API arguments/);
    }
    const usage = await wallet([...asA, '--bogus']);
    expect([usage.code, usage.stderr]).toEqual([2, "wartnode-wallet: unknown option '--bogus'\nTry 'wartnode-wallet --help'.\n"]);
  });

  it('an amount beyond the free balance is refused before signing, in coin and asset units', async () => {
    await expectFails(
      [...asB, 'send', A.addressText, '1000'],
      1,
      'wartnode-wallet: insufficient balance: this needs 1000.01000448 WART (fee 0.01000448 WART included), ',
    );
    await expectFails([...asB, 'token', 'send', 'TOKA', A.addressText, '100000'], 1, 'wartnode-wallet: insufficient balance: this needs 100000.000 TOKA, ');
  });

  it("cancel takes only an open order of the wallet's own that a block holds", async () => {
    const transfer = txHashOf(await runA('send', B.addressText, '0.5'));
    const pendingSell = txHashOf(await runA('sell', 'TOKA', '1', '7'));
    let before = await mempool();
    const refused = async (args: string[], text: string) => {
      const r = await wallet(args);
      expect([r.code, r.stdout], r.stderr).toEqual([1, '']);
      expect(r.stderr).toContain(text);
      expect(await mempool()).toEqual(before);
    };
    await refused([...asA, 'cancel', transfer], `${transfer} is a coinTransfer, not a limit order`);
    await refused([...asA, 'cancel', pendingSell], `order ${pendingSell} is still in the mempool`);
    await refused([...asB, 'cancel', pendingSell], `was sent by ${A.addressText}, not by this wallet`);
    await refused([...asA, 'cancel', 'ab'.repeat(32)], `the node knows no transaction ${'ab'.repeat(32)}`);
    await mine();
    before = await mempool();
    await refused([...asA, 'cancel', transfer], 'is a coinTransfer, not a limit order');
    const cancel = txHashOf(await runA('cancel', pendingSell));
    await mine();
    expect((await lookup(cancel)).transaction.processed.canceledTxHash).toBe(pendingSell);
    const closed = await wallet([...asA, 'cancel', pendingSell]);
    expect([closed.code, closed.stderr]).toEqual([1, `wartnode-wallet: order ${pendingSell} is not open any more (filled or canceled: see 'history')\n`]);
  });

  it('--version, and no command: the help on stderr, exit 2', async () => {
    expect(await walletOk(['--version'])).toMatch(/^wartnode-wallet v0\.10\.3 \(commit ([0-9a-f]+|unknown)\)\n$/);
    const none = await wallet([]);
    expect([none.code, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toMatch(/^wartnode-wallet: no command given\nusage: wartnode-wallet /);
    const miner = await start(MINER_BIN, ['--version']).done;
    expect([miner.code, miner.stdout]).toEqual([0, expect.stringMatching(/^wartnode-miner v0\.10\.3 /)]);
  });

  it("the node's refusals with their code and text", async () => {
    await expectFails([...asA, 'send', A.addressText, '1'], 1, 'the node refused POST /transaction/add: error 82: Self send transaction not allowed');
    await expectFails([...asA, '--fee', '0.00000001', 'send', B.addressText, '1'], 1, 'error 217: Transaction fee below threshold');
    await expectFails([...asA, 'buy', 'f'.repeat(64), '1', '1'], 1, 'the node refused GET /asset/lookup/');
    await expectFails([...asA, 'buy', 'NOPE', '1', '1'], 1, "no asset is named 'NOPE'");
  });

  it('--wait reports a transaction that leaves the mempool unmined', async () => {
    const p = start(WALLET_BIN, [...asA, '--wait', 'send', B.addressText, '0.1']);
    while ((await mempool()).length === 0) await new Promise((r) => setTimeout(r, 100));
    const minFee = (await node.data('/transaction/minfee')).minFee.E8;
    // A higher minimum fee evicts it (http-api.md "States and transitions").
    expect((await node.data('/settings/mempool/minfee/2000896')).deleted).toBe(1);
    const r = await p.done;
    await node.data(`/settings/mempool/minfee/${minFee}`);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    expect(r.stderr).toContain(`wartnode-wallet: transaction ${r.stdout.trim()} left the mempool unmined`);
  });
});
