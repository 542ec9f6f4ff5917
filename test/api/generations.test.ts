// API generations (`--api=contract|0.10|0.8`, clients.md §1–§3, §5): in every generation both
// namings of a request are accepted, answers carry the generation's names, envelopes and error
// numbers, `/debug/json_schemas` describes what is sent, and every route answers a CORS preflight.
// (The helper validates every answer against its route's schema as the generation writes it.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import type { ApiName } from '../../ts/api/generations/generation.js';
import { genesisHash, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet, renameMembers, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(61),
  B = TestWallet.fromSeed(62);
const FEE_CODE = 0x4fa2;
const APIS: ApiName[] = ['contract', '0.10', '0.8'];
const nodes = {} as Record<ApiName, TestNode>;

beforeAll(async () => {
  for (const api of APIS) {
    nodes[api] = await startNode(['--regtest', `--api=${api}`]);
    for (let i = 0; i < 3; i++) await nodes[api].get(`/debug/fakemine/${A.addressText}`);
  }
});
afterAll(async () => {
  for (const n of Object.values(nodes)) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

describe.each(APIS)('--api=%s accepts every naming of POST /transaction/add', (api) => {
  let nonce = 0;
  const body = async (payload: TransactionPayload) => {
    const genesis = await genesisHash(nodes[api]);
    return requestJson(signRequest(A.sk, payload, { pinHeight: 0, pinHash: genesis, nonceId: ++nonce, feeCode: FEE_CODE }));
  };
  const transfer = (amount: bigint): TransactionPayload => ({ type: 'coinTransfer', toAddress: B.address, amount });
  const accepted = async (b: Record<string, unknown>) => {
    const r = await nodes[api].post('/transaction/add', b);
    expect(r.body.code, r.text).toBe(0);
    expect(r.body.data.txHash).toMatch(/^[0-9a-f]{64}$/);
  };

  it('contract names', async () => {
    await accepted(await body(transfer(1000n)));
  });
  it('0.10 names: wartTransfer with wartE8 or wartStr', async () => {
    await accepted({ ...renameMembers(await body(transfer(1002n)), { coinE8: 'wartE8' }), type: 'wartTransfer' });
    await accepted({ ...renameMembers(await body(transfer(100_000_000n)), { coinE8: null }), type: 'wartTransfer', wartStr: '1' });
  });
  it('0.8: untyped transfer with amountE8 or amount, fee as text', async () => {
    await accepted(renameMembers(await body(transfer(1003n)), { type: null, coinE8: 'amountE8' }));
    const b = renameMembers(await body(transfer(250_000_000n)), { type: null, coinE8: null, feeE8: null });
    await accepted({ ...b, amount: '2.5', fee: '0.01000448' });
  });
  it('a body carrying both 0.10 and 0.8 members (mobile-wallet)', async () => {
    const b = await body(transfer(1004n));
    await accepted({ ...renameMembers(b, { coinE8: 'wartE8' }), type: 'wartTransfer', amountE8: 1004 });
  });
  it('assetCreation with decimals or precision', async () => {
    const create = (name: string): TransactionPayload => ({ type: 'assetCreation', supply: 1000n, precision: 2, name: assetNameBytes(name) });
    await accepted(await body(create('PRC')));
    await accepted(renameMembers(await body(create('DEC')), { precision: 'decimals' }));
  });
  it('a body without type and without a 0.8 amount is refused with 189 (0.8 reads no type: a coin transfer)', async () => {
    const r = await nodes[api].post('/transaction/add', renameMembers(await body(transfer(5n)), { type: null }));
    expect(r.body.code).toBe(api === '0.8' ? 0 : 189);
  });
});

describe('answers in each generation', () => {
  it('the coin balance under each name', async () => {
    const c = await nodes.contract.data(`/account/${A.addressText}/coin_balance`);
    expect(c.coin.total.E8).toBe(900_000_000);
    const w = await nodes['0.10'].data(`/account/${A.addressText}/wart_balance`);
    expect(w.wart.total.E8).toBe(900_000_000);
    const m = await nodes['0.8'].data(`/account/${A.addressText}/balance`);
    expect(m).toMatchObject({ balance: '9.00000000', balanceE8: 900_000_000, address: A.addressText });
    // A route of one generation only is served in the others too, as that generation writes it.
    expect((await nodes.contract.data(`/account/${A.addressText}/balance`)).balanceE8).toBe(900_000_000);
    expect((await nodes['0.8'].data(`/account/${A.addressText}/wart_balance`)).wart.total.E8).toBe(900_000_000);
  });
  it('the chain head: nested, or flat in 0.8', async () => {
    expect((await nodes['0.10'].data('/chain/head')).chainHead.height).toBe(3);
    const flat = await nodes['0.8'].data('/chain/head');
    expect(flat.height).toBe(3);
    expect(Object.keys(flat).sort()).toEqual(['difficulty', 'hash', 'height', 'is_janushash', 'pinHash', 'pinHeight', 'synced', 'worksum', 'worksumHex']);
  });
  it('void success forms', async () => {
    expect((await nodes.contract.get('/peers/unban')).text).toBe('{"code":0}');
    expect((await nodes['0.10'].get('/peers/unban')).text).toBe('{"code":0,"error":"No error"}');
    expect((await nodes['0.8'].get('/peers/unban')).text).toBe('{"code":0,"error":null}');
    expect((await nodes['0.10'].get('/debug/rollback')).text).toBe('{"code":0,"data":{"code":0,"error":"No error"}}');
  });
  it('error numbers and texts', async () => {
    const c = (await nodes['0.10'].get('/chain/block/99')).body;
    const m = (await nodes['0.8'].get('/chain/block/99')).body;
    expect(c.code).toBe(56);
    expect(c.error).toMatch(/^Not found/);
    expect(m.code).toBe(57);
    expect(m.error).toMatch(/^not found/);
    expect((await nodes['0.8'].get('/chain/block/abc/header')).body.code).toBe(95);
  });
  it('/debug/json_schemas describes the names each generation sends', async () => {
    const doc = async (api: ApiName) => (await nodes[api].get('/debug/json_schemas')).body;
    expect(Object.keys((await doc('contract')).Market.properties)).toContain('coinToAssetSwaps');
    expect(Object.keys((await doc('0.10')).Market.properties)).toContain('wartToAssetSwaps');
    expect(Object.keys((await doc('0.10')).Market.properties)).not.toContain('coinToAssetSwaps');
    expect(Object.keys((await doc('0.8')).ChainHeadSynced.properties)).toContain('pinHash');
    // Answers reshaped per route are described by route.
    expect(Object.keys((await doc('0.8'))['GET /account/:account/balance'].properties)).toEqual(['balance', 'balanceE8', 'address', 'accountId']);
    expect((await doc('contract'))['GET /account/:account/balance']).toBeUndefined();
  });
});

describe('CORS (clients.md §5)', () => {
  it.each(APIS)('--api=%s answers a preflight on any route and marks every answer', async (api) => {
    const n = nodes[api];
    for (const path of ['/transaction/add', '/chain/head', '/no/such/route']) {
      const r = await fetch(n.url + path, {
        method: 'OPTIONS',
        headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,accept' },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
      expect(r.headers.get('access-control-allow-headers')).toBe('content-type,accept');
      expect(await r.text()).toBe('');
    }
    for (const path of ['/chain/head', '/chain/block/99', '/no/such/route']) {
      // The reference generations answer a path no route serves as the references do: not at all.
      if (path === '/no/such/route' && api !== 'contract') await expect(fetch(n.url + path)).rejects.toThrow();
      else expect((await fetch(n.url + path)).headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});
