// The mempool (exchange.md §12, http-api-details.md §4.6): signed transactions waiting for a block,
// with per-(account, token) reservations that never exceed the on-chain free balance
// (total − locked), same-id replacement by a strictly higher fee, eviction of an account's
// lower-fee transactions to make room, and a capacity of 10,000 (lowest fee, oldest first, leave).
import { fail } from '../core/errors.js';
import { toHex } from '../core/hex.js';
import { transactionIdKey } from '../core/transaction.js';
import { reservations, txId, type PendingTx } from './pending.js';

export const MEMPOOL_CAPACITY = 10_000;

interface Slot {
  tx: PendingTx;
  seq: number;
  reserve: Map<bigint, bigint>;
}

/** Ascending (fee, age): the order in which entries are evicted. */
const cheaperFirst = (a: Slot, b: Slot) => a.tx.feeCode - b.tx.feeCode || a.seq - b.seq;

/** Index in `list` (ascending cheaperFirst) where `s` is or would go: binary search. */
function indexIn(list: Slot[], s: Slot): number {
  let lo = 0,
    hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cheaperFirst(list[mid], s) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Mempool {
  private readonly byId = new Map<string, Slot>();
  private readonly byHash = new Map<string, Slot>();
  /** Each account's slots, ascending (fee, age) like `ordered`: an admission that must evict reads them in order, unsorted. */
  private readonly byAccount = new Map<bigint, Slot[]>();
  /** Every slot in eviction order, ascending (fee, age): the cheapest is first. */
  private readonly ordered: Slot[] = [];
  /** Per account and token, the sum its pending transactions reserve. */
  private readonly reservedSums = new Map<bigint, Map<bigint, bigint>>();
  private seq = 0;
  /** Slots linked since the last `takeAdded()` (some may have left since). */
  private added: Slot[] = [];

  constructor(readonly capacity = MEMPOOL_CAPACITY) {}

  get size(): number {
    return this.byId.size;
  }

  byTxHash(hash: Uint8Array): PendingTx | undefined {
    return this.byHash.get(toHex(hash))?.tx;
  }

  hasId(key: string): boolean {
    return this.byId.has(key);
  }

  /** The pending transaction with this id key (`transactionIdKey`). */
  byIdKey(key: string): PendingTx | undefined {
    return this.byId.get(key)?.tx;
  }

  /** The `n` highest-fee transactions in the order of `all()`, in O(n + log size). */
  highest(n: number): PendingTx[] {
    const out: PendingTx[] = [];
    // `ordered` ascends by (fee, age): take fee groups from the top, each oldest first.
    for (let end = this.ordered.length; end > 0 && out.length < n; ) {
      const start = this.groupStart(this.ordered[end - 1].tx.feeCode, end);
      for (let i = start; i < end && out.length < n; i++) out.push(this.ordered[i].tx);
      end = start;
    }
    return out;
  }

  /** Transactions that entered since the previous call and are still pending (push relay). */
  takeAdded(): PendingTx[] {
    const out = this.added.filter((s) => this.byId.get(transactionIdKey(txId(s.tx))) === s).map((s) => s.tx);
    this.added = [];
    return out;
  }

  /** All transactions, highest fee first (oldest first among equal fees). */
  all(): PendingTx[] {
    return [...this.byId.values()].sort((a, b) => b.tx.feeCode - a.tx.feeCode || a.seq - b.seq).map((s) => s.tx);
  }

  /** The transactions of `accounts`, in no particular order. */
  ofAccounts(accounts: Iterable<bigint>): PendingTx[] {
    const out: PendingTx[] = [];
    for (const a of accounts) for (const s of this.byAccount.get(a) ?? []) out.push(s.tx);
    return out;
  }

  /** Removes every transaction `keep` refuses; returns how many left. */
  removeUnless(keep: (tx: PendingTx) => boolean): number {
    let n = 0;
    for (const s of [...this.byId.values()])
      if (!keep(s.tx)) {
        this.unlink(s);
        n++;
      }
    return n;
  }

  ofAccount(accountId: bigint): PendingTx[] {
    return [...(this.byAccount.get(accountId) ?? [])].sort((a, b) => b.tx.feeCode - a.tx.feeCode || a.seq - b.seq).map((s) => s.tx);
  }

  /** Sum reserved by an account's pending transactions for one token. */
  reserved(accountId: bigint, tokenId: bigint): bigint {
    return this.reservedSums.get(accountId)?.get(tokenId) ?? 0n;
  }

  /** The lowest fee code present when the mempool is full (its admission threshold), else null. */
  fullThreshold(): number | null {
    return this.size < this.capacity ? null : this.ordered[0].tx.feeCode;
  }

  /**
   * Inserts `tx` under the balance rules of exchange.md §12.3; `free(tokenId)` is the signer's
   * on-chain total − locked. Throws ENONCE (same id, fee not higher), EREFABORT (another account's
   * pending transaction has its txHash), EBALANCE or ETOKBALANCE (not enough even after evicting
   * cheaper transactions), changing nothing. Returns the evicted.
   */
  insert(tx: PendingTx, free: (tokenId: bigint) => bigint): PendingTx[] {
    this.refuseReplacement(tx);
    const replaced = this.byId.get(transactionIdKey(txId(tx)));
    // The signed bytes do not name the signer: two accounts signing the same fields make one txHash.
    // A reference holding both exits on its mempool's assertion (mempool.hpp:65), so never relay a twin.
    const twin = this.byHash.get(toHex(tx.hash));
    if (twin && twin !== replaced) fail('EREFABORT', 'another account has a pending transaction with this txHash (the same signed fields)');
    const need = reservations(tx);
    const own = this.byAccount.get(tx.originId) ?? [];
    const marked = new Set<Slot>();
    // Other tokens first, then coin (§12.3 rules 2 and 3); the replaced entry still counts.
    const tokens = [...need.keys()].sort((a, b) => (a === 0n ? 1 : b === 0n ? -1 : a < b ? -1 : 1));
    for (const token of tokens) {
      const t = need.get(token)!;
      if (t === 0n) continue;
      const f = free(token);
      const short = token === 0n ? 'EBALANCE' : 'ETOKBALANCE';
      if (f < t) fail(short, `needs ${t}, free balance ${f}`);
      let reserved = this.reserved(tx.originId, token);
      for (const s of marked) reserved -= s.reserve.get(token) ?? 0n;
      for (const s of f - reserved >= t ? [] : own) {
        if (f - reserved >= t) break;
        if (s === replaced || marked.has(s)) continue;
        if (s.tx.feeCode >= tx.feeCode) break;
        if ((s.reserve.get(token) ?? 0n) === 0n) continue;
        marked.add(s);
        reserved -= s.reserve.get(token) ?? 0n;
      }
      if (f - reserved < t) fail(short, `needs ${t}, free balance ${f} of which pending transactions reserve ${reserved}`);
    }
    const evicted = [...marked].map((s) => s.tx);
    for (const s of marked) this.unlink(s);
    if (replaced) {
      this.unlink(replaced);
      evicted.push(replaced.tx);
    }
    this.link({ tx, seq: this.seq++, reserve: need });
    evicted.push(...this.prune());
    return evicted;
  }

  /**
   * Throws ENONCE when a pending transaction has `tx`'s id (account, pinHeight, nonceId) and a fee at
   * least as high: the references' mempools refuse that before they look at any balance
   * (mempool.cpp `insert_tx_throw`, 0.8.20 and 0.10.3).
   */
  refuseReplacement(tx: PendingTx): void {
    const replaced = this.byId.get(transactionIdKey(txId(tx)));
    if (replaced && replaced.tx.feeCode >= tx.feeCode) fail('ENONCE', 'a transaction with this (pinHeight, nonceId) is pending with a fee at least as high');
  }

  /** Removes a transaction (mined, invalid, or below a new minimum fee). */
  remove(tx: PendingTx): void {
    const s = this.byId.get(transactionIdKey(txId(tx)));
    if (s && s.tx === tx) this.unlink(s);
  }

  /** Removes every transaction with a fee code below `minCode`; returns how many left. */
  removeBelow(minCode: number): number {
    return this.removeUnless((tx) => tx.feeCode >= minCode);
  }

  /**
   * After a block or rollback (§12.4): for each account, while its reservations of a token exceed
   * `free(account, token)`, evicts its cheapest transactions. Returns the evicted.
   */
  fitToBalances(free: (accountId: bigint, tokenId: bigint) => bigint, accounts: Iterable<bigint> | null = null): PendingTx[] {
    const evicted: PendingTx[] = [];
    const which = accounts ? [...accounts].map((a) => [a, this.byAccount.get(a)] as const) : [...this.byAccount.entries()];
    for (const [account, slots] of which) {
      if (!slots) continue;
      const tokens = new Set<bigint>();
      for (const s of slots) for (const t of s.reserve.keys()) tokens.add(t);
      const order = [...tokens].sort((a, b) => (a === 0n ? 1 : b === 0n ? -1 : a < b ? -1 : 1));
      for (const token of order) {
        const f = free(account, token);
        // A copy: unlink takes the slot out of `slots` (already in eviction order).
        for (const s of [...slots]) {
          if (this.reserved(account, token) <= f) break;
          if ((s.reserve.get(token) ?? 0n) === 0n) continue;
          this.unlink(s);
          evicted.push(s.tx);
        }
      }
    }
    return evicted;
  }

  private prune(): PendingTx[] {
    const out: PendingTx[] = [];
    while (this.size > this.capacity) {
      const cheapest = this.ordered[0];
      this.unlink(cheapest);
      out.push(cheapest.tx);
    }
    return out;
  }

  /** The first index below `end` of the slots with fee code `fee` (binary search). */
  private groupStart(fee: number, end: number): number {
    let lo = 0,
      hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ordered[mid].tx.feeCode < fee) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private addReserved(s: Slot, sign: 1n | -1n): void {
    let m = this.reservedSums.get(s.tx.originId);
    if (!m) this.reservedSums.set(s.tx.originId, (m = new Map()));
    for (const [token, v] of s.reserve) m.set(token, (m.get(token) ?? 0n) + sign * v);
    if (sign < 0n && !this.byAccount.has(s.tx.originId)) this.reservedSums.delete(s.tx.originId);
  }

  private link(s: Slot): void {
    this.ordered.splice(indexIn(this.ordered, s), 0, s);
    this.byId.set(transactionIdKey(txId(s.tx)), s);
    this.byHash.set(toHex(s.tx.hash), s);
    let own = this.byAccount.get(s.tx.originId);
    if (!own) this.byAccount.set(s.tx.originId, (own = []));
    own.splice(indexIn(own, s), 0, s);
    this.addReserved(s, 1n);
    // Nobody may take them (no peers): keep at most a mempool's worth, the newest.
    if (this.added.push(s) > 2 * this.capacity) this.added = this.added.slice(-this.capacity);
  }

  private unlink(s: Slot): void {
    const i = indexIn(this.ordered, s);
    if (this.ordered[i] === s) this.ordered.splice(i, 1);
    this.byId.delete(transactionIdKey(txId(s.tx)));
    this.byHash.delete(toHex(s.tx.hash));
    const own = this.byAccount.get(s.tx.originId);
    if (own) {
      const j = indexIn(own, s);
      if (own[j] === s) own.splice(j, 1);
      if (own.length === 0) this.byAccount.delete(s.tx.originId);
    }
    this.addReserved(s, -1n);
  }
}
