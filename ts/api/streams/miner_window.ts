// The `minerdist` topic's data (clients.md §6.1): who received the reward of each of the last
// 1000 blocks, with counts per address, kept in step with appends and rollbacks. Changes are
// collected as signed count deltas per address until `takeDeltas`.
import type { Chain } from '../../chain/chain.js';
import { parseBlockBody } from '../../consensus/block_check.js';
import { formatAddress } from '../../core/address.js';
import { addressOf, dbReader } from '../../state/ledger.js';
import type { MinerCountView } from './events.js';

export const MINERDIST_WINDOW = 1000;

export class MinerWindow {
  /** Reward address of each block in [base, base + miners.length). */
  private miners: string[] = [];
  private base = 1;
  private readonly counts = new Map<string, number>();
  private readonly deltas = new Map<string, number>();

  private constructor(private readonly chain: Chain) {}

  /** Loads the window of the current chain; call between chain changes. */
  static async load(chain: Chain): Promise<MinerWindow> {
    const w = new MinerWindow(chain);
    w.base = Math.max(1, chain.length - MINERDIST_WINDOW + 1);
    for (let h = w.base; h <= chain.length; h++) w.count((w.miners[h - w.base] = await w.minerOf(h)), 1, false);
    return w;
  }

  /** Reward address of stored block `h`. */
  private async minerOf(h: number): Promise<string> {
    const b = await this.chain.block(h);
    if (!b) throw new Error(`block ${h} missing`);
    const body = parseBlockBody(this.chain.params, h, b.header.version, b.body);
    const address = await addressOf(dbReader(this.chain.db), body.reward.toId);
    if (!address) throw new Error(`block ${h} pays unknown account ${body.reward.toId}`);
    return formatAddress(address);
  }

  private count(address: string, d: number, record = true): void {
    const n = (this.counts.get(address) ?? 0) + d;
    if (n === 0) this.counts.delete(address);
    else this.counts.set(address, n);
    if (record) this.deltas.set(address, (this.deltas.get(address) ?? 0) + d);
  }

  /** Block `height` (the new tip) was appended, paying `address`. */
  appended(address: string): void {
    this.miners.push(address);
    this.count(address, 1);
    if (this.miners.length > MINERDIST_WINDOW) {
      this.count(this.miners.shift()!, -1);
      this.base++;
    }
  }

  /** The tip was rolled back; the block below the window re-enters it. Call while that block is stored. */
  async rolledBack(): Promise<void> {
    const gone = this.miners.pop();
    if (gone !== undefined) this.count(gone, -1);
    if (this.base > 1 && this.chain.length >= this.base - 1) {
      this.base--;
      const address = await this.minerOf(this.base);
      this.miners.unshift(address);
      this.count(address, 1);
    }
  }

  state(): MinerCountView[] {
    return [...this.counts].map(([address, count]) => ({ address, count }));
  }

  /** The count changes since the last call (zero changes left out). */
  takeDeltas(): MinerCountView[] {
    const out = [...this.deltas].filter(([, d]) => d !== 0).map(([address, count]) => ({ address, count }));
    this.deltas.clear();
    return out;
  }
}
