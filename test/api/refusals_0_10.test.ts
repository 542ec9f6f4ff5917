// `--api=0.10` refuses every request as the reference 0.10.3 (commit 58031328) does, byte for
// byte: each case below is one refusal of test/vectors/reference-0.10 (endpoints.json, errors.json;
// the note of the recorded exchange is quoted) sent to our node on a regtest chain of its own,
// or, where nothing was recorded, what the reference's source answers (file named). Requests that
// name the recording's chain (addresses, the asset, heights, signatures) name ours instead.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fromHex } from '../../ts/core/hex.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { fee16Encode } from '../../ts/kernel/fee16.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { buildExchangeChain, type ExchangeChain } from '../helpers/exchange_chain.js';
import { genesisHash, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet } from '../helpers/wallet.js';
import { DROP, E, FEE_CODE, badChecksumOf, edited, expectAnswers, hex, highS, post, signer, withRecid, type Case, type Edit, type Req } from './refusals.js';

await initKernel();

const NOT_FOUND = E(56, 'Not found');
const ARGS = E(94, 'Invalid API arguments');
const HEX = E(300, 'Cannot parse hexadecimal input');
const ADDRESS = E(71, 'Invalid address');
const TX_TYPE = E(189, 'Invalid transaction message type');
const AMOUNT = E(303, 'Invalid amount');
const INEXACT = E(302, 'Inexact fee not allowed');
const PIN = E(29, 'Invalid transaction pin');
const HEIGHT = E(72, 'Invalid height');
const SIG = E(304, 'Cannot parse signature');
const NO_ADDRESS = E(122, 'Address not found');
const BALANCE = E(22, 'Insufficient balance');
const TOKEN_BALANCE = E(184, 'Insufficient token balance');
const ZERO_TOKENS = E(84, 'Transactions cannot send 0 tokens');
const ASSET_HASH = E(185, 'Asset hash not found');
const ASSET_ID = E(186, 'Asset id not found');
const NONCE = E(26, 'Duplicate transaction nonce');
const ENDPOINTS = 'endpoints.json';
const ERRORS = 'errors.json';

let node: TestNode;
let x: ExchangeChain;
let genesis: Uint8Array;
let tip = 0;
const C = TestWallet.fromSeed(1303);
const D = TestWallet.fromSeed(1304); // never funded
const sign = signer(() => genesis, 5000, FEE_CODE);

beforeAll(async () => {
  node = await startNode(['--regtest', '--api=0.10']);
  x = await buildExchangeChain(node, 1301);
  await node.get(`/debug/fakemine/${C.addressText}`);
  genesis = await genesisHash(node);
  tip = (await node.data('/chain/head')).chainHead.height;
}, 60_000);
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

const A = () => x.A;
const B = () => x.B;
const asset = () => x.asset;
const assetBytes = () => fromHex(x.asset)!;
/** A's address with a wrong checksum. */
const badChecksum = () => badChecksumOf(A().addressText);
const price = (p: string) => priceToBytes(parsePrice(p, 2)!.floor);

/** A body as 0.10 clients write it: `wartTransfer`, `wartE8`, `decimals`. */
function names10(b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) out[k === 'coinE8' ? 'wartE8' : k === 'precision' ? 'decimals' : k] = v;
  if (out.type === 'coinTransfer') out.type = 'wartTransfer';
  return out;
}
/** A signed 0.10 body, then edited. */
const tx =
  (w: () => TestWallet, payload: () => TransactionPayload, edit: Edit = {}) =>
  () =>
    post(edited(names10(sign.sign(w(), payload())), edit));
const transfer =
  (amount = 1000n, to = () => C): (() => TransactionPayload) =>
  () => ({ type: 'coinTransfer', toAddress: to().address, amount });
const tokenTransfer =
  (amount: bigint, isLiquidity = false, to = () => C, h = assetBytes) =>
  (): TransactionPayload => ({
    type: 'tokenTransfer',
    assetHash: h(),
    isLiquidity,
    toAddress: to().address,
    amount,
  });
const swap =
  (isBuy: boolean, amount: bigint, limit = '0.004', h = assetBytes) =>
  (): TransactionPayload => ({
    type: 'limitSwap',
    assetHash: h(),
    isBuy,
    amount,
    limit: price(limit),
  });
const creation = (): TransactionPayload => ({ type: 'assetCreation', supply: 100_000n, precision: 2, name: assetNameBytes('ABC') });

describe('--api=0.10 refuses as 0.10.3', () => {
  it('path parameters, unknown things and routes', async () => {
    const cases: Case[] = [
      { name: 'block hash beyond the tip', req: () => ({ path: `/chain/block/${tip + 1}/hash` }), want: NOT_FOUND, from: `${ENDPOINTS} "beyond tip"` },
      { name: 'block hash of -1', req: () => ({ path: '/chain/block/-1/hash' }), want: ARGS, from: ENDPOINTS },
      { name: 'block hash of abc', req: () => ({ path: '/chain/block/abc/hash' }), want: ARGS, from: ENDPOINTS },
      { name: 'block hash above u32', req: () => ({ path: '/chain/block/4294967296/hash' }), want: ARGS, from: `${ENDPOINTS} "above u32"` },
      { name: 'block hash of a hash', req: () => ({ path: `/chain/block/${hex(genesis)}/hash` }), want: ARGS, from: `${ENDPOINTS} "hash instead of height"` },
      ...['/header', '/binary', ''].flatMap((tail): Case[] => [
        { name: `block${tail} of height 0`, req: () => ({ path: `/chain/block/0${tail}` }), want: NOT_FOUND, from: `${ENDPOINTS} "height 0"` },
        { name: `block${tail} beyond the tip`, req: () => ({ path: `/chain/block/${tip + 1}${tail}` }), want: NOT_FOUND, from: `${ENDPOINTS} "beyond tip"` },
        {
          name: `block${tail} of an unknown hash`,
          req: () => ({ path: `/chain/block/${'0'.repeat(64)}${tail}` }),
          want: NOT_FOUND,
          from: `${ENDPOINTS} "unknown hash"`,
        },
        {
          name: `block${tail} of 64 non-hex chars`,
          req: () => ({ path: `/chain/block/zz${'c'.repeat(62)}${tail}` }),
          want: HEX,
          from: `${ENDPOINTS} "non-hex 64 chars"`,
        },
        { name: `block${tail} of abc`, req: () => ({ path: `/chain/block/abc${tail}` }), want: ARGS, from: `${ENDPOINTS} "not a number"` },
        { name: `block${tail} of -1`, req: () => ({ path: `/chain/block/-1${tail}` }), want: ARGS, from: `${ENDPOINTS} "negative"` },
      ]),
      { name: 'mining task: bad checksum', req: () => ({ path: `/chain/mine/${badChecksum()}` }), want: ADDRESS, from: `${ENDPOINTS} "bad checksum"` },
      { name: 'mining task: 40 chars', req: () => ({ path: `/chain/mine/${A().addressText.slice(0, 40)}` }), want: ADDRESS, from: `${ENDPOINTS} "40 chars"` },
      { name: 'mining task: an account id', req: () => ({ path: '/chain/mine/0' }), want: HEX, from: `${ENDPOINTS} "account id"` },
      {
        name: 'hashrate of 1 block',
        req: () => ({ path: '/chain/hashrate/1' }),
        want: E(325, 'Hashrate estimate needs at least 2 block times'),
        from: ENDPOINTS,
      },
      { name: 'hashrate of abc', req: () => ({ path: '/chain/hashrate/abc' }), want: ARGS, from: ENDPOINTS },
      { name: 'no signed snapshot', req: () => ({ path: '/chain/signed_snapshot' }), want: NOT_FOUND, from: ENDPOINTS },
      { name: 'unknown asset id', req: () => ({ path: '/asset/lookup/9999' }), want: ASSET_ID, from: `${ENDPOINTS} "unknown id"` },
      { name: 'unknown asset hash', req: () => ({ path: `/asset/lookup/${'ab'.repeat(32)}` }), want: ASSET_HASH, from: `${ENDPOINTS} "unknown hash"` },
      { name: 'asset of 64 non-hex chars', req: () => ({ path: `/asset/lookup/zz${asset().slice(2)}` }), want: HEX, from: `${ENDPOINTS} "non-hex 64 chars"` },
      { name: 'asset -1', req: () => ({ path: '/asset/lookup/-1' }), want: ARGS, from: ENDPOINTS },
      { name: 'asset abc', req: () => ({ path: '/asset/lookup/abc' }), want: ARGS, from: ENDPOINTS },
      { name: 'asset of 40 hex chars', req: () => ({ path: `/asset/lookup/${asset().slice(0, 40)}` }), want: ARGS, from: `${ENDPOINTS} "40 hex chars"` },
      { name: 'market of an unknown id', req: () => ({ path: '/dex/market/9999' }), want: ASSET_ID, from: `${ENDPOINTS} "unknown id"` },
      { name: 'market of an unknown hash', req: () => ({ path: `/dex/market/${'ab'.repeat(32)}` }), want: ASSET_HASH, from: `${ENDPOINTS} "unknown hash"` },
      { name: 'market of abc', req: () => ({ path: '/dex/market/abc' }), want: ARGS, from: ENDPOINTS },
      {
        name: 'open orders of an unknown address',
        req: () => ({ path: `/account/${D.addressText}/open_orders` }),
        want: NO_ADDRESS,
        from: `${ENDPOINTS} "unknown address"`,
      },
      { name: 'open orders: bad checksum', req: () => ({ path: `/account/${badChecksum()}/open_orders` }), want: ADDRESS, from: `${ENDPOINTS} "bad checksum"` },
      {
        name: 'open orders of an unknown id',
        req: () => ({ path: '/account/999999/open_orders' }),
        want: E(123, 'Account id not found'),
        from: `${ENDPOINTS} "account id 0"`,
      },
      {
        name: 'open orders: unknown asset id',
        req: () => ({ path: `/account/${B().addressText}/open_orders/9999` }),
        want: ASSET_ID,
        from: `${ENDPOINTS} "unknown asset id"`,
      },
      {
        name: 'open orders: unknown asset hash',
        req: () => ({ path: `/account/${B().addressText}/open_orders/${'ab'.repeat(32)}` }),
        want: ASSET_HASH,
        from: `${ENDPOINTS} "unknown asset hash"`,
      },
      {
        name: 'account mempool of an unknown id',
        req: () => ({ path: '/account/999999/mempool' }),
        want: E(123, 'Account id not found'),
        from: `${ENDPOINTS} "unknown account id"`,
      },
      { name: 'account mempool: bad checksum', req: () => ({ path: `/account/${badChecksum()}/mempool` }), want: ADDRESS, from: `${ENDPOINTS} "bad checksum"` },
      ...(
        [
          ['ASSET:<hash>', () => `ASSET:${asset()}`, E(307, 'Malformed token specification')],
          ['asset:<unknown hash>', () => `asset:${'ab'.repeat(32)}`, E(308, 'Token not found')],
          ['liquidity:<unknown hash>', () => `liquidity:${'ab'.repeat(32)}`, E(308, 'Token not found')],
          ['token:<hash>', () => `token:${asset()}`, E(307, 'Malformed token specification')],
          ['asset:<63 hex>', () => `asset:${asset().slice(0, 63)}`, E(307, 'Malformed token specification')],
          ['a bare hash', () => asset(), E(307, 'Malformed token specification')],
          ['an unknown token id', () => '99', E(308, 'Token not found')],
          ['abc', () => 'abc', ARGS],
          ['asset:', () => 'asset:', ARGS],
        ] as [string, () => string, string][]
      ).map(
        ([spec, s, want]): Case => ({
          name: `balance of token spec ${spec}`,
          req: () => ({ path: `/account/${A().addressText}/balance/${s()}` }),
          want,
          from: `${ENDPOINTS} "token spec …"`,
        }),
      ),
      { name: 'token balance: bad checksum', req: () => ({ path: `/account/${badChecksum()}/balance/asset:${asset()}` }), want: ADDRESS, from: ENDPOINTS },
      { name: 'token balance: 40-char address', req: () => ({ path: `/account/${A().addressText.slice(0, 40)}/balance/0` }), want: ARGS, from: ENDPOINTS },
      { name: 'coin balance: bad checksum', req: () => ({ path: `/account/${badChecksum()}/wart_balance` }), want: ADDRESS, from: ENDPOINTS },
      { name: 'history before 2^64', req: () => ({ path: `/account/${A().addressText}/history/18446744073709551616` }), want: ARGS, from: ENDPOINTS },
      { name: 'history before abc', req: () => ({ path: `/account/${A().addressText}/history/abc` }), want: ARGS, from: ENDPOINTS },
      {
        name: 'history of an unknown address',
        req: () => ({ path: `/account/${D.addressText}/history/9223372036854775807` }),
        want: NOT_FOUND,
        from: ENDPOINTS,
      },
      {
        name: 'history of an unknown account id: empty',
        req: () => ({ path: '/account/999999/history/9223372036854775807' }),
        want: '{"code":0,"data":{"fromId":0,"perBlock":[]}}',
        from: `${ENDPOINTS} /account/0/history/…`,
      },
      {
        name: 'richlist of an unknown token id',
        req: () => ({ path: '/account/richlist/99' }),
        want: E(131, 'Token id not found'),
        from: `${ENDPOINTS} "richlist 1"`,
      },
      {
        name: 'richlist of an unknown asset',
        req: () => ({ path: `/account/richlist/asset:${'ab'.repeat(32)}` }),
        want: E(131, 'Token id not found'),
        from: ENDPOINTS,
      },
      { name: 'richlist of abc', req: () => ({ path: '/account/richlist/abc' }), want: ARGS, from: ENDPOINTS },
      {
        name: 'richlist of wart',
        req: () => ({ path: '/account/richlist/wart' }),
        want: ARGS,
        from: `${ENDPOINTS} "richlist abc" (issue 27: wartbunker asks for wart)`,
      },
      { name: 'offenses page 0', req: () => ({ path: '/peers/offenses/0' }), want: E(90, 'Invalid page'), from: ENDPOINTS },
      { name: 'offenses page abc', req: () => ({ path: '/peers/offenses/abc' }), want: ARGS, from: ENDPOINTS },
      { name: 'disconnect an unknown connection', req: () => ({ path: '/peers/disconnect/0' }), want: NOT_FOUND, from: ENDPOINTS },
      { name: 'disconnect abc', req: () => ({ path: '/peers/disconnect/abc' }), want: ARGS, from: ENDPOINTS },
      { name: 'candles of interval 2m', req: () => ({ path: `/chart/candles/${asset()}/2m` }), want: E(320, 'Invalid candle interval'), from: ENDPOINTS },
      { name: 'candles of interval 5M', req: () => ({ path: `/chart/candles/${asset()}/5M` }), want: E(320, 'Invalid candle interval'), from: ENDPOINTS },
      {
        name: 'candles over too long a range',
        req: () => ({ path: `/chart/candles/${asset()}/5m?from=0&to=1795339204` }),
        want: E(322, 'Specified result range too big'),
        from: ENDPOINTS,
      },
      {
        name: 'candles from, to and n',
        req: () => ({ path: `/chart/candles/${asset()}/5m?from=0&to=1795339204&n=1` }),
        want: E(321, 'Invalid argument combination'),
        from: ENDPOINTS,
      },
      { name: 'candles n=201', req: () => ({ path: `/chart/candles/${asset()}/5m?n=201` }), want: E(322, 'Specified result range too big'), from: ENDPOINTS },
      {
        name: 'candles from after to',
        req: () => ({ path: `/chart/candles/${asset()}/5m?from=1795339204&to=0` }),
        want: E(323, 'Specified range invalid'),
        from: ENDPOINTS,
      },
      { name: 'candles from=abc', req: () => ({ path: `/chart/candles/${asset()}/5m?from=abc` }), want: ARGS, from: ENDPOINTS },
      { name: 'candles of an unknown asset', req: () => ({ path: '/chart/candles/9999/5m' }), want: ASSET_ID, from: ENDPOINTS },
      {
        name: 'trades from, to and n',
        req: () => ({ path: `/chart/trades/${asset()}?from=1&to=45&n=1` }),
        want: E(321, 'Invalid argument combination'),
        from: ENDPOINTS,
      },
      { name: 'trades n=201', req: () => ({ path: `/chart/trades/${asset()}?n=201` }), want: E(322, 'Specified result range too big'), from: ENDPOINTS },
      {
        name: 'trades from after to',
        req: () => ({ path: `/chart/trades/${asset()}?from=45&to=1` }),
        want: E(323, 'Specified range invalid'),
        from: ENDPOINTS,
      },
      { name: 'trades of an unknown asset', req: () => ({ path: '/chart/trades/9999' }), want: ASSET_ID, from: ENDPOINTS },
      { name: 'hashrate chart from 0', req: () => ({ path: '/chart/hashrate/block/0/45/2' }), want: HEIGHT, from: ENDPOINTS },
      { name: 'hashrate chart a/b/c', req: () => ({ path: '/chart/hashrate/block/a/b/c' }), want: ARGS, from: ENDPOINTS },
      { name: 'hashrate time chart a/b/c', req: () => ({ path: '/chart/hashrate/time/a/b/c' }), want: ARGS, from: ENDPOINTS },
      { name: 'sample abc peers', req: () => ({ path: '/tools/sample_verified_peers/abc' }), want: ARGS, from: ENDPOINTS },
      {
        name: 'private key of odd length',
        req: () => ({ path: '/tools/wallet/from_privkey/abc' }),
        want: HEX,
        from: 'src/shared/src/wrt/hex_ref.hxx (odd length)',
      },
      {
        name: 'private key 0',
        req: () => ({ path: `/tools/wallet/from_privkey/${'0'.repeat(64)}` }),
        want: E(70, 'Invalid private key'),
        from: 'src/shared/src/crypto/crypto.cpp',
      },
      {
        name: 'janushash of odd length',
        req: () => ({ path: '/tools/janushash_number/abc' }),
        want: HEX,
        from: 'src/node/api/interface.cpp get_janushash_number',
      },
      {
        name: 'janushash of 2 bytes',
        req: () => ({ path: '/tools/janushash_number/0000' }),
        want: E(317, 'Cannot parse header'),
        from: 'src/node/api/interface.cpp',
      },
      { name: 'load test of an unknown connection', req: () => ({ path: '/loadtest/block_request/0' }), want: NOT_FOUND, from: ENDPOINTS },
      { name: 'load test abc', req: () => ({ path: '/loadtest/block_request/abc' }), want: ARGS, from: ENDPOINTS },
      { name: 'fakemine: bad checksum', req: () => ({ path: `/debug/fakemine/${badChecksum()}` }), want: ADDRESS, from: ENDPOINTS },
      { name: 'fakemine: abc', req: () => ({ path: '/debug/fakemine/abc' }), want: HEX, from: `${ENDPOINTS} "not an address"` },
      { name: 'lookup of an unknown transaction', req: () => ({ path: `/transaction/lookup/${'0'.repeat(64)}` }), want: NOT_FOUND, from: ENDPOINTS },
      { name: 'lookup of a short hash', req: () => ({ path: `/transaction/lookup/${asset().slice(0, 62)}` }), want: HEX, from: `${ENDPOINTS} "short hash"` },
      { name: 'lookup of non-hex', req: () => ({ path: `/transaction/lookup/zz${asset().slice(2)}` }), want: HEX, from: ENDPOINTS },
      ...['abc', '-1', '18446744073709551616'].map(
        (v): Case => ({ name: `minimum fee ${v}`, req: () => ({ path: `/settings/mempool/minfee/${v}` }), want: ARGS, from: ENDPOINTS }),
      ),
      // Unknown routes, wrong methods, other spellings: no answer, the connection closed.
      ...[
        '/foo',
        '/chain',
        '/chain/head/extra',
        '/chain/head/',
        '/chain/block/1/hash/extra',
        '/transaction',
        '/asset/lookup',
        '/token/complete',
        '/chain/hashrate/chart/block/1/2/1',
        '/debug/rollback/1',
        '/CHAIN/HEAD',
        '/chain//head',
        '/transaction/lookup/',
        '/transaction/add',
      ].map((path): Case => ({ name: `GET ${path}`, req: () => ({ path }), want: 'closed', from: `${ENDPOINTS} "unknown or old route"` })),
      ...(
        [
          ['POST', '/chain/head'],
          ['PUT', '/transaction/add'],
          ['HEAD', '/chain/head'],
          ['DELETE', '/chain/head'],
          ['POST', '/transaction/add/'],
        ] as const
      ).map(
        ([method, path]): Case => ({
          name: `${method} ${path}`,
          req: () => ({ method, path, body: method === 'HEAD' || method === 'DELETE' ? undefined : '{}' }),
          want: 'closed',
          from: ENDPOINTS,
        }),
      ),
    ];
    await expectAnswers(node, cases);
  });

  it('POST /chain/append', async () => {
    const t = async () => (await node.data(`/chain/mine/${A().addressText}`)) as { header: string; body: string; height: number };
    const cases: Case[] = [
      { name: 'no JSON', req: () => ({ path: '/chain/append', body: '{"height": ' }), want: ARGS, from: `${ENDPOINTS} "malformed JSON"` },
      { name: 'empty object', req: () => ({ path: '/chain/append', body: {} }), want: ARGS, from: `${ENDPOINTS} "empty object"` },
      { name: 'height 0', req: async () => ({ path: '/chain/append', body: { ...(await t()), height: 0 } }), want: HEIGHT, from: `${ENDPOINTS} "height 0"` },
      {
        name: 'short header',
        req: async () => {
          const m = await t();
          return { path: '/chain/append', body: { ...m, header: m.header.slice(0, 100) } };
        },
        want: HEX,
        from: `${ENDPOINTS} "short header"`,
      },
      {
        name: 'bad body hex',
        req: async () => ({ path: '/chain/append', body: { ...(await t()), body: 'zz'.repeat(20) } }),
        want: HEX,
        from: `${ENDPOINTS} "bad body hex"`,
      },
    ];
    await expectAnswers(node, cases);
  });

  it('POST /transaction/add', async () => {
    const valid = tx(A, transfer());
    const signed = (edit: Edit) => tx(A, transfer(), edit);
    /** A valid transfer whose signature is replaced by `f` of it. */
    const sig = (f: (s: string) => string) => () => {
      const b = valid().body as Record<string, unknown>;
      return post({ ...b, signature65: f(b.signature65 as string) });
    };
    const recid = (g: string) => parseInt(g.slice(128), 16);
    /** A transfer signed with a fee of `feeE8` (exactly representable). */
    const fee = (feeE8: bigint) => () => post(names10(sign.sign(A(), transfer()(), { feeCode: fee16Encode(feeE8, 'down') })));
    const dup = names10(sign.sign(A(), transfer(777n)()));
    const accepted = async (r: Req) => {
      const a = await node.post(r.path, r.body);
      if (a.body.code !== 0) throw new Error(a.text);
    };
    await accepted(post(dup));
    const cases: Case[] = [
      // "body not a usable JSON object"
      ...['{"type": "wartTransfer", ', '', '[1,2,3]', '"wartTransfer"', 'null', '{}', '{"type":5}', '{"type":"foo"}', '{"type":"WartTransfer"}'].map(
        (body): Case => ({ name: `body ${JSON.stringify(body)}`, req: () => post(body), want: TX_TYPE, from: ERRORS }),
      ),
      // "coin transfer field errors"
      { name: 'missing toAddr', req: signed({ toAddr: DROP }), want: ADDRESS, from: ERRORS },
      { name: 'toAddr 47 chars', req: signed({ toAddr: C.addressText.slice(0, 47) }), want: ADDRESS, from: ERRORS },
      { name: 'toAddr 40 chars', req: signed({ toAddr: C.addressText.slice(0, 40) }), want: ADDRESS, from: ERRORS },
      { name: 'toAddr bad checksum', req: () => signed({ toAddr: badChecksum() })(), want: ADDRESS, from: ERRORS },
      { name: 'toAddr non-hex', req: signed({ toAddr: `zz${C.addressText.slice(2)}` }), want: ADDRESS, from: ERRORS },
      { name: 'toAddr a number', req: signed({ toAddr: 12345 }), want: ADDRESS, from: ERRORS },
      { name: 'missing amount', req: signed({ wartE8: DROP }), want: AMOUNT, from: ERRORS },
      { name: 'both wartE8 and wartStr', req: signed({ wartStr: '0.00001' }), want: AMOUNT, from: ERRORS },
      { name: 'wartStr of 9 decimals', req: signed({ wartE8: DROP, wartStr: '0.000010001' }), want: AMOUNT, from: ERRORS },
      { name: 'wartStr scientific', req: signed({ wartE8: DROP, wartStr: '1e-5' }), want: AMOUNT, from: ERRORS },
      { name: 'wartStr negative', req: signed({ wartE8: DROP, wartStr: '-1' }), want: AMOUNT, from: ERRORS },
      { name: 'wartE8 negative: read as 2^64 − 1, another signer', req: signed({ wartE8: -1 }), want: NO_ADDRESS, from: ERRORS },
      { name: 'wartE8 as a string', req: signed({ wartE8: '1000' }), want: AMOUNT, from: ERRORS },
      { name: 'wartE8 above u64', req: signed({ wartE8: 18446744073709551616n }), want: NO_ADDRESS, from: ERRORS },
      { name: 'zero amount', req: tx(A, transfer(0n)), want: E(193, 'WART amount cannot be 0'), from: ERRORS },
      { name: 'self send', req: tx(A, transfer(1000n, A)), want: E(82, 'Self send transaction not allowed'), from: ERRORS },
      { name: 'amount exceeds balance', req: tx(A, transfer(10n ** 15n)), want: BALANCE, from: ERRORS },
      { name: 'unfunded sender', req: tx(() => D, transfer()), want: NO_ADDRESS, from: `${ERRORS} "unfunded sender (unknown account)"` },
      // "fee errors"
      { name: 'missing fee', req: signed({ feeE8: DROP }), want: INEXACT, from: ERRORS },
      { name: 'both feeE8 and feeStr', req: signed({ feeStr: '0.01000448' }), want: E(130, 'Invalid fee'), from: ERRORS },
      ...[1000001, 1000449, 0].map((feeE8): Case => ({ name: `fee ${feeE8}`, req: signed({ feeE8 }), want: INEXACT, from: ERRORS })),
      ...[1n, 999936n].map(
        (feeE8): Case => ({ name: `fee ${feeE8}: below the minimum`, req: fee(feeE8), want: E(217, 'Transaction fee below threshold'), from: ERRORS }),
      ),
      { name: 'feeStr inexact', req: signed({ feeE8: DROP, feeStr: '0.01' }), want: INEXACT, from: ERRORS },
      { name: 'feeStr malformed', req: signed({ feeE8: DROP, feeStr: 'abc' }), want: E(88, 'Malformed funds data'), from: ERRORS },
      { name: 'feeStr of 9 decimals', req: signed({ feeE8: DROP, feeStr: '0.010004480' }), want: E(88, 'Malformed funds data'), from: ERRORS },
      { name: 'feeE8 a string', req: signed({ feeE8: '1000448' }), want: E(130, 'Invalid fee'), from: ERRORS },
      { name: 'feeE8 negative', req: signed({ feeE8: -1 }), want: INEXACT, from: ERRORS },
      { name: 'fee 2047·2^53 (representable)', req: fee(18437736874454810624n), want: BALANCE, from: ERRORS },
      { name: 'fee 2^50, above the balance', req: fee(1n << 50n), want: BALANCE, from: ERRORS },
      // "nonce / pin errors"
      { name: 'missing nonceId', req: signed({ nonceId: DROP }), want: E(301, 'Cannot parse nonce'), from: ERRORS },
      { name: 'nonceId negative', req: signed({ nonceId: -1 }), want: NO_ADDRESS, from: ERRORS },
      { name: 'nonceId above u32', req: signed({ nonceId: 4294967296 }), want: NO_ADDRESS, from: ERRORS },
      { name: 'nonceId a string', req: signed({ nonceId: '7' }), want: E(301, 'Cannot parse nonce'), from: ERRORS },
      { name: 'missing pinHeight', req: signed({ pinHeight: DROP }), want: HEIGHT, from: ERRORS },
      { name: 'pinHeight 5', req: signed({ pinHeight: 5 }), want: HEIGHT, from: ERRORS },
      {
        name: 'pinHeight in the future',
        req: () => post(names10(sign.sign(A(), transfer()(), { pinHeight: 32, pinHash: new Uint8Array(32) }))),
        want: PIN,
        from: ERRORS,
      },
      { name: 'pinHeight 47', req: signed({ pinHeight: 47 }), want: HEIGHT, from: ERRORS },
      { name: 'pinHeight -32', req: signed({ pinHeight: -32 }), want: PIN, from: ERRORS },
      {
        name: 'signed with a wrong pinHash',
        req: () => post(names10(sign.sign(A(), transfer()(), { pinHash: new Uint8Array(32).fill(7) }))),
        want: NO_ADDRESS,
        from: ERRORS,
      },
      { name: 'the same body again', req: () => post(dup), want: NONCE, from: `${ERRORS} "duplicate: identical body submitted again"` },
      {
        name: 'the same pin and nonce, another content',
        req: () => post(names10(sign.sign(A(), transfer(778n)(), { nonceId: dup.nonceId as number }))),
        want: NONCE,
        from: ERRORS,
      },
      // "signature errors"
      { name: 'missing signature65', req: signed({ signature65: DROP }), want: SIG, from: ERRORS },
      { name: 'signature of 128 hex chars', req: sig((g) => g.slice(0, 128)), want: SIG, from: ERRORS },
      { name: 'signature of 132 hex chars', req: sig((g) => `${g}00`), want: SIG, from: ERRORS },
      { name: 'signature non-hex', req: sig((g) => `zz${g.slice(2)}`), want: SIG, from: ERRORS },
      { name: 'recovery id 4', req: sig((g) => withRecid(g, 4)), want: SIG, from: ERRORS },
      { name: 'recovery id + 27', req: sig((g) => withRecid(g, recid(g) + 27)), want: SIG, from: ERRORS },
      { name: 'the other recovery id', req: sig((g) => withRecid(g, recid(g) ^ 1)), want: NO_ADDRESS, from: ERRORS },
      { name: 'high s', req: sig(highS), want: SIG, from: ERRORS },
      { name: 'all zero', req: signed({ signature65: '0'.repeat(130) }), want: E(23, 'Corrupted signature'), from: ERRORS },
      { name: 'signed over another amount', req: signed({ wartE8: 1001 }), want: NO_ADDRESS, from: ERRORS },
      // "token transfer errors"
      { name: 'assetHash short', req: tx(A, tokenTransfer(5n), { assetHash: asset().slice(0, 60) }), want: E(309, 'Cannot parse hash'), from: ERRORS },
      { name: 'assetHash non-hex', req: tx(A, tokenTransfer(5n), { assetHash: `zz${asset().slice(2)}` }), want: E(309, 'Cannot parse hash'), from: ERRORS },
      {
        name: 'assetHash unknown',
        req: tx(
          A,
          tokenTransfer(
            5n,
            false,
            () => C,
            () => new Uint8Array(32).fill(0xab),
          ),
        ),
        want: ASSET_HASH,
        from: ERRORS,
      },
      { name: 'assetHash missing', req: tx(A, tokenTransfer(5n), { assetHash: DROP }), want: E(309, 'Cannot parse hash'), from: ERRORS },
      ...[DROP, 0, 'false'].map(
        (v): Case => ({
          name: `isLiquidity ${String(v)}`,
          req: tx(A, tokenTransfer(5n), { isLiquidity: v }),
          want: E(310, 'Cannot parse liquidity flag'),
          from: ERRORS,
        }),
      ),
      { name: 'amountU64 zero', req: tx(A, tokenTransfer(0n)), want: ZERO_TOKENS, from: ERRORS },
      { name: 'amountU64 missing', req: tx(A, tokenTransfer(5n), { amountU64: DROP }), want: AMOUNT, from: ERRORS },
      { name: 'amountU64 a string', req: tx(A, tokenTransfer(5n), { amountU64: '5' }), want: AMOUNT, from: ERRORS },
      { name: 'token balance: none held', req: tx(() => C, tokenTransfer(5n, false, B)), want: TOKEN_BALANCE, from: `${ERRORS} "C owns no asset"` },
      { name: 'token balance: more than the supply', req: tx(A, tokenTransfer(10n ** 12n)), want: TOKEN_BALANCE, from: ERRORS },
      { name: 'liquidity token: none held', req: tx(B, tokenTransfer(5n, true)), want: TOKEN_BALANCE, from: ERRORS },
      { name: 'token self send', req: tx(A, tokenTransfer(5n, false, A)), want: E(82, 'Self send transaction not allowed'), from: ERRORS },
      // "limit swap errors"
      ...[DROP, 'abcd', 'zzzzzz', 123].map(
        (limit): Case => ({ name: `limit ${String(limit)}`, req: tx(A, swap(true, 1000n), { limit }), want: E(129, 'Invalid price'), from: ERRORS }),
      ),
      ...[DROP, 1].map(
        (isBuy): Case => ({ name: `isBuy ${String(isBuy)}`, req: tx(A, swap(true, 1000n), { isBuy }), want: E(311, 'Cannot parse buy flag'), from: ERRORS }),
      ),
      { name: 'swap of nothing', req: tx(A, swap(true, 0n)), want: ZERO_TOKENS, from: ERRORS },
      { name: 'buying with more coin than held', req: tx(A, swap(true, 10n ** 15n)), want: BALANCE, from: ERRORS },
      { name: 'selling more asset than held', req: tx(A, swap(false, 10n ** 12n)), want: TOKEN_BALANCE, from: ERRORS },
      { name: 'selling an asset not held', req: tx(() => C, swap(false, 5n)), want: TOKEN_BALANCE, from: ERRORS },
      {
        name: 'swap of an unknown asset',
        req: tx(
          A,
          swap(true, 1000n, '0.004', () => new Uint8Array(32).fill(0xcd)),
        ),
        want: ASSET_HASH,
        from: ERRORS,
      },
      // "liquidity errors"
      {
        name: 'deposit of nothing',
        req: tx(A, () => ({ type: 'liquidityDeposit', assetHash: assetBytes(), base: 0n, quote: 0n })),
        want: ZERO_TOKENS,
        from: ERRORS,
      },
      {
        name: 'deposit without wartE8',
        req: tx(A, () => ({ type: 'liquidityDeposit', assetHash: assetBytes(), base: 5n, quote: 5n }), { wartE8: DROP }),
        want: AMOUNT,
        from: ERRORS,
      },
      {
        name: 'deposit without amountU64',
        req: tx(A, () => ({ type: 'liquidityDeposit', assetHash: assetBytes(), base: 5n, quote: 5n }), { amountU64: DROP }),
        want: AMOUNT,
        from: ERRORS,
      },
      {
        name: 'deposit of more asset than held',
        req: tx(A, () => ({ type: 'liquidityDeposit', assetHash: assetBytes(), base: 10n ** 12n, quote: 5n })),
        want: TOKEN_BALANCE,
        from: ERRORS,
      },
      {
        name: 'deposit to an unknown asset',
        req: tx(A, () => ({ type: 'liquidityDeposit', assetHash: new Uint8Array(32).fill(0xef), base: 5n, quote: 5n })),
        want: ASSET_HASH,
        from: ERRORS,
      },
      {
        name: 'withdrawal of nothing',
        req: tx(A, () => ({ type: 'liquidityWithdrawal', assetHash: assetBytes(), shares: 0n })),
        want: ZERO_TOKENS,
        from: ERRORS,
      },
      {
        name: 'withdrawal of more than held',
        req: tx(A, () => ({ type: 'liquidityWithdrawal', assetHash: assetBytes(), shares: 10n ** 15n })),
        want: TOKEN_BALANCE,
        from: ERRORS,
      },
      {
        name: 'withdrawal without shares',
        req: tx(B, () => ({ type: 'liquidityWithdrawal', assetHash: assetBytes(), shares: 5n })),
        want: TOKEN_BALANCE,
        from: `${ERRORS} "by account without shares (B)"`,
      },
      {
        name: 'withdrawal without amountE8',
        req: tx(A, () => ({ type: 'liquidityWithdrawal', assetHash: assetBytes(), shares: 5n }), { amountE8: DROP }),
        want: AMOUNT,
        from: ERRORS,
      },
      {
        name: 'withdrawal with amountU64',
        req: tx(A, () => ({ type: 'liquidityWithdrawal', assetHash: assetBytes(), shares: 5n }), { amountE8: DROP, amountU64: 5 }),
        want: AMOUNT,
        from: ERRORS,
      },
      // "cancelation errors"
      {
        name: 'cancelHeight 5',
        req: tx(A, () => ({ type: 'cancelation', cancelHeight: 0, cancelNonceId: 1 }), { cancelHeight: 5 }),
        want: E(312, 'Cannot parse cancel height'),
        from: ERRORS,
      },
      {
        name: 'cancelHeight missing',
        req: tx(A, () => ({ type: 'cancelation', cancelHeight: 0, cancelNonceId: 1 }), { cancelHeight: DROP }),
        want: E(312, 'Cannot parse cancel height'),
        from: ERRORS,
      },
      {
        name: 'cancelNonceId missing',
        req: tx(A, () => ({ type: 'cancelation', cancelHeight: 0, cancelNonceId: 1 }), { cancelNonceId: DROP }),
        want: E(314, 'Cannot parse cancel nonce'),
        from: ERRORS,
      },
      {
        name: 'canceling the future',
        req: tx(A, () => ({ type: 'cancelation', cancelHeight: 96, cancelNonceId: 1 })),
        want: E(188, 'Cannot cancel future transactions'),
        from: ERRORS,
      },
      {
        name: 'canceling itself',
        req: () => post(names10(sign.sign(A(), { type: 'cancelation', cancelHeight: 0, cancelNonceId: 4242 }, { nonceId: 4242 }))),
        want: E(187, 'Cannot cancel future transactions'),
        from: ERRORS,
      },
      // "asset creation errors"
      ...['ABCDEF', '', 'A B', 'ÄÖÜ', DROP].map(
        (name): Case => ({ name: `asset name ${String(name)}`, req: tx(A, creation, { name }), want: E(182, 'Invalid asset name'), from: ERRORS }),
      ),
      ...[19, DROP, -1].map(
        (decimals): Case => ({
          name: `decimals ${String(decimals)}`,
          req: tx(A, creation, { decimals }),
          want: E(316, 'Cannot parse asset decimals'),
          from: ERRORS,
        }),
      ),
      { name: 'supply missing', req: tx(A, creation, { supplyU64: DROP }), want: E(315, 'Cannot parse asset units'), from: ERRORS },
      { name: 'asset creation by an unfunded account', req: tx(() => D, creation), want: NO_ADDRESS, from: ERRORS },
    ];
    await expectAnswers(node, cases);
  });
});
