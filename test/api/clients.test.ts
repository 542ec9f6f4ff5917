// Real Warthog clients (clients.md §4) against a regtest node in the generation each one targets:
// every client's calls are replayed (routes, request bodies in its naming) and every field it reads
// is checked to be present with the right type. CLIENTS is the table of the closing note: a client
// "works" when nothing it reads is missing; the few that work against no reference node either
// list exactly what they read that no generation sends (`missing`), so a change shows here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { solve } from '../../ts/miner/cpu_miner.js';
import type { ApiName } from '../../ts/api/generations/generation.js';
import { genesisHash, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { buildExchangeChain, type ExchangeChain } from '../helpers/exchange_chain.js';
import { renameMembers, requestJson, signRequest } from '../helpers/wallet.js';
import { writeJson } from '../../ts/api/json.js';

await initKernel();

/** What a call needs to build its path and body. */
interface Ctx {
  x: ExchangeChain;
  node: TestNode;
  /** A signed request of A in the contract's naming (fresh nonce each call). */
  signed(payload: TransactionPayload): Promise<Record<string, unknown>>;
  /** A mined coin transfer's block height. */
  transferHeight: number;
}

/**
 * A field the client reads: a path into the whole reply (`data.chainHead.pinHash`; `[]` walks every
 * element of an array) and its type: s string, i integer, n number, b boolean, o object, a array.
 */
type Read = [string, 's' | 'i' | 'n' | 'b' | 'o' | 'a'];

interface Call {
  method?: 'GET' | 'POST';
  path(c: Ctx): string;
  body?(c: Ctx): Promise<unknown>;
  /** Sent with an empty Content-Type (janusminer). */
  rawText?: boolean;
  reads: Read[];
}

interface Client {
  name: string;
  source: string;
  generation: ApiName;
  calls: Call[];
  /** Reads no generation answers (broken against the reference nodes as well; clients.md §4). */
  missing?: string[];
  /** The closing-note column "works against this node (generation)". */
  works: string;
}

// Request namings (clients.md §2.1.1, §2.2).
const rename = renameMembers;
const as010 = (o: Record<string, unknown>) => {
  const r = rename(o, { coinE8: 'wartE8', precision: 'decimals' });
  return r.type === 'coinTransfer' ? { ...r, type: 'wartTransfer' } : r;
};
const as08 = (o: Record<string, unknown>) => rename(o, { type: null, coinE8: 'amountE8' });

const transfer = (c: Ctx, amount = 1_000n): TransactionPayload => ({ type: 'coinTransfer', toAddress: c.x.B.address, amount });
const sevenTypes = (c: Ctx): TransactionPayload[] => {
  const h = fromHex(c.x.asset)!;
  const limit = priceToBytes(parsePrice('0.0001', 2)!.floor);
  return [
    transfer(c, 2_000n),
    { type: 'tokenTransfer', assetHash: h, isLiquidity: false, toAddress: c.x.B.address, amount: 5n },
    { type: 'limitSwap', assetHash: h, isBuy: true, amount: 1_000_000n, limit },
    { type: 'liquidityDeposit', assetHash: h, base: 100n, quote: 500_000n },
    { type: 'liquidityWithdrawal', assetHash: h, shares: 1000n },
    { type: 'cancelation', cancelHeight: 0, cancelNonceId: 424242 },
    { type: 'assetCreation', supply: 10n, precision: 0, name: assetNameBytes('CLI') },
  ];
};

const HEAD_010: Read[] = [
  ['data.chainHead.pinHash', 's'],
  ['data.chainHead.pinHeight', 'i'],
];
const HEAD_08: Read[] = [
  ['data.pinHash', 's'],
  ['data.pinHeight', 'i'],
];
const TXHASH: Read[] = [
  ['code', 'i'],
  ['data.txHash', 's'],
];

/** Submits a mined block of the 0.8 mining task at `path` (found by the CPU miner). */
async function minedAppendBody(c: Ctx, path: string, worker?: string) {
  const t = (await c.node.get(path)).body.data;
  const b = solve({ header: t.header, body: t.body, merklePrefix: t.merklePrefix, height: t.height, testnet: t.testnet })!;
  return { height: b.height, header: toHex(b.header), body: toHex(b.body), ...(worker ? { worker } : {}) };
}

export const CLIENTS: Client[] = [
  {
    name: 'warthog-ts 0.1.25',
    source: 'warthog-network/warthog-ts@14cff65',
    generation: '0.10',
    works: 'yes (0.10)',
    calls: [
      { path: () => '/chain/head', reads: HEAD_010 },
      // Every type in its own body (TransactionContext.ts), always feeE8.
      ...[0, 1, 2, 3, 4, 5, 6].map(
        (i): Call => ({
          method: 'POST',
          path: () => '/transaction/add',
          body: async (c) => as010(await c.signed(sevenTypes(c)[i])),
          reads: TXHASH,
        }),
      ),
    ],
  },
  {
    name: 'mobile-wallet (local node = DeFi)',
    source: 'warthog-network/mobile-wallet@c8fd4db',
    generation: '0.10',
    works: 'yes (0.10)',
    calls: [
      { path: () => '/chain/head', reads: [...HEAD_010, ['data.chainHead.height', 'i']] },
      {
        path: (c) => `/account/${c.x.A.addressText}/wart_balance`,
        reads: [
          ['data.wart.total.str', 's'],
          ['data.wart.total.E8', 'i'],
          ['data.wart.locked.E8', 'i'],
          ['data.wart.mempool.E8', 'i'],
          ['data.account', 'o'],
        ],
      },
      { path: () => '/tools/encode16bit/from_string/0.01', reads: [['data.rounded.E8', 'i']] },
      {
        path: () => '/transaction/minfee',
        reads: [
          ['data.minFee.E8', 'i'],
          ['data.minFee.str', 's'],
        ],
      },
      // Carries both 0.10 and 0.8 amount members (TransactionContext.ts:63-72).
      {
        method: 'POST',
        path: () => '/transaction/add',
        body: async (c) => {
          const b = as010(await c.signed(transfer(c, 3_000n)));
          return { ...b, amountE8: b.wartE8 };
        },
        reads: TXHASH,
      },
      {
        path: (c) => `/transaction/lookup/${c.x.mined.limitSwap}`,
        reads: [
          ['data.transaction.signedCommon.pinHeight', 'i'],
          ['data.transaction.signedCommon.nonceId', 'i'],
        ],
      },
      {
        path: (c) => `/account/${c.x.A.addressText}/mempool`,
        reads: [
          ['data[].transaction.hash', 's'],
          ['data[].transaction.signedCommon.nonceId', 'i'],
        ],
      },
      {
        path: (c) => `/chain/block/${c.transferHeight}`,
        reads: [
          ['data.height', 'i'],
          ['data.header.time.timestamp', 'i'],
        ],
      },
      {
        path: (c) => `/account/${c.x.A.addressText}/history/4294967295`,
        reads: [
          ['data.perBlock[].height', 'i'],
          ['data.perBlock[].confirmations', 'i'],
          ['data.perBlock[].header.time.timestamp', 'i'],
          ['data.perBlock[].body.wartTransfer[].transaction.hash', 's'],
          ['data.perBlock[].body.wartTransfer[].transaction.data.toAddress', 's'],
          ['data.perBlock[].body.wartTransfer[].transaction.data.amount.str', 's'],
          ['data.perBlock[].body.wartTransfer[].transaction.signedCommon.originAddress', 's'],
          ['data.perBlock[].body.tokenTransfer', 'a'],
          ['data.perBlock[].body.limitSwap', 'a'],
          ['data.perBlock[].body.liquidityDeposit', 'a'],
          ['data.perBlock[].body.liquidityWithdrawal', 'a'],
          ['data.perBlock[].body.assetCreation', 'a'],
          ['data.perBlock[].body.match', 'a'],
          ['data.perBlock[].body.cancelation', 'a'],
        ],
      },
      {
        path: (c) => `/account/${c.x.A.addressText}/balance/asset:${c.x.asset}`,
        reads: [
          ['data.token.decimals', 'i'],
          ['data.token.name', 's'],
          ['data.balance.total.u64', 'i'],
          ['data.balance.total.str', 's'],
        ],
      },
      { path: (c) => `/account/${c.x.A.addressText}/balance/liquidity:${c.x.asset}`, reads: [['data.balance.total.u64', 'i']] },
      {
        path: (c) => `/dex/market/${c.x.asset}`,
        reads: [
          ['data.liquidityPool.wart.E8', 'i'],
          ['data.liquidityPool.asset.u64', 'i'],
          ['data.baseAsset.name', 's'],
          ['data.baseAsset.id', 'i'],
        ],
      },
      { path: (c) => `/account/${c.x.A.addressText}/open_orders`, reads: [['data', 'a']] },
      {
        path: (c) => `/asset/lookup/${c.x.asset}`,
        reads: [
          ['data.name', 's'],
          ['data.decimals', 'i'],
        ],
      },
      { path: () => '/asset/complete?namePrefix=TO&hashPrefix=', reads: [['data.matches[].hash', 's']] },
    ],
  },
  {
    name: 'wartbunker (local node = DeFi)',
    source: 'warthog-network/wartbunker@f122a46',
    generation: '0.10',
    works: 'yes (0.10)',
    calls: [
      { path: () => '/chain/head', reads: HEAD_010 },
      { path: () => '/transaction/minfee', reads: [['data.minFee.E8', 'i']] },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => as010(await c.signed(transfer(c, 4_000n))), reads: TXHASH },
      { path: (c) => `/chain/block/${c.transferHeight}`, reads: [['data.header.time.timestamp', 'i']] },
      { path: (c) => `/account/${c.x.A.addressText}/wart_balance`, reads: [['data.wart.total.E8', 'i']] },
      { path: (c) => `/account/${c.x.A.addressText}/balance/asset:${c.x.asset}`, reads: [['data.balance.total.u64', 'i']] },
      { path: (c) => `/account/${c.x.A.addressText}/balance/liquidity:${c.x.asset}`, reads: [['data.balance.total.u64', 'i']] },
      { path: (c) => `/account/${c.x.A.addressText}/mempool`, reads: [['data', 'a']] },
      {
        path: (c) => `/account/${c.x.A.addressText}/open_orders`,
        reads: [
          ['data[].wartToAssetSwaps', 'a'],
          ['data[].assetToWartSwaps', 'a'],
        ],
      },
      { path: (c) => `/account/${c.x.A.addressText}/open_orders/${c.x.asset}`, reads: [['data.wartToAssetSwaps[].txHash', 's']] },
      { path: () => '/asset/complete?namePrefix=TO', reads: [['data.matches[].hash', 's']] },
      { path: (c) => `/asset/complete?hashPrefix=${c.x.asset.slice(0, 8)}`, reads: [['data.matches[].name', 's']] },
      { path: (c) => `/asset/lookup/${c.x.asset}`, reads: [['data.hash', 's']] },
      {
        path: (c) => `/dex/market/${c.x.asset}`,
        reads: [
          ['data.liquidityPool.wart.E8', 'i'],
          ['data.wartToAssetSwaps', 'a'],
          ['data.assetToWartSwaps', 'a'],
        ],
      },
      // [timestamp, height, open, high, low, close, base, quote] and [timestamp, height, base, quote].
      {
        path: (c) => `/chart/candles/${c.x.asset}/1h?n=10`,
        reads: [
          ['data[][0]', 'i'],
          ['data[][1]', 'i'],
          ['data[][5]', 'n'],
          ['data[][7]', 'n'],
        ],
      },
      {
        path: (c) => `/chart/trades/${c.x.asset}?n=10`,
        reads: [
          ['data[][0]', 'i'],
          ['data[][1]', 'i'],
          ['data[][3]', 'n'],
        ],
      },
      { path: () => '/transaction/latest', reads: [['data.perBlock', 'a']] },
      { path: (c) => `/transaction/lookup/${c.x.mined.limitSwap}`, reads: [['data.transaction.hash', 's']] },
      { path: (c) => `/account/${c.x.A.addressText}/history/4294967295`, reads: [['data.perBlock[].height', 'i']] },
    ],
  },
  {
    name: 'warthog_ex',
    source: 'warthog-network/warthog_ex@6fc8cee',
    generation: '0.10',
    works: 'yes (0.10)',
    calls: [
      { path: () => '/chain/head', reads: HEAD_010 },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => as010(await c.signed(transfer(c, 5_000n))), reads: TXHASH },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => as010(await c.signed(sevenTypes(c)[6])), reads: TXHASH },
    ],
  },
  {
    name: 'warthog-extension',
    source: 'warthog-network/warthog-extension@96a0953',
    generation: '0.8',
    works: 'yes (0.8)',
    calls: [
      { path: () => '/chain/head', reads: HEAD_08 },
      { path: () => '/tools/encode16bit/from_e8/9999', reads: [['data.roundedE8', 'i']] },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => as08(await c.signed(transfer(c, 6_000n))), reads: TXHASH },
      { path: (c) => `/account/${c.x.A.addressText}/balance`, reads: [['data.balance', 's']] },
    ],
  },
  {
    name: 'Miningcore (Warthog)',
    source: 'blackmennewstyle/miningcore@9f3e675a',
    generation: '0.8',
    works: 'yes (0.8)',
    calls: [
      {
        path: () => '/chain/head',
        reads: [
          ['data.difficulty', 'n'],
          ['data.hash', 's'],
          ['data.height', 'i'],
          ['data.is_janushash', 'b'],
          ['data.pinHash', 's'],
          ['data.pinHeight', 'i'],
          ['data.synced', 'b'],
          ['data.worksum', 'n'],
          ['data.worksumHex', 's'],
        ],
      },
      // A bare array of peers; {chain: {length}} per peer (none here: the node is isolated).
      {
        path: () => '/peers/connected',
        reads: [
          ['', 'a'],
          ['[].chain.length', 'i'],
        ],
      },
      { path: () => '/chain/hashrate/300', reads: [['data.lastNBlocksEstimate', 'n']] },
      {
        path: (c) => `/chain/mine/${c.x.A.addressText}`,
        reads: ['header', 'body', 'merklePrefix']
          .map((k): Read => [`data.${k}`, 's'])
          .concat([
            ['data.difficulty', 'n'],
            ['data.height', 'i'],
            ['data.synced', 'b'],
            ['data.testnet', 'b'],
            ['data.blockRewardE8', 'i'],
            ['data.totalTxFeeE8', 'i'],
          ]),
      },
      { method: 'POST', path: () => '/chain/append', body: (c) => minedAppendBody(c, `/chain/mine/${c.x.A.addressText}`), reads: [['code', 'i']] },
      {
        path: (c) => `/chain/block/${c.transferHeight}`,
        reads: [
          ['data.header.hash', 's'],
          ['data.body.rewards[].amountE8', 'i'],
          ['data.body.rewards[].toAddress', 's'],
          ['data.body.rewards[].txHash', 's'],
        ],
      },
      { path: () => '/tools/wallet/from_privkey/ef1434450cceffca74548deec2b88e5aa35898d76ac106cc296eab4a93965cfa', reads: [['data.address', 's']] },
      {
        path: (c) => `/account/${c.x.A.addressText}/balance`,
        reads: [
          ['data.balanceE8', 'i'],
          ['data.accountId', 'i'],
        ],
      },
      { path: () => '/tools/encode16bit/from_e8/1000000', reads: [['data.roundedE8', 'i']] },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => as08(await c.signed(transfer(c, 7_000n))), reads: TXHASH },
    ],
  },
  {
    name: 'janusminer 0.3.4 (HTTP solo)',
    source: 'CoinFuMasterShifu/janusminer@8d13b2b',
    generation: '0.8',
    works: 'yes (0.8; its routes are served in every generation)',
    calls: [
      {
        path: (c) => `/chain/mine/${c.x.A.addressText}/log`,
        reads: [
          ['data.testnet', 'b'],
          ['data.height', 'i'],
          ['data.header', 's'],
          ['data.body', 's'],
        ],
      },
      {
        method: 'POST',
        path: () => '/chain/append',
        rawText: true,
        body: (c) => minedAppendBody(c, `/chain/mine/${c.x.A.addressText}/log`, 'rig1'),
        reads: [['code', 'i']],
      },
    ],
  },
  {
    name: 'warthog_rs',
    source: 'warthog-network/warthog_rs@6e6b5b5',
    generation: '0.8',
    works: 'yes (0.8)',
    calls: [
      {
        path: () => '/chain/head',
        reads: [
          ['data.difficulty', 'n'],
          ['data.hash', 's'],
          ['data.height', 'i'],
          ['data.is_janushash', 'b'],
          ['data.pinHash', 's'],
          ['data.pinHeight', 'i'],
          ['data.synced', 'b'],
          ['data.worksum', 'n'],
          ['data.worksumHex', 's'],
        ],
      },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => as08(await c.signed(transfer(c, 8_000n))), reads: TXHASH },
    ],
  },
  {
    name: 'node-manager-gui',
    source: 'warthog-network/node-manager-gui@0b736be',
    generation: '0.10',
    works: 'yes (0.10) but `/tools/encode16bit` `data.feeE8`, which no generation sends; its SQLite peers-DB edits do not apply',
    calls: [
      { path: () => '/tools/info', reads: [['data.version.name', 's']] },
      { path: () => '/chain/head', reads: HEAD_010 },
      { path: () => '/peers/connected/connection', reads: [['data', 'a']] },
      { path: () => '/transaction/mempool', reads: [['data', 'a']] },
      { path: () => '/transaction/minfee', reads: [['data.minFee', 'o']] },
      { path: (c) => `/chain/block/${c.transferHeight}`, reads: [['data.body.reward.transaction.data.amount.str', 's']] },
      { path: () => '/peers/banned', reads: [['data', 'a']] },
      { path: () => '/peers/unban', reads: [['code', 'i']] },
      { path: () => '/settings/mempool/minfee/1000448', reads: [['data.deleted', 'i']] },
      { path: () => '/tools/encode16bit/from_string/0.01', reads: [['data.feeE8', 'i']] },
    ],
    missing: ['/tools/encode16bit/from_string/0.01 data.feeE8'],
  },
  {
    name: 'node-gui (dashboard, F-era DeFi API)',
    source: 'warthog-network/node-gui@b42ff88',
    generation: '0.10',
    works:
      'partly (0.10): reads 0.8 and F-era names no single generation sends (as against any reference node); its /stream topics are served (test/api/streams*.test.ts)',
    calls: [
      { path: () => '/chain/hashrate/100', reads: [['data.lastNBlocksEstimate', 'n']] },
      {
        path: (c) => `/chain/block/${c.transferHeight}`,
        reads: [
          ['data.header.hash', 's'],
          ['data.body.rewards[].toAddress', 's'],
          ['data.body.transfers', 'a'],
        ],
      },
      {
        path: (c) => `/chain/block/${c.transferHeight}/binary`,
        reads: [
          ['data.structure[].tag', 's'],
          ['data.structure[].offsetBegin', 'i'],
          ['data.structure[].offsetEnd', 'i'],
          ['data.structure[].children', 'a'],
        ],
      },
      {
        path: () => '/tools/info',
        reads: [
          ['data.version.name', 's'],
          ['data.uptime.formatted', 's'],
          ['data.dbSize', 'i'],
          ['data.chainDBPath', 's'],
          ['data.peersDBPath', 's'],
        ],
      },
      { path: () => '/peers/banned', reads: [['data', 'a']] },
    ],
    missing: [
      '/chain/hashrate/100 data.lastNBlocksEstimate',
      '/chain/block/:h data.body.rewards[].toAddress',
      '/chain/block/:h data.body.transfers',
      '/chain/block/:h/binary data.structure[].offsetBegin',
      '/chain/block/:h/binary data.structure[].offsetEnd',
    ],
  },
  {
    name: 'browser-node (WASM reference node)',
    source: 'warthog-network/browser-node@3283374',
    generation: '0.10',
    works: "its HTTP probe of /chain/head is answered (any generation); its chain comes over a peer's P2P WebSocket (`--ws-port`), not over this interface",
    calls: [{ path: () => '/chain/head', reads: [['code', 'i']] }],
  },
  {
    name: 'docs wallet examples (hybrid)',
    source: 'warthog-network/docs@44dd246',
    generation: '0.8',
    works: 'no: they mix 0.8 reads (flat head) and 0.10 reads (rounded.E8), as on every reference node; their typed bodies are accepted in every generation',
    calls: [
      { path: () => '/chain/head', reads: HEAD_08 },
      { path: () => '/tools/encode16bit/from_e8/9999', reads: [['data.rounded.E8', 'i']] },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => as010(await c.signed(transfer(c, 9_000n))), reads: TXHASH },
      { method: 'POST', path: () => '/transaction/add', body: async (c) => rename(await c.signed(sevenTypes(c)[6]), {}), reads: TXHASH },
    ],
    missing: ['/tools/encode16bit/from_e8/9999 data.rounded.E8'],
  },
  {
    name: 'explorer (Elixir/Phoenix)',
    source: 'warthog-network/explorer@2619722',
    generation: '0.8',
    works: 'all but /peers/banned|connected, which 0.8 sends bare and it reads as `data` (as against 0.8.20)',
    calls: [
      {
        path: (c) => `/transaction/lookup/${c.x.mined.coinTransfer}`,
        reads: [
          ['data.transaction.type', 's'],
          ['data.transaction.blockHeight', 'i'],
        ],
      },
      { path: () => '/chain/head', reads: [['data.height', 'i']] },
      { path: () => '/peers/banned', reads: [['data', 'a']] },
      { path: () => '/peers/connected', reads: [['data', 'a']] },
      { path: (c) => `/account/${c.x.A.addressText}/balance`, reads: [['data.balance', 's']] },
      {
        path: (c) => `/chain/block/${c.transferHeight}`,
        reads: [
          ['data.body.rewards', 'a'],
          ['data.body.transfers', 'a'],
          ['data.header.timestamp', 'i'],
          ['data.header.target', 's'],
        ],
      },
      {
        path: (c) => `/account/${c.x.A.addressText}/history/9223372036854775807`,
        reads: [
          ['data.balance', 's'],
          ['data.fromId', 'i'],
          ['data.perBlock[].transactions.rewards', 'a'],
          ['data.perBlock[].transactions.transfers', 'a'],
        ],
      },
    ],
    missing: ['/peers/banned data', '/peers/connected data'],
  },
  {
    name: 'explorer (Django)',
    source: 'I-luk-I/Warthog-Network-explorer@e793e42',
    generation: '0.8',
    works: 'no: needs /chain/hashrate (removed in v0.4.12) and a signed snapshot, as on every reference node',
    calls: [
      { path: () => '/account/richlist', reads: [['data', 'a']] },
      { path: () => '/chain/signed_snapshot', reads: [['data.priority.height', 'i']] },
      { path: () => '/chain/hashrate', reads: [['data.last100BlocksEstimate', 'n']] },
      { path: (c) => `/account/${c.x.A.addressText}/balance`, reads: [['data.balance', 's']] },
      { path: (c) => `/account/${c.x.A.addressText}/history/9223372036854775807`, reads: [['data.perBlock', 'a']] },
    ],
    missing: ['/chain/signed_snapshot data.priority.height', '/chain/hashrate data.last100BlocksEstimate'],
  },
];

/** The values at `path` of `v` (`[]` expands arrays, `[n]` indexes). */
function at(v: unknown, path: string): unknown[] {
  let vals: unknown[] = [v];
  for (const part of path.match(/\[\]|\[\d+\]|[^.[\]]+/g) ?? []) {
    vals = vals.flatMap((x): unknown[] => {
      if (part === '[]') return Array.isArray(x) ? x : [undefined];
      if (part.startsWith('[')) return Array.isArray(x) ? [x[Number(part.slice(1, -1))]] : [undefined];
      return typeof x === 'object' && x !== null && !Array.isArray(x) ? [(x as Record<string, unknown>)[part]] : [undefined];
    });
  }
  return vals;
}

const isType = (t: Read[1], v: unknown) =>
  ({
    s: typeof v === 'string',
    i: typeof v === 'bigint' || Number.isInteger(v),
    n: typeof v === 'number' || typeof v === 'bigint',
    b: typeof v === 'boolean',
    o: typeof v === 'object' && v !== null && !Array.isArray(v),
    a: Array.isArray(v),
  })[t];

const generic = (path: string) => path.replace(/\/chain\/block\/\d+/, '/chain/block/:h');

const nodes = {} as Record<'0.10' | '0.8', { node: TestNode; x: ExchangeChain }>;

beforeAll(async () => {
  for (const [api, seed] of [
    ['0.10', 91],
    ['0.8', 95],
  ] as const) {
    const node = await startNode(['--regtest', `--api=${api}`]);
    nodes[api] = { node, x: await buildExchangeChain(node, seed) };
  }
});
afterAll(async () => {
  for (const { node } of Object.values(nodes)) {
    await node.stop();
    await removeDir(node.dataDir);
  }
});

let nonce = 100_000;

describe.each(CLIENTS.map((c) => [c.name, c] as const))('%s', (_name, client) => {
  it(`reads every field it needs from --api=${client.generation}`, async () => {
    const { node, x } = nodes[client.generation as '0.10' | '0.8'];
    const genesis = await genesisHash(node);
    const lookup = (await node.get(`/transaction/lookup/${x.mined.coinTransfer}`)).body.data;
    const ctx: Ctx = {
      x,
      node,
      transferHeight: lookup.mined?.block.height ?? lookup.transaction.blockHeight,
      signed: async (payload) => requestJson(signRequest(x.A.sk, payload, { pinHeight: 0, pinHash: genesis, nonceId: ++nonce, feeCode: 0x4fa2 })),
    };
    const missing: string[] = [];
    for (const call of client.calls) {
      const path = call.path(ctx);
      let body: any;
      if (call.method === 'POST') {
        const payload = await call.body!(ctx);
        if (call.rawText) {
          const r = await fetch(node.url + path, { method: 'POST', headers: { 'content-type': '' }, body: writeJson(payload) });
          body = JSON.parse(await r.text());
        } else {
          body = (await node.post(path, payload)).body;
        }
        expect(body.code, `${client.name} POST ${path}: ${JSON.stringify(body)}`).toBe(0);
        if (body.error !== undefined) expect(body.error === null || client.generation !== '0.8').toBe(true); // Miningcore: error == null
      } else {
        // A route the generation does not have closes the connection, as on the reference: nothing to read.
        body = await node.get(path).then(
          (r) => r.body,
          () => undefined,
        );
      }
      for (const [field, type] of call.reads) {
        const vals = at(body, field);
        if (!vals.every((v) => v !== undefined && isType(type, v))) missing.push(`${generic(path.split('?')[0])} ${field}`);
      }
    }
    expect(missing).toEqual(client.missing ?? []);
  });
});

describe('the closing-note table', () => {
  it('lists every client of clients.md §4 with its generation and result', () => {
    const rows = CLIENTS.map((c) => `| ${c.name} | ${c.source} | ${c.generation} | ${c.works} |`);
    expect(rows).toHaveLength(CLIENTS.length);
    console.log(['| client | source | generation | works against this node (generation) |', '| --- | --- | --- | --- |', ...rows].join('\n'));
  });
});
