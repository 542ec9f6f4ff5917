// The `minerdist` topic's producer (clients.md §6.1): who received the reward of each of the last
// 1000 blocks, with counts per address. It reads nothing but the read view it is given: at each
// publication it keeps the blocks of its window the view still has (by hash: below the fork point
// all of them), drops the others and reads the new ones, so appends, rollbacks and branch switches
// between two publications come out as one net change, the signed count deltas per address.
import type { ReadView } from '../../chain/read_view.js';
import { parseBlockBody } from '../../consensus/block_check.js';
import { formatAddress } from '../../core/address.js';
import { equalBytes } from '../../core/hex.js';
import { addressOf, dbReader } from '../../state/ledger.js';
import type { MinerCountView } from './events.js';

export const MINERDIST_WINDOW = 1000;

interface Reward {
  hash: Uint8Array;
  address: string;
}

export class MinerWindow {
  /** The block hash and reward address of each height of [base, base + rewards.length). */
  private rewards: Reward[] = [];
  private base = 1;
  private readonly counts = new Map<string, number>();

  private constructor() {}

  /** The window of `view`'s chain. */
  static async load(view: ReadView): Promise<MinerWindow> {
    const w = new MinerWindow();
    await w.follow(view);
    return w;
  }

  /** Moves the window to `view`'s chain; returns the count changes (zero changes left out). */
  async follow(view: ReadView): Promise<MinerCountView[]> {
    const deltas = new Map<string, number>();
    const count = (address: string, d: number) => {
      const n = (this.counts.get(address) ?? 0) + d;
      if (n === 0) this.counts.delete(address);
      else this.counts.set(address, n);
      deltas.set(address, (deltas.get(address) ?? 0) + d);
    };
    const top = this.base + this.rewards.length - 1;
    // The highest height whose block the view still has; all below it it has as well.
    let fork = Math.min(top, view.length);
    while (fork >= this.base && !equalBytes(view.hashAt(fork), this.rewards[fork - this.base].hash)) fork--;
    const from = Math.max(1, view.length - MINERDIST_WINDOW + 1);
    const next: Reward[] = [];
    for (let h = from; h <= view.length; h++) {
      const kept = h >= this.base && h <= fork ? this.rewards[h - this.base] : null;
      if (kept) {
        next.push(kept);
        continue;
      }
      const r = { hash: view.hashAt(h), address: await minerOf(view, h) };
      count(r.address, 1);
      next.push(r);
    }
    for (let h = this.base; h <= top; h++) if (h < from || h > fork) count(this.rewards[h - this.base].address, -1);
    this.base = from;
    this.rewards = next;
    return [...deltas].filter(([, d]) => d !== 0).map(([address, count]) => ({ address, count }));
  }

  state(): MinerCountView[] {
    return [...this.counts].map(([address, count]) => ({ address, count }));
  }
}

/** Reward address of block `h` of `view`. */
async function minerOf(view: ReadView, h: number): Promise<string> {
  const b = await view.block(h);
  if (!b) throw new Error(`block ${h} missing`);
  const body = parseBlockBody(view.params, h, b.header.version, b.body);
  const address = await addressOf(dbReader(view.db), body.reward.toId);
  if (!address) throw new Error(`block ${h} pays unknown account ${body.reward.toId}`);
  return formatAddress(address);
}
