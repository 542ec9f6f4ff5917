// Builds real chains in a temporary database through Chain.append (no proof of work, as
// /debug/fakemine does): blocks from the mining template, with chosen timestamps and signed coin
// transfers. The data directory can then be served by a started node (`startNode(args, dir)`).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chain, type StoredBlock } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import type { PendingTx } from '../../ts/mempool/pending.js';
import { REGTEST, type NetworkParams } from '../../ts/consensus/params.js';
import { addressOfPrivateKey } from '../../ts/core/keys.js';
import { pinFloor } from '../../ts/core/pin.js';
import { fee16Encode } from '../../ts/kernel/fee16.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { accountIdOf, dbReader } from '../../ts/state/ledger.js';
import { openDatabase, type Db } from '../../ts/store/database.js';
import { signCoinTransfer } from '../helpers/wallet.js';

await initKernel(); // wallets derive addresses at import time of the tests

export interface Wallet {
  sk: Uint8Array;
  address: Uint8Array;
}

/** A deterministic key pair from a small seed. */
export function wallet(seed: number): Wallet {
  const sk = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? seed & 0xff : i === 30 ? (seed >> 8) + 1 : 0x11));
  return { sk, address: addressOfPrivateKey(sk) };
}

export interface Transfer {
  from: Wallet;
  to: Uint8Array;
  amount: bigint;
  feeE8: bigint;
  nonceId: number;
}

/** The first block's timestamp; block h gets FIRST_TIMESTAMP + spacing·(h − 1) unless told otherwise. */
export const FIRST_TIMESTAMP = 1_700_000_000;

export class ChainBuilder {
  private constructor(
    readonly dir: string,
    readonly db: Db,
    readonly chain: Chain,
    private readonly spacing: number,
  ) {}

  /** A fresh chain in a new temporary data directory (`dir`), blocks `spacing` seconds apart. */
  static async create(opts: { params?: NetworkParams; spacing?: number } = {}): Promise<ChainBuilder> {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-chain-'));
    const { db } = await openDatabase(dir);
    return new ChainBuilder(dir, db, await Chain.open(db, opts.params ?? REGTEST), opts.spacing ?? 20);
  }

  get length(): number {
    return this.chain.length;
  }

  /** A coin transfer for the next block, pinned to the newest pin height and signed by `t.from`. */
  async signTransfer(t: Transfer): Promise<PendingTx> {
    const s = dbReader(this.db);
    const pinHeight = pinFloor(this.chain.length + 1);
    const originId = await accountIdOf(s, t.from.address);
    if (originId === undefined || (await accountIdOf(s, t.to)) === undefined) throw new Error('transfers need existing accounts');
    return signCoinTransfer(t.from.sk, {
      pinHeight,
      pinHash: this.chain.hashAt(pinHeight),
      nonceId: t.nonceId,
      feeCode: fee16Encode(t.feeE8, 'closest'),
      originId,
      toAddress: t.to,
      amount: t.amount,
    });
  }

  /** Appends the template block paying `miner`, with `transfers`, at `timestamp` (default: the spacing rule). */
  async mine(miner: Uint8Array, opts: { transfers?: Transfer[]; timestamp?: number } = {}): Promise<StoredBlock> {
    const entries = [];
    for (const t of opts.transfers ?? []) entries.push(await this.signTransfer(t));
    const now = opts.timestamp ?? FIRST_TIMESTAMP + this.spacing * this.chain.length;
    const t = await buildTemplate(this.chain, this.db, miner, now, entries);
    return this.chain.append(t.header, t.body, { now, skipPow: true });
  }

  async mineMany(n: number, miner: (i: number) => Uint8Array): Promise<void> {
    for (let i = 0; i < n; i++) await this.mine(miner(i));
  }

  async close(): Promise<void> {
    await this.chain.idle();
    await this.db.close();
  }
}
