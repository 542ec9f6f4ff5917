// Blocks assembled by hand on a regtest chain, for the block rules of the exchange: A, B and C
// hold coins, A created TOK (1,000,000 units, 2 decimals) and sent 100,000 to B; entries are
// signed by the test wallets without mempool admission, and bodies may hold anything the layout
// can carry (a section twice, limits that are no price, …). Blocks go through Chain.append, the
// path every block takes (body checks, then application).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chain, type StoredBlock } from '../../ts/chain/chain.js';
import { bodyEntry, buildTemplate } from '../../ts/mining/template.js';
import { REGTEST, merkleNewTypeAt } from '../../ts/consensus/params.js';
import { bodyMerkleRoot, emptyTokenSection, parseBody, serializeBody, type Body, type TokenSection } from '../../ts/core/body.js';
import type { SignedEntry } from '../../ts/core/entry.js';
import { NodeError } from '../../ts/core/errors.js';
import { parseHeader, serializeHeader } from '../../ts/core/header.js';
import { pinFloor, relativePinFor } from '../../ts/core/pin.js';
import { assetNameBytes, txHash, type TransactionPayload } from '../../ts/core/transaction.js';
import { fee16Decode } from '../../ts/kernel/fee16.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import type { PendingTx } from '../../ts/mempool/pending.js';
import { MempoolService } from '../../ts/mempool/service.js';
import { assetByHash, type Asset } from '../../ts/state/assets.js';
import { accountIdOf, balanceOf, dbReader, type Balance } from '../../ts/state/ledger.js';
import { openDatabase, type Db } from '../../ts/store/database.js';
import { TestWallet, signRequest } from '../helpers/wallet.js';

await initKernel();

export const FEE_CODE = 0x4fa2; // 0.01000448 coin, the default minimum
export const FEE_E8 = 1_000_448n;

/** The parts of a body a test chooses; token sections are listed as they should appear. */
export interface BlockParts {
  newAddresses?: Uint8Array[];
  coinTransfers?: SignedEntry[];
  cancelations?: SignedEntry[];
  tokenSections?: TokenSection[];
  assetCreations?: SignedEntry[];
}

export class BlockLab {
  readonly A = TestWallet.fromSeed(61);
  readonly B = TestWallet.fromSeed(62);
  readonly C = TestWallet.fromSeed(63);
  /** The miner: a fresh address, so the reward never touches the accounts under test. */
  readonly M = TestWallet.fromSeed(64);
  tok!: Asset;
  private nonce = 0;
  private now = 1_700_000_000;

  private constructor(
    readonly dir: string,
    readonly db: Db,
    readonly chain: Chain,
    readonly mempool: MempoolService,
  ) {}

  static async create(): Promise<BlockLab> {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-lab-'));
    const { db } = await openDatabase(dir);
    const chain = await Chain.open(db, REGTEST);
    const lab = new BlockLab(dir, db, chain, new MempoolService(chain, new MinFeePolicy()));
    for (const w of [lab.A, lab.A, lab.B, lab.C]) await lab.mineMempool(w);
    const create = await lab.submit(lab.A, { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes('TOK') });
    await lab.mineMempool();
    lab.tok = (await assetByHash(dbReader(db), create.hash))!;
    await lab.submit(lab.A, { type: 'tokenTransfer', assetHash: lab.tok.hash, isLiquidity: false, toAddress: lab.B.address, amount: 100_000n });
    await lab.mineMempool();
    return lab;
  }

  /** Admits a transaction into the mempool (pinned to the genesis). */
  submit(w: TestWallet, payload: TransactionPayload): Promise<PendingTx> {
    return this.mempool.add(signRequest(w.sk, payload, { pinHeight: 0, pinHash: this.chain.hashAt(0), nonceId: ++this.nonce, feeCode: FEE_CODE }));
  }

  /** The time of the next block (20 s after the last one). */
  tick(): number {
    return (this.now += 20);
  }

  /** Mines the mempool's transactions through the block template. */
  async mineMempool(to: TestWallet = this.M): Promise<StoredBlock> {
    this.tick();
    const t = await this.chain.locked(() => buildTemplate(this.chain, this.db, to.address, this.now, this.mempool.pool.all()));
    return this.chain.append(t.header, t.body, { now: this.now, skipPow: true });
  }

  async id(w: TestWallet): Promise<bigint> {
    return (await accountIdOf(dbReader(this.db), w.address))!;
  }

  async balance(w: TestWallet, token: bigint): Promise<Balance> {
    return balanceOf(dbReader(this.db), await this.id(w), token);
  }

  /**
   * A signed entry for the next block, bypassing the mempool: `nonceId` defaults to a fresh one,
   * the pin to the newest pin height; `toId` names the recipient of a transfer.
   */
  async entry(
    w: TestWallet,
    payload: TransactionPayload,
    o: { nonceId?: number; pinHeight?: number; toId?: bigint; originId?: bigint } = {},
  ): Promise<SignedEntry> {
    const tx = await this.pending(w, payload, o);
    const toId = o.toId ?? ('toAddress' in payload ? await accountIdOf(dbReader(this.db), payload.toAddress) : null);
    return bodyEntry(tx, relativePinFor(this.chain.length + 1, tx.pinHeight)!, toId ?? null);
  }

  /** The same transaction as the mempool would hold it, without admission. */
  async pending(w: TestWallet, payload: TransactionPayload, o: { nonceId?: number; pinHeight?: number; originId?: bigint } = {}): Promise<PendingTx> {
    const pinHeight = o.pinHeight ?? pinFloor(this.chain.length + 1);
    const nonceId = o.nonceId ?? ++this.nonce;
    const pinHash = this.chain.hashAt(pinHeight);
    const feeE8 = fee16Decode(FEE_CODE);
    const req = signRequest(w.sk, payload, { pinHeight, pinHash, nonceId, feeCode: FEE_CODE });
    const asset = 'assetHash' in payload ? await assetByHash(dbReader(this.db), payload.assetHash) : null;
    return {
      hash: txHash({ pinHash, pinHeight, nonceId, feeE8 }, payload),
      payload,
      originId: o.originId ?? (await this.id(w)),
      originAddress: w.address,
      pinHeight,
      pinHash,
      nonceId,
      feeCode: FEE_CODE,
      feeE8,
      signature: req.signature,
      assetId: asset?.id,
    };
  }

  /** A token section of TOK (or `assetId`) holding `entries`, each in its vector. */
  section(entries: SignedEntry[], assetId = this.tok.id): TokenSection {
    const s = emptyTokenSection(assetId);
    for (const e of entries) {
      switch (e.kind) {
        case 'assetTransfer':
          s.assetTransfers.push(e);
          break;
        case 'shareTransfer':
          s.shareTransfers.push(e);
          break;
        case 'limitSwap':
          s.limitSwaps.push(e);
          break;
        case 'liquidityDeposit':
          s.liquidityDeposits.push(e);
          break;
        case 'liquidityWithdrawal':
          s.liquidityWithdrawals.push(e);
          break;
        default:
          throw new Error(`${e.kind} is no token-section entry`);
      }
    }
    return s;
  }

  /** Appends a block with these parts (and the subsidy to M); throws NodeError when refused. */
  async append(parts: BlockParts): Promise<StoredBlock> {
    this.tick();
    const t = await this.chain.locked(() => buildTemplate(this.chain, this.db, this.M.address, this.now, []));
    const height = this.chain.length + 1;
    const template = parseBody(t.body, 'V4');
    const body: Body = {
      ...template,
      newAddresses: [...template.newAddresses, ...(parts.newAddresses ?? [])],
      coinTransfers: (parts.coinTransfers ?? []) as Body['coinTransfers'],
      cancelations: (parts.cancelations ?? []) as Body['cancelations'],
      tokenSections: parts.tokenSections ?? [],
      assetCreations: (parts.assetCreations ?? []) as Body['assetCreations'],
    };
    const header = serializeHeader({ ...parseHeader(t.header), merkleRoot: bodyMerkleRoot(body, merkleNewTypeAt(REGTEST, height)) });
    return this.chain.append(header, serializeBody(body), { now: this.now, skipPow: true });
  }

  /** The error name of a refused block, or 'none' when it was appended. */
  async refusal(parts: BlockParts): Promise<string> {
    try {
      await this.append(parts);
      return 'none';
    } catch (e) {
      if (e instanceof NodeError) return e.errorName;
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.chain.idle();
    await this.db.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
