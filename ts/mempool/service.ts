// The mempool kept in step with the chain (exchange.md §12.4): after each block or rollback it drops
// transactions that were mined or became invalid (pin out of the window or reorganized away, sender
// gone, balance no longer covering the reservations), and transactions of rolled-back blocks return
// where still valid. Admission and these refreshes run in the chain's turn, so they always see one
// consistent ledger.
import { addressOf, balanceOf, accountIdOf, dbReader, type KeyReader } from '../state/ledger.js';
import { hasTxId } from '../state/txids.js';
import { entryPayload, entryPinHeight, entryTransactionId, entryTxHash } from '../core/entry.js';
import { signedEntries, type Body } from '../core/body.js';
import { assetByHash, assetById } from '../state/assets.js';
import { equalBytes } from '../core/hex.js';
import { isMempoolPinHeight } from '../core/pin.js';
import { feeE8OfCode, transactionIdKey } from '../core/transaction.js';
import { parseBlockBody } from '../consensus/block_check.js';
import type { Chain, StoredBlock } from '../chain/chain.js';
import { nextTurn } from '../chain/next_turn.js';
import { soleTransactionRefusal } from '../mining/template.js';
import { fail } from '../core/errors.js';
import { admit, freeBalances, type SignedRequest } from './admission.js';
import type { MinFeePolicy } from './fee_policy.js';
import { Mempool } from './mempool.js';
import { reservations, txId, type PendingTx } from './pending.js';

/** Pending transactions checked between turns of the event loop in a full refresh (reads stay answered meanwhile). */
const REFRESH_SLICE = 256;
/** Signers of appended blocks tracked for the next refresh; beyond, every account's balance is read. */
const MAX_SIGNERS = 20_000;

export class MempoolService {
  readonly pool: Mempool;
  private returning: PendingTx[] = [];
  /**
   * Since the last refresh: the signers of the blocks appended (null: too many to track, or
   * nothing appended), and whether anything was rolled back.
   */
  private signers: Set<bigint> | null = null;
  private rolledBack = false;
  /** Changes whenever transactions may have entered or left (stratum's better-template check). */
  version = 0;

  constructor(
    private readonly chain: Chain,
    readonly minFee: MinFeePolicy,
    capacity?: number,
  ) {
    this.pool = new Mempool(capacity);
    chain.onBeforeRollback((block) => this.collectReturning(block));
    chain.onChange((e) => {
      if (e.kind === 'append') this.appended(e.block.height, e.body);
      else this.rolledBack = true;
    });
    chain.onSettled(() => this.refresh());
  }

  /** The ledger, read between chain changes (admission and refreshes run in the chain's turn). */
  private get state(): KeyReader {
    return dbReader(this.chain.db);
  }

  /** The minimum fee code now: the configured one, or one step above the lowest when full (§4.5). */
  get minFeeCode(): number {
    const full = this.pool.fullThreshold();
    return full === null ? this.minFee.minCode : Math.max(this.minFee.minCode, Math.min(full + 1, 0xffff));
  }

  add(req: SignedRequest): Promise<PendingTx> {
    return this.chain.locked(async () => {
      const tx = await admit(this.pool, this.chain, this.state, this.minFeeCode, req, (t) => this.vetExchange(t));
      this.version++;
      return tx;
    });
  }

  /**
   * Orders and deposits can make a block invalid by the exchange's own rules, which the reference's
   * mempool does not foresee (it admits such a transaction and then refuses its own template): a
   * credit of 0 units to an account without a row of the token (EIDNOTREFERENCED), or a deposit
   * minting 0 shares or a match the reference cannot finish (EREFABORT). A transaction that fails so alone in the next block is
   * refused here with the reason; block templates also leave out any that fails later.
   */
  private async vetExchange(tx: PendingTx): Promise<void> {
    const p = tx.payload;
    if (p.type !== 'limitSwap' && p.type !== 'liquidityDeposit') return;
    const e = await soleTransactionRefusal(this.chain, this.chain.db, tx, Math.floor(Date.now() / 1000));
    if (e?.errorName === 'EIDNOTREFERENCED') {
      fail(
        'EIDNOTREFERENCED',
        'the next block would credit this buyer 0 units of the asset, and the account holds no balance of it: such a block is invalid. Hold any amount of the asset first, or buy more',
      );
    }
    if (e?.errorName === 'EREFABORT') fail('EREFABORT', `reference nodes cannot apply a block with this transaction now: ${e.message}`);
  }

  /** Sets the configured minimum (rounded up) and drops what pays less; returns how many left. */
  setMinFee(feeE8: bigint): number {
    const code = this.minFee.set(feeE8);
    this.version++;
    return this.pool.removeBelow(code);
  }

  /** Turns the signed transactions of a block about to be rolled back into pending transactions. */
  private async collectReturning(block: StoredBlock): Promise<void> {
    const body = parseBlockBody(this.chain.params, block.height, block.header.version, block.body);
    for (const { entry: e, assetId } of signedEntries(body)) {
      const originAddress = await addressOf(this.state, e.originId);
      const toAddress = 'toId' in e ? await addressOf(this.state, e.toId) : undefined;
      const asset = assetId === null ? null : await assetById(this.state, assetId);
      if (!originAddress || ('toId' in e && !toAddress) || (assetId !== null && !asset)) continue;
      const ctx = { toAddress, assetHash: asset?.hash };
      const pinHeight = entryPinHeight(e, block.height);
      const pinHash = this.chain.hashAt(pinHeight);
      this.returning.push({
        hash: entryTxHash(e, block.height, pinHash, ctx),
        payload: entryPayload(e, ctx),
        originId: e.originId,
        originAddress,
        pinHeight,
        pinHash,
        nonceId: e.pinNonce.nonceId,
        feeCode: e.feeCode,
        feeE8: feeE8OfCode(e.feeCode),
        signature: e.signature,
        assetId: asset?.id,
      });
    }
  }

  /**
   * After blocks were only appended, what can have changed for a pending transaction is: its id is
   * taken (mined, or another transaction of its id), its pin left the window, or its sender's free
   * balance fell — and only a block's own signers pay from theirs (a match credits the owner of a
   * resting order and spends what the order had locked: its free balance does not fall). A full
   * recheck read the ledger for every pending transaction after every block, in one go: a full
   * mempool held the event loop for hundreds of milliseconds.
   */
  private appended(height: number, body: Body): void {
    this.signers ??= new Set();
    for (const { entry } of signedEntries(body)) {
      if (this.signers.size <= MAX_SIGNERS) this.signers.add(entry.originId);
      const pending = this.pool.byIdKey(transactionIdKey(entryTransactionId(entry, height)));
      if (pending) this.pool.remove(pending);
    }
  }

  /** After a rollback: every pending transaction checked again, in slices between turns of the event loop. */
  private async recheckAll(): Promise<void> {
    let n = 0;
    for (const tx of this.pool.all()) {
      if (!(await this.stillValid(tx))) this.pool.remove(tx);
      if (++n % REFRESH_SLICE === 0) await nextTurn();
    }
    await this.fitToBalances(null);
  }

  /** Evicts what the free balances of `accounts` (null: every account with pending transactions) no longer cover. */
  private async fitToBalances(accounts: Set<bigint> | null): Promise<void> {
    const free = new Map<string, bigint>();
    let n = 0;
    for (const tx of accounts ? this.pool.ofAccounts(accounts) : this.pool.all()) {
      for (const token of reservations(tx).keys()) {
        const key = `${tx.originId}:${token}`;
        if (free.has(key)) continue;
        const b = await balanceOf(this.state, tx.originId, token);
        free.set(key, b.total - b.locked);
      }
      if (++n % REFRESH_SLICE === 0) await nextTurn();
    }
    this.pool.fitToBalances((account, token) => free.get(`${account}:${token}`) ?? 0n, accounts);
  }

  /** Still valid against the current chain and ledger (everything but balances)? */
  private async stillValid(tx: PendingTx): Promise<boolean> {
    // A rolled-back asset creation frees its id for another asset: the hash must still name the same id.
    if ('assetHash' in tx.payload && (await assetByHash(this.state, tx.payload.assetHash))?.id !== tx.assetId) return false;
    return (
      isMempoolPinHeight(this.chain.length, tx.pinHeight) &&
      equalBytes(this.chain.hashAt(tx.pinHeight), tx.pinHash) &&
      (await accountIdOf(this.state, tx.originAddress)) === tx.originId &&
      !(await hasTxId(this.state, txId(tx)))
    );
  }

  private async refresh(): Promise<void> {
    this.version++;
    const { signers, rolledBack } = this;
    this.signers = null;
    this.rolledBack = false;
    if (rolledBack) await this.recheckAll();
    else if (signers) {
      this.pool.removeUnless((tx) => isMempoolPinHeight(this.chain.length, tx.pinHeight));
      await this.fitToBalances(signers.size > MAX_SIGNERS ? null : signers);
    }
    const returning = this.returning;
    this.returning = [];
    for (const tx of returning) {
      if (this.pool.hasId(transactionIdKey(txId(tx))) || !(await this.stillValid(tx))) continue;
      const balances = await freeBalances(this.state, tx.originId, [...reservations(tx).keys()]);
      try {
        this.pool.insert(tx, (token) => balances.get(token) ?? 0n);
      } catch {
        /* no longer affordable */
      }
    }
  }
}
