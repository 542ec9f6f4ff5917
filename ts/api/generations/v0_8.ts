// The 0.8 generation: what the mainnet reference node (0.8.20) sends (clients.md §1, §1.1, §2.2,
// §3). Only coin transfers and rewards exist there, so its transaction forms are flat transfers;
// its headers carry `timestamp`, `utc` and `difficulty`; several peer routes are sent bare.
import { blockReward } from '../../consensus/reward.js';
import { decodeTarget, targetDifficulty } from '../../consensus/target.js';
import { targetKindAt } from '../../consensus/params.js';
import { COIN_DECIMALS, formatUnits } from '../../core/amount.js';
import { fail } from '../../core/errors.js';
import { COIN_TOKEN_ID, balanceOf, dbReader } from '../../state/ledger.js';
import { accountParam, resolveAccount, u64Param } from '../params.js';
import { isExactFee, isTransactionTypeName, signatureDefect } from '../tx_request.js';
import { parseAddress } from '../../core/address.js';
import { fromHex, fromHexExact } from '../../core/hex.js';
import { encode16bit } from '../views/fee16.js';
import { timepoint } from '../views/time.js';
import { arr, bool, hexStr, int, nullable, num, obj, record, str, u64, type Shape } from '../schema.js';
import { castIntegers, type Generation, type Reshape, type ReshapeContext } from './generation.js';

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

/**
 * The most a 0.8.20 coin amount or fee can be (MAXSUPPLY = GENESISBLOCKREWARD · HALVINTINTERVAL · 2,
 * src/shared/src/general/params.hpp): `Funds` refuses more (funds.hpp `from_value`).
 */
const MAX_FUNDS = 3n * 10n ** 8n * 3_153_600n * 2n;

/**
 * A coin amount text as 0.8.20 reads it (`Funds::parse`, src/shared/src/general/funds.cpp): digits
 * with at most one '.', at most 8 digits before it and 8 after, at most MAX_FUNDS. (A text without
 * any digit ends the reference process: `std::stoull` of nothing throws what nobody catches.)
 */
export function funds08(text: string): bigint | null {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m) return null;
  const [, whole, fraction = ''] = m;
  if (whole.length > 8 || fraction.length > 8 || whole.length + fraction.length === 0) return null;
  const v = BigInt(whole + fraction.padEnd(8, '0'));
  return v <= MAX_FUNDS ? v : null;
}

/**
 * A transaction body as 0.8.20 reads it (src/node/api/http/parse.cpp): an untyped coin transfer (it
 * reads no `type`, so one that names no type of ours is a transfer too), its members checked in the
 * order the reference's build reads them: the arguments of one constructor call, which GCC
 * evaluates last to first (signature65, amount, toAddr, fee, nonceId, pinHeight). `pinHeight` is
 * read as an int, `nonceId` as a uint32, `feeE8` and `amountE8` as uint64 (wrapping), amounts and
 * fees within MAX_FUNDS, texts by funds08. A non-object body has none of the members. Members in
 * other generations' names, which 0.8.20 does not read, are left to our parser.
 */
function transferBody08(body: unknown): unknown {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  const o = (isObject ? castIntegers(body, { pinHeight: 'i32', nonceId: 'u32', feeE8: 'u64', amountE8: 'u64' }) : {}) as Obj;
  // A type of the token era (beyond 0.8.20, which would read a transfer) is ours to read.
  if (isTransactionTypeName(o.type) && o.type !== 'coinTransfer' && o.type !== 'wartTransfer') return o;
  o.type = 'coinTransfer';
  const has = (k: string) => o[k] !== undefined;
  const funds = (v: unknown) => (typeof v === 'bigint' && v <= MAX_FUNDS ? v : null);
  // extract_signature: RecoverableSignature (a zero r or s passes here and fails when the key is recovered).
  const defect = signatureDefect(o.signature65);
  if (defect === 'unparsable') fail('EPARSESIG');
  if (defect === 'form') fail('ECORRUPTEDSIG');
  // extract_funds: exactly one of amount (a text) and amountE8.
  if (has('amount') || has('amountE8') || !['coinE8', 'wartE8', 'coinStr', 'wartStr', 'coin'].some(has)) {
    const text = has('amount') ? (typeof o.amount === 'string' ? funds08(o.amount) : null) : undefined;
    if (text === null || (text !== undefined && has('amountE8')) || (text === undefined && funds(o.amountE8) === null)) fail('EBADAMOUNT');
  }
  // extract_to_addr
  if (typeof o.toAddr !== 'string' || !parseAddress(o.toAddr)) fail('EBADADDRESS');
  // extract_fee: a `fee` text (refused as malformed funds data) or feeE8, not both, exactly representable;
  // neither is inexact (it compacts an empty optional: 203 on the running 0.8.20).
  if (has('fee') || has('feeE8')) {
    if (has('fee') && typeof o.fee !== 'string') fail('EBADFEE');
    const fee = has('fee') ? (funds08(o.fee as string) ?? fail('EINV_FUNDS')) : funds(o.feeE8);
    if ((has('fee') && has('feeE8')) || fee === null) fail('EBADFEE');
    if (!isExactFee(fee!)) fail('EINEXACTFEE');
  } else if (!has('feeStr')) fail('EINEXACTFEE');
  // extract_nonce_id, extract_pin_height (a pin height: a multiple of 32)
  if (typeof o.nonceId !== 'bigint') fail('EBADNONCE');
  if (typeof o.pinHeight !== 'bigint' || o.pinHeight < 0n || o.pinHeight % 32n !== 0n) fail('EBADHEIGHT');
  return o;
}

/**
 * Whether 0.8.20's BodyView (src/shared/src/block/body/view.cpp, testnet layout) runs out of bytes
 * while reading a body: within its first 12 bytes (extra nonce, address count), or in the transfer
 * count after the reward (1–3 bytes left). Its Reader refuses that with EMSGINTEGRITY; other
 * size mismatches make the body invalid (malformed body data).
 */
function cutShort08(body: Uint8Array): boolean {
  if (body.length < 12) return true;
  const afterReward = 12 + ((body[10] << 8) | body[11]) * 20 + 16;
  const left = body.length - afterReward;
  return left >= 1 && left <= 3;
}

/** A path parameter 0.8.20 reads as `Funds` (interface.cpp `Funds::from_value_throw`): more than MAX_FUNDS is malformed funds data. */
const fundsParam = (name: string) => ({
  before: ({ params }: ReshapeContext) => {
    if (u64Param(params[name], name) > MAX_FUNDS) fail('EINV_FUNDS', `${name} above ${MAX_FUNDS}`);
  },
});

/**
 * 0.8.20's error table (src/shared/src/general/errors.hpp at a59f7ddf) by our names: its numbers
 * and its texts, in lower case as it writes them (clients.md §1.1). Its EADDRIDNOTFOUND is our
 * EACCIDNOTFOUND; a zero coin transfer is its EZEROAMOUNT. Errors it has not are written with our
 * number and our own text in lower case.
 */
const ERRORS_0_8: Generation['errors'] = {
  EMSGTYPE: [1, 'invalid message type'],
  EMSGLEN: [2, 'invalid message length'],
  ECHECKSUM: [4, 'bad message checksum'],
  EMSGFLOOD: [5, 'received too many messages'],
  ENOBATCH: [6, 'peer did not provide batch'],
  EBUFFERFULL: [7, 'send buffer full'],
  EBATCHSIZE: [8, 'invalid batch size'],
  EHEADERLINK: [9, 'bad header link'],
  EPOW: [10, 'bad proof of work'],
  ETIMESTAMP: [11, 'timestamp rule violated'],
  EDIFFICULTY: [12, 'wrong difficulty in block header'],
  EHANDSHAKE: [13, 'bad hand shake'],
  EVERSION: [14, 'unsupported version'],
  EREORGWORK: [15, 'peer changed to shorter chain'],
  EDESCRIPTOR: [16, 'descriptors not consecutive'],
  EMROOT: [17, 'merkle root mismatch'],
  ENOBLOCK: [18, 'peer did not provide block'],
  EUNREQUESTED: [19, 'received unrequested message'],
  EIDNOTREFERENCED: [20, 'account id not referenced'],
  EADDRPOLICY: [21, 'new address policy violated'],
  EBALANCE: [22, 'insufficient balance'],
  ECORRUPTEDSIG: [23, 'corrupted signature'],
  ETIMEOUT: [25, 'connection request timed out'],
  ESWITCHING: [26, 'busy, switching chains'],
  ENONCE: [27, 'duplicate transaction nonce'],
  EDUST: [28, 'fee too low'],
  EBLOCKSIZE: [29, 'block too large'],
  EPINHEIGHT: [30, 'invalid transaction pin'],
  ECLOCKTOLERANCE: [31, 'clock tolerance exceeded'],
  EINVDSC: [32, 'invalid descripted state'],
  EAPPEND: [33, 'invalid chain append'],
  EFORK: [34, 'invalid chain fork'],
  ENOTFOUND: [57, 'not found'],
  EEMPTY: [58, 'empty response for request not yet expired'],
  EFAKEHEIGHT: [59, 'fake height advertised by node'],
  EFAKEWORK: [60, 'fake total work advertised by node'],
  EBADMATCH: [61, 'bad headerchain match'],
  EBADMISMATCH: [62, 'bad headerchain mismatch'],
  EBADPROBE: [63, 'inconsistent probe message'],
  EPROBEDESCRIPTOR: [64, 'current probe descriptor does not match'],
  ERESTRICTED: [65, 'peer ignored limit restrictions'],
  ENOPINHEIGHT: [66, 'height is no pin height'],
  EBADLEADER: [67, 'bad leader signature'],
  ELEADERMISMATCH: [68, 'leader signature mismatch'],
  ELOWPRIORITY: [69, 'low leader signature priority'],
  EBADPUBKEY: [70, 'invalid public key'],
  EBADPRIVKEY: [71, 'invalid private key'],
  EBADADDRESS: [72, 'invalid address'],
  EBADHEIGHT: [73, 'invalid height'],
  EZEROHEIGHT: [74, 'invalid zero height'],
  EBADROLLBACK: [75, 'rollback forbidden'],
  EBADROLLBACKLEN: [76, 'bad rollback length'],
  EMINEDDEPRECATED: [77, 'submitted deprecated block'],
  EBLOCKRANGE: [78, 'invalid block range'],
  EFORKHEIGHT: [79, 'invalid fork height'],
  EPROBEHEIGHT: [80, 'invalid probe height'],
  EBATCHHEIGHT: [81, 'invalid batch height'],
  EGRIDMISMATCH: [82, 'grid mismatch'],
  ESELFSEND: [83, 'self send transaction not allowed'],
  EBLOCKVERSION: [84, 'unsupported block version'],
  EZEROAMOUNT: [85, 'transactions cannot send 0 WART'],
  EZEROWART: [85, 'transactions cannot send 0 WART'],
  ENOINIT: [86, 'first message must be init message'],
  EINVINIT: [87, 'only first message can be init message'],
  EFAKEACCID: [88, 'fake account id'],
  EINV_FUNDS: [89, 'malformed funds data'],
  EINV_BODY: [90, 'malformed body data'],
  EINV_PAGE: [91, 'invalid page'],
  EINV_PROBE: [92, 'invalid probe message'],
  EINV_GRID: [93, 'invalid grid'],
  EINV_TXREQ: [94, 'invalid tx request'],
  EINV_ARGS: [95, 'invalid API arguments'],
  EINV_TXREP: [96, 'invalid tx reply'],
  EINV_INITGRID: [97, 'invalid grid in init message'],
  EINV_HEADERVEC: [98, 'invalid header vector'],
  EINV_BLOCKREPSIZE: [99, 'invalid block reply size'],
  // 0.8.20's one EMSGINTEGRITY, split into three since.
  EMSGINTEGRITY0: [100, 'message integrity check failed'],
  EMSGINTEGRITY1: [100, 'message integrity check failed'],
  EMSGINTEGRITY2: [100, 'message integrity check failed'],
  EADDRNOTFOUND: [101, 'address not found'],
  EACCIDNOTFOUND: [102, 'address id not found'],
  EBATCHSIZE2: [198, 'invalid batch size'],
  EBATCHSIZE3: [199, 'invalid batch size'],
  EINV_HEX: [200, 'cannot parse hexadecimal input'],
  EBADNONCE: [201, 'cannot parse nonce'],
  EBADFEE: [202, 'invalid fee'],
  EINEXACTFEE: [203, 'inexact fee not allowed'],
  EBADAMOUNT: [204, 'invalid amount'],
  EPARSESIG: [205, 'cannot parse signature'],
  ENOTSYNCED: [206, 'node not synced yet'],
  ECONNRATELIMIT: [207, 'connection rate limit exceeded'],
  EFROZENACC: [208, "account is frozen and can't send"],
  EMINFEE: [209, 'transaction fee below threshold'],
  ESIGTERM: [1000, 'received SIGTERM'],
  ESIGHUP: [1001, 'received SIGHUP'],
  ESIGINT: [1002, 'received SIGINT'],
  EREFUSED: [1003, 'connection refused due to ban'],
  EDUPLICATECONNECTION: [1005, 'duplicate connection'],
  EBUG: [2000, 'bug-related error'],
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
    // Refusals as 0.8.20 words them (its source; no recording exists). A body that is no JSON: 95.
    'POST /transaction/add': { request: transferBody08, refusals: { EINVJSON: 'EINV_ARGS' } },
    // The height read as uint32; height 0 is 73; no worker is read (src/node/api/http/parse.cpp).
    'POST /chain/append': {
      voidSuccess: true,
      request: (body) => {
        const o = castIntegers(body, { height: 'u32' });
        if (typeof o === 'object' && o !== null && !Array.isArray(o)) delete (o as Obj).worker;
        return o;
      },
      before: ({ body, view }) => {
        const b = body as Obj;
        const bytes = typeof b?.body === 'string' ? fromHex(b.body) : null;
        // A body of the next block that ends inside what 0.8.20's BodyView reads unguarded.
        if (bytes && b.height === BigInt(view.length + 1) && typeof b.header === 'string' && fromHexExact(b.header, 80) && cutShort08(bytes)) {
          fail('EMSGINTEGRITY0');
        }
      },
      refusals: { EINVJSON: 'EINV_ARGS', EZEROHEIGHT: 'EBADHEIGHT' },
    },
    'GET /tools/encode16bit/from_e8/:feeE8': fundsParam('feeE8'),
    'GET /tools/encode16bit/from_string/:string': {
      before: ({ params }) => {
        if (funds08(params.string) === null) fail('EINV_FUNDS', `${params.string} is no 0.8 coin amount`);
      },
    },
    'GET /settings/mempool/minfee/:feeE8': fundsParam('feeE8'),
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
      // An address only (its parameter is an `Address`): an account id is an invalid address.
      before: ({ params }) => {
        if (params.account.length !== 48) fail('EBADADDRESS', 'an address, not an account id');
      },
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
    'GET /peers/ip_count': { envelope: 'bare' },
    'GET /peers/banned': { envelope: 'bare' },
    'GET /peers/connected': { envelope: 'bare' },
    'GET /debug/header_download': { envelope: 'bare' },
    // C's `%.20e`: 21 significant digits, a signed exponent of at least two digits (M interface.cpp:94-109).
    'GET /tools/janushash_number/:headerhex': {
      envelope: 'text',
      // A header it cannot read is answered with an empty body (interface.cpp:94-109).
      refusals: { EBADHEADER: { text: '' } },
      reshape: { value: (v) => v.janushashNumber.toExponential(20).replace(/e([+-])(\d)$/, 'e$10$2'), schema: () => num.schema },
    },
    'GET /tools/info': {
      paths: ['/tools/version'],
      reshape: reshape(obj({ commit: str, major: int, minor: int, patch: int, name: str }), (v) => v.version),
    },
  },
  errors: ERRORS_0_8,
  // 0.8 writes an error's own text, in lower case (clients.md §1).
  errorText: (_message, text) => text.charAt(0).toLowerCase() + text.slice(1),
  refusals: {},
  unknownRoute: 'close',
  voidReply: { code: 0, error: null },
};
