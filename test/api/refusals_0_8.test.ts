// `--api=0.8` refuses every request to a route of the mainnet reference 0.8.20 (commit a59f7ddf) as
// it does, byte for byte but its layout (0.8.20 indents its JSON, docs/reference-differences.md):
// its numbers and lower-case texts (src/shared/src/general/errors.hpp), the error each route's
// parameter parser and handler gives (src/node/api/http/endpoint.cpp, parse.cpp, interface.cpp;
// src/node/chainserver/state/helpers/consensus.cpp and src/node/mempool/mempool.cpp for a
// transaction), an empty body for a header it cannot read, no answer for a route it does not
// have. No recording of 0.8.20 exists: each expectation names the source it was read from, and the
// table runs against a running 0.8.20 too: WARTNODE_REFERENCE_0_8=http://127.0.0.1:PORT (its regtest
// build, scripts/reference/build-0.8.sh --regtest) runs it there instead of on our node.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { fee16Encode } from '../../ts/kernel/fee16.js';
import type { TransactionPayload } from '../../ts/core/transaction.js';
import { genesisHash, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { mine } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';
import {
  DROP,
  E,
  FEE_CODE,
  badChecksumOf,
  edited,
  expectAnswers as expectAll,
  externalNode,
  hex,
  highS,
  post,
  signer,
  withRecid,
  type AskedNode,
  type Case,
  type Edit,
  type Req,
} from './refusals.js';

await initKernel();

const NOT_FOUND = E(57, 'not found');
const ARGS = E(95, 'invalid API arguments');
const HEX = E(200, 'cannot parse hexadecimal input');
const ADDRESS = E(72, 'invalid address');
const HEIGHT = E(73, 'invalid height');
const FUNDS = E(89, 'malformed funds data');
const FEE = E(202, 'invalid fee');
const INEXACT = E(203, 'inexact fee not allowed');
const AMOUNT = E(204, 'invalid amount');
const SIG = E(205, 'cannot parse signature');
const CORRUPTED = E(23, 'corrupted signature');
const NO_ADDRESS = E(101, 'address not found');
const ENDPOINT = 'endpoint.cpp ParameterParser';
const PARSE = 'src/node/api/http/parse.cpp';
const INSERT = 'consensus.cpp Chainstate::insert_tx';
/** The most a 0.8.20 `Funds` holds (params.hpp MAXSUPPLY). */
const MAX_FUNDS = 1_892_160_000_000_000n;

/** A running 0.8.20 to hold the table against, instead of our node. */
const REFERENCE = process.env.WARTNODE_REFERENCE_0_8;
let ours: TestNode | null = null;
let node: AskedNode;
let genesis: Uint8Array;
let tip = 0;
const A = TestWallet.fromSeed(1401);
const C = TestWallet.fromSeed(1403);
const D = TestWallet.fromSeed(1404); // never funded
const sign = signer(() => genesis, 6000, FEE_CODE);

beforeAll(async () => {
  node = REFERENCE ? externalNode(REFERENCE) : (ours = await startNode(['--regtest', '--api=0.8']));
  // Mined through /chain/mine and /chain/append, as on the reference (which has no fakemine).
  await mine(node as TestNode, A.addressText, 3);
  genesis = await genesisHash(node as TestNode);
  tip = (await node.data('/chain/head')).height;
}, 60_000);
afterAll(async () => {
  if (!ours) return;
  await ours.stop();
  await removeDir(ours.dataDir);
});

const expectAnswers = (n: AskedNode, cases: Case[]) => expectAll(n, cases, REFERENCE !== undefined);

const badChecksum = () => badChecksumOf(A.addressText);
const get = (path: string) => (): Req => ({ path });

/** A transfer as 0.8 clients send it (warthog_rs, Miningcore): untyped, `amountE8`. */
function names08(b: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, coinE8, ...rest } = b;
  return { ...rest, amountE8: coinE8 };
}
const transfer = (amount = 1000n, to: TestWallet = C): TransactionPayload => ({ type: 'coinTransfer', toAddress: to.address, amount });
/** A signed 0.8 transfer, then edited. */
const tx =
  (edit: Edit = {}, payload = () => transfer(), from: TestWallet = A) =>
  () =>
    post(edited(names08(sign.sign(from, payload())), edit));

describe('--api=0.8 refuses as 0.8.20', () => {
  it('path parameters, unknown things and routes', async () => {
    const cases: Case[] = [
      ...['', '/header'].flatMap((tail): Case[] => [
        { name: `block${tail} 0`, req: get(`/chain/block/0${tail}`), want: NOT_FOUND, from: 'state.cpp api_get_block / get_header: no height 0' },
        { name: `block${tail} beyond the tip`, req: () => ({ path: `/chain/block/${tip + 1}${tail}` }), want: NOT_FOUND, from: 'server.cpp noval_to_err' },
        { name: `block${tail} of an unknown hash`, req: get(`/chain/block/${'0'.repeat(64)}${tail}`), want: NOT_FOUND, from: 'state.cpp consensus_height' },
        { name: `block${tail} of 64 non-hex chars`, req: get(`/chain/block/zz${'c'.repeat(62)}${tail}`), want: HEX, from: `${ENDPOINT} Hash (hex_to_arr)` },
        { name: `block${tail} abc`, req: get(`/chain/block/abc${tail}`), want: ARGS, from: `${ENDPOINT} integral` },
        { name: `block${tail} -1`, req: get(`/chain/block/-1${tail}`), want: ARGS, from: `${ENDPOINT} integral` },
        { name: `block${tail} above u32`, req: get(`/chain/block/4294967296${tail}`), want: ARGS, from: `${ENDPOINT} integral` },
      ]),
      { name: 'block hash beyond the tip', req: () => ({ path: `/chain/block/${tip + 1}/hash` }), want: NOT_FOUND, from: 'header_chain.hpp get_hash' },
      { name: 'block hash abc', req: get('/chain/block/abc/hash'), want: ARGS, from: `${ENDPOINT} Height` },
      { name: 'block hash of a hash', req: () => ({ path: `/chain/block/${hex(genesis)}/hash` }), want: ARGS, from: `${ENDPOINT} Height` },
      ...['', '/log'].flatMap((tail): Case[] => [
        { name: `mining task${tail}: bad checksum`, req: () => ({ path: `/chain/mine/${badChecksum()}${tail}` }), want: ADDRESS, from: 'address.cpp Address' },
        {
          name: `mining task${tail}: 40 chars`,
          req: () => ({ path: `/chain/mine/${A.addressText.slice(0, 40)}${tail}` }),
          want: ADDRESS,
          from: 'address.cpp Address',
        },
        { name: `mining task${tail}: an account id`, req: get(`/chain/mine/0${tail}`), want: ADDRESS, from: 'address.cpp Address (parse_hex)' },
        { name: `mining task${tail}: abc`, req: get(`/chain/mine/abc${tail}`), want: ADDRESS, from: 'address.cpp Address' },
      ]),
      { name: 'hashrate of abc', req: get('/chain/hashrate/abc'), want: ARGS, from: `${ENDPOINT} size_t` },
      { name: 'hashrate of -1', req: get('/chain/hashrate/-1'), want: ARGS, from: `${ENDPOINT} size_t` },
      { name: 'hashrate chart from 0', req: get('/chain/hashrate/chart/0/5/2'), want: HEIGHT, from: `${ENDPOINT} NonzeroHeight` },
      { name: 'hashrate chart to 0', req: get('/chain/hashrate/chart/1/0/2'), want: HEIGHT, from: `${ENDPOINT} NonzeroHeight` },
      { name: 'hashrate chart a/b/c', req: get('/chain/hashrate/chart/a/b/c'), want: ARGS, from: `${ENDPOINT} integral` },
      {
        name: 'no signed snapshot yet',
        req: get('/chain/signed_snapshot'),
        want: NOT_FOUND,
        from: 'eventloop.cpp:360 (the running 0.8.20 too; clients.md §2.2 says null)',
      },
      { name: 'lookup of an unknown transaction', req: get(`/transaction/lookup/${'0'.repeat(64)}`), want: NOT_FOUND, from: 'server.cpp LookupTxHash' },
      { name: 'lookup of a short hash', req: get(`/transaction/lookup/${'ab'.repeat(31)}`), want: HEX, from: `${ENDPOINT} Hash` },
      { name: 'lookup of non-hex', req: get(`/transaction/lookup/zz${'ab'.repeat(31)}`), want: HEX, from: `${ENDPOINT} Hash` },
      { name: 'lookup of abc', req: get('/transaction/lookup/abc'), want: HEX, from: `${ENDPOINT} Hash` },
      { name: 'balance: bad checksum', req: () => ({ path: `/account/${badChecksum()}/balance` }), want: ADDRESS, from: 'accountid_or_address: 48 chars' },
      { name: 'balance of abc', req: get('/account/abc/balance'), want: ARGS, from: 'accountid_or_address: an id' },
      { name: 'balance of 40 chars', req: () => ({ path: `/account/${A.addressText.slice(0, 40)}/balance` }), want: ARGS, from: 'accountid_or_address: an id' },
      {
        name: 'history of an unknown address',
        req: () => ({ path: `/account/${D.addressText}/history/100` }),
        want: NOT_FOUND,
        from: 'state.cpp api_get_history',
      },
      { name: 'history: bad checksum', req: () => ({ path: `/account/${badChecksum()}/history/100` }), want: ADDRESS, from: 'endpoint.cpp get_2: an Address' },
      { name: 'history of an account id', req: get('/account/1/history/100'), want: ADDRESS, from: 'endpoint.cpp get_2: an Address' },
      { name: 'history before abc', req: () => ({ path: `/account/${A.addressText}/history/abc` }), want: ARGS, from: `${ENDPOINT} uint64_t` },
      {
        name: 'history before 2^64',
        req: () => ({ path: `/account/${A.addressText}/history/18446744073709551616` }),
        want: ARGS,
        from: `${ENDPOINT} uint64_t`,
      },
      { name: 'offenses page 0', req: get('/peers/offenses/0'), want: E(91, 'invalid page'), from: 'page.hpp' },
      { name: 'offenses page abc', req: get('/peers/offenses/abc'), want: ARGS, from: ENDPOINT },
      { name: 'encode from_e8 abc', req: get('/tools/encode16bit/from_e8/abc'), want: ARGS, from: ENDPOINT },
      {
        name: 'encode from_e8 above the supply',
        req: get(`/tools/encode16bit/from_e8/${MAX_FUNDS + 1n}`),
        want: FUNDS,
        from: 'interface.cpp Funds::from_value_throw',
      },
      ...['abc', '123456789', '0.000000001', '1.2.3', '-1', `${MAX_FUNDS / 100_000_000n + 1n}`].map(
        (v): Case => ({ name: `encode from_string ${v}`, req: get(`/tools/encode16bit/from_string/${v}`), want: FUNDS, from: 'funds.cpp Funds::parse' }),
      ),
      { name: 'private key abc', req: get('/tools/wallet/from_privkey/abc'), want: E(71, 'invalid private key'), from: 'crypto.cpp PrivKey' },
      { name: 'private key 0', req: get(`/tools/wallet/from_privkey/${'0'.repeat(64)}`), want: E(71, 'invalid private key'), from: 'crypto.cpp PrivKey' },
      { name: 'janushash of abc: an empty body', req: get('/tools/janushash_number/abc'), want: '', from: 'interface.cpp get_janushash_number' },
      { name: 'janushash of 2 bytes: an empty body', req: get('/tools/janushash_number/0000'), want: '', from: 'interface.cpp get_janushash_number' },
      { name: 'minimum fee abc', req: get('/settings/mempool/minfee/abc'), want: ARGS, from: ENDPOINT },
      { name: 'minimum fee above the supply', req: get(`/settings/mempool/minfee/${MAX_FUNDS + 1n}`), want: FUNDS, from: 'interface.cpp set_minfee' },
      // Routes it does not have, other spellings and methods: no answer (uWebSockets closes the connection).
      ...['/foo', '/chain/head/', '/CHAIN/HEAD', '/chain//head', '/transaction/lookup/', '/transaction/add', '/chain/hashrate', '/account/richlist/'].map(
        (path): Case => ({ name: `GET ${path}`, req: get(path), want: 'closed', from: 'HttpContext.h: no route' }),
      ),
      ...(
        [
          ['POST', '/chain/head'],
          ['HEAD', '/chain/head'],
          ['DELETE', '/chain/head'],
          ['POST', '/transaction/add/'],
        ] as const
      ).map(
        ([method, path]): Case => ({
          name: `${method} ${path}`,
          req: () => ({ method, path, body: method === 'POST' ? '{}' : undefined }),
          want: 'closed',
          from: 'HttpContext.h: no route',
        }),
      ),
    ];
    await expectAnswers(node, cases);
  });

  it('POST /chain/append', async () => {
    const t = async () => (await node.data(`/chain/mine/${A.addressText}`)) as { header: string; body: string; height: number };
    const append = (body: unknown): Req => ({ path: '/chain/append', body });
    const cases: Case[] = [
      { name: 'no JSON', req: () => append('{"height": '), want: ARGS, from: `${PARSE} parse_mining_task` },
      { name: 'empty object', req: () => append({}), want: ARGS, from: PARSE },
      { name: 'height 0', req: async () => append({ ...(await t()), height: 0 }), want: HEIGHT, from: `${PARSE} nonzero_throw(EBADHEIGHT)` },
      { name: 'height a string', req: async () => append({ ...(await t()), height: '5' }), want: ARGS, from: PARSE },
      { name: 'short header', req: async () => append({ ...(await t()), header: 'ab'.repeat(50) }), want: HEX, from: `${PARSE} hex_to_arr<80>` },
      { name: 'bad body hex', req: async () => append({ ...(await t()), body: 'zz'.repeat(20) }), want: HEX, from: `${PARSE} hex_to_vec` },
      { name: 'missing body', req: async () => append({ ...(await t()), body: undefined }), want: ARGS, from: PARSE },
      {
        name: 'a later height',
        req: async () => append({ ...(await t()), height: tip + 5 }),
        want: E(77, 'submitted deprecated block'),
        from: 'state.cpp append_mined_block',
      },
      {
        name: 'height -1 (read as 2^32 − 1)',
        req: async () => append({ ...(await t()), height: -1 }),
        want: E(77, 'submitted deprecated block'),
        from: `${PARSE} get<uint32_t>`,
      },
      // The next block with a body its BodyView reader runs out of (a body malformed otherwise ends the
      // 0.8.20 process: an assertion in BodyView::merkle_root, docs/reference-differences.md).
      ...['', '00', '00'.repeat(11)].map(
        (body): Case => ({
          name: `a body of ${body.length / 2} bytes`,
          req: async () => append({ ...(await t()), body }),
          want: E(100, 'message integrity check failed'),
          from: 'view.cpp BodyView (Reader: EMSGINTEGRITY)',
        }),
      ),
    ];
    await expectAnswers(node, cases);
  });

  it('POST /transaction/add', async () => {
    const sig = (f: (s: string) => string) => () => {
      const b = tx()().body as Record<string, unknown>;
      return post({ ...b, signature65: f(b.signature65 as string) });
    };
    const recid = (g: string) => parseInt(g.slice(128), 16);
    const fee = (feeE8: bigint) => () => post(names08(sign.sign(A, transfer(), { feeCode: fee16Encode(feeE8, 'down') })));
    const dup = names08(sign.sign(A, transfer(777n)));
    const first = await node.post('/transaction/add', dup);
    if (first.body.code !== 0) throw new Error(first.text);
    const cases: Case[] = [
      { name: 'no JSON', req: () => post('{"pinHeight": '), want: ARGS, from: `${PARSE} parse_payment_create` },
      { name: 'an empty body', req: () => post(''), want: ARGS, from: PARSE },
      ...['[1,2,3]', 'null', '"x"', '{}'].map(
        (body): Case => ({ name: `body ${body}`, req: () => post(body), want: SIG, from: `${PARSE}: members read last to first` }),
      ),
      // pinHeight (`get<int>`, then a pin height)
      { name: 'missing pinHeight', req: tx({ pinHeight: DROP }), want: HEIGHT, from: `${PARSE} extract_pin_height` },
      { name: 'pinHeight 5', req: tx({ pinHeight: 5 }), want: HEIGHT, from: `${PARSE} (PinHeight: ENOPINHEIGHT caught)` },
      { name: 'pinHeight -32', req: tx({ pinHeight: -32 }), want: HEIGHT, from: PARSE },
      { name: 'pinHeight 2^32 − 32 (a negative int)', req: tx({ pinHeight: 4294967264 }), want: HEIGHT, from: `${PARSE} get<int>` },
      { name: 'pinHeight a string', req: tx({ pinHeight: '0' }), want: HEIGHT, from: PARSE },
      {
        name: 'pinHeight in the future',
        req: () => post(names08(sign.sign(A, transfer(), { pinHeight: 32, pinHash: new Uint8Array(32) }))),
        want: E(30, 'invalid transaction pin'),
        from: INSERT,
      },
      {
        name: 'signed with a wrong pinHash',
        req: () => post(names08(sign.sign(A, transfer(), { pinHash: new Uint8Array(32).fill(7) }))),
        want: NO_ADDRESS,
        from: INSERT,
      },
      // nonceId (`get<uint32_t>`)
      { name: 'missing nonceId', req: tx({ nonceId: DROP }), want: E(201, 'cannot parse nonce'), from: PARSE },
      { name: 'nonceId a string', req: tx({ nonceId: '7' }), want: E(201, 'cannot parse nonce'), from: PARSE },
      { name: 'nonceId -1: read as 2^32 − 1, another signer', req: tx({ nonceId: -1 }), want: NO_ADDRESS, from: `${PARSE} get<uint32_t>` },
      // fee
      { name: 'both fee and feeE8', req: tx({ fee: '0.01000448' }), want: FEE, from: `${PARSE} extract_fee` },
      { name: 'feeE8 a string', req: tx({ feeE8: '1000448' }), want: FEE, from: PARSE },
      { name: 'feeE8 -1: above the supply', req: tx({ feeE8: -1 }), want: FEE, from: `${PARSE} Funds::from_value` },
      { name: 'feeE8 above the supply', req: tx({ feeE8: MAX_FUNDS + 1n }), want: FEE, from: `${PARSE} Funds::from_value` },
      { name: 'fee a number', req: tx({ feeE8: DROP, fee: 1000448 }), want: FEE, from: PARSE },
      { name: 'no fee at all', req: tx({ feeE8: DROP }), want: INEXACT, from: `${PARSE} extract_fee (compacts an empty optional)` },
      ...[1000001, 0].map((feeE8): Case => ({ name: `feeE8 ${feeE8}`, req: tx({ feeE8 }), want: INEXACT, from: PARSE })),
      { name: 'fee 0.01', req: tx({ feeE8: DROP, fee: '0.01' }), want: INEXACT, from: PARSE },
      ...['abc', '0.010004480', '123456789', '-1'].map(
        (fee): Case => ({ name: `fee ${fee}`, req: tx({ feeE8: DROP, fee }), want: FUNDS, from: `${PARSE} Funds::parse_throw` }),
      ),
      ...[1n, 999936n].map(
        (e8): Case => ({
          name: `fee ${e8}: below the minimum`,
          req: fee(e8),
          want: E(209, 'transaction fee below threshold'),
          from: 'mempool.cpp insert_tx_throw',
        }),
      ),
      // toAddr
      ...[DROP, C.addressText.slice(0, 47), `zz${C.addressText.slice(2)}`, 12345].map(
        (toAddr): Case => ({ name: `toAddr ${String(toAddr)}`, req: tx({ toAddr }), want: ADDRESS, from: `${PARSE} extract_to_addr` }),
      ),
      { name: 'toAddr bad checksum', req: () => tx({ toAddr: badChecksum() })(), want: ADDRESS, from: PARSE },
      // amount
      { name: 'missing amount', req: tx({ amountE8: DROP }), want: AMOUNT, from: `${PARSE} extract_funds` },
      { name: 'amount and amountE8', req: tx({ amount: '0.00001' }), want: AMOUNT, from: PARSE },
      { name: 'amountE8 a string', req: tx({ amountE8: '1000' }), want: AMOUNT, from: PARSE },
      { name: 'amountE8 -1: above the supply', req: tx({ amountE8: -1 }), want: AMOUNT, from: PARSE },
      { name: 'amountE8 above the supply', req: tx({ amountE8: MAX_FUNDS + 1n }), want: AMOUNT, from: PARSE },
      ...['0.000010001', '123456789', '1e-5', '-1'].map(
        (amount): Case => ({ name: `amount ${amount}`, req: tx({ amountE8: DROP, amount }), want: AMOUNT, from: `${PARSE} Funds::parse` }),
      ),
      { name: 'zero amount', req: tx({}, () => transfer(0n)), want: E(85, 'transactions cannot send 0 WART'), from: INSERT },
      { name: 'self send', req: tx({}, () => transfer(1000n, A)), want: E(83, 'self send transaction not allowed'), from: INSERT },
      { name: 'unfunded sender', req: tx({}, () => transfer(), D), want: NO_ADDRESS, from: INSERT },
      { name: 'amount exceeds balance', req: tx({}, () => transfer(10n ** 14n)), want: E(22, 'insufficient balance'), from: 'mempool.cpp insert_tx_throw' },
      { name: 'the same body again', req: () => post(dup), want: E(27, 'duplicate transaction nonce'), from: 'mempool.cpp insert_tx_throw' },
      {
        name: 'the same pin and nonce, another content',
        req: () => post(names08(sign.sign(A, transfer(778n), { nonceId: dup.nonceId as number }))),
        want: E(27, 'duplicate transaction nonce'),
        from: 'mempool.cpp insert_tx_throw',
      },
      // signature
      { name: 'missing signature65', req: tx({ signature65: DROP }), want: SIG, from: `${PARSE} extract_signature` },
      { name: 'signature of 128 hex chars', req: sig((g) => g.slice(0, 128)), want: SIG, from: 'crypto.cpp parse_sig' },
      { name: 'signature non-hex', req: sig((g) => `zz${g.slice(2)}`), want: SIG, from: 'crypto.cpp parse_sig' },
      { name: 'recovery id 4', req: sig((g) => withRecid(g, 4)), want: CORRUPTED, from: 'crypto.cpp RecoverableSignature::construct' },
      { name: 'high s', req: sig(highS), want: CORRUPTED, from: 'crypto.cpp RecoverableSignature::check' },
      { name: 'all zero', req: tx({ signature65: '0'.repeat(130) }), want: CORRUPTED, from: 'crypto.cpp PubKey (no key recovers)' },
      { name: 'the other recovery id', req: sig((g) => withRecid(g, recid(g) ^ 1)), want: NO_ADDRESS, from: INSERT },
      { name: 'signed over another amount', req: tx({ amountE8: 1001 }), want: NO_ADDRESS, from: INSERT },
      // Several defects: the member read first answers (the last constructor argument first).
      { name: 'no pinHeight, no amount', req: tx({ pinHeight: DROP, amountE8: DROP }), want: AMOUNT, from: PARSE },
      { name: 'no nonceId, bad toAddr', req: tx({ nonceId: DROP, toAddr: 'x' }), want: ADDRESS, from: PARSE },
      {
        name: 'no pinHeight, a zero signature (read, not yet recovered)',
        req: tx({ pinHeight: DROP, signature65: '0'.repeat(130) }),
        want: HEIGHT,
        from: PARSE,
      },
      { name: 'a fee text and feeE8, the text malformed', req: tx({ fee: 'abc' }), want: FUNDS, from: PARSE },
      // It reads no type.
      { name: 'an unknown type is a transfer', req: tx({ type: 'foo', amountE8: DROP }), want: AMOUNT, from: `${PARSE}: no type read` },
    ];
    await expectAnswers(node, cases);
  });
});
