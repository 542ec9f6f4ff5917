// The `chain` topic's producer and `/ws/chain_delta`'s (clients.md §6.1, §6.2): the last ten
// blocks and the head, and what changed since the last publication — appended blocks, or a
// rollback (a fork), or, when more blocks came than an event shows, a new state — all read from
// that publication's one view.
import type { ReadView } from '../../chain/read_view.js';
import { chainHeadView } from '../views/chain_head.js';
import { blockViews, type Appended, type BlockView } from './appended.js';
import type { StreamEventBody } from './events.js';

/** Blocks in `chain.state` and `chain.fork`; more new blocks than this are sent as a new state (clients.md §6.1). */
export const CHAIN_STATE_BLOCKS = 10;

type ChainEvent =
  | { type: 'chain.state'; event: StreamEventBody<'chain.state'> }
  | { type: 'chain.append'; event: StreamEventBody<'chain.append'> }
  | { type: 'chain.fork'; event: StreamEventBody<'chain.fork'> };

export type DeltaMessage = { type: 'rollback'; data: { length: number } } | { type: 'blockAppend'; data: BlockView };

/** What one publication sends: the topic's state from then on, its event, the chain-delta messages. */
export interface ChainPublication {
  state: StreamEventBody<'chain.state'> | null;
  event: ChainEvent | null;
  deltas: DeltaMessage[];
}

export class ChainTopic {
  /** The last blocks as last published or loaded (oldest first); null until someone subscribes. */
  private latest: BlockView[] | null = null;

  get loaded(): boolean {
    return this.latest !== null;
  }

  /** The topic's state on `view`, kept from now on. */
  async load(view: ReadView): Promise<StreamEventBody<'chain.state'>> {
    this.latest = await blockViews(view, Math.max(1, view.length - CHAIN_STATE_BLOCKS + 1), view.length);
    return { head: chainHeadView(view), latestBlocks: this.latest };
  }

  /** How many of the appended blocks some event shows: every one for chain-delta subscribers, else the last ten. */
  viewFrom(appendedCount: number, deltaSubscribers: boolean): number {
    return deltaSubscribers ? 0 : this.latest !== null ? appendedCount - CHAIN_STATE_BLOCKS : appendedCount;
  }

  /** The events of the blocks appended (on `view`) and the rollback since the last publication. */
  async publish(view: ReadView, appended: readonly Appended[], rollbackTo: number | null, deltaSubscribers: boolean): Promise<ChainPublication> {
    const len = view.length;
    const current = (v: BlockView): BlockView => ({ ...v, confirmations: len - v.height + 1 });
    const views = appended.filter((a) => a.view).map((a) => a.view!);
    const out: ChainPublication = { state: null, event: null, deltas: [] };
    if (this.latest !== null && (appended.length || rollbackTo !== null)) {
      // A first subscription loads the last blocks itself, possibly after some of these changes.
      const covered = rollbackTo === null ? this.latest.reduce((m, v) => Math.max(m, v.height), 0) : 0;
      const fresh = views.filter((v) => v.height > covered);
      let latest = this.latest
        .filter((v) => v.height <= (rollbackTo ?? Infinity) && v.height < (appended[0]?.height ?? Infinity))
        .concat(views)
        .slice(-CHAIN_STATE_BLOCKS);
      const want = Math.min(CHAIN_STATE_BLOCKS, len);
      if (latest.length < want) latest = (await blockViews(view, len - want + 1, (latest[0]?.height ?? len + 1) - 1)).concat(latest);
      latest = latest.map(current);
      const head = chainHeadView(view);
      this.latest = latest;
      out.state = { head, latestBlocks: latest };
      if (rollbackTo !== null) out.event = { type: 'chain.fork', event: { head, latestBlocks: latest, rollbackLength: rollbackTo } };
      else if (appended.length > CHAIN_STATE_BLOCKS) out.event = { type: 'chain.state', event: { head, latestBlocks: latest } };
      else if (fresh.length) out.event = { type: 'chain.append', event: { head, newBlocks: fresh.map(current) } };
    }
    if (deltaSubscribers) {
      if (rollbackTo !== null) out.deltas.push({ type: 'rollback', data: { length: rollbackTo } });
      for (const v of views) out.deltas.push({ type: 'blockAppend', data: current(v) });
    }
    return out;
  }
}
