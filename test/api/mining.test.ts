// Mining through the HTTP interface on regtest, with real proof-of-work checks: the CPU miner,
// POST /chain/append refusals (each leaving the chain unchanged), fakemine, rollback, restart and
// kill -9 during block production.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { powCheck } from '../../ts/kernel/pow.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { parseHeader, serializeHeader } from '../../ts/core/header.js';
import { bodyMerkleRoot, parseBody, serializeBody, type Body } from '../../ts/core/body.js';
import { REGTEST, powVersionAt } from '../../ts/consensus/params.js';
import { removeDir, startNode } from '../helpers/node.js';
import { sharedNode } from '../helpers/shared_node.js';
import { digest } from '../helpers/digest.js';
import { Chain } from '../../ts/chain/chain.js';
import { openDatabase } from '../../ts/store/database.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = join(import.meta.dirname, '../../dist/miner.mjs');
const wallet = TestWallet.fromSeed(7);
const other = TestWallet.fromSeed(8);

const node = sharedNode();

async function template(address = wallet.addressText) {
  const r = await node().get(`/chain/mine/${address}`);
  expect(r.body.code, r.text).toBe(0);
  return r.body.data as { header: string; body: string; merklePrefix: string; height: number; testnet: boolean; blockReward: { E8: number } };
}

/** Re-seals a template after `change` edits its header and/or body: merkle root, then a valid nonce. */
function reseal(t: Awaited<ReturnType<typeof template>>, change: (h: ReturnType<typeof parseHeader>, b: Body) => void, validPow = true) {
  const header = parseHeader(fromHex(t.header)!);
  const body = parseBody(fromHex(t.body)!, 'V4');
  change(header, body);
  const bodyBytes = serializeBody(body);
  if (header.merkleRoot.every((x) => x === 0)) header.merkleRoot = bodyMerkleRoot(body, true);
  const raw = serializeHeader(header);
  const version = powVersionAt(REGTEST, t.height);
  const v = new DataView(raw.buffer);
  for (let n = 0; ; n++) {
    v.setUint32(76, n);
    if (powCheck(raw, version) === validPow) break;
  }
  return { height: t.height, header: toHex(raw), body: toHex(bodyBytes) };
}
const recomputeRoot = (h: { merkleRoot: Uint8Array }) => {
  h.merkleRoot = new Uint8Array(32);
};

async function head() {
  return (await node().get('/chain/head')).body.data.chainHead;
}

describe('the CPU miner', () => {
  it('mines 20 blocks through /chain/mine and /chain/append', () => {
    const r = spawnSync(process.execPath, [MINER, '--rpc', node().url, '--address', wallet.addressText, '--blocks', '20'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('mined 20 blocks');
  });

  it('left a consistent chain', async () => {
    const h = await head();
    expect(h.height).toBe(20);
    expect(h.hash).toBe((await node().get('/chain/block/20/hash')).body.data);
    expect(h.is_janushash).toBe(true);
    expect(h.pinHeight).toBe(0);
    expect(h.pinHash).toBe((await node().get('/chain/block/0/hash')).body.data);
    expect(BigInt(h.worksumHex)).toBe(20n); // regtest minimum target: work 1 per block
    expect((await node().get('/chain/hashrate/10')).body.data.nBlocks).toBe(10);
  });

  it('refuses bad arguments', () => {
    for (const args of [
      [],
      ['--rpc', node().url],
      ['--rpc', node().url, '--address', 'xyz'],
      ['--rpc', node().url, '--address', wallet.addressText, '--blocks', '0'],
    ]) {
      const r = spawnSync(process.execPath, [MINER, ...args], { encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(2);
    }
  });
});

describe('POST /chain/append refuses bad blocks and changes nothing', () => {
  const refusals: [string, number, (t: Awaited<ReturnType<typeof template>>) => unknown][] = [
    ['bad proof of work', 10, (t) => reseal(t, () => undefined, false)],
    [
      'bad merkle root',
      17,
      (t) =>
        reseal(t, (h) => {
          h.merkleRoot = new Uint8Array(32).fill(1);
        }),
    ],
    [
      'timestamp not after the retarget block',
      11,
      (t) =>
        reseal(t, (h) => {
          h.timestamp = 1;
        }),
    ],
    [
      'timestamp too far in the future',
      30,
      (t) =>
        reseal(t, (h) => {
          h.timestamp = Math.floor(Date.now() / 1000) + 3600;
        }),
    ],
    [
      'excessive reward',
      22,
      (t) =>
        reseal(t, (h, b) => {
          b.reward.amount += 1n;
          recomputeRoot(h);
        }),
    ],
    [
      'wrong target',
      12,
      (t) =>
        reseal(t, (h) => {
          h.target = 0x0040ffff;
        }),
    ],
    [
      'wrong previous hash',
      9,
      (t) =>
        reseal(t, (h) => {
          h.prevHash = new Uint8Array(32);
        }),
    ],
    // A header with a valid proof of work: the template's own passes the regtest target only by chance.
    [
      'trailing bytes',
      190,
      (t) => {
        const sealed = reseal(t, () => undefined);
        return { ...sealed, body: sealed.body + '00' };
      },
    ],
    ['wrong height', 76, (t) => ({ height: t.height + 1, header: t.header, body: t.body })],
    ['height 0', 73, (t) => ({ height: 0, header: t.header, body: t.body })],
    ['header not 80 bytes', 300, (t) => ({ height: t.height, header: t.header.slice(2), body: t.body })],
    ['body not hex', 300, (t) => ({ height: t.height, header: t.header, body: 'zz' })],
    ['missing body', 94, (t) => ({ height: t.height, header: t.header })],
    ['height as string', 94, (t) => ({ height: String(t.height), header: t.header, body: t.body })],
  ];
  for (const [what, code, make] of refusals) {
    it(what, async () => {
      const before = await head();
      const cacheBefore = (await node().get('/chain/txcache')).text;
      const r = await node().post('/chain/append', make(await template()));
      expect(r.body.code, r.text).toBe(code);
      expect(await head()).toEqual(before);
      expect((await node().get('/chain/txcache')).text).toBe(cacheBefore);
    });
  }

  it('refuses malformed JSON with 319', async () => {
    expect((await node().post('/chain/append', '{"height": 1,')).body.code).toBe(319);
  });

  it('accepts a valid transfer once, then refuses the replay and a forged signature', async () => {
    const t = await template(other.addressText);
    const h = t.height;
    const transfer = wallet.coinTransferEntry({
      height: h,
      pinHeight: 0,
      pinHash: fromHex((await node().get('/chain/block/0/hash')).body.data)!,
      nonceId: 1,
      feeCode: 0x2800,
      originId: 1n,
      toId: 2n,
      toAddress: other.address,
      amount: 1000n,
    });
    // The template pays `other`, a new account that gets id 2: the transfer goes to it.
    const forged = { ...transfer, amount: 1001n };
    const bad = await node().post(
      '/chain/append',
      reseal(t, (hd, b) => {
        b.coinTransfers = [forged];
        recomputeRoot(hd);
      }),
    );
    expect(bad.body.code, bad.text).toBe(197); // EINVSIG: another signer recovers, as the reference's block application says
    const ok = await node().post(
      '/chain/append',
      reseal(t, (hd, b) => {
        b.coinTransfers = [transfer];
        recomputeRoot(hd);
      }),
    );
    expect(ok.body, ok.text).toEqual({ code: 0, data: null });
    expect((await node().get('/chain/txcache')).body.data).toEqual([{ accountId: 1, nonceId: 1, pinHeight: 0 }]);
    const t2 = await template(other.addressText);
    const replayed = { ...transfer, pinNonce: { ...transfer.pinNonce } };
    const again = await node().post(
      '/chain/append',
      reseal(t2, (hd, b) => {
        b.coinTransfers = [replayed];
        recomputeRoot(hd);
      }),
    );
    expect(again.body.code, again.text).toBe(26);
  });
});

describe('fakemine and rollback', () => {
  it('fakemines to the burn address and to a given one, and rolls back', async () => {
    const h0 = (await head()).height;
    expect((await node().get('/debug/fakemine')).body).toEqual({ code: 0 });
    expect((await node().get(`/debug/fakemine/${other.addressText}`)).body).toEqual({ code: 0 });
    expect((await head()).height).toBe(h0 + 2);
    expect((await node().get('/debug/rollback')).body).toEqual({ code: 0 });
    expect((await head()).height).toBe(h0 + 1);
    expect((await node().get('/debug/fakemine/123')).body.code).toBe(71);
    const last = other.addressText.at(-1) === '0' ? '1' : '0';
    expect((await node().get(`/debug/fakemine/${other.addressText.slice(0, 47)}${last}`)).body.code).toBe(71);
  });

  it('mining templates: refuses bad addresses', async () => {
    expect((await node().get('/chain/mine/abc')).body.code).toBe(71);
    expect((await node().get('/chain/block/99999/hash')).body.code).toBe(56);
    expect((await node().get('/chain/block/x/hash')).body.code).toBe(94);
    expect((await node().get('/chain/hashrate/-1')).body.code).toBe(94);
  });

  it('refuses to roll back an empty chain', async () => {
    const n = await startNode(['--regtest']);
    try {
      expect((await n.get('/debug/rollback')).body.code).toBe(74);
    } finally {
      await n.stop();
      await removeDir(n.dataDir);
    }
  });
});

describe('persistence', () => {
  it('keeps everything across a restart', async () => {
    const n = await startNode(['--regtest']);
    try {
      for (let i = 0; i < 5; i++) await n.get(`/debug/fakemine/${wallet.addressText}`);
      const before = (await n.get('/chain/head')).body.data;
      await n.stop();
      const again = await startNode(['--regtest'], n.dataDir);
      expect((await again.get('/chain/head')).body.data).toEqual(before);
      await again.stop();
    } finally {
      await removeDir(n.dataDir);
    }
  });

  it('never leaves a torn block after kill -9 during fakemining (20 times)', async () => {
    const first = await startNode(['--regtest']);
    const dir = first.dataDir;
    await first.stop();
    let lastHeight = 0;
    for (let round = 0; round < 20; round++) {
      const n = await startNode(['--regtest'], dir);
      const h = (await n.get('/chain/head')).body.data.chainHead.height;
      expect(h).toBeGreaterThanOrEqual(lastHeight);
      // Every block is whole: its hash links, and the miner holds exactly 3 coins per block.
      if (h > 0) {
        expect((await n.get(`/chain/block/${h}/hash`)).body.data).toBe((await n.get('/chain/head')).body.data.chainHead.hash);
        const t = await n.get(`/chain/mine/${wallet.addressText}`);
        expect(t.body.data.height).toBe(h + 1);
      }
      lastHeight = h;
      let stop = false;
      const loop = (async () => {
        while (!stop)
          await fetch(`${n.url}/debug/fakemine/${wallet.addressText}`).catch(() => {
            stop = true;
          });
      })();
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 250));
      n.proc.kill('SIGKILL');
      stop = true;
      await loop;
      await new Promise((r) => (n.proc.exitCode !== null || n.proc.signalCode !== null ? r(null) : n.proc.once('exit', r)));
    }
    expect(lastHeight).toBeGreaterThan(0);
    // The surviving ledger equals a clean replay of the surviving blocks.
    const survivor = await openDatabase(dir);
    const chain = await Chain.open(survivor.db, REGTEST);
    const replayDir = await mkdtemp(join(tmpdir(), 'wartnode-replay-'));
    const replay = await openDatabase(replayDir);
    const replayChain = await Chain.open(replay.db, REGTEST);
    for (let h = 1; h <= chain.length; h++) {
      const b = (await chain.block(h))!;
      await replayChain.append(b.raw, b.body, { now: 2 ** 32 - 1, skipPow: true });
    }
    expect(chain.length).toBeGreaterThanOrEqual(lastHeight);
    expect(replayChain.length).toBe(chain.length);
    expect(await digest(replay.db)).toBe(await digest(survivor.db));
    await survivor.db.close();
    await replay.db.close();
    await removeDir(replayDir);
    await removeDir(dir);
  }, 120_000);
});
