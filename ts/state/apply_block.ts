// Applies a block's effects to the ledger (consensus.md §6.6, §9; exchange.md §2–§8, §10, §11)
// through a StateOverlay, in the processing order of exchange.md §7.1: new accounts, reward,
// cancelations, coin transfers, token sections (asset and liquidity transfers, new orders, the
// match, deposits, withdrawals), asset creations; then the net balance flows per (account, token)
// with the new-row rule N1 (§3.3), the transaction-id cache and the counters. Throws NodeError on
// the first violated rule; the caller then discards the overlay, so nothing is half-applied.
// The body has already passed checkBlockBody (size, layout, merkle root, reward claim, per-entry
// rules, duplicate ids inside the block).
import { U64_MAX } from '../core/amount.js';
import type { Body, TokenSection } from '../core/body.js';
import { canceledTransactionId, entryBytes, entryPinHeight, entryTransactionId, entryTxHash, type EntryContext, type SignedEntry } from '../core/entry.js';
import { fail } from '../core/errors.js';
import { concatBytes, toHex } from '../core/hex.js';
import type { HistoryKind } from '../core/history_kinds.js';
import { pinBegin } from '../core/pin.js';
import { feeE8OfCode, rewardHash, type TransactionId } from '../core/transaction.js';
import { verifyEntrySignature } from '../consensus/signature.js';
import { poolDeposit, poolWithdraw } from '../kernel/pool.js';
import type { PoolState } from '../kernel/pool.js';
import { loadBook, type LoadableOrder } from '../dex/lazy_book.js';
import { rawLimit, storedLimit } from '../dex/limit.js';
import { matchBook } from '../dex/matching.js';
import type { StateSource } from '../store/database.js';
import { u64Value } from '../store/keys.js';
import { addAsset, assetById, type Asset } from './assets.js';
import { addHistoryEntry, encodeMatch, linkAccountHistory, matchTxHash } from './history.js';
import {
  accountIdOf,
  addAccount,
  addressOf,
  balanceOf,
  dbReader,
  hasBalanceRow,
  nextHistoryId,
  nextStateId,
  setBalance,
  setNextHistoryId,
  setNextStateId,
  type KeyReader,
} from './ledger.js';
import { addOrder, bookOrderIds, orderById, orderByTxId, removeOrder, updateOrder, type OpenOrder } from './orders.js';
import type { StateOverlay } from './overlay.js';
import { hasPool, poolOf, setPool } from './pools.js';
import { COIN_TOKEN_ID, assetTokenId, liquidityTokenId } from './tokens.js';
import { addTrade, tradeTotals } from './trades.js';
import { addTxId, hasTxId, pruneTxIds } from './txids.js';

export interface BlockToApply {
  height: number;
  /** The block's hash (match records are named after it, exchange.md §8.7). */
  hash: Uint8Array;
  timestamp: number;
  body: Body;
  /** Hash of an earlier block of this chain (pinned hashes, §7.2); 0 is the genesis hash. */
  hashAt(height: number): Uint8Array;
  /**
   * False only when a block builder tries out transactions whose signatures were verified on
   * admission (the result is never committed).
   */
  verifySignatures?: boolean;
}

export interface AppliedBlock {
  firstStateId: bigint;
  firstHistoryId: bigint;
}

/** The summed effects on one (account, token) row (exchange.md §3.3). */
interface Flow {
  account: bigint;
  token: bigint;
  plus: bigint;
  minus: bigint;
  lockPlus: bigint;
  lockMinus: bigint;
}

const u64 = (v: bigint) => u64Value(v);

class BlockApplier {
  /** Every (account, token) flow of the block, in first-use order. */
  private readonly flows: Flow[] = [];
  private historyId = 0n;
  private firstStateId = 0n;
  private newAccounts = 0n;
  /** The state before the block: the reference reads orders and pools from it (see match()). */
  private readonly before: KeyReader;
  /** Orders canceled by this block: matching skips them (block_applier.cpp:189). */
  private readonly canceledOrders = new Set<bigint>();
  /** Limit swaps of the block's earlier token sections (see match()). */
  private limitSwapsBefore = 0;

  constructor(
    private readonly db: StateSource,
    private readonly s: StateOverlay,
    private readonly b: BlockToApply,
  ) {
    this.before = dbReader(db);
  }

  /** Per account, then per token (bigint keys: no string per debit or credit). */
  private readonly flowsOf = new Map<bigint, Map<bigint, Flow>>();

  private flow(account: bigint, token: bigint): Flow {
    let tokens = this.flowsOf.get(account);
    if (!tokens) this.flowsOf.set(account, (tokens = new Map()));
    let f = tokens.get(token);
    if (!f) {
      tokens.set(token, (f = { account, token, plus: 0n, minus: 0n, lockPlus: 0n, lockMinus: 0n }));
      this.flows.push(f);
    }
    return f;
  }
  private credit(a: bigint, t: bigint, v: bigint) {
    this.flow(a, t).plus += v;
  }
  private debit(a: bigint, t: bigint, v: bigint) {
    this.flow(a, t).minus += v;
  }
  private lock(a: bigint, t: bigint, v: bigint) {
    this.flow(a, t).lockPlus += v;
  }
  private unlock(a: bigint, t: bigint, v: bigint) {
    this.flow(a, t).lockMinus += v;
  }

  private isNew(id: bigint): boolean {
    return id >= this.firstStateId;
  }

  private readonly addresses = new Map<bigint, Uint8Array>();

  /** An id at or above the block's new accounts is EIDPOLICY; one that names no account, EACCIDNOTFOUND (as the reference). */
  private async addressOfId(id: bigint): Promise<Uint8Array> {
    let a = this.addresses.get(id);
    if (a) return a;
    if (id >= this.firstStateId + this.newAccounts) fail('EIDPOLICY', `account id ${id} is not yet assigned`);
    a = (await addressOf(this.s, id)) ?? fail('EACCIDNOTFOUND', `account id ${id}`);
    this.addresses.set(id, a);
    return a;
  }

  /** The block's history ids per account, in id order: linked with one record each at the end (linkAccountHistory). */
  private readonly accountIds = new Map<bigint, bigint[]>();

  private async history(kind: HistoryKind, hash: Uint8Array, payload: Uint8Array, accounts: bigint[]): Promise<bigint> {
    const id = this.historyId++;
    addHistoryEntry(this.s, id, { kind, height: this.b.height, hash, payload });
    for (const a of accounts) {
      const ids = this.accountIds.get(a);
      if (!ids) this.accountIds.set(a, [id]);
      else if (ids[ids.length - 1] !== id) ids.push(id); // an account named twice by one entry: linked once
    }
    return id;
  }

  /**
   * The checks every signed entry passes: a known signer, an unused transaction id, a signature
   * that recovers to the signer's address; then its id is used and its fee charged. A new account
   * may sign, but the fee (at least 1 E8) is then a debit on a new row: EBALANCE (applyFlows).
   */
  private async signed(e: SignedEntry, ctx: EntryContext): Promise<{ hash: Uint8Array; id: TransactionId }> {
    const h = this.b.height;
    const origin = await this.addressOfId(e.originId);
    const id = entryTransactionId(e, h);
    if (await hasTxId(this.s, id)) fail('ENONCE', `transaction ${id.accountId}/${id.pinHeight}/${id.nonceId} was mined before`);
    const pinHash = this.pinHash(entryPinHeight(e, h));
    const hash = this.b.verifySignatures === false ? entryTxHash(e, h, pinHash, ctx) : verifyEntrySignature(e, h, pinHash, origin, ctx);
    await this.useTxId(id, true);
    this.debit(e.originId, COIN_TOKEN_ID, feeE8OfCode(e.feeCode));
    return { hash, id };
  }

  /** Hashes of the pinned blocks, each asked of the chain once per block (its entries share a few pins). */
  private readonly pinHashes = new Map<number, Uint8Array>();
  private pinHash(height: number): Uint8Array {
    let hash = this.pinHashes.get(height);
    if (!hash) this.pinHashes.set(height, (hash = this.b.hashAt(height)));
    return hash;
  }

  /** `unused`: the caller has just found the id unused (a signed entry's own id), no second read. */
  private async useTxId(id: TransactionId, unused = false): Promise<void> {
    // An id below the next block's window would be pruned at once (§7.6).
    if (id.pinHeight >= pinBegin(this.b.height + 1) && (unused || !(await hasTxId(this.s, id)))) addTxId(this.s, id, this.b.height);
  }

  async apply(): Promise<AppliedBlock> {
    const { body } = this.b;
    // New accounts first (§6.6): ids N + i, distinct, not yet existing.
    this.firstStateId = await nextStateId(this.s);
    this.newAccounts = BigInt(body.newAddresses.length);
    const seen = new Set<string>();
    for (const [i, address] of body.newAddresses.entries()) {
      const k = toHex(address);
      if (seen.has(k) || (await accountIdOf(this.s, address)) !== undefined) fail('EADDRPOLICY', `address ${k} exists already`);
      seen.add(k);
      await addAccount(this.s, this.firstStateId + BigInt(i), address);
    }
    // Asset creations take the next ids, in body order (exchange.md §2.4), before any balance row.
    const firstAssetId = this.firstStateId + this.newAccounts;
    let nextId = firstAssetId + BigInt(body.assetCreations.length);

    const firstHistoryId = await nextHistoryId(this.s);
    this.historyId = firstHistoryId;

    await this.reward();
    for (const c of body.cancelations) await this.cancelation(c);
    for (const t of body.coinTransfers) {
      const to = await this.addressOfId(t.toId);
      const { hash } = await this.signed(t, { toAddress: to });
      this.debit(t.originId, COIN_TOKEN_ID, t.amount);
      this.credit(t.toId, COIN_TOKEN_ID, t.amount);
      await this.history('coinTransfer', hash, entryBytes(t), [t.originId, t.toId]);
    }
    for (const section of body.tokenSections) await this.tokenSection(section);
    for (const [i, c] of body.assetCreations.entries()) await this.assetCreation(c, firstAssetId + BigInt(i));

    nextId = await this.applyFlows(nextId);
    // Ids below pinBegin(h + 1) are never added (useTxId), and the ones below pinBegin(h)
    // went with block h − 1: there is something to prune only where the window moves, every 32nd
    // block (each prune is a walk of the database, off the event loop).
    if (pinBegin(this.b.height + 1) !== pinBegin(this.b.height)) await pruneTxIds(this.db, this.s, pinBegin(this.b.height + 1));
    for (const [account, ids] of this.accountIds) linkAccountHistory(this.s, account, ids);
    await setNextStateId(this.s, nextId);
    await setNextHistoryId(this.s, this.historyId);
    return { firstStateId: this.firstStateId, firstHistoryId };
  }

  private async reward(): Promise<void> {
    const { toId, amount } = this.b.body.reward;
    const address = await this.addressOfId(toId);
    this.credit(toId, COIN_TOKEN_ID, amount);
    await this.history('reward', rewardHash(address, amount, this.b.height), concatBytes(u64(toId), u64(amount)), [toId]);
  }

  /**
   * exchange.md §5.4: the target id becomes used; an open order with it leaves the book, unlocked.
   * The order is looked up in the state before the block, as the reference does (block_applier.cpp:1223):
   * a second cancelation of the same order in the block finds it again and unlocks its remaining
   * again. Reading its stored limit aborts the reference when the limit is no valid price.
   */
  private async cancelation(c: Extract<SignedEntry, { kind: 'cancelation' }>): Promise<void> {
    const { hash } = await this.signed(c, {});
    const target = canceledTransactionId(c);
    await this.useTxId(target);
    const order = await orderByTxId(this.before, target);
    if (order) {
      storedLimit(order.limit);
      this.canceledOrders.add(order.id);
      await removeOrder(this.s, order);
      this.unlock(order.accountId, spendToken(order), order.amount - order.filled);
    }
    await this.history('cancelation', hash, concatBytes(u64(order?.id ?? 0n), entryBytes(c)), [c.originId]);
  }

  /**
   * One token section, as the reference processes it (block_applier.cpp:1144–1161): transfers, new
   * orders and their match, deposits, withdrawals. The section reads the pool and the stored
   * orders as they were before the block, and only its own new orders: a block may carry several
   * sections of one asset (nothing forbids it), and each then starts from the state before the
   * block; the writes land in section order (see writePool, fill).
   */
  private async tokenSection(section: TokenSection): Promise<void> {
    const asset = (await assetById(this.s, section.assetId)) ?? fail('EASSETIDNOTFOUND', `token section for unknown asset ${section.assetId}`);
    const ctx = { assetHash: asset.hash };
    for (const t of [...section.assetTransfers, ...section.shareTransfers]) {
      const token = t.kind === 'assetTransfer' ? assetTokenId(asset.id) : liquidityTokenId(asset.id);
      const to = await this.addressOfId(t.toId);
      const { hash } = await this.signed(t, { ...ctx, toAddress: to });
      this.debit(t.originId, token, t.amount);
      this.credit(t.toId, token, t.amount);
      const isLiquidity = Uint8Array.of(t.kind === 'shareTransfer' ? 1 : 0);
      await this.history('tokenTransfer', hash, concatBytes(u64(asset.id), isLiquidity, entryBytes(t)), [t.originId, t.toId]);
    }
    // The pool is read on first use in the section (the reference's AssetHandle::get_pool).
    let pool: PoolState | null = null;
    const sectionPool = async () => (pool ??= await poolOf(this.before, asset.id));
    const newOrders: OpenOrder[] = [];
    for (const o of section.limitSwaps) {
      const { hash, id } = await this.signed(o, ctx);
      const order: OpenOrder = {
        id: this.historyId,
        accountId: o.originId,
        assetId: asset.id,
        isBuy: o.buy,
        amount: o.amount,
        filled: 0n,
        limit: o.limit,
        pinHeight: id.pinHeight,
        nonceId: id.nonceId,
        txHash: hash,
        height: this.b.height,
      };
      this.lock(o.originId, spendToken(order), o.amount);
      await addOrder(this.s, order);
      newOrders.push(order);
      await this.history('limitSwap', hash, concatBytes(u64(asset.id), entryBytes(o)), [o.originId]);
    }
    // §7.2: the match runs once per section with at least one new order.
    if (newOrders.length > 0) pool = await this.match(asset, await sectionPool(), newOrders);
    this.limitSwapsBefore += newOrders.length;
    for (const d of section.liquidityDeposits) {
      const { hash } = await this.signed(d, ctx);
      // A reserve overflow trips an assertion in the reference (pool.hpp:111): it exits.
      const r = poolDeposit(await sectionPool(), d.base, d.quote) ?? fail('EREFABORT', 'the deposit overflows the pool');
      // Minting 0 shares trips an assertion in the reference when it records the deposit (the
      // history entry takes non-zero shares, history.cpp:78): it exits, for any depositor.
      if (r.minted === 0n) fail('EREFABORT', 'the deposit mints 0 liquidity shares (the reference exits recording it, history.cpp:78)');
      pool = r.after;
      this.debit(d.originId, COIN_TOKEN_ID, d.quote);
      this.debit(d.originId, assetTokenId(asset.id), d.base);
      this.credit(d.originId, liquidityTokenId(asset.id), r.minted);
      await this.history('liquidityDeposit', hash, concatBytes(u64(asset.id), u64(r.minted), entryBytes(d)), [d.originId]);
    }
    for (const w of section.liquidityWithdrawals) {
      const { hash } = await this.signed(w, ctx);
      const r = poolWithdraw(await sectionPool(), w.shares) ?? fail('EPOOLREDEEM', `${w.shares} shares of a pool that issued ${pool!.shares}`);
      pool = r.after;
      this.debit(w.originId, liquidityTokenId(asset.id), w.shares);
      this.credit(w.originId, assetTokenId(asset.id), r.base);
      this.credit(w.originId, COIN_TOKEN_ID, r.quote);
      await this.history('liquidityWithdrawal', hash, concatBytes(u64(asset.id), u64(r.base), u64(r.quote), entryBytes(w)), [w.originId]);
    }
    if (pool !== null) await this.writePool(asset.id, pool);
  }

  /**
   * Writes a section's pool as the reference's effects do (block_applier.cpp:1154–1159): a pool
   * that did not exist before the block is inserted when non-zero, which fails (the reference
   * exits) if an earlier section inserted it already; otherwise the row is updated if it exists.
   */
  private async writePool(assetId: bigint, pool: PoolState): Promise<void> {
    const nonZero = pool.base !== 0n || pool.quote !== 0n || pool.shares !== 0n;
    if (!(await hasPool(this.before, assetId)) && nonZero) {
      if (await hasPool(this.s, assetId)) fail('EREFABORT', `a second section inserts the pool of asset ${assetId}`);
      await setPool(this.s, assetId, pool);
    } else if (await hasPool(this.s, assetId)) {
      await setPool(this.s, assetId, pool);
    }
  }

  /**
   * exchange.md §8: matches the section's new orders with the stored book (as before the block,
   * without the orders it canceled) and the pool, loading orders as the reference does
   * (lazy_book.ts), and settles the fills. Returns the pool after the match.
   * A partial fill of one of the section's new orders makes the reference look the order up in
   * the block's list of limit swaps at its index within the section (block_applier.cpp:1310–1315):
   * after an earlier section with limit swaps that is another order, and an assertion ends it.
   */
  private async match(asset: Asset, pool: PoolState, newOrders: OpenOrder[]): Promise<PoolState> {
    const open = new Map<bigint, OpenOrder>();
    const sides = {
      sells: { stored: [] as LoadableOrder[], fresh: [] as LoadableOrder[] },
      buys: { stored: [] as LoadableOrder[], fresh: [] as LoadableOrder[] },
    };
    const add = (o: OpenOrder, stored: boolean) => {
      open.set(o.id, o);
      const side = o.isBuy ? sides.buys : sides.sells;
      (stored ? side.stored : side.fresh).push({ id: o.id, limit: rawLimit(o.limit), amount: o.amount, filled: o.filled });
    };
    for (const id of await bookOrderIds(this.db, asset.id)) add((await orderById(this.before, id))!, true);
    for (const o of newOrders) add(o, false);
    const book = loadBook(pool, sides.sells, sides.buys, this.canceledOrders);
    const m = matchBook(pool, book);
    if (this.limitSwapsBefore > 0) {
      const fresh = new Set(newOrders.map((o) => o.id));
      for (const sw of [...m.sellSwaps, ...m.buySwaps]) {
        if (fresh.has(sw.id) && sw.remaining > 0n) fail('EREFABORT', `new order ${sw.id} is filled partly in a token section after another with limit swaps`);
      }
    }
    const asTok = assetTokenId(asset.id);
    for (const sw of m.buySwaps) {
      const o = open.get(sw.id)!;
      this.debit(o.accountId, COIN_TOKEN_ID, sw.quote);
      this.unlock(o.accountId, COIN_TOKEN_ID, sw.quote);
      this.credit(o.accountId, asTok, sw.base);
      await this.fill(o, sw.quote);
    }
    for (const sw of m.sellSwaps) {
      const o = open.get(sw.id)!;
      this.debit(o.accountId, asTok, sw.base);
      this.unlock(o.accountId, asTok, sw.base);
      this.credit(o.accountId, COIN_TOKEN_ID, sw.quote);
      await this.fill(o, sw.base);
    }
    const after: PoolState = { base: m.poolAfter.base, quote: m.poolAfter.quote, shares: pool.shares };
    if (!m.recorded) return after;
    const record = {
      assetId: asset.id,
      poolBefore: m.poolBefore,
      poolAfter: m.poolAfter,
      buySwaps: m.buySwaps.map((s) => ({ historyId: s.id, base: s.base, quote: s.quote })),
      sellSwaps: m.sellSwaps.map((s) => ({ historyId: s.id, base: s.base, quote: s.quote })),
    };
    const accounts = [...m.sellSwaps, ...m.buySwaps].map((s) => open.get(s.id)!.accountId);
    await this.history('match', matchTxHash(this.b.hash, asset.id), encodeMatch(record), accounts);
    const trade = tradeTotals(record, asset.decimals);
    if (trade.base !== 0n && trade.quote !== 0n) await addTrade(this.s, asset.id, { height: this.b.height, timestamp: this.b.timestamp, ...trade });
    return after;
  }

  /**
   * Records a fill of `paid` on `o` (its filled amount as the match read it) as the reference's
   * database statements do: a complete order is deleted; otherwise the fill state is set, which
   * changes nothing if an earlier section or cancelation deleted the order.
   */
  private async fill(o: OpenOrder, paid: bigint): Promise<void> {
    const filled = o.filled + paid;
    if (filled >= o.amount) await removeOrder(this.s, o);
    else if (await orderById(this.s, o.id)) await updateOrder(this.s, { ...o, filled });
  }

  private async assetCreation(c: Extract<SignedEntry, { kind: 'assetCreation' }>, assetId: bigint): Promise<void> {
    const { hash } = await this.signed(c, {});
    const asset: Asset = {
      id: assetId,
      hash,
      name: '',
      decimals: c.precision,
      height: this.b.height,
      ownerAccountId: c.originId,
      supply: c.supply,
    };
    await addAsset(this.s, asset, c.name);
    this.credit(c.originId, assetTokenId(assetId), c.supply);
    await this.history('assetCreation', hash, concatBytes(u64(assetId), entryBytes(c)), [c.originId]);
  }

  /**
   * Applies the summed flows (§3.3) as the reference's process_balances (block_applier.cpp:977–1078):
   * accounts in id order (the existing ones, then the new ones), each account's tokens in id order.
   * A new row needs a positive credit (else EIDNOTREFERENCED) and no debit or lock (else EBALANCE);
   * an existing row must stay within 0 ≤ locked ≤ total < 2^64 (else EBALANCE, for every token); a
   * new account must receive something (else EIDPOLICY). New rows draw state ids in the order of
   * exchange.md §2.4 (a new account's coin row reuses its id). Returns the next state id.
   */
  private async applyFlows(nextId: bigint): Promise<bigint> {
    const flows = [...this.flows].sort((a, b) => (a.account !== b.account ? cmp(a.account, b.account) : cmp(a.token, b.token)));
    let drawing = 0n;
    const referred = new Set<bigint>();
    const checkReferred = (upTo: bigint) => {
      // new accounts below `upTo` whose flows are all processed must have received something
      for (let id = this.firstStateId; id < upTo && id < this.firstStateId + this.newAccounts; id++) {
        if (!referred.has(id)) fail('EIDPOLICY', `new account ${id} receives nothing`);
      }
    };
    for (const f of flows) {
      checkReferred(f.account);
      if (this.isNew(f.account) || !(await hasBalanceRow(this.s, f.account, f.token))) {
        if (f.plus === 0n) fail('EIDNOTREFERENCED', `account ${f.account} token ${f.token}: a new balance row without a credit`);
        if (f.minus !== 0n || f.lockPlus !== 0n || f.lockMinus !== 0n)
          fail('EBALANCE', `account ${f.account} cannot spend or lock token ${f.token} it receives in this block`);
        if (f.plus > U64_MAX) fail('EBALANCE', 'balance overflows');
        referred.add(f.account);
        await setBalance(this.s, f.account, f.token, { total: f.plus, locked: 0n });
        if (!(this.isNew(f.account) && f.token === COIN_TOKEN_ID)) drawing++;
        continue;
      }
      const old = await balanceOf(this.s, f.account, f.token);
      const total = old.total + f.plus - f.minus;
      const locked = old.locked + f.lockPlus - f.lockMinus;
      if (total < 0n || locked < 0n || locked > total) fail('EBALANCE', `account ${f.account} token ${f.token}: total ${total}, locked ${locked}`);
      if (old.total + f.plus > U64_MAX || old.locked + f.lockPlus > U64_MAX) fail('EBALANCE', 'balance overflows');
      await setBalance(this.s, f.account, f.token, { total, locked });
    }
    checkReferred(this.firstStateId + this.newAccounts);
    // Only the number of ids drawn matters: rows do not store theirs.
    return nextId + drawing;
  }
}

const cmp = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/** Buys spend coin, sells spend the asset (exchange.md §3.1). */
function spendToken(o: OpenOrder): bigint {
  return o.isBuy ? COIN_TOKEN_ID : assetTokenId(o.assetId);
}

export async function applyBlock(db: StateSource, s: StateOverlay, b: BlockToApply): Promise<AppliedBlock> {
  return new BlockApplier(db, s, b).apply();
}
