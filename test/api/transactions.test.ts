// POST /transaction/add for coin transfers, the mempool routes, lookups before and after mining,
// balances at each step, every rejection path (each leaving mempool and balances unchanged),
// eviction, the minimum fee setting, and transactions returning to the mempool on rollback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { fee16Decode, fee16Encode } from '../../ts/kernel/fee16.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { signDigest } from '../../ts/core/keys.js';
import { txHash } from '../../ts/core/transaction.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(21);
const B = TestWallet.fromSeed(22);
const C = TestWallet.fromSeed(23);
const D = TestWallet.fromSeed(24); // never gets an account
const FEE = 1_000_448n; // the default minimum, code 0x4fa2
let node: TestNode;
let genesis: Uint8Array;

interface Transfer {
  from?: TestWallet;
  to?: TestWallet;
  amount?: bigint;
  feeE8?: bigint;
  nonceId?: number;
  pinHeight?: number;
}

/** The JSON of a signed coin transfer, as a wallet sends it. */
function transferJson(t: Transfer = {}): Record<string, unknown> {
  const from = t.from ?? A,
    to = t.to ?? B,
    amount = t.amount ?? 1000n,
    feeE8 = t.feeE8 ?? FEE;
  const pinHeight = t.pinHeight ?? 0,
    nonceId = t.nonceId ?? 1;
  const hash = txHash({ pinHash: genesis, pinHeight, nonceId, feeE8 }, { type: 'coinTransfer', toAddress: to.address, amount });
  return {
    type: 'coinTransfer',
    pinHeight,
    nonceId,
    feeE8: Number(feeE8),
    toAddr: to.addressText,
    coinE8: Number(amount),
    signature65: toHex(signDigest(hash, from.sk)),
  };
}

async function snapshot() {
  return {
    mempool: (await node.get('/transaction/mempool')).text,
    a: (await node.get(`/account/${A.addressText}/coin_balance`)).text,
    b: (await node.get(`/account/${B.addressText}/coin_balance`)).text,
  };
}

const coin = async (w: TestWallet) => (await node.get(`/account/${w.addressText}/coin_balance`)).body.data.coin;

beforeAll(async () => {
  node = await startNode(['--regtest']);
  genesis = fromHex((await node.get('/chain/block/0/hash')).body.data)!;
  for (let i = 0; i < 3; i++) await node.get(`/debug/fakemine/${A.addressText}`);
  await node.get(`/debug/fakemine/${B.addressText}`);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

describe('a coin transfer from submission to block', () => {
  let hash: string;
  it('is admitted and answered with its txHash', async () => {
    const body = transferJson({ amount: 5_000_000n, nonceId: 7 });
    const r = await node.post('/transaction/add', body);
    expect(r.body.code, r.text).toBe(0);
    hash = r.body.data.txHash;
    const expected = txHash({ pinHash: genesis, pinHeight: 0, nonceId: 7, feeE8: FEE }, { type: 'coinTransfer', toAddress: B.address, amount: 5_000_000n });
    expect(hash).toBe(toHex(expected));
  });

  it('is listed, looked up and reserved', async () => {
    const list = (await node.get('/transaction/mempool')).body.data;
    expect(list).toEqual([
      {
        type: 'coinTransfer',
        transaction: {
          data: { toAddress: B.addressText, amount: { str: '0.05000000', E8: 5000000 } },
          hash,
          signedCommon: { originId: 1, originAddress: A.addressText, fee: { str: '0.01000448', E8: 1000448 }, nonceId: 7, pinHeight: 0 },
        },
      },
    ]);
    expect((await node.get(`/account/${A.addressText}/mempool`)).body.data).toEqual(list);
    expect((await node.get(`/account/${B.addressText}/mempool`)).body.data).toEqual([]);
    const l = (await node.get(`/transaction/lookup/${hash}`)).body.data;
    expect(l).toEqual({ confirmations: 0, mined: null, type: 'coinTransfer', transaction: list[0].transaction });
    expect(await coin(A)).toEqual({ locked: { str: '0', E8: 0 }, mempool: { str: '0.06000448', E8: 6000448 }, total: { str: '9.00000000', E8: 900000000 } });
  });

  it('is mined and leaves the mempool', async () => {
    await node.get(`/debug/fakemine/${C.addressText}`);
    expect((await node.get('/transaction/mempool')).body.data).toEqual([]);
    const l = (await node.get(`/transaction/lookup/${hash}`)).body.data;
    expect(l.confirmations).toBe(1);
    expect(l.mined.block.height).toBe(5);
    expect(l.mined.block.hash).toBe((await node.get('/chain/block/5/hash')).body.data);
    expect(await coin(A)).toEqual({ locked: { str: '0', E8: 0 }, mempool: { str: '0', E8: 0 }, total: { str: '8.93999552', E8: 893999552 } });
    expect((await coin(B)).total.E8).toBe(300000000 + 5000000);
    expect((await coin(C)).total.E8).toBe(300000000 + Number(FEE)); // the miner got the fee
    expect((await node.get(`/account/${A.addressText}/history/99999`)).body.data.perBlock[0].body.coinTransfer[0].transaction.hash).toBe(hash);
    await node.get('/debug/fakemine');
    expect((await node.get(`/transaction/lookup/${hash}`)).body.data.confirmations).toBe(2);
  });

  it('returns to the mempool when its block is rolled back', async () => {
    await node.get('/debug/rollback');
    await node.get('/debug/rollback');
    const l = (await node.get(`/transaction/lookup/${hash}`)).body.data;
    expect(l.confirmations).toBe(0);
    expect((await coin(A)).mempool.E8).toBe(6000448);
    await node.get(`/debug/fakemine/${C.addressText}`);
    expect((await node.get(`/transaction/lookup/${hash}`)).body.data.confirmations).toBe(1);
  });
});

describe('rejections change nothing', () => {
  const cases: [string, number, () => unknown][] = [
    ['unknown type', 189, () => ({ ...transferJson(), type: 'wartTransfer2' })],
    [
      'missing type',
      189,
      () => {
        const j = transferJson();
        delete j.type;
        return j;
      },
    ],
    [
      'missing pinHeight',
      72,
      () => {
        const j = transferJson();
        delete j.pinHeight;
        return j;
      },
    ],
    ['pinHeight not a multiple of 32', 72, () => ({ ...transferJson(), pinHeight: 5 })],
    [
      'missing nonceId',
      301,
      () => {
        const j = transferJson();
        delete j.nonceId;
        return j;
      },
    ],
    ['negative nonceId', 301, () => ({ ...transferJson(), nonceId: -1 })],
    ['both fee forms', 130, () => ({ ...transferJson(), feeStr: '0.01000448' })],
    [
      'no fee',
      130,
      () => {
        const j = transferJson();
        delete j.feeE8;
        return j;
      },
    ],
    [
      'fee string malformed',
      88,
      () => {
        const j = transferJson();
        delete j.feeE8;
        return { ...j, feeStr: '0,01' };
      },
    ],
    ['fee not representable', 302, () => ({ ...transferJson(), feeE8: 1000449 })],
    ['fee zero', 302, () => ({ ...transferJson(), feeE8: 0 })],
    ['bad recipient address', 71, () => ({ ...transferJson(), toAddr: B.addressText.slice(0, 40) })],
    ['recipient checksum wrong', 71, () => ({ ...transferJson(), toAddr: B.addressText.slice(0, 47) + (B.addressText.endsWith('0') ? '1' : '0') })],
    ['both amount forms', 303, () => ({ ...transferJson(), coinStr: '0.00001' })],
    [
      'no amount',
      303,
      () => {
        const j = transferJson();
        delete j.coinE8;
        return j;
      },
    ],
    ['zero amount', 193, () => ({ ...transferJson(), coinE8: 0 })],
    ['amount too large', 303, () => JSON.stringify({ ...transferJson(), coinE8: 0 }).replace('"coinE8":0', '"coinE8":18446744073709551616')],
    ['signature wrong length', 304, () => ({ ...transferJson(), signature65: (transferJson().signature65 as string).slice(2) })],
    ['signature not hex', 304, () => ({ ...transferJson(), signature65: 'zz' + (transferJson().signature65 as string).slice(2) })],
    [
      'recovery id 4',
      23,
      () => {
        const s = transferJson().signature65 as string;
        return { ...transferJson(), signature65: s.slice(0, 128) + '04' };
      },
    ],
    [
      'high s',
      23,
      () => {
        const sig = fromHex(transferJson().signature65 as string)!;
        const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
        const s = BigInt('0x' + toHex(sig.subarray(32, 64)));
        sig.set(fromHex((n - s).toString(16).padStart(64, '0'))!, 32);
        sig[64] ^= 1;
        return { ...transferJson(), signature65: toHex(sig) };
      },
    ],
    ['signed by a key without an account', 122, () => transferJson({ from: D })],
    ['amount changed after signing (another signer recovers)', 122, () => ({ ...transferJson(), coinE8: 999 })],
    ['self send', 82, () => transferJson({ from: A, to: A })],
    ['pin above the chain', 29, () => transferJson({ pinHeight: 64 })],
    ['fee below the minimum', 217, () => transferJson({ feeE8: 5000n })],
    ['more than the balance', 22, () => transferJson({ amount: 10n ** 12n, nonceId: 99 })],
    ['replay of a mined transaction', 26, () => transferJson({ amount: 5_000_000n, nonceId: 7 })],
    ['not an object', 189, () => [1, 2]],
  ];
  for (const [what, code, make] of cases) {
    it(what, async () => {
      const before = await snapshot();
      const r = await node.post('/transaction/add', make());
      expect(r.body.code, `${what}: ${r.text}`).toBe(code);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('malformed JSON and oversized bodies', async () => {
    const before = await snapshot();
    expect((await node.post('/transaction/add', '{"type": "coinTransfer",')).body.code).toBe(319);
    expect((await node.post('/transaction/add', 'x'.repeat(2 << 20))).body.code).toBe(89);
    expect(await snapshot()).toEqual(before);
  });
});

describe('mempool rules', () => {
  it('refuses a second transaction with the same (pinHeight, nonceId) unless it pays more', async () => {
    const first = await node.post('/transaction/add', transferJson({ nonceId: 500, amount: 1n }));
    expect(first.body.code).toBe(0);
    const same = await node.post('/transaction/add', transferJson({ nonceId: 500, amount: 2n }));
    expect(same.body.code).toBe(26);
    const higher = await node.post('/transaction/add', transferJson({ nonceId: 500, amount: 2n, feeE8: fee16Decode(fee16Encode(2_000_000n, 'up')) }));
    expect(higher.body.code, higher.text).toBe(0);
    const list = (await node.get('/transaction/mempool')).body.data;
    expect(list.map((e: any) => e.transaction.hash)).toEqual([higher.body.data.txHash]);
  });

  it('evicts cheaper transactions of the same account to make room for a better-paying one', async () => {
    const total = BigInt((await coin(A)).total.E8);
    const reserved = BigInt((await coin(A)).mempool.E8);
    const cheap = await node.post('/transaction/add', transferJson({ nonceId: 501, amount: 1000n }));
    expect(cheap.body.code).toBe(0);
    const bigFee = fee16Decode(fee16Encode(50_000_000n, 'up'));
    // Needs everything but what the nonce-500 transaction (fee higher than the new one? no: lower) reserves.
    const amount = total - bigFee - 10n;
    const r = await node.post('/transaction/add', transferJson({ nonceId: 502, amount, feeE8: bigFee }));
    expect(r.body.code, r.text).toBe(0);
    const hashes = (await node.get('/transaction/mempool')).body.data.map((e: any) => e.transaction.hash);
    expect(hashes).toEqual([r.body.data.txHash]);
    expect(BigInt((await coin(A)).mempool.E8)).toBe(amount + bigFee);
    expect(reserved).toBeGreaterThan(0n);
  });

  it('raises the minimum fee at run time and drops what pays less', async () => {
    const r = await node.get('/settings/mempool/minfee/60000000');
    expect(r.body.data).toEqual({ deleted: 1 });
    expect((await node.get('/transaction/mempool')).body.data).toEqual([]);
    const m = (await node.get('/transaction/minfee')).body.data.minFee;
    expect(m.E8).toBe(Number(fee16Decode(fee16Encode(60_000_000n, 'up'))));
    expect((await node.post('/transaction/add', transferJson({ nonceId: 503 }))).body.code).toBe(217);
    expect((await node.get('/settings/mempool/minfee/abc')).body.code).toBe(94);
    await node.get(`/settings/mempool/minfee/${FEE}`);
  });

  it('looks up unknown and malformed hashes', async () => {
    expect((await node.get(`/transaction/lookup/${'00'.repeat(32)}`)).body.code).toBe(56);
    expect((await node.get('/transaction/lookup/abc')).body.code).toBe(300);
  });
});
