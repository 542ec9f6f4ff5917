// Every read route answers from one chain state (issue 22): a real node (its own process, real
// classic-level, a free loopback port) has blocks appended and rolled back by one writer while
// readers run every read route of the contract again and again. The writer records each state the
// chain passes through (its length, hashes and work, read between its own changes, when nothing
// else changes the chain); every answer must fit one of them as a whole: its tip, the hashes and
// confirmations of the blocks it names, the balance its rewards add up to. No answer is waited for
// at a given moment: which states the readers meet does not matter, only that each answer belongs
// to one.
import { afterAll, describe, expect, it } from 'vitest';
import { formatAddress } from '../../ts/core/address.js';
import { ERRORS, type ErrorName } from '../../ts/core/errors.js';
import { blockReward } from '../../ts/consensus/reward.js';
import { ROUTES } from '../../ts/api/routes/index.js';
import { routeKey } from '../../ts/api/public_routes.js';
import { freeLoopbackPort, removeDir, startNode, type Reply, type TestNode } from '../helpers/node.js';
import { wallet } from '../state/chain_fixture.js';

const A = formatAddress(wallet(1).address);
/** Blocks before the changes start, and never fewer during them (so block 2 always exists). */
const BASE = 6;
/** The writer's changes: a append, r roll back. */
const STEPS = 'aararrraaararraaarrrraaaaarrarrraaaraarrr';
const READERS = 3;

/** What an answer says about the chain it was read from; every part must hold in one state. */
interface Claims {
  /** Heights that are each the tip. */
  tips?: number[];
  /** The chain has fewer blocks than this (a height it does not have). */
  below?: number;
  blocks?: [height: number, hash: string][];
  /** Blocks the chain does not have. */
  absent?: [height: number, hash: string][];
  confirmations?: [height: number, confirmations: number][];
  worksumHex?: string;
}

interface State {
  length: number;
  hashes: string[];
  worksumHex: string;
}

/** A read route's request, what its answer claims, and the errors it may answer instead. */
interface Probe {
  path: string;
  claims?(data: any): Claims;
  /** Errors that are answers here (a block rolled back meanwhile, an isolated node's peers, no assets). */
  errors?: ErrorName[];
  /** What such an error claims. */
  errorClaims?(name: ErrorName): Claims;
}

/** The chain length a coin balance made only of the rewards of blocks 1…L stands for. */
function lengthOfRewards(total: bigint): number {
  let sum = 0n;
  for (let h = 1; h < 1000; h++) {
    sum += blockReward(h);
    if (sum === total) return h;
  }
  throw new Error(`balance ${total} is no sum of the first rewards`);
}

const perBlockClaims = (perBlock: any[]): Claims => ({
  tips: [Math.max(...perBlock.map((b) => b.height))],
  blocks: perBlock.map((b) => [b.height, b.header.hash]),
  confirmations: perBlock.map((b) => [b.height, b.confirmations]),
});

/** Block 4, whose answer has the same header fields in both generations. */
const block4: Probe = {
  path: '/chain/block/4',
  claims: (b) => ({
    blocks: [
      [b.height, b.header.hash],
      [b.height - 1, b.header.prevHash],
    ],
    confirmations: [[b.height, b.confirmations]],
  }),
};

/** Read routes without parameters whose answers claim nothing, each probed at its own path. */
const asIs = (...paths: string[]): Record<string, Probe> => Object.fromEntries(paths.map((path) => [`GET ${path}`, { path }]));

/** Every read route of the contract, by `METHOD path`; a read route missing here fails the test. */
function probes(known: { hashAt5: string; rewardAt5: string }): Record<string, Probe> {
  const ZERO_HEADER = '00'.repeat(80);
  return {
    'GET /chain/head': {
      path: '/chain/head',
      claims: ({ chainHead: c }) => ({
        tips: [c.height],
        blocks: [
          [c.height, c.hash],
          [c.pinHeight, c.pinHash],
        ],
        worksumHex: c.worksumHex,
      }),
    },
    ...asIs('/chain/grid'),
    'GET /chain/block/:height/hash': {
      path: '/chain/block/5/hash',
      claims: (hash) => ({ blocks: [[5, hash]] }),
      errors: ['ENOTFOUND'],
      errorClaims: () => ({ below: 5 }),
    },
    'GET /chain/block/:id/header': {
      path: `/chain/block/${known.hashAt5}/header`,
      claims: ({ header, height }) => ({
        blocks: [
          [height, header.hash],
          [height - 1, header.prevHash],
        ],
      }),
      errors: ['ENOTFOUND'],
      errorClaims: () => ({ absent: [[5, known.hashAt5]] }),
    },
    'GET /chain/block/:id/binary': { path: '/chain/block/4/binary', errors: ['ENOTFOUND'], errorClaims: () => ({ below: 4 }) },
    'GET /chain/block/:id': block4,
    'GET /transaction/latest': { path: '/transaction/latest', claims: (v) => perBlockClaims(v.perBlock) },
    'GET /chain/mine/:account': {
      path: `/chain/mine/${A}`,
      claims: (t) => ({ tips: [t.height - 1], blocks: [[t.height - 1, t.header.slice(0, 64)]] }),
    },
    ...asIs('/chain/txcache'),
    'GET /chain/hashrate/:window': { path: '/chain/hashrate/3' },
    'GET /chain/signed_snapshot': { path: '/chain/signed_snapshot', errors: ['ENOTFOUND'] },
    'GET /chart/candles/:asset/:interval': { path: '/chart/candles/1/5m', errors: ['EASSETIDNOTFOUND'] },
    'GET /chart/trades/:asset': { path: '/chart/trades/1', errors: ['EASSETIDNOTFOUND'] },
    'GET /chart/hashrate/block/:from/:to/:window': { path: '/chart/hashrate/block/1/100000/2', claims: (v) => ({ tips: [v.range.end] }) },
    'GET /chart/hashrate/time/:from/:to/:interval': { path: '/chart/hashrate/time/0/4000000000/600' },
    ...asIs('/debug/json_schemas', '/metrics'),
    'GET /debug/header_download': { path: '/debug/header_download', claims: (v) => ({ worksumHex: v.minWork }) },
    ...asIs('/asset/complete'),
    'GET /asset/lookup/:asset': { path: '/asset/lookup/1', errors: ['EASSETIDNOTFOUND'] },
    'GET /dex/market/:asset': { path: '/dex/market/1', errors: ['EASSETIDNOTFOUND'] },
    'GET /account/:account/open_orders': { path: `/account/${A}/open_orders` },
    'GET /account/:account/open_orders/:asset': { path: `/account/${A}/open_orders/1`, errors: ['EASSETIDNOTFOUND'] },
    'GET /account/:account/coin_balance': { path: `/account/${A}/coin_balance`, claims: (v) => ({ tips: [lengthOfRewards(BigInt(v.coin.total.E8))] }) },
    'GET /account/:account/balance/:tokenspec': { path: `/account/${A}/balance/0`, claims: (v) => ({ tips: [lengthOfRewards(BigInt(v.balance.total.u64))] }) },
    'GET /account/richlist/:tokenspec': { path: '/account/richlist/0', claims: (v) => ({ tips: [lengthOfRewards(BigInt(v.richlist[0].balance.u64))] }) },
    'GET /account/:account/history/:beforeId': { path: `/account/${A}/history/18446744073709551615`, claims: (v) => perBlockClaims(v.perBlock) },
    'GET /loadtest/header_request/:conn_id': { path: '/loadtest/header_request/1', errors: ['ENOTFOUND'] },
    'GET /loadtest/block_request/:conn_id': { path: '/loadtest/block_request/1', errors: ['ENOTFOUND'] },
    'GET /loadtest/disable/:conn_id': { path: '/loadtest/disable/1', errors: ['ENOTFOUND'] },
    ...asIs('/peers/ip_count', '/peers/banned', '/peers/unban'),
    'GET /peers/offenses/:page': { path: '/peers/offenses/1' },
    ...asIs('/peers/connected', '/peers/connected/connection', '/peers/connection_schedule'),
    'GET /peers/disconnect/:id': { path: '/peers/disconnect/1', errors: ['ENOTFOUND'] },
    ...asIs('/peers/throttled', '/peers/transmission_hours', '/peers/transmission_minutes'),
    'GET /tools/encode16bit/from_e8/:feeE8': { path: '/tools/encode16bit/from_e8/5000' },
    'GET /tools/encode16bit/from_string/:string': { path: '/tools/encode16bit/from_string/0.00005' },
    'GET /tools/parse_price/:price/:decimals': { path: '/tools/parse_price/0.4/2' },
    ...asIs('/tools/info', '/tools/wallet/new'),
    'GET /tools/wallet/from_privkey/:privkey': { path: `/tools/wallet/from_privkey/${'00'.repeat(31)}01` },
    'GET /tools/janushash_number/:headerhex': { path: `/tools/janushash_number/${ZERO_HEADER}` },
    'GET /tools/sample_verified_peers/:number': { path: '/tools/sample_verified_peers/3' },
    ...asIs('/transaction/minfee', '/transaction/mempool'),
    'GET /account/:account/mempool': { path: `/account/${A}/mempool` },
    'GET /transaction/lookup/:txid': {
      path: `/transaction/lookup/${known.rewardAt5}`,
      claims: (v) => ({ blocks: [[v.mined.block.height, v.mined.block.hash]], confirmations: [[v.mined.block.height, v.confirmations]] }),
      // The reward's hash is one of its address, amount and height: any block 5 paying A has it.
      errors: ['ENOTFOUND'],
      errorClaims: () => ({ below: 5 }),
    },
  };
}

/** The states in which every part of `c` holds. */
function fits(c: Claims, s: State): boolean {
  for (const t of c.tips ?? []) if (s.length !== t) return false;
  if (c.below !== undefined && s.length >= c.below) return false;
  if (c.worksumHex !== undefined && s.worksumHex !== c.worksumHex) return false;
  for (const [h, hash] of c.blocks ?? []) if (h > s.length || s.hashes[h] !== hash) return false;
  for (const [h, hash] of c.absent ?? []) if (h <= s.length && s.hashes[h] === hash) return false;
  for (const [h, n] of c.confirmations ?? []) if (s.length - h + 1 !== n) return false;
  return true;
}

/** The tip of a `/chain/head` answer, in the node's generation. */
type HeadOf = (data: any) => { height: number; hash: string; worksumHex: string };

/**
 * Runs the readers over `table` while the writer changes the chain of `node`, then returns every
 * answer that fits no state the chain passed through.
 */
async function exercise(
  node: TestNode,
  headOf: HeadOf,
  tableFor: (states: State[]) => Promise<Record<string, Probe>>,
): Promise<{ misfits: string[]; table: Record<string, Probe> }> {
  const code = (name: ErrorName) => ERRORS[name][0];
  const genesis = await node.data('/chain/block/0/hash');
  const hashes: string[] = [typeof genesis === 'string' ? genesis : genesis.hash];
  const states: State[] = [];
  const record = async () => {
    const c = headOf(await node.data('/chain/head'));
    hashes.length = c.height + 1;
    hashes[c.height] = c.hash;
    states.push({ length: c.height, hashes: [...hashes], worksumHex: c.worksumHex });
  };
  const change = async (path: string) => {
    expect((await node.get(path)).body.code).toBe(0);
    await record();
  };
  for (let i = 0; i < BASE; i++) await change(`/debug/fakemine/${A}`);
  const table = await tableFor(states);

  let writing = true;
  const writer = (async () => {
    for (const step of STEPS) {
      await change(step === 'a' ? `/debug/fakemine/${A}` : '/debug/rollback');
      expect(states.at(-1)!.length).toBeGreaterThanOrEqual(BASE - 3);
    }
    writing = false;
  })();
  const answers: { key: string; reply: Reply }[] = [];
  const entries = Object.entries(table);
  const reader = async (offset: number) => {
    // Every route at least once, then on until the writer is done.
    for (let i = 0; i < entries.length || writing; i++) {
      const [key, p] = entries[(i + offset) % entries.length];
      answers.push({ key, reply: await node.get(p.path) }); // node.get checks the shape
    }
  };
  await Promise.all([writer, ...Array.from({ length: READERS }, (_, k) => reader(k * 17))]);

  const misfits: string[] = [];
  for (const { key, reply } of answers) {
    const p = table[key];
    const body = reply.body;
    let claims: Claims = {};
    if (typeof body === 'object' && body !== null && body.code !== 0 && typeof body.code === 'number' && key !== 'GET /debug/json_schemas') {
      const name = p.errors?.find((n) => code(n) === body.code);
      if (!name) {
        misfits.push(`${p.path}: ${reply.text}`);
        continue;
      }
      claims = p.errorClaims?.(name) ?? {};
    } else if (p.claims) {
      claims = p.claims(body.data);
    }
    if (!states.some((s) => fits(claims, s))) misfits.push(`${p.path}: ${JSON.stringify(claims)} fits no state the chain passed through`);
  }
  return { misfits, table };
}

const nodes: TestNode[] = [];
const start = async (args: string[]) => {
  const n = await startNode(['--regtest', `--rpc=127.0.0.1:${await freeLoopbackPort()}`, ...args]);
  nodes.push(n);
  return n;
};

afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

describe('read routes during appends and rollbacks', () => {
  it('answer each from one chain state', async () => {
    const node = await start([]);
    const { misfits, table } = await exercise(
      node,
      (d) => d.chainHead,
      async (states) => {
        const block5 = await node.data('/chain/block/5');
        return probes({ hashAt5: states.at(-1)!.hashes[5], rewardAt5: block5.body.reward.transaction.hash });
      },
    );
    // The table covers exactly the read routes.
    expect(Object.keys(table).sort()).toEqual(
      ROUTES.filter((r) => !r.changes)
        .map(routeKey)
        .sort(),
    );
    expect(misfits).toEqual([]);
  });

  it("in 0.8, whose reshapes read the view too: a history page's balance is of its entries' chain", async () => {
    const node = await start(['--api=0.8']);
    const { misfits } = await exercise(
      node,
      (d) => d,
      async () => ({
        history: {
          // The newest page: 0.8.20 answers none before an id of 2^63 or more (mainnet-diff.mjs, live).
          path: `/account/${A}/history/9223372036854775807`,
          claims: (v) => ({
            tips: [Math.max(...v.perBlock.map((b: any) => b.height)), lengthOfRewards(BigInt(v.balanceE8))],
            confirmations: v.perBlock.map((b: any) => [b.height, b.confirmations]),
          }),
        },
        block: block4,
        balance: { path: `/account/${A}/balance`, claims: (v) => ({ tips: [lengthOfRewards(BigInt(v.balanceE8))] }) },
        head: {
          path: '/chain/head',
          claims: (c) => ({
            tips: [c.height],
            blocks: [
              [c.height, c.hash],
              [c.pinHeight, c.pinHash],
            ],
            worksumHex: c.worksumHex,
          }),
        },
      }),
    );
    expect(misfits).toEqual([]);
  });
});
