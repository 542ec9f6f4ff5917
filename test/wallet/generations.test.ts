// The wallet's table of API generations (ts/wallet/generations.ts) over real answers: the 0.10
// reference's recorded answers (test/vectors/reference-0.10, reference-0.10.3-exchange) read by
// the wallet's own views, its request bodies against those the reference accepted, and 0.8 answers
// written as the mainnet reference 0.8.20 writes them (core a59f7ddf src/node/api/http/json.cpp,
// nlohmann dump(1), keys sorted; the wallet over 0.8.20's live answers: live_recorded.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../ts/core/errors.js';
import { readJson, writeJson } from '../../ts/core/json.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { V0_10 } from '../../ts/api/generations/v0_10.js';
import { balanceLines, historyText, orderLines } from '../../ts/wallet/account_views.js';
import { resolveAsset } from '../../ts/wallet/assets.js';
import { GENERATIONS, generationOfMinFee, type GenerationName } from '../../ts/wallet/generations.js';
import { NodeApi, type Transport } from '../../ts/wallet/node_api.js';
import { replyData } from '../../ts/wallet/node_client.js';
import { WalletError } from '../../ts/wallet/wallet_error.js';

await initKernel();

const VECTORS = join(import.meta.dirname, '../vectors');
const NEWEST = '9223372036854775807';
const exact = (file: string) => readJson(readFileSync(join(VECTORS, file), 'utf8')) as any;

/**
 * A node that answers from recorded envelopes; a path it has none for is closed, as the reference
 * closes it. The page of history before a recorded newest page's `fromId` is empty (each recorded
 * account's whole history fits one page).
 */
function recorded(envelopes: Record<string, unknown>, posted: unknown[] = []): Transport {
  const answer = (path: string) => {
    const older = /^(\/account\/\w+\/history\/)(\d+)$/.exec(path);
    const newest = older && (envelopes[older[1] + NEWEST] as { data?: { fromId: number } } | undefined);
    if (!(path in envelopes) && newest?.data && BigInt(older![2]) <= BigInt(newest.data.fromId)) return { fromId: 0, perBlock: [] };
    if (!(path in envelopes)) throw new WalletError(`closed the connection without answering GET ${path}`);
    return replyData(envelopes[path], `GET ${path}`);
  };
  return {
    base: 'http://recorded',
    get: async <T>(path: string) => answer(path) as T,
    post: async <T>(path: string, body: string) => {
      posted.push(readJson(body));
      return answer(`POST ${path}`) as T;
    },
  };
}

const connect = (envelopes: Record<string, unknown>, g?: GenerationName, posted?: unknown[]) => NodeApi.connect(recorded(envelopes, posted), g);
const failure = async (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e) => e,
  );

// ---- 0.10: the reference 58031328's recorded sweep (reference-0.10/endpoints.json) ----

const R58: { request?: { method: string; path: string }; raw?: string }[] = JSON.parse(readFileSync(join(VECTORS, 'reference-0.10/endpoints.json'), 'utf8'));
/** The first recorded answer of each GET path, exact. */
const r58: Record<string, unknown> = {};
for (const e of R58) if (e.request?.method === 'GET' && e.raw && !(e.request.path in r58)) r58[e.request.path] = readJson(e.raw);
const [A58, UNKNOWN58] = ['53d76a5f859808c14238e67ca3291f7e0151f241d158045c', '5528f6caede38295c7da0d2887969cf778e394b16cc41685'];
const TEST58 = '4c4b6d1a22b39e9e8af3b36c841abdf4f7b30ba8c60481140262debe13e01a89';

// ---- 0.8: answers as 0.8.20 writes them (json.cpp line numbers at a59f7ddf) ----

const ADDR_A = '0e07d0b1a4a3ab9e87d5f1bb13dc0f1f5d8bd7862e2fb34e';
const ADDR_B = '96b0d6c4d32e4f2bd5b0a0a6ba0a4d6a8e4a3d7b9c0f1e2a';
const H = (c: string) => c.repeat(64);
/** json.cpp:272-286 */
const HEAD8 = {
  code: 0,
  data: { difficulty: 1.0, hash: H('1'), height: 70, is_janushash: true, pinHash: H('2'), pinHeight: 64, synced: true, worksum: 71.0, worksumHex: '0x47' },
};
/** json.cpp:386-393 */
const MINFEE8 = { code: 0, data: { '16bit': 20386, E8: 1000448, amount: '0.01000448' } };
/** json.cpp:511-526 */
const BALANCE8 = { code: 0, data: { accountId: 1, address: ADDR_A, balance: '207.98999552', balanceE8: 20798999552 } };
/** json.cpp:182-215, 408-426: blocks newest first, within a block rewards then transfers. */
const transfer8 = (hash: string, from: string, to: string, amount: [string, number]) => ({
  amount: amount[0],
  amountE8: amount[1],
  fee: '0.01000448',
  feeE8: 1000448,
  fromAddress: from,
  nonceId: 7,
  pinHeight: 64,
  toAddress: to,
  txHash: hash,
});
const HISTORY8 = {
  code: 0,
  data: {
    balance: '207.98999552',
    balanceE8: 20798999552,
    fromId: 1,
    perBlock: [
      {
        confirmations: 1,
        height: 70,
        transactions: {
          rewards: [{ amount: '3.00000000', amountE8: 300000000, toAddress: ADDR_A, txHash: H('a') }],
          transfers: [transfer8(H('b'), ADDR_A, ADDR_B, ['1.50000000', 150000000])],
        },
      },
      { confirmations: 2, height: 69, transactions: { rewards: [], transfers: [transfer8(H('c'), ADDR_B, ADDR_A, ['0.25000000', 25000000])] } },
    ],
  },
};
/** json.cpp:324-343: `{data: [...]}` inside `data`. */
const MEMPOOL8 = { code: 0, data: { data: [transfer8(H('d'), ADDR_A, ADDR_B, ['2.00000000', 200000000])] } };
/** json.cpp:222-256; a pending transfer has blockHeight 0 (chainserver/state/state.cpp:127-140). */
const lookup8 = (blockHeight: number) => ({
  code: 0,
  data: { transaction: { ...transfer8(H('d'), ADDR_A, ADDR_B, ['2.00000000', 200000000]), blockHeight, confirmations: blockHeight ? 1 : 0, type: 'Transfer' } },
});
const REWARD_LOOKUP8 = {
  code: 0,
  data: {
    transaction: {
      amount: '3.00000000',
      amountE8: 300000000,
      blockHeight: 70,
      confirmations: 1,
      timestamp: 1795641880,
      toAddress: ADDR_A,
      txHash: H('a'),
      type: 'Reward',
      utc: '2026-11-25 21:24:40 UTC',
    },
  },
};
const NODE8: Record<string, unknown> = {
  '/chain/head': HEAD8,
  '/transaction/minfee': MINFEE8,
  [`/account/${ADDR_A}/balance`]: BALANCE8,
  [`/account/${ADDR_A}/history/9223372036854775807`]: HISTORY8,
  [`/account/${ADDR_A}/history/1`]: { code: 0, data: { balance: '207.98999552', balanceE8: 20798999552, fromId: 0, perBlock: [] } },
  [`/account/${ADDR_B}/history/9223372036854775807`]: { code: 57, error: 'not found' },
  '/transaction/mempool': MEMPOOL8,
  [`/transaction/lookup/${H('d')}`]: lookup8(0),
  [`/transaction/lookup/${H('a')}`]: REWARD_LOOKUP8,
  [`/transaction/lookup/${H('e')}`]: { code: 57, error: 'not found' },
  'POST /transaction/add': { code: 0, data: { txHash: H('f') } },
};

describe('which generation a node speaks', () => {
  it("/transaction/minfee's answer tells the three apart", () => {
    expect(generationOfMinFee(replyData(r58['/transaction/minfee'], ''))).toBe('0.10');
    // docs/api.md's example of the contract.
    expect(generationOfMinFee({ minFee: { str: '0.01000448', E8: 1000448, bytes: '4fa2' } })).toBe('contract');
    expect(generationOfMinFee(MINFEE8.data)).toBe('0.8');
    for (const other of [{}, null, [], { minFee: { E8: 1, bytes: '4f' } }, { E8: 1 }]) expect(generationOfMinFee(other)).toBeNull();
  });

  it('a node whose answer fits none is named with its answer; --api skips the question', async () => {
    const e = await failure(connect({ '/transaction/minfee': { code: 0, data: { fee: 1 } } }));
    expect(e).toBeInstanceOf(WalletError);
    expect(e.message).toMatch(
      /^the node at http:\/\/recorded answered GET \/transaction\/minfee in a shape of no API generation the wallet knows \(contract, 0\.10, 0\.8\): \{"fee":1\}$/,
    );
    expect((await connect({}, '0.8')).name).toBe('0.8');
  });

  it("the wallet's 0.10 and 0.8 tables agree with the node's own generation tables", () => {
    for (const [contract, gen] of Object.entries(V0_10.keys)) expect(GENERATIONS['0.10'].keys[gen]).toBe(contract);
    expect(GENERATIONS['0.10'].keys.matches).toBe('match'); // AssetCompletion
    expect(GENERATIONS['0.10'].values.type.wartTransfer).toBe('coinTransfer');
    expect(GENERATIONS.contract.errors).toEqual({ notFound: ERRORS.ENOTFOUND[0], addressNotFound: ERRORS.EADDRNOTFOUND[0] });
    expect(GENERATIONS['0.10'].errors).toEqual(GENERATIONS.contract.errors);
    // clients.md §1.1 (errors.hpp at a59f7ddf); our node's 0.8 answers them: every_generation.test.ts.
    expect(GENERATIONS['0.8'].errors).toEqual({ notFound: 57, addressNotFound: 101 });
  });
});

describe('0.10: the reference 0.10.3 recorded answers, read by the wallet', () => {
  it('head, minimum fee, coin balance, an address without an account', async () => {
    const api = await connect(r58);
    expect(api.name).toBe('0.10');
    expect((await api.head()).chainHead).toMatchObject({ pinHeight: 32, pinHash: '449bda4628537756ee34d1d78953a63cd217714cb854688a521497cd2e748478' });
    expect(await api.minFeeE8()).toBe(1000448n);
    expect(await balanceLines(api, UNKNOWN58)).toEqual([`address ${UNKNOWN58}`, `WART${' '.repeat(26)}0`]);
    expect((await api.coinBalance(A58)).total).toEqual({ str: '72.00845016', E8: 7200845016 });
  });

  it('assets by name (`matches`) and by id; open orders; an address without an account has none (122)', async () => {
    const api = await connect(r58);
    expect((await api.assetsNamed('TE')).map((a) => a.hash)).toEqual([TEST58]);
    // resolveAsset asks /asset/complete?namePrefix=TEST: not recorded; the recorded TE prefix answers the same.
    expect(await resolveAsset(await connect({ ...r58, '/asset/complete?namePrefix=TEST': r58['/asset/complete?namePrefix=TE'] }), 'TEST')).toMatchObject({
      hash: TEST58,
      id: 3,
      decimals: 4,
    });
    expect(await resolveAsset(api, '3')).toMatchObject({ hash: TEST58, name: 'TEST' });
    expect(await orderLines(api, A58)).toEqual([
      'sell TEST  2000.0000 TEST at 0.0008 WART/TEST, filled 892.8439  0979a5c96941ab55a79440bbf85c25d017966d6aded37cfe5c7feaa94bd30e5d',
    ]);
    expect(await orderLines(api, UNKNOWN58)).toEqual(['no open orders']);
  });

  it("history: every entry of the reference's longest page; an unknown address (56) has none; lookups", async () => {
    const api = await connect(r58);
    const lines = await historyText(api, A58);
    const page = replyData<any>(r58[`/account/${A58}/history/${NEWEST}`], '');
    const count = page.perBlock.reduce((n: number, b: any) => n + Object.values(b.body).flat().filter(Boolean).length, 0);
    expect(lines.length).toBe(1 + count);
    expect(lines).toContain(
      `     42       53  liquidityWithdrawal  withdrew 0.79056941 TEST-LP for 2795.2863 TEST and 2.23719947 WART, fee 0.01000448  e7d93e2eec744ef01b63ab791901e4a0e7cb24844dbd046d05eb5dcadce16546`,
    );
    expect(lines).toContain(
      `     40       48  limitSwap            sell order: 2000.0000 TEST at 0.0008 WART/TEST, open 1107.1561, fee 0.01000448  0979a5c96941ab55a79440bbf85c25d017966d6aded37cfe5c7feaa94bd30e5d`,
    );
    // Its `remaining` is uninitialised memory (`str` ""): the account's open orders tell it (not among them).
    expect(lines).toContain(
      `     39       44  limitSwap            sell order: 500.0000 TEST at 0.0009 WART/TEST, closed (filled or canceled), fee 0.01000448  b42bed8a5613f291671d9ae0f99cb05c00798c93589efa8892b66e08fc7643d8`,
    );
    // The reference prints these shares with the asset's decimals ("31622.7766").
    expect(lines).toContain(
      `     38       41  liquidityDeposit     deposited 10000.0000 TEST and 10.00000000 WART for 3.16227766 TEST-LP, fee 0.01000448  406d8d94a007a906d0c4645764bf17923c844179d57225ee2bd8e812d6c7bbfc`,
    );
    expect(lines).toContain(
      `     40       49  match                trade in TEST: 0 buy and 1 sell fills  4605cf9c60827f77aac03c647bf0de65df5a7801f2192e164ef4b72e8dcb240a`,
    );
    expect(lines.at(-1)).toBe(
      '      1        1  reward               mining reward 3.00000000 WART  1d725995928fdf161abdec7f9659fc5e351c02922c6a1a660b7fec17853b6f6b',
    );
    expect(await historyText(api, UNKNOWN58)).toEqual(['no history']);
    expect(await api.lookup(H('0'))).toBeNull();
    expect((await api.lookup(TEST58))?.type).toBe('assetCreation');
  });
});

describe('0.10: the exchange session with the reference (reference-0.10.3-exchange)', () => {
  const chain = exact('reference-0.10.3-exchange/chain.json');
  const at = (h: number) => exact(`reference-0.10.3-exchange/answers/h${String(h).padStart(3, '0')}.json`).answers as Record<string, unknown>;
  const keys: Record<string, { address: string }> = chain.keys;

  it('balance, history and orders of every account after the last block', async () => {
    const api = await connect({ ...at(42), '/transaction/minfee': r58['/transaction/minfee'] });
    const [A, B, C] = ['A', 'B', 'C'].map((n) => keys[n].address);
    const DEMO = 'e540ada51ae78f90ade8006a292b3b930564a58a5f0cb6982876afb86bc439e6';
    expect(await balanceLines(api, C)).toEqual([
      `address ${C}`,
      'WART                26.57144881',
      'GOLD                         10  asset:5701d0add783efb666a502e821586799140f52bfc858504bcb6fe2fa439acfe9',
      `DEMO                     970.00  asset:${DEMO}  (locked in orders 10.00)`,
      `DEMO-LP               0.00256267  liquidity:${DEMO}`,
    ]);
    // B's pool shares came by a transfer the reference prints as one of the asset (its history line says so too).
    expect(await balanceLines(api, B)).toContain(`DEMO-LP               0.00301491  liquidity:${DEMO}`);
    const historyB = await historyText(api, B);
    expect(historyB).toContain(
      `     40       68  limitSwap            buy order: 1.00000000 WART at 0.6 WART/DEMO, closed (filled or canceled), fee 0.01000448  150978b957b13236f07d8dfd9d66c27e416306afd9e9584c0542b3389620d77b`,
    );
    expect(historyB).toContain(
      `     35       45  limitSwap            buy order: 5.00000000 WART at 0.4 WART/DEMO, canceled, fee 0.01000448  4750bedd6bb2261cc21e63e4de48503640da4a0de020cc6705714c45048a2906`,
    );
    expect(historyB).toContain(
      `     38       58  cancelation          cancel of (pin 32, nonce 1009): canceled 4750bedd6bb2261cc21e63e4de48503640da4a0de020cc6705714c45048a2906, fee 0.01000448  641f1c3e45080bf14f142d9c7405d8037ada10761adccbc99ed278ba46887471`,
    );
    expect(await historyText(api, A)).toContain(
      `     37       56  liquidityDeposit     deposited 10.00 DEMO and 3.00000000 WART for 0.00552601 DEMO-LP, fee 0.01000448  4cfb91c01fe70ad9233df98f9a6a8849505c325e8d763032c9e1be80f17d615e`,
    );
    expect(await orderLines(api, C)).toEqual([
      'sell DEMO  10.00 DEMO at 5.000064 WART/DEMO, filled 0  f1063cc3c582d40f5f3a8fac63893cf7ebf7b88478ba44562f238fa8bdedf05b',
    ]);
    expect(await orderLines(api, A)).toEqual(['no open orders']);
  });

  it("a buy order in the book: its coin amounts with 8 decimals (the reference prints them with the asset's)", async () => {
    const B = keys.B.address;
    const book = replyData<any>(at(37)[`/account/${B}/open_orders`], '');
    expect(book[0].wartToAssetSwaps[0].amount).toEqual({ str: '5000000.00', u64: 500000000, decimals: 2 });
    expect(await orderLines(await connect(at(37), '0.10'), B)).toEqual([
      'buy  DEMO  5.00000000 WART at 0.4 WART/DEMO, filled 2.64101615  4750bedd6bb2261cc21e63e4de48503640da4a0de020cc6705714c45048a2906',
    ]);
  });

  it('every lookup of every block: contract type names', async () => {
    const types = new Set<string>();
    for (let h = 33; h <= 42; h++) {
      const answers = at(h);
      const api = await connect(answers, '0.10');
      for (const path of Object.keys(answers).filter((p) => p.startsWith('/transaction/lookup/'))) {
        const t = await api.lookup(path.slice('/transaction/lookup/'.length));
        types.add(t!.type);
      }
    }
    expect([...types].sort()).toEqual([
      'assetCreation',
      'cancelation',
      'coinTransfer',
      'limitSwap',
      'liquidityDeposit',
      'liquidityWithdrawal',
      'tokenTransfer',
    ]);
  });

  it("the request bodies: the contract's names become the ones the reference accepted", () => {
    for (const t of chain.transactions) {
      const sorted = (o: Record<string, unknown>) => writeJson(Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1))));
      expect(sorted(GENERATIONS['0.10'].request(t.oursBody)), t.label).toBe(sorted(t.refBody));
    }
  });
});

describe('0.8: answers as the mainnet reference 0.8.20 writes them', () => {
  it('head, minimum fee, balance with the pending transfers of the mempool, history, lookups', async () => {
    const api = await connect(NODE8);
    expect(api.name).toBe('0.8');
    expect(await api.head()).toEqual({ chainHead: { pinHeight: 64, pinHash: H('2') }, synced: true });
    expect(await api.minFeeE8()).toBe(1000448n);
    expect(await balanceLines(api, ADDR_A)).toEqual([`address ${ADDR_A}`, `WART${' '.repeat(15)}207.98999552  (pending 2.01000448)`]);
    expect(await historyText(api, ADDR_A)).toEqual([
      ' height       id  type                 what  transaction',
      `pending        -  coinTransfer         sent 2.00000000 WART to ${ADDR_B}, fee 0.01000448  ${H('d')}`,
      `     70        -  coinTransfer         sent 1.50000000 WART to ${ADDR_B}, fee 0.01000448  ${H('b')}`,
      `     70        -  reward               mining reward 3.00000000 WART  ${H('a')}`,
      `     69        -  coinTransfer         received 0.25000000 WART from ${ADDR_B}  ${H('c')}`,
    ]);
    expect(await historyText(api, ADDR_B)).toEqual([
      ' height       id  type                 what  transaction',
      `pending        -  coinTransfer         received 2.00000000 WART from ${ADDR_A}  ${H('d')}`,
    ]);
    expect(await api.lookup(H('d'))).toMatchObject({ type: 'coinTransfer', mined: null, transaction: { signedCommon: { originAddress: ADDR_A, nonceId: 7 } } });
    expect(await api.lookup(H('a'))).toMatchObject({ type: 'reward', mined: { block: { height: 70 } } });
    expect(await api.lookup(H('e'))).toBeNull();
    const mined = await connect({ ...NODE8, [`/transaction/lookup/${H('d')}`]: lookup8(71) });
    expect((await mined.lookup(H('d')))?.mined).toEqual({ block: { height: 71 } });
  });

  it("a transfer is submitted in 0.8's members (parse.cpp:27-134): untyped, amountE8, feeE8", async () => {
    const posted: unknown[] = [];
    const api = await connect(NODE8, undefined, posted);
    const body = { type: 'coinTransfer', pinHeight: 64, nonceId: 7, feeE8: 1000448n, signature65: 'ab'.repeat(65), toAddr: ADDR_B, coinE8: 150000000n };
    expect(await api.add(body)).toBe(H('f'));
    expect(posted).toEqual([{ pinHeight: 64, nonceId: 7, toAddr: ADDR_B, amountE8: 150000000, feeE8: 1000448, signature65: 'ab'.repeat(65) }]);
  });

  it('no assets, orders or pools: one line, before anything is read', async () => {
    const api = await connect(NODE8);
    expect(() => api.requireExchange('buy')).toThrow(WalletError);
    expect(() => api.requireExchange('buy')).toThrow(
      "'buy' needs assets, orders and pools, which the node at http://recorded does not have: it speaks API generation 0.8 (the mainnet reference node 0.8.20, or ours with --api=0.8)",
    );
    expect(GENERATIONS['0.10'].exchange && GENERATIONS.contract.exchange).toBe(true);
  });
});

describe('an answer of another shape is one clear wallet error, never a TypeError', () => {
  it('a 0.10 node taken for 0.8, and the reverse', async () => {
    const as08 = await connect(r58, '0.8');
    const e = await failure(as08.head());
    expect(e).toBeInstanceOf(WalletError);
    expect(e.message).toBe(
      "the node's answer to GET /chain/head is not what the wallet reads of API generation 0.8 (the mainnet reference node 0.8.20, or ours with --api=0.8): $.pinHeight is missing",
    );
    const as010 = await connect(NODE8, '0.10');
    for (const p of [as010.head(), as010.minFeeE8(), balanceLines(as010, ADDR_A), historyText(as010, ADDR_A)]) {
      const f = await failure(p);
      expect(f, f.stack).toBeInstanceOf(WalletError);
    }
  });

  it('members missing or of another type deep inside a history entry', async () => {
    const page = (entry: unknown) => ({
      [`/account/${A58}/history/9223372036854775807`]: { code: 0, data: { fromId: 1, perBlock: [{ height: 5, body: { limitSwap: [entry] } }] } },
      '/transaction/mempool': { code: 0, data: [] },
    });
    const data = { baseAsset: { hash: TEST58, id: 3, name: 'TEST', decimals: 4 }, buy: true, amount: { str: '1', u64: 1 }, limit: { hex: '800043' } };
    const good = {
      historyId: 3,
      transaction: { hash: H('1'), data, signedCommon: { originAddress: A58, fee: { str: '0.01', E8: 1 }, pinHeight: 0, nonceId: 1 } },
    };
    expect((await historyText(await connect(page(good), '0.10'), A58))[1]).toContain('buy order: 0.00000001 WART at 0.0008 WART/TEST');
    for (const [entry, problem] of [
      [{ ...good, transaction: { ...good.transaction, data: {} } }, '$.perBlock[0].body.limitSwap[0].transaction.data.baseAsset is missing'],
      [{ ...good, transaction: { ...good.transaction, data: { ...data, amount: { str: '1', u64: '1' } } } }, 'data.amount.u64 is not a non-negative integer'],
      [{ ...good, historyId: -1 }, '$.perBlock[0].body.limitSwap[0].historyId is not a non-negative integer'],
      [{ ...good, transaction: { ...good.transaction, signedCommon: null } }, '$.perBlock[0].body.limitSwap[0].transaction.signedCommon is not an object'],
    ] as const) {
      const f = await failure(historyText(await connect(page(entry), '0.10'), A58));
      expect(f).toBeInstanceOf(WalletError);
      expect(f.message).toContain(problem);
    }
  });
});
