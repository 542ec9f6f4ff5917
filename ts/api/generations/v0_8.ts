// The 0.8 generation: what the mainnet reference node (0.8.20) sends (clients.md §1, §1.1, §2.2,
// §3). Only coin transfers and rewards exist there, so its transaction forms are flat transfers;
// its headers carry `timestamp`, `utc` and `difficulty`; several peer routes are sent bare.
import { blockReward } from '../../consensus/reward.js';
import { decodeTarget, targetDifficulty } from '../../consensus/target.js';
import { targetKindAt } from '../../consensus/params.js';
import { COIN_DECIMALS, formatUnits } from '../../core/amount.js';
import { COIN_TOKEN_ID, balanceOf, dbReader } from '../../state/ledger.js';
import { accountParam, resolveAccount } from '../params.js';
import { encode16bit } from '../views/fee16.js';
import { timepoint } from '../views/time.js';
import { arr, bool, hexStr, int, nullable, num, obj, record, str, u64, type Shape } from '../schema.js';
import { type Generation, type Reshape, type ReshapeContext } from './generation.js';

type Obj = Record<string, any>;

const Hash = hexStr(64);
const Address = hexStr(48);
const amountText = (e8: bigint | number) => formatUnits(BigInt(e8), COIN_DECIMALS);
const utc = (t: number) => timepoint(t).UTC;
const reshape = <T>(shape: Shape<T>, value: (v: any, ctx: ReshapeContext) => any): Reshape => ({ value, schema: () => shape.schema });

// Headers (M json.cpp:149-180). `difficulty` needs the height, so blocks add it (headerAt).
const powFields = { 'verusV2.2': bool, hashVerus: Hash, hashSha256t: Hash, floatVerus: num, floatSha256t: num };
const headerFields = {
  raw: hexStr(160),
  timestamp: int,
  utc: str,
  target: hexStr(8),
  hash: Hash,
  pow: obj(powFields),
  merkleroot: Hash,
  nonce: hexStr(8),
  prevHash: Hash,
  version: hexStr(8),
};
const HeaderNoDifficulty = obj(headerFields);
/** The 0.8 header; 0.10's WebSocket blocks use it too (clients.md §6.1 BlockWS). */
export const H8 = obj({ ...headerFields, difficulty: num });

export function header8(h: Obj, timestamp: number, utc: string, v22: boolean): Obj {
  return {
    raw: h.raw,
    timestamp,
    utc,
    target: h.target,
    hash: h.hash,
    pow: { 'verusV2.2': v22, hashVerus: h.pow.hashVerus, hashSha256t: h.pow.hashSha256t, floatVerus: h.pow.floatVerus, floatSha256t: h.pow.floatSha256t },
    merkleroot: h.merkleroot,
    nonce: h.nonce,
    prevHash: h.prevHash,
    version: h.version,
  };
}

/** The 0.8 header of block `height` (the target's meaning depends on the height). */
export function headerAt(h: Obj, height: number, ctx: ReshapeContext): Obj {
  const kind = targetKindAt(ctx.view.params, height);
  return { ...h, difficulty: targetDifficulty(decodeTarget(parseInt(h.target, 16), kind)) };
}

// Bodies (M json.cpp:182-215): rewards and transfers only.
const Reward8 = obj({ txHash: Hash, toAddress: Address, amount: str, amountE8: u64 });
const Transfer8 = obj({
  fromAddress: Address,
  fee: str,
  feeE8: u64,
  nonceId: int,
  pinHeight: int,
  txHash: Hash,
  toAddress: Address,
  amount: str,
  amountE8: u64,
});
const Body8 = obj({ rewards: arr(Reward8), transfers: arr(Transfer8) });
const Block8 = obj({ header: H8, body: Body8, timestamp: int, utc: str, confirmations: int, height: int });

const reward8 = (t: Obj) => ({ txHash: t.hash, toAddress: t.data.toAddress, amount: t.data.amount.str, amountE8: t.data.amount.E8 });
const transfer8 = (t: Obj) => ({
  fromAddress: t.signedCommon.originAddress,
  fee: t.signedCommon.fee.str,
  feeE8: t.signedCommon.fee.E8,
  nonceId: t.signedCommon.nonceId,
  pinHeight: t.signedCommon.pinHeight,
  txHash: t.hash,
  toAddress: t.data.toAddress,
  amount: t.data.amount.str,
  amountE8: t.data.amount.E8,
});
const body8 = (b: Obj) => ({
  rewards: b.reward ? [reward8(b.reward.transaction)] : [],
  transfers: b.coinTransfer.map((e: Obj) => transfer8(e.transaction)),
});

const block8 = reshape(Block8, (b, ctx) => ({
  header: headerAt(b.header, b.height, ctx),
  body: body8(b.body),
  timestamp: b.header.timestamp,
  utc: b.header.utc,
  confirmations: b.confirmations,
  height: b.height,
}));

// Transaction lookups and mempool entries (M json.cpp:222-256, 324-343): a transfer's and a reward's
// begin with the same fields.
const lookupFields = { txHash: Hash, toAddress: Address, confirmations: int, blockHeight: int, amount: str, amountE8: u64, type: str };
const Lookup8 = obj({
  transaction: obj({ ...lookupFields, pinHeight: int, fee: str, feeE8: u64, fromAddress: Address, nonceId: int }),
});
const RewardLookup8 = obj({ transaction: obj({ ...lookupFields, timestamp: int, utc: str }) });

const ERROR_CODES_0_8: Record<string, number> = {
  ENONCE: 27,
  EPINHEIGHT: 30,
  EBLOCKSIZE: 29,
  ENOTFOUND: 57,
  EBADPRIVKEY: 71,
  EBADADDRESS: 72,
  EBADHEIGHT: 73,
  EZEROHEIGHT: 74,
  EMINEDDEPRECATED: 77,
  ESELFSEND: 83,
  EZEROAMOUNT: 85,
  EZEROWART: 85,
  EINV_FUNDS: 89,
  EINV_BODY: 90,
  EINV_PAGE: 91,
  EINV_ARGS: 95,
  EADDRNOTFOUND: 101,
  EACCIDNOTFOUND: 102,
  EINV_HEX: 200,
  EBADNONCE: 201,
  EBADFEE: 202,
  EINEXACTFEE: 203,
  EBADAMOUNT: 204,
  EPARSESIG: 205,
  ENOTSYNCED: 206,
  EMINFEE: 209,
};

export const V0_8: Generation = {
  name: '0.8',
  keys: {},
  values: {},
  types: {
    Header: reshape(HeaderNoDifficulty, (h) => header8(h, h.time.timestamp, h.time.UTC, h.pow.verusV2_2)),
    HeaderUnixTime: reshape(HeaderNoDifficulty, (h) => header8(h, h.time, utc(h.time), h.pow['verusV2.2'])),
    HeaderResult: reshape(obj({ header: H8 }), (v, ctx) => ({ header: headerAt(v.header, v.height, ctx) })),
    Block: block8,
    PartialBlock: block8,
    ChainHeadSynced: reshape(
      obj({ difficulty: num, hash: Hash, height: int, is_janushash: bool, pinHash: Hash, pinHeight: int, synced: bool, worksum: num, worksumHex: str }),
      ({ chainHead: c, synced }) => ({
        difficulty: c.difficulty,
        hash: c.hash,
        height: c.height,
        is_janushash: c.is_janushash,
        pinHash: c.pinHash,
        pinHeight: c.pinHeight,
        synced,
        worksum: c.worksum,
        worksumHex: c.worksumHex,
      }),
    ),
    MiningTask: reshape(
      obj({
        synced: bool,
        header: hexStr(160),
        difficulty: num,
        merklePrefix: hexStr(),
        body: hexStr(),
        blockReward: str,
        blockRewardE8: u64,
        totalTxFee: str,
        totalTxFeeE8: u64,
        height: int,
        testnet: bool,
      }),
      (t) => {
        const fees = BigInt(t.blockReward.E8) - blockReward(t.height);
        return {
          synced: t.synced,
          header: t.header,
          difficulty: t.difficulty,
          merklePrefix: t.merklePrefix,
          body: t.body,
          blockReward: t.blockReward.str,
          blockRewardE8: t.blockReward.E8,
          totalTxFee: amountText(fees),
          totalTxFeeE8: fees,
          height: t.height,
          testnet: t.testnet,
        };
      },
    ),
    HashrateEstimate: reshape(obj({ lastNBlocksEstimate: u64, N: int }), (v) => ({ lastNBlocksEstimate: v.estimate, N: v.nBlocks })),
    Encode16bit: reshape(obj({ originalE8: u64, originalAmount: str, roundedE8: u64, roundedAmount: str, '16bit': int }), (v) => {
      const r = encode16bit(BigInt(v.original.E8), 'down');
      return {
        originalE8: r.original.E8,
        originalAmount: r.original.str,
        roundedE8: r.rounded.E8,
        roundedAmount: r.rounded.str,
        '16bit': parseInt(r.rounded.bytes, 16),
      };
    }),
    MinFee: reshape(obj({ amount: str, E8: u64, '16bit': int }), ({ minFee: f }) => ({ amount: f.str, E8: f.E8, '16bit': parseInt(f.bytes, 16) })),
    IpCount: reshape(record(int), (v: [string, number][]) => Object.fromEntries(v)),
    BannedPeer: reshape(obj({ ip: str, expires: int, reason: str }), (b) => ({ ip: b.ip, expires: b.banuntil, reason: b.reason })),
    PeerOffense: reshape(obj({ ip: str, timestamp: int, utc: str, offense: str }), (o) => ({
      ip: o.ip,
      timestamp: o.time,
      utc: utc(o.time),
      offense: o.offense,
    })),
    ConnectedPeer: reshape(
      obj({
        connection: obj({ ip: str, port: int, sinceTimestamp: int, sinceUtc: str }),
        leaderPriority: obj({ ack: obj({ importance: int, height: int }), theirs: obj({ importance: int, height: int }) }),
        chain: obj({ length: int, forkLower: int, forkUpper: int, descriptor: int, worksum: num, worksumHex: str, grid: arr(hexStr(160)) }),
      }),
      (p) => ({
        connection: {
          ip: p.connection.ip,
          port: p.connection.port,
          sinceTimestamp: p.connection.since,
          sinceUtc: utc(p.connection.since),
        },
        leaderPriority: {
          ack: { importance: p.leaderPriority.ack.priority, height: p.leaderPriority.ack.since },
          theirs: { importance: p.leaderPriority.theirs.priority, height: p.leaderPriority.theirs.since },
        },
        chain: {
          length: p.chain.length,
          forkLower: p.chain.forkLower,
          forkUpper: p.chain.forkUpper,
          descriptor: p.chain.descriptor,
          worksum: p.chain.worksum,
          worksumHex: p.chain.worksumHex,
          grid: p.chain.grid,
        },
      }),
    ),
    Grid: reshape(arr(hexStr(160)), (v) => v.headers),
    HashrateBlockChart: reshape(obj({ range: obj({ min: int, max: int }), data: arr(num) }), (v) => ({
      range: { min: v.range.begin, max: v.range.end },
      data: v.data,
    })),
  },
  routes: {
    'POST /chain/append': { voidSuccess: true },
    'GET /chain/mine/:account': { paths: ['/chain/mine/:account', '/chain/mine/:account/log'] },
    'GET /chain/block/:height/hash': { reshape: reshape(obj({ hash: Hash }), (hash) => ({ hash })) },
    'GET /chart/hashrate/block/:from/:to/:window': { paths: ['/chain/hashrate/chart/:from/:to/:window'] },
    'GET /account/:account/coin_balance': {
      paths: ['/account/:account/balance'],
      // Without an account (an unknown address or id) both are null, as 0.8.20 answers (scripts/mainnet-diff.mjs).
      reshape: reshape(obj({ balance: str, balanceE8: u64, address: nullable(Address), accountId: nullable(u64) }), (v) => ({
        balance: v.coin.total.str,
        balanceE8: v.coin.total.E8,
        address: v.account?.address ?? null,
        accountId: v.account?.accountId ?? null,
      })),
    },
    'GET /account/richlist/:tokenspec': {
      paths: ['/account/richlist'],
      fixedParams: { tokenspec: '0' },
      reshape: reshape(arr(obj({ address: Address, balance: str, balanceE8: u64 })), (v) =>
        v.richlist.map((r: Obj) => ({ address: r.address, balance: amountText(r.balance.u64), balanceE8: r.balance.u64 })),
      ),
    },
    'GET /account/:account/history/:beforeId': {
      reshape: {
        // The balance of the same view as the entries: never one of a later block.
        value: async (v, ctx) => {
          const a = await resolveAccount(ctx.view, accountParam(ctx.params.account));
          const b = a.accountId === null ? 0n : (await balanceOf(dbReader(ctx.view.db), a.accountId, COIN_TOKEN_ID)).total;
          // 0.8.20 binds beforeId as a signed 64-bit SQL parameter (chain_db.cpp lookup_history_100_desc):
          // from 2^63 on it is negative, and no entry lies before it.
          const none = BigInt(ctx.params.beforeId) >= 2n ** 63n;
          return {
            perBlock: none ? [] : v.perBlock.map((x: Obj) => ({ height: x.height, confirmations: x.confirmations, transactions: x.body })),
            fromId: none ? 0 : v.fromId,
            balance: amountText(b),
            balanceE8: b,
          };
        },
        schema: () =>
          obj({
            perBlock: arr(obj({ height: int, confirmations: int, transactions: Body8 })),
            fromId: u64,
            balance: str,
            balanceE8: u64,
          }).schema,
      },
    },
    'GET /transaction/latest': {
      reshape: {
        // As 0.8.20 lists its last entries (state.cpp api_get_latest_txs): newest first, blocks and the
        // transfers within each; `count` is the number of entries.
        value: (v) => ({
          fromId: v.fromId,
          count: v.perBlock.reduce((n: number, b: Obj) => n + b.body.rewards.length + b.body.transfers.length, 0),
          perBlock: [...v.perBlock].reverse().map((b: Obj) => ({ ...b, body: { rewards: b.body.rewards, transfers: [...b.body.transfers].reverse() } })),
        }),
        schema: () => obj({ fromId: u64, count: int, perBlock: arr(Block8) }).schema,
      },
    },
    'GET /transaction/mempool': {
      reshape: reshape(obj({ data: arr(Transfer8) }), (v) => ({
        data: v.filter((e: Obj) => e.type === 'coinTransfer').map((e: Obj) => transfer8(e.transaction)),
      })),
    },
    'GET /transaction/lookup/:txid': {
      reshape: {
        value: (v, ctx) => {
          const t = v.transaction;
          const height = v.mined?.block.height ?? 0;
          const common = {
            txHash: t.hash,
            toAddress: t.data.toAddress,
            confirmations: v.confirmations,
            blockHeight: height,
            amount: t.data.amount?.str,
            amountE8: t.data.amount?.E8,
          };
          if (v.type === 'reward') {
            const ts = ctx.view.timestampAt(height);
            return { transaction: { ...common, type: 'Reward', timestamp: ts, utc: utc(ts) } };
          }
          if (v.type !== 'coinTransfer') return v; // token-era types do not exist in 0.8
          const s = t.signedCommon;
          return {
            transaction: {
              ...common,
              type: 'Transfer',
              pinHeight: s.pinHeight,
              fee: s.fee.str,
              feeE8: s.fee.E8,
              fromAddress: s.originAddress,
              nonceId: s.nonceId,
            },
          };
        },
        schema: (s) => ({ anyOf: [Lookup8.schema, RewardLookup8.schema, s] }),
      },
    },
    'GET /peers/connected/connection': {
      reshape: reshape(obj({ data: arr(str) }), (v) => ({ data: v.map((c: Obj) => `${c.ip}:${c.port}`) })),
    },
    'GET /peers/offenses/:page': { reshape: { value: (v) => ({ data: v }), schema: (s) => obj({ data: { schema: s } as Shape<unknown> }).schema } },
    // No snapshot yet is `data: null` (M endpoint table, clients.md §2.2).
    'GET /chain/signed_snapshot': { nullOn: 'ENOTFOUND' },
    'GET /peers/ip_count': { envelope: 'bare' },
    'GET /peers/banned': { envelope: 'bare' },
    'GET /peers/connected': { envelope: 'bare' },
    'GET /debug/header_download': { envelope: 'bare' },
    // C's `%.20e`: 21 significant digits, a signed exponent of at least two digits (M interface.cpp:94-109).
    'GET /tools/janushash_number/:headerhex': {
      envelope: 'text',
      reshape: { value: (v) => v.janushashNumber.toExponential(20).replace(/e([+-])(\d)$/, 'e$10$2'), schema: () => num.schema },
    },
    'GET /tools/info': {
      paths: ['/tools/version'],
      reshape: reshape(obj({ commit: str, major: int, minor: int, patch: int, name: str }), (v) => v.version),
    },
  },
  errorCodes: ERROR_CODES_0_8,
  // 0.8 writes its error texts in lower case (clients.md §1).
  errorText: (t) => t.charAt(0).toLowerCase() + t.slice(1),
  voidReply: { code: 0, error: null },
};
