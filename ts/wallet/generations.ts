// The API generations the wallet talks to (clients.md §1–§3; README "API generations"): the
// contract (our node's default), 0.10 (the DeFi reference node 0.10.3, our `--api=0.10`) and 0.8
// (the mainnet reference node 0.8.20, our `--api=0.8`). The wallet's views read contract shapes
// only; this table says, per generation, where each route the wallet calls is, what its answer
// looks like (the members the wallet reads), how it becomes the contract's shape, how a signed
// request is written, which error numbers mean "not found", and whether it has assets, orders and
// pools. 0.10 differs from the contract in names only (data: renames); 0.8 in shapes (a function
// per route from its answer to the contract's, after its own shape is checked).
import { COIN_DECIMALS, formatUnits } from '../core/amount.js';
import { any, arrayOf, bool, hex64, nullable, object, optional, problemOf, recordOf, str, uint, type Check } from './shape.js';

export type GenerationName = 'contract' | '0.10' | '0.8';
export const GENERATION_NAMES: GenerationName[] = ['contract', '0.10', '0.8'];

/** The routes the wallet calls. */
export type Role =
  | 'head'
  | 'minFee'
  | 'coinBalance'
  | 'tokenBalance'
  | 'history'
  | 'mempool'
  | 'lookup'
  | 'add'
  | 'assetLookup'
  | 'assetComplete'
  | 'openOrders'
  | 'blockHash';

type Obj = Record<string, any>;

// ---- The contract's answers: the members the wallet reads (http-api.md) ----

const coinAmount = object({ str, E8: uint });
const tokenAmount = object({ str, u64: uint });
const assetRef = object({ hash: hex64, id: uint, name: str, decimals: uint });
const signedCommon = object({ originAddress: str, fee: coinAmount, pinHeight: uint, nonceId: uint });

/** `transaction.data` by transaction type. */
const DATA: Record<string, Check> = {
  reward: object({ toAddress: str, amount: coinAmount }),
  coinTransfer: object({ toAddress: str, amount: coinAmount }),
  tokenTransfer: object({ toAddress: str, amount: tokenAmount, asset: assetRef, isLiquidity: bool }),
  limitSwap: object({ baseAsset: assetRef, buy: bool, amount: tokenAmount, limit: object({ hex: str }) }),
  match: object({ baseAsset: assetRef, buySwaps: arrayOf(any), sellSwaps: arrayOf(any) }),
  liquidityDeposit: object({ baseAsset: assetRef, deposited: object({ base: tokenAmount, quote: coinAmount }) }),
  liquidityWithdrawal: object({ baseAsset: assetRef, sharesRedeemed: tokenAmount }),
  cancelation: object({ cancelTxid: object({ pinHeight: uint, nonceId: uint }) }),
  assetCreation: object({ name: str, supply: tokenAmount }),
};
/** `transaction.processed` of a mined entry, by type (null or absent while pending). */
const PROCESSED: Record<string, Check> = {
  limitSwap: object({ remaining: tokenAmount }),
  liquidityDeposit: object({ sharesReceived: tokenAmount }),
  liquidityWithdrawal: object({ received: object({ base: tokenAmount, quote: coinAmount }) }),
  cancelation: object({ canceledTxHash: nullable(hex64) }),
  assetCreation: object({ assetId: uint }),
};
/** Types nobody signs. */
const UNSIGNED = new Set(['reward', 'match']);

const transaction = (type: string): Check =>
  object({
    hash: hex64,
    data: DATA[type] ?? any,
    processed: optional(nullable(PROCESSED[type] ?? any)),
    signedCommon: UNSIGNED.has(type) ? optional(nullable(signedCommon)) : signedCommon,
  });

/** A block body of a history page: per type one entry, a list of them, or null. */
const historyBody: Check = (v, at) =>
  recordOf(any)(v, at) ??
  Object.entries(v as Obj).reduce<string | null>((p, [type, x]) => {
    if (p || x === null) return p;
    const entry = object({ historyId: uint, transaction: transaction(type) });
    return Array.isArray(x) ? arrayOf(entry)(x, `${at}.${type}`) : entry(x, `${at}.${type}`);
  }, null);

const mempoolEntry: Check = (v, at) => object({ type: str })(v, at) ?? object({ transaction: transaction((v as Obj).type) })(v, at);
const order = object({ txHash: hex64, inMempool: bool, amount: tokenAmount, filled: tokenAmount, limit: object({ hex: str }) });

const CONTRACT_ROUTES: Record<Role, { path: (...args: string[]) => string; answer: Check }> = {
  head: { path: () => '/chain/head', answer: object({ chainHead: object({ pinHeight: uint, pinHash: hex64 }), synced: bool }) },
  minFee: { path: () => '/transaction/minfee', answer: object({ minFee: object({ E8: uint }) }) },
  coinBalance: {
    path: (a) => `/account/${a}/coin_balance`,
    answer: object({ coin: object({ total: coinAmount, locked: coinAmount, mempool: coinAmount }) }),
  },
  tokenBalance: {
    path: (a, spec) => `/account/${a}/balance/${spec}`,
    answer: object({
      balance: object({ total: tokenAmount, locked: tokenAmount, mempool: tokenAmount }),
      token: object({ id: uint, spec: str, name: str, decimals: uint }),
    }),
  },
  history: {
    path: (a, before) => `/account/${a}/history/${before}`,
    answer: object({ fromId: uint, perBlock: arrayOf(object({ height: uint, body: historyBody })) }),
  },
  mempool: { path: () => '/transaction/mempool', answer: arrayOf(mempoolEntry) },
  lookup: {
    path: (h) => `/transaction/lookup/${h}`,
    answer: object({
      type: str,
      mined: nullable(object({ block: object({ height: uint }) })),
      transaction: object({ hash: hex64, signedCommon: optional(nullable(signedCommon)) }),
    }),
  },
  add: { path: () => '/transaction/add', answer: object({ txHash: hex64 }) },
  assetLookup: { path: (x) => `/asset/lookup/${x}`, answer: assetRef },
  assetComplete: { path: (name) => `/asset/complete?namePrefix=${encodeURIComponent(name)}`, answer: object({ match: arrayOf(assetRef) }) },
  openOrders: {
    path: (a) => `/account/${a}/open_orders`,
    answer: arrayOf(object({ baseAsset: assetRef, coinToAssetSwaps: arrayOf(order), assetToCoinSwaps: arrayOf(order) })),
  },
  blockHash: { path: (h) => `/chain/block/${h}/hash`, answer: hex64 },
};

// ---- The generations ----

/** How a generation differs on one route; absent members are the contract's. */
export interface RouteVariant {
  path?: (...args: string[]) => string;
  /** Its answer, when it is not the contract's (after the renames). */
  answer?: Check;
  /** Its answer, checked, as the contract's. */
  toContract?: (v: any) => unknown;
}

export interface WalletGeneration {
  name: GenerationName;
  /** For messages: what speaks it. */
  label: string;
  /** Assets, orders and pools (the exchange commands). */
  exchange: boolean;
  /** Answer keys renamed to the contract's names, wherever they occur. */
  keys: Record<string, string>;
  /** String values renamed under these keys. */
  values: Record<string, Record<string, string>>;
  /** Routes that differ; null: not served. */
  routes: Partial<Record<Role, RouteVariant | null>>;
  /** The body of POST /transaction/add from the contract's (core/signed_request.ts requestJson). */
  request(body: Obj): Obj;
  /** Its numbers of the errors the wallet tells apart (clients.md §1.1). */
  errors: { notFound: number; addressNotFound: number };
  /** The coin balance has no pending part: the wallet adds up the address's mempool transfers. */
  pendingFromMempool?: boolean;
  /**
   * A mined transfer of pool shares may be printed as one of the asset (`isLiquidity: false`, the
   * amount with the asset's decimals): the wallet tells them apart by the signed hash (node_api.ts).
   */
  sharesShownAsAsset?: boolean;
}

/** Renames keys (and values under keys) wherever they occur. */
export function renamed(v: unknown, keys: Record<string, string>, values: Record<string, Record<string, string>> = {}): any {
  if (Array.isArray(v)) return v.map((x) => renamed(x, keys, values));
  if (typeof v !== 'object' || v === null) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    const y = typeof x === 'string' ? (values[k]?.[x] ?? x) : renamed(x, keys, values);
    Object.defineProperty(out, keys[k] ?? k, { value: y, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const CONTRACT: WalletGeneration = {
  name: 'contract',
  label: 'the contract API (our node, --api=contract)',
  exchange: true,
  keys: {},
  values: {},
  routes: {},
  request: (b) => b,
  errors: { notFound: 56, addressNotFound: 122 },
};

/** 0.10 (clients.md §2.1, §3; test/vectors/reference-0.10/README.md §5.2): the contract's shapes under other names. */
const V0_10: WalletGeneration = {
  name: '0.10',
  label: 'API generation 0.10 (the DeFi reference node 0.10.3, or ours with --api=0.10)',
  exchange: true,
  keys: { wartTransfer: 'coinTransfer', wartToAssetSwaps: 'coinToAssetSwaps', assetToWartSwaps: 'assetToCoinSwaps', wart: 'coin', matches: 'match' },
  values: { type: { wartTransfer: 'coinTransfer' } },
  routes: { coinBalance: { path: (a) => `/account/${a}/wart_balance` } },
  // `coinTransfer` → 189, `coinE8` → 303, `precision` → 316 there (README §5.2).
  request: (b) => renamed(b, { coinE8: 'wartE8', precision: 'decimals' }, { type: { coinTransfer: 'wartTransfer' } }),
  errors: { notFound: 56, addressNotFound: 122 },
  // The reference 0.10.3's history and block views (docs/reference-differences.md, share-transfers;
  // seen live by scripts/wallet-live.mjs, test/vectors/wallet-live/ref-0.10.3.json).
  sharesShownAsAsset: true,
};

// 0.8 (clients.md §2.2; core a59f7ddf src/node/api/http/json.cpp): flat transfers and rewards.
const Transfer8 = object({
  fromAddress: str,
  fee: str,
  feeE8: uint,
  nonceId: uint,
  pinHeight: uint,
  txHash: hex64,
  toAddress: str,
  amount: str,
  amountE8: uint,
});
const Reward8 = object({ txHash: hex64, toAddress: str, amount: str, amountE8: uint });
const coin8 = (text: string, e8: unknown) => ({ str: text, E8: e8 });
const ZERO = coin8('0', 0);
const reward8 = (r: Obj) => ({ hash: r.txHash, data: { toAddress: r.toAddress, amount: coin8(r.amount, r.amountE8) } });
const transfer8 = (t: Obj) => ({
  hash: t.txHash,
  data: { toAddress: t.toAddress, amount: coin8(t.amount, t.amountE8) },
  signedCommon: { originAddress: t.fromAddress, fee: coin8(t.fee, t.feeE8), nonceId: t.nonceId, pinHeight: t.pinHeight },
});
/** `/transaction/lookup`: a transfer (pending: `blockHeight` 0) or a reward (json.cpp:222-256, state.cpp:127-175). */
const TransferLookup8 = object({
  transaction: object({
    txHash: hex64,
    type: str,
    blockHeight: uint,
    fromAddress: str,
    fee: str,
    feeE8: uint,
    nonceId: uint,
    pinHeight: uint,
    toAddress: str,
    amount: str,
    amountE8: uint,
  }),
});
const RewardLookup8 = object({ transaction: object({ txHash: hex64, type: str, blockHeight: uint, toAddress: str, amount: str, amountE8: uint }) });

const V0_8: WalletGeneration = {
  name: '0.8',
  label: 'API generation 0.8 (the mainnet reference node 0.8.20, or ours with --api=0.8)',
  exchange: false,
  keys: {},
  values: {},
  routes: {
    // json.cpp:272-286: flat, no `chainHead`.
    head: {
      answer: object({ pinHeight: uint, pinHash: hex64, synced: bool }),
      toContract: (v) => ({ chainHead: { pinHeight: v.pinHeight, pinHash: v.pinHash }, synced: v.synced }),
    },
    // json.cpp:386-393.
    minFee: { answer: object({ amount: str, E8: uint, '16bit': uint }), toContract: (v) => ({ minFee: { str: v.amount, E8: v.E8 } }) },
    // json.cpp:511-526: the chain's balance only (no locked part; pending: pendingFromMempool).
    coinBalance: {
      path: (a) => `/account/${a}/balance`,
      answer: object({ balance: str, balanceE8: uint }),
      toContract: (v) => ({ coin: { total: coin8(v.balance, v.balanceE8), locked: ZERO, mempool: ZERO } }),
    },
    // json.cpp:408-426: blocks newest first; an entry has no history id; the page's `fromId` is its oldest id.
    history: {
      answer: object({
        fromId: uint,
        perBlock: arrayOf(object({ height: uint, transactions: object({ rewards: arrayOf(Reward8), transfers: arrayOf(Transfer8) }) })),
      }),
      toContract: (v) => ({
        fromId: v.fromId,
        perBlock: v.perBlock.map((b: Obj) => ({
          height: b.height,
          body: {
            reward: b.transactions.rewards.map((r: Obj) => ({ historyId: null, transaction: reward8(r) })),
            coinTransfer: b.transactions.transfers.map((t: Obj) => ({ historyId: null, transaction: transfer8(t) })),
          },
        })),
      }),
    },
    // json.cpp:324-343: `{data: [...]}` inside `data`.
    mempool: { answer: object({ data: arrayOf(Transfer8) }), toContract: (v) => v.data.map((t: Obj) => ({ type: 'coinTransfer', transaction: transfer8(t) })) },
    lookup: {
      answer: (v, at) =>
        object({ transaction: object({ type: str }) })(v, at) ?? ((v as Obj).transaction.type === 'Reward' ? RewardLookup8 : TransferLookup8)(v, at),
      toContract: ({ transaction: t }) => ({
        type: t.type === 'Reward' ? 'reward' : 'coinTransfer',
        mined: t.blockHeight > 0 ? { block: { height: t.blockHeight } } : null,
        transaction: t.type === 'Reward' ? reward8(t) : transfer8(t),
      }),
    },
    // `{"hash": …}` (0.8.20 live; our --api=0.8 alike).
    blockHash: { answer: object({ hash: hex64 }), toContract: (v) => v.hash },
    tokenBalance: null,
    assetLookup: null,
    assetComplete: null,
    openOrders: null,
  },
  // parse.cpp:27-134: untyped, `amountE8` (or `amount`), `feeE8` (or `fee`); `type` and `coinE8` would be ignored / refused.
  request: (b) => {
    if (b.type !== 'coinTransfer') throw new Error(`0.8 has no ${b.type}`); // the exchange commands stop earlier
    return { pinHeight: b.pinHeight, nonceId: b.nonceId, toAddr: b.toAddr, amountE8: b.coinE8, feeE8: b.feeE8, signature65: b.signature65 };
  },
  errors: { notFound: 57, addressNotFound: 101 },
  pendingFromMempool: true,
};

export const GENERATIONS: Record<GenerationName, WalletGeneration> = { contract: CONTRACT, '0.10': V0_10, '0.8': V0_8 };

export function isGenerationName(text: string): text is GenerationName {
  return (GENERATION_NAMES as string[]).includes(text);
}

/** Where generation `g` serves route `role` (null: it does not). */
export function pathOf(g: WalletGeneration, role: Role, args: string[]): string | null {
  const v = g.routes[role];
  if (v === null) return null;
  return (v?.path ?? CONTRACT_ROUTES[role].path)(...args);
}

/** The answer `data` of route `role` in generation `g` as the contract's, or the problem with it. */
export function readAnswer(g: WalletGeneration, role: Role, data: unknown): { value: any } | { problem: string } {
  const v = g.routes[role];
  const named = renamed(data, g.keys, g.values);
  const problem = problemOf(v?.answer ?? CONTRACT_ROUTES[role].answer, named);
  if (problem) return { problem };
  return { value: v?.toContract ? v.toContract(named) : named };
}

/**
 * The generation `/transaction/minfee`'s answer shows: the contract's fee bytes are 4 hex digits,
 * 0.10's 8 (`"00004fa2"`, R58 README §5.3); 0.8's answer is flat `{amount, E8, 16bit}`. Null: none.
 */
export function generationOfMinFee(data: unknown): GenerationName | null {
  const f = (data as Obj | null)?.minFee;
  if (problemOf(object({ minFee: object({ E8: uint, bytes: str }) }), data) === null)
    return f.bytes.length === 4 ? 'contract' : f.bytes.length === 8 ? '0.10' : null;
  return problemOf(object({ amount: str, E8: uint, '16bit': uint }), data) === null ? '0.8' : null;
}

/** A pending-coin figure as the contract writes it. */
export const coinAmountOf = (e8: bigint) => ({ str: formatUnits(e8, COIN_DECIMALS), E8: e8 });
