// The `account` topic's producer (clients.md §6.1): for an address, its coin balance and the
// entries that name it in the blocks appended since the last publication, all read from that
// publication's one view. A rolled-back block is gone from every later view, so the addresses it
// named are read before it goes, from the view of the chain that still has it, and kept until the
// publication after its change settles.
import type { ReadView } from '../../chain/read_view.js';
import type { StoredBlock } from '../../chain/chain.js';
import { parseAddress } from '../../core/address.js';
import { equalBytes } from '../../core/hex.js';
import { COIN_TOKEN_ID, accountIdOf, balanceOf, dbReader } from '../../state/ledger.js';
import type { Mempool } from '../../mempool/mempool.js';
import { coinAmount } from '../views/amount.js';
import { partialBlockView } from '../views/block.js';
import { addressesOf, transactionsAt, type Appended } from './appended.js';
import type { StreamEventBody } from './events.js';

export class AccountTopic {
  /** Addresses in blocks rolled back by the change in progress, then by settled changes not yet published. */
  private inChange = new Set<string>();
  private settled = new Set<string>();

  constructor(private readonly mempool: () => Mempool) {}

  /** Block `b` is about to be rolled back; `view` is the chain before the change (it has `b` unless the change appended it). */
  async rollingBack(view: ReadView, b: StoredBlock): Promise<void> {
    if (b.height > view.length || !equalBytes(view.hashAt(b.height), b.hash)) return; // never published
    for (const a of addressesOf((await transactionsAt(view, b.height)) ?? [])) this.inChange.add(a);
  }

  /** The change in progress settled: what it rolled back belongs to the next publication. */
  settle(): void {
    for (const a of this.inChange) this.settled.add(a);
    this.inChange.clear();
  }

  /** The addresses the next publication reports: in rolled-back blocks and in `appended`. */
  touched(appended: readonly Appended[]): Set<string> {
    const out = this.settled;
    this.settled = new Set();
    for (const a of appended) for (const x of addressesOf(a.txs ?? [])) out.add(x);
    return out;
  }

  /** Balance on `view` and the appended blocks, restricted to the account's entries. */
  async delta(view: ReadView, address: string, appended: readonly Appended[]): Promise<StreamEventBody<'account.delta'>> {
    const state = dbReader(view.db);
    const id = await accountIdOf(state, parseAddress(address)!);
    const b = id === undefined ? { total: 0n, locked: 0n } : await balanceOf(state, id, COIN_TOKEN_ID);
    const mempool = id === undefined ? 0n : this.mempool().reserved(id, COIN_TOKEN_ID);
    const history = appended
      .map((a) => ({ height: a.height, txs: (a.txs ?? []).filter((t) => addressesOf([t]).has(address)) }))
      .filter((a) => a.txs.length > 0)
      .map((a) => partialBlockView(view, a.height, a.txs));
    return { address, balance: { total: coinAmount(b.total), locked: coinAmount(b.locked), mempool: coinAmount(mempool) }, history };
  }
}
