// The mempool kept in step with the chain (exchange.md §12.4): after each block or rollback it drops
// transactions that were mined or became invalid (pin out of the window or reorganized away, sender
// gone, balance no longer covering the reservations), and transactions of rolled-back blocks return
// where still valid. Admission and these refreshes run in the chain's turn, so they always see one
// consistent ledger.
import { addressOf, balanceOf, accountIdOf, dbReader, type KeyReader } from '../state/ledger.js';
import { hasTxId } from '../state/txids.js';
import { entryPayload, entryPinHeight, entryTxHash } from '../core/entry.js';
import { signedEntries } from '../core/body.js';
import { assetByHash, assetById } from '../state/assets.js';
import { equalBytes } from '../core/hex.js';
import { isMempoolPinHeight } from '../core/pin.js';
import { feeE8OfCode, transactionIdKey } from '../core/transaction.js';
import { parseBlockBody } from '../consensus/block_check.js';
import type { Chain, StoredBlock } from '../chain/chain.js';
import { soleTransactionRefusal } from '../mining/template.js';
import { fail } from '../core/errors.js';
import { admit, freeBalances, type SignedRequest } from './admission.js';
import type { MinFeePolicy } from './fee_policy.js';
import { Mempool } from './mempool.js';
import { reservations, txId, type PendingTx } from './pending.js';

export class MempoolService {
  readonly pool: Mempool;
  private returning: PendingTx[] = [];
  /** Changes whenever transactions may have entered or left (stratum's better-template check). */
  version = 0;

  constructor(
    private readonly chain: Chain,
    readonly minFee: MinFeePolicy,
    capacity?: number,
  ) {
    this.pool = new Mempool(capacity);
    chain.onBeforeRollback((block) => this.collectReturning(block));
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
    for (const tx of this.pool.all()) if (!(await this.stillValid(tx))) this.pool.remove(tx);
    const free = new Map<string, bigint>();
    for (const tx of this.pool.all()) {
      for (const token of reservations(tx).keys()) {
        const b = await balanceOf(this.state, tx.originId, token);
        free.set(`${tx.originId}:${token}`, b.total - b.locked);
      }
    }
    this.pool.fitToBalances((account, token) => free.get(`${account}:${token}`) ?? 0n);
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
