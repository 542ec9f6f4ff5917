// `--api=0.8` against the route table of the mainnet reference node 0.8.20 (clients.md §2.2; no
// recording of 0.8 exists): exact key sets and value types of every route we serve in 0.8, bare
// answers where 0.8 sends them bare, its void form and error numbers (§1, §1.1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { buildExchangeChain, type ExchangeChain } from '../helpers/exchange_chain.js';
import { mismatches, nonEmpty, type Spec } from '../helpers/shape_spec.js';

await initKernel();

// §2.2 shapes.
const H8: Spec = {
  raw: 's',
  timestamp: 'i',
  utc: 's',
  target: 's',
  difficulty: 'n',
  hash: 's',
  pow: { 'verusV2.2': 'b', hashVerus: 's', hashSha256t: 's', floatVerus: 'n', floatSha256t: 'n' },
  merkleroot: 's',
  nonce: 's',
  prevHash: 's',
  version: 's',
};
const REWARD: Spec = { txHash: 's', toAddress: 's', amount: 's', amountE8: 'i' };
const TRANSFER: Spec = { fromAddress: 's', fee: 's', feeE8: 'i', nonceId: 'i', pinHeight: 'i', txHash: 's', toAddress: 's', amount: 's', amountE8: 'i' };
const BODY8: Spec = { rewards: [REWARD], transfers: [TRANSFER] };
const BLOCK8: Spec = { header: H8, body: BODY8, timestamp: 'i', utc: 's', confirmations: 'i', height: 'i' };
const TX_LOOKUP: Spec = {
  transaction: {
    txHash: 's',
    toAddress: 's',
    confirmations: 'i',
    blockHeight: 'i',
    amount: 's',
    amountE8: 'i',
    type: 's',
    pinHeight: 'i',
    fee: 's',
    feeE8: 'i',
    fromAddress: 's',
    nonceId: 'i',
  },
};
const REWARD_LOOKUP: Spec = {
  transaction: { txHash: 's', toAddress: 's', confirmations: 'i', blockHeight: 'i', amount: 's', amountE8: 'i', type: 's', timestamp: 'i', utc: 's' },
};
const MINING: Spec = {
  synced: 'b',
  header: 's',
  difficulty: 'n',
  merklePrefix: 's',
  body: 's',
  blockReward: 's',
  blockRewardE8: 'i',
  totalTxFee: 's',
  totalTxFeeE8: 'i',
  height: 'i',
  testnet: 'b',
};

let node: TestNode;
let x: ExchangeChain;
let rewardTx = '';

beforeAll(async () => {
  node = await startNode(['--regtest', '--api=0.8']);
  x = await buildExchangeChain(node, 81);
  const block = await node.data('/chain/block/1');
  rewardTx = block.body.rewards[0].txHash;
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

/** `data` of an enveloped answer, or the body of a bare one. */
async function answer(path: string, bare = false): Promise<unknown> {
  const r = await node.get(path);
  if (bare) return r.body;
  expect(r.body.code, `${path}: ${r.text}`).toBe(0);
  return r.body.data;
}

describe('--api=0.8 answers as clients.md §2.2 lists', () => {
  const a = () => x.A.addressText;
  const cases: [string, () => string, Spec, boolean?][] = [
    ['mempool', () => '/transaction/mempool', { data: nonEmpty([TRANSFER]) }],
    ['lookup of a transfer (mined)', () => `/transaction/lookup/${x.mined.coinTransfer}`, TX_LOOKUP],
    ['lookup of a transfer (pending)', () => `/transaction/lookup/${x.pending.coinTransfer}`, TX_LOOKUP],
    ['lookup of a reward', () => `/transaction/lookup/${rewardTx}`, REWARD_LOOKUP],
    ['latest', () => '/transaction/latest', { fromId: 'i', count: 'i', perBlock: nonEmpty([BLOCK8]) }],
    ['minfee', () => '/transaction/minfee', { amount: 's', E8: 'i', '16bit': 'i' }],
    ['settings minfee', () => '/settings/mempool/minfee/1000448', { deleted: 'i' }],
    [
      'head',
      () => '/chain/head',
      { difficulty: 'n', hash: 's', height: 'i', is_janushash: 'b', pinHash: 's', pinHeight: 'i', synced: 'b', worksum: 'n', worksumHex: 's' },
    ],
    ['grid', () => '/chain/grid', ['s']],
    ['block hash', () => '/chain/block/3/hash', { hash: 's' }],
    ['header', () => '/chain/block/3/header', { header: H8 }],
    ['block', () => '/chain/block/8', BLOCK8],
    ['mining task', () => `/chain/mine/${a()}`, MINING],
    ['mining task (log)', () => `/chain/mine/${a()}/log`, MINING],
    ['txcache', () => '/chain/txcache', nonEmpty([{ accountId: 'i', nonceId: 'i', pinHeight: 'i' }])],
    ['hashrate', () => '/chain/hashrate/3', { lastNBlocksEstimate: 'n', N: 'i' }],
    ['hashrate chart', () => '/chain/hashrate/chart/1/9/2', { range: { min: 'i', max: 'i' }, data: nonEmpty(['n']) }],
    ['balance', () => `/account/${a()}/balance`, { balance: 's', balanceE8: 'i', address: 's?', accountId: 'i?' }],
    [
      'history',
      () => `/account/${a()}/history/9223372036854775807`,
      {
        perBlock: nonEmpty([{ height: 'i', confirmations: 'i', transactions: BODY8 }]),
        fromId: 'i',
        balance: 's',
        balanceE8: 'i',
      },
    ],
    ['richlist', () => '/account/richlist', nonEmpty([{ address: 's', balance: 's', balanceE8: 'i' }])],
    ['offenses', () => '/peers/offenses/1', { data: [{ ip: 's', timestamp: 'i', utc: 's', offense: 's' }] }],
    ['connections', () => '/peers/connected/connection', { data: ['s'] }],
    [
      'encode16bit from_e8',
      () => '/tools/encode16bit/from_e8/9999',
      { originalE8: 'i', originalAmount: 's', roundedE8: 'i', roundedAmount: 's', '16bit': 'i' },
    ],
    [
      'encode16bit from_string',
      () => '/tools/encode16bit/from_string/0.01',
      { originalE8: 'i', originalAmount: 's', roundedE8: 'i', roundedAmount: 's', '16bit': 'i' },
    ],
    ['version', () => '/tools/version', { name: 's', major: 'i', minor: 'i', patch: 'i', commit: 's' }],
    ['wallet', () => '/tools/wallet/new', { privKey: 's', pubKey: 's', address: 's' }],
    // Bare answers (no envelope).
    ['ip count (bare)', () => '/peers/ip_count', {}, true],
    ['banned (bare)', () => '/peers/banned', [{ ip: 's', expires: 'i', reason: 's' }], true],
    [
      'connected (bare)',
      () => '/peers/connected',
      [
        {
          connection: { ip: 's', port: 'i', sinceTimestamp: 'i', sinceUtc: 's' },
          leaderPriority: { ack: { importance: 'i', height: 'i' }, theirs: { importance: 'i', height: 'i' } },
          chain: { length: 'i', forkLower: 'i', forkUpper: 'i', descriptor: 'i', worksum: 'n', worksumHex: 's', grid: ['s'] },
        },
      ],
      true,
    ],
  ];
  it.each(cases)('%s', async (_name, path, spec, bare) => {
    expect(mismatches(spec, await answer(path(), bare))).toEqual([]);
  });

  it('writes 0.8 amounts, the reward and the transfers of a block', async () => {
    const h = ((await answer(`/transaction/lookup/${x.mined.coinTransfer}`)) as any).transaction.blockHeight;
    const b = (await answer(`/chain/block/${h}`)) as any;
    expect(b.body.rewards[0].amount).toMatch(/^\d+\.\d{8}$/);
    expect(b.body.transfers.map((t: any) => t.txHash)).toContain(x.mined.coinTransfer);
    expect(b.body.transfers.find((t: any) => t.txHash === x.mined.coinTransfer)).toMatchObject({
      amount: '0.12345678',
      amountE8: 12345678,
      fromAddress: x.A.addressText,
      toAddress: x.B.addressText,
    });
    expect(((await answer(`/transaction/lookup/${x.pending.coinTransfer}`)) as any).transaction).toMatchObject({ blockHeight: 0, type: 'Transfer' });
    expect(((await answer('/tools/encode16bit/from_e8/9999')) as any).roundedE8).toBe(9992); // rounded down
  });

  it('sends /tools/janushash_number as bare %.20e text', async () => {
    const r = await fetch(`${node.url}/tools/janushash_number/${'00'.repeat(80)}`);
    expect(await r.text()).toMatch(/^\d\.\d{20}e[+-]\d{2,}$/);
  });

  it('numbers errors as 0.8 and writes void successes as {code:0,error:null}', async () => {
    expect((await node.get('/chain/block/999')).body).toMatchObject({ code: 57 });
    expect((await node.get('/chain/block/3/header')).body.code).toBe(0);
    expect((await node.get('/account/abc/balance')).body.code).toBe(95);
    expect((await node.get(`/account/${'0'.repeat(48)}/balance`)).body.code).toBe(72);
    expect((await node.post('/chain/append', {})).body.code).toBe(95);
    expect((await node.get('/peers/unban')).text).toBe('{"code":0,"error":null}');
  });
});
