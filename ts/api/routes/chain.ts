// Chain state, mining and chain changes: /chain/head, /chain/grid, /chain/block/:height/hash,
// /chain/mine/:account, POST /chain/append, /chain/txcache, /chain/hashrate/:window,
// /chain/signed_snapshot, /debug/fakemine, /debug/rollback (http-api.md "Chain";
// http-api-details.md §5, §9.10, §9.11).
import { fail, quoted } from '../../core/errors.js';
import { formatAddress, parseAddress } from '../../core/address.js';
import { fromHex, fromHexExact, toHex } from '../../core/hex.js';
import { gridHeights } from '../../consensus/checkpoint.js';
import { powVersionAt } from '../../consensus/params.js';
import { powCheck } from '../../kernel/pow.js';
import { buildTemplate, prepareTemplate, type PreparedTemplate } from '../../mining/template.js';
import { hashrateAt } from '../../chain/hashrate.js';
import { listTxIds } from '../../state/txids.js';
import type { ReadView } from '../../chain/read_view.js';
import type { ReadRequest } from '../route.js';
import type { NodeServices, ReadServices } from '../services.js';
import { route } from '../route.js';
import { tipAnswerKey } from '../answer_cache.js';
import { oddHex, u32Param } from '../params.js';
import { arr, bool, hexStr, int, named, nul, num, obj, u64 } from '../schema.js';
import { CoinAmount, coinAmount } from '../views/amount.js';
import { ChainHead, chainHeadView } from '../views/chain_head.js';

/** The account the reference's `/debug/fakemine` pays: the all-zero address (http-api-details.md §9.10). */
export const FAKEMINE_BURN_ADDRESS = new Uint8Array(20);

const Hash = hexStr(64);

function addressParam(text: string): Uint8Array {
  return parseAddress(text) ?? fail('EBADADDRESS', `${quoted(text)} is not a 48-hex address with a valid checksum`, oddHex(text));
}

/**
 * The next block's transactions, chosen from the pending ones and tried on the ledger once per
 * chain state and mempool version (per node: its mempool names it), for every miner: miners poll
 * far more often than either moves, differ in the reward address only, and choosing over a full
 * mempool applies a whole block to a discarded ledger copy. The first request after a change
 * prepares it (on the route's read view: it neither waits for nor holds up appends); the others
 * of that state wait for the same one.
 */
const preparedTemplates = new WeakMap<object, { key: string; template: Promise<PreparedTemplate> }>();

function preparedTemplate(node: ReadServices, view: ReadView, miner: Uint8Array): Promise<PreparedTemplate> {
  const key = `${view.length} ${toHex(view.tipHash)} ${node.mempool.version}`;
  const last = preparedTemplates.get(node.mempool);
  if (last?.key === key) return last.template;
  const template = prepareTemplate(view, view.db, miner, node.now(), node.mempool.pool.all());
  const entry = { key, template };
  preparedTemplates.set(node.mempool, entry);
  template.catch(() => preparedTemplates.get(node.mempool) === entry && preparedTemplates.delete(node.mempool));
  return template;
}

/** The clock and sync state a `/chain/mine` request is answered at: its answer's key and its answer read one moment. */
const moments = new WeakMap<ReadRequest, { now: number; synced: boolean }>();

function momentOf(req: ReadRequest): { now: number; synced: boolean } {
  let m = moments.get(req);
  if (!m) moments.set(req, (m = { now: req.node.now(), synced: req.node.synced() }));
  return m;
}

/** Nonces tried for a regtest fakemine block: its minimum target is met within a few on average. */
const REGTEST_POW_TRIES = 100_000;

async function fakemine(node: NodeServices, address: Uint8Array): Promise<null> {
  // Between changes, so that back-to-back fakemines build on each other's blocks: there the read
  // view is the chain as it is.
  const t = await node.chain.locked(() => node.chain.read((view) => buildTemplate(view, view.db, address, node.now(), node.mempool.pool.all())));
  // On our local networks the proof of work costs nothing: the block gets a real one, so that peers take it too.
  if (node.chain.params.local) {
    const version = powVersionAt(node.chain.params, t.height),
      v = new DataView(t.header.buffer, t.header.byteOffset);
    for (let nonce = 0; nonce < REGTEST_POW_TRIES && !powCheck(t.header, version); nonce++) v.setUint32(76, nonce);
  }
  const block = await node.chain.append(t.header, t.body, { now: node.now(), skipPow: true });
  node.log.info(`Faked new block #${block.height} to ${formatAddress(address)}`);
  return null;
}

/** Parses the `POST /chain/append` payload (http-api-details.md §5.7), member by member in the reference's order. */
function appendPayload(body: unknown): { height: number; header: Uint8Array; body: Uint8Array; worker: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('EINV_ARGS', 'expected a JSON object {height, header, body, worker?}');
  const b = body as Record<string, unknown>;
  const height = typeof b.height === 'bigint' || (typeof b.height === 'number' && Number.isInteger(b.height)) ? Number(b.height) : -1;
  if (height < 0 || height > 0xffffffff) fail('EINV_ARGS', 'height must be an unsigned 32-bit integer');
  if (height === 0) fail('EZEROHEIGHT');
  if (typeof b.header !== 'string') fail('EINV_ARGS', 'header must be a hex string');
  const header = fromHexExact(b.header as string, 80) ?? fail('EINV_HEX', 'header must be 160 hex chars');
  if (typeof b.body !== 'string') fail('EINV_ARGS', 'body must be a hex string');
  const bodyBytes = fromHex(b.body as string) ?? fail('EINV_HEX', 'body must be hex');
  if (b.worker !== undefined && typeof b.worker !== 'string') fail('EINV_ARGS', 'worker must be a string');
  return { height, header, body: bodyBytes, worker: (b.worker as string | undefined) ?? '' };
}

export const chainRoutes = [
  route({
    method: 'GET',
    path: '/chain/head',
    doc: 'The tip of the chain: height, hash, the pin a new transaction should use (`pinHeight`, `pinHash`), difficulty and work; `synced` is false while the node is still catching up with its peers.',
    response: named('ChainHeadSynced', obj({ chainHead: ChainHead, synced: bool })),
    handler: ({ node, view }) => ({ chainHead: chainHeadView(view), synced: node.synced() }),
  }),
  route({
    method: 'GET',
    path: '/chain/grid',
    dependsOn: 'chain',
    doc: 'Every 8,640th header of the chain (the grid peers compare to find where chains fork).',
    response: named('Grid', obj({ headers: arr(hexStr(160)) })),
    handler: ({ view }) => ({ headers: gridHeights(view.length).map((h) => toHex(view.rawHeaderAt(h))) }),
  }),
  route({
    method: 'GET',
    path: '/chain/block/:height/hash',
    doc: 'The hash of the block at a height of the current chain (0: the genesis hash).',
    response: Hash,
    handler: ({ params, view }) => {
      const h = u32Param(params.height, 'height');
      if (h > view.length) fail('ENOTFOUND', `no block at height ${h}: the chain has ${view.length}`);
      return toHex(view.hashAt(h));
    },
  }),
  route({
    method: 'GET',
    path: '/chain/mine/:account',
    params: { account: 'the address the block reward goes to (48 hex chars)' },
    errors: ['EBADADDRESS'],
    doc: 'A block template paying the reward to `:account`, with the best-paying pending transactions; a miner sets the nonce (and, through the merkle prefix, an extra nonce) and submits it with `POST /chain/append`.',
    response: named(
      'MiningTask',
      obj({
        blockReward: CoinAmount,
        body: hexStr(),
        difficulty: num,
        header: hexStr(160),
        height: int,
        merklePrefix: hexStr(),
        synced: bool,
        testnet: bool,
      }),
    ),
    // The written answer is kept per reward address (one slot each: the latest second's replaces the
    // one before) while the chain state, the pending transactions, the second and `synced` stay.
    answerKey: (req) => {
      const miner = parseAddress(req.params.account);
      if (!miner) return null;
      const { node, view } = req;
      const m = momentOf(req);
      const state = `${view.length} ${toHex(view.tipHash)} ${node.mempool.version} ${m.now} ${m.synced}`;
      return { key: `mine ${toHex(miner)} ${state}`, slot: `mine ${toHex(miner)}` };
    },
    handler: async (req) => {
      const { params, node, view } = req;
      const miner = addressParam(params.account);
      // Miners expect the V2 body layout; the reference offers no templates below it on mainnet.
      const { newBlockStructure } = view.params.eras;
      if (!view.params.testnetRules && view.length + 1 < newBlockStructure) fail('ENOTSYNCED', `mainnet templates start at height ${newBlockStructure}`);
      const m = momentOf(req);
      const t = await (await preparedTemplate(node, view, miner)).forMiner(miner, m.now, view.db);
      return {
        blockReward: coinAmount(t.blockReward),
        body: toHex(t.body),
        difficulty: t.difficulty,
        header: toHex(t.header),
        height: t.height,
        merklePrefix: toHex(t.merklePrefix),
        synced: m.synced,
        testnet: node.config.network !== 'mainnet',
      };
    },
  }),
  route({
    method: 'POST',
    path: '/chain/append',
    changes: 'chain',
    errors: ['EINV_ARGS', 'EZEROHEIGHT', 'EINV_HEX'],
    doc: 'Submits a mined block: body `{"height": N, "header": "<160 hex>", "body": "<hex>", "worker": "name"}` (worker optional). A block that breaks a consensus rule answers the code of that rule (proof of work 10, timestamp 11, merkle root 17, …; see the error table) and changes nothing.',
    response: nul,
    handler: async ({ body, node }) => {
      const p = appendPayload(body);
      const worker = p.worker ? ` (worker ${p.worker})` : '';
      try {
        if (p.height !== node.chain.length + 1) fail('EMINEDDEPRECATED', `height ${p.height}, but the next block is ${node.chain.length + 1}`);
        await node.chain.append(p.header, p.body, { now: node.now() });
      } catch (e) {
        node.log.warn(`Rejected new block #${p.height}${worker}: ${(e as Error).message}`);
        throw e;
      }
      node.log.info(`Accepted new block #${p.height}${worker}`);
      return null;
    },
  }),
  route({
    method: 'GET',
    path: '/chain/txcache',
    doc: 'The transaction ids `(accountId, pinHeight, nonceId)` in the replay window: a transaction whose id is listed cannot be included again.',
    response: named('TxCache', arr(obj({ accountId: u64, nonceId: int, pinHeight: int }))),
    answerKey: ({ view }) => tipAnswerKey('txcache', view),
    handler: async ({ view }) => (await listTxIds(view.db)).map((id) => ({ accountId: id.accountId, nonceId: id.nonceId, pinHeight: id.pinHeight })),
  }),
  route({
    method: 'GET',
    path: '/chain/hashrate/:window',
    dependsOn: 'chain',
    doc: 'The network hashrate estimated from the last `:window` blocks.',
    response: named('HashrateEstimate', obj({ estimate: u64, nBlocks: int })),
    handler: ({ params, view }) => {
      const n = u32Param(params.window, 'window');
      return { estimate: hashrateAt(view, view.length, n), nBlocks: n };
    },
  }),
  route({
    method: 'GET',
    path: '/chain/signed_snapshot',
    doc: 'The best signed chain snapshot received from peers; 56 when there is none.',
    response: named('SignedSnapshot', obj({ priority: obj({ height: int, importance: int }), hash: Hash, signature: hexStr(130) })),
    // The best snapshot received from peers (consensus.md §5.6); none yet ⇒ 56.
    handler: ({ node }) => {
      const s = node.signedSnapshot() ?? fail('ENOTFOUND', 'no signed snapshot received');
      return { priority: { height: s.height, importance: s.importance }, hash: toHex(s.hash), signature: toHex(s.signature) };
    },
  }),
  route({
    method: 'GET',
    path: '/debug/fakemine',
    changes: 'chain',
    doc: 'Appends a block without proof of work (on regtest with a real one, found at once), paying the all-zero address (testing; any network).',
    response: null,
    handler: ({ node }) => fakemine(node, FAKEMINE_BURN_ADDRESS),
  }),
  route({
    method: 'GET',
    path: '/debug/fakemine/:address',
    changes: 'chain',
    doc: 'Appends a block without proof of work (on regtest with a real one, found at once), paying `:address` (testing; any network).',
    response: null,
    handler: ({ params, node }) => fakemine(node, addressParam(params.address)),
  }),
  route({
    method: 'GET',
    path: '/debug/rollback',
    changes: 'chain',
    doc: 'Removes the tip block (testing); its transactions return to the mempool where still valid.',
    response: null,
    handler: async ({ node }) => {
      const b = await node.chain.rollback();
      node.log.info(`Rolled back block #${b.height}`);
      return null;
    },
  }),
];
