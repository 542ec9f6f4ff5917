// The node as the wallet reads it: each route it calls, in the API generation the node speaks
// (generations.ts), answered in the contract's shape after the generation's own shape is checked.
// The generation is the one `--api` names, else the one the answer to /transaction/minfee shows
// (the wallet asks it anyway before it signs).
import { parseAddress } from '../core/address.js';
import { fromHexExact, toHex } from '../core/hex.js';
import { writeJson } from '../core/json.js';
import { txHash } from '../core/transaction.js';
import { GENERATIONS, coinAmountOf, generationOfMinFee, pathOf, readAnswer, type GenerationName, type Role, type WalletGeneration } from './generations.js';
import { NodeRefusal } from './node_client.js';
import { WalletError } from './wallet_error.js';

/** What the wallet needs of a NodeClient (a recorded answer set stands in for it in the tests). */
export interface Transport {
  readonly base: string;
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body: string): Promise<T>;
}

type Amount = { str: string; E8: number | bigint };
type TokenAmount = { str: string; u64: number | bigint };
export type CoinBalance = { total: Amount; locked: Amount; mempool: Amount };
export type TokenBalance = {
  balance: Record<'total' | 'locked' | 'mempool', TokenAmount>;
  token: { id: number; spec: string; name: string; decimals: number };
};
export type AssetRef = { hash: string; id: number; name: string; decimals: number };
export type Tx = {
  hash: string;
  data: any;
  processed?: any;
  signedCommon?: { originAddress: string; fee: Amount; pinHeight: number; nonceId: number } | null;
};
/** A history entry; 0.8 entries have no history id. */
export type Entry = { historyId: number | bigint | null; transaction: Tx };
export type History = { fromId: number | bigint; perBlock: { height: number; body: Record<string, Entry | Entry[] | null> }[] };
export type MempoolEntry = { type: string; transaction: Tx };
export type Lookup = { type: string; mined: { block: { height: number } } | null; transaction: Tx };
export type Order = { txHash: string; inMempool: boolean; amount: TokenAmount; filled: TokenAmount; limit: { hex: string } };
export type MarketOrders = { baseAsset: AssetRef; coinToAssetSwaps: Order[]; assetToCoinSwaps: Order[] };

export class NodeApi {
  private minFeeAnswer: unknown;

  private constructor(
    readonly node: Transport,
    readonly generation: WalletGeneration,
  ) {}

  /** The generation `stated` (--api), else the one the node's /transaction/minfee answer shows. */
  static async connect(node: Transport, stated?: GenerationName): Promise<NodeApi> {
    if (stated) return new NodeApi(node, GENERATIONS[stated]);
    const answer = await node.get('/transaction/minfee');
    const name = generationOfMinFee(answer);
    if (!name) {
      throw new WalletError(
        `the node at ${node.base} answered GET /transaction/minfee in a shape of no API generation the wallet knows ` +
          `(contract, 0.10, 0.8): ${writeJson(answer).slice(0, 200)}`,
      );
    }
    const api = new NodeApi(node, GENERATIONS[name]);
    api.minFeeAnswer = answer;
    return api;
  }

  get name(): GenerationName {
    return this.generation.name;
  }

  /** Refuses a command of assets, orders or pools where the generation has none, before anything is signed. */
  requireExchange(command: string): void {
    if (!this.generation.exchange) {
      throw new WalletError(
        `'${command}' needs assets, orders and pools, which the node at ${this.node.base} does not have: it speaks ${this.generation.label}`,
      );
    }
  }

  private route(role: Role, args: string[]): string {
    const path = pathOf(this.generation, role, args);
    if (path === null) throw new WalletError(`the node at ${this.node.base} speaks ${this.generation.label}, which has no ${role} route`);
    return path;
  }

  private read<T>(role: Role, route: string, data: unknown): T {
    const r = readAnswer(this.generation, role, data);
    if ('problem' in r) throw new WalletError(`the node's answer to ${route} is not what the wallet reads of ${this.generation.label}: ${r.problem}`);
    return r.value as T;
  }

  private async get<T>(role: Role, ...args: string[]): Promise<T> {
    const path = this.route(role, args);
    return this.read<T>(role, `GET ${path}`, await this.node.get(path));
  }

  /** A refusal with the generation's number of `ENOTFOUND`. */
  isNotFound(e: unknown): boolean {
    return e instanceof NodeRefusal && e.code === this.generation.errors.notFound;
  }

  private isAddressNotFound(e: unknown): boolean {
    return e instanceof NodeRefusal && e.code === this.generation.errors.addressNotFound;
  }

  head() {
    return this.get<{ chainHead: { pinHeight: number; pinHash: string }; synced: boolean }>('head');
  }

  async minFeeE8(): Promise<bigint> {
    const answer = this.minFeeAnswer ?? (await this.node.get(this.route('minFee', [])));
    return BigInt(this.read<{ minFee: { E8: number | bigint } }>('minFee', 'GET /transaction/minfee', answer).minFee.E8);
  }

  /** Total, locked in orders, pending in the mempool. */
  async coinBalance(address: string): Promise<CoinBalance> {
    const { coin } = await this.get<{ coin: CoinBalance }>('coinBalance', address);
    if (!this.generation.pendingFromMempool) return coin;
    let pending = 0n;
    for (const m of await this.mempool()) {
      const s = m.transaction.signedCommon;
      if (s?.originAddress === address) pending += BigInt(m.transaction.data.amount.E8) + BigInt(s.fee.E8);
    }
    return { ...coin, mempool: coinAmountOf(pending) };
  }

  tokenBalance(address: string, spec: string) {
    return this.get<TokenBalance>('tokenBalance', address, spec);
  }

  /** A page of history; an address the chain has never seen has an empty one. */
  async history(address: string, before: string): Promise<History> {
    let page: History;
    try {
      page = await this.get<History>('history', address, before);
    } catch (e) {
      if (this.isNotFound(e)) return { fromId: 0, perBlock: [] };
      throw e;
    }
    if (this.generation.sharesShownAsAsset) await this.tellShareTransfers(page);
    return page;
  }

  private pinHashes = new Map<number, Promise<string | null>>();

  /** The hash of the block at `height`; null when the node does not tell it. */
  private pinHash(height: number): Promise<string | null> {
    let h = this.pinHashes.get(height);
    if (!h) {
      h = this.get<string>('blockHash', String(height)).catch(() => null);
      this.pinHashes.set(height, h);
    }
    return h;
  }

  /**
   * Where the generation prints a mined transfer of pool shares as one of the asset
   * (`sharesShownAsAsset`), marks each token transfer whose signed hash is that of a transfer of
   * the pool's shares (the flag is in the signed bytes) as one of shares. One question per pin
   * height (`/chain/block/:height/hash`); an entry whose pin hash the node does not tell stays as printed.
   */
  private async tellShareTransfers(page: History): Promise<void> {
    for (const b of page.perBlock) {
      const v = b.body.tokenTransfer;
      for (const e of v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]) {
        const t = e.transaction,
          c = t.signedCommon,
          d = t.data;
        if (d.isLiquidity || !c) continue;
        const pin = await this.pinHash(Number(c.pinHeight));
        const [pinHash, assetHash, toAddress] = [pin && fromHexExact(pin, 32), fromHexExact(d.asset.hash, 32), parseAddress(d.toAddress)];
        if (!pinHash || !assetHash || !toAddress) continue;
        const shares = txHash(
          { pinHash, pinHeight: Number(c.pinHeight), nonceId: Number(c.nonceId), feeE8: BigInt(c.fee.E8) },
          { type: 'tokenTransfer', assetHash, isLiquidity: true, toAddress, amount: BigInt(d.amount.u64) },
        );
        if (toHex(shares) === t.hash.toLowerCase()) e.transaction = { ...t, data: { ...d, isLiquidity: true } };
      }
    }
  }

  mempool() {
    return this.get<MempoolEntry[]>('mempool');
  }

  /** A transaction by hash; null when the node knows none. */
  async lookup(hash: string): Promise<Lookup | null> {
    try {
      return await this.get<Lookup>('lookup', hash);
    } catch (e) {
      if (this.isNotFound(e)) return null;
      throw e;
    }
  }

  /** Submits a signed request (the contract's JSON, written as the generation takes it); its hash as the node echoes it. */
  async add(body: Record<string, unknown>): Promise<string> {
    const path = this.route('add', []);
    const answer = await this.node.post(path, writeJson(this.generation.request(body)));
    return this.read<{ txHash: string }>('add', `POST ${path}`, answer).txHash;
  }

  assetLookup(asset: string) {
    return this.get<AssetRef>('assetLookup', asset);
  }

  async assetsNamed(prefix: string): Promise<AssetRef[]> {
    return (await this.get<{ match: AssetRef[] }>('assetComplete', prefix)).match;
  }

  /** Open orders per market; none for an address without an account (0.10 refuses it with EADDRNOTFOUND). */
  async openOrders(address: string): Promise<MarketOrders[]> {
    try {
      return await this.get<MarketOrders[]>('openOrders', address);
    } catch (e) {
      if (this.isAddressNotFound(e)) return [];
      throw e;
    }
  }
}
