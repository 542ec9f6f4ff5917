// Signed-snapshot exchange with peers (p2p.md §3.6, §2.4 codes 3 and 16): verification against the
// network's leader keys, keeping a better snapshot (the chain rolls back if it contradicts it; the
// SignedPinRollback announcement is chain_description.ts's), sending ours to peers whose known
// priority is lower, and the check that a peer's SignedPinRollback is justified.
import type { Chain } from '../chain/chain.js';
import { fail } from '../core/errors.js';
import {
  comparePriority,
  priorityOf,
  snapshotCompatible,
  verifySnapshot,
  type Priority,
  type SignedSnapshot,
  type VerifiedSnapshot,
} from '../consensus/signed_snapshot.js';
import type { ForkRange } from './fork_range.js';
import type { Peer } from './peer.js';

export class SnapshotExchange {
  constructor(
    private readonly chain: Chain,
    private readonly log: (line: string) => void,
  ) {}

  get priority(): Priority {
    return priorityOf(this.chain.snapshot);
  }

  verify(s: SignedSnapshot): VerifiedSnapshot {
    return verifySnapshot(this.chain.params, s);
  }

  /** A snapshot from a Leader message: kept if it beats ours (Chain.applySnapshot rolls back if needed). */
  received(peer: Peer, s: VerifiedSnapshot): void {
    this.chain.applySnapshot(s).then(
      (kept) => {
        if (kept) this.log(`Signed snapshot (${s.importance}, ${s.height}) from ${peer.address} kept`);
      },
      (e) => this.log(`signed snapshot from ${peer.address} not applied: ${(e as Error)?.stack ?? e}`),
    );
  }

  /** Sends our snapshot to `peer` when it is above everything the peer is known to have; then records it. */
  offer(peer: Peer): void {
    const s = this.chain.snapshot;
    if (!s || !peer.initialized) return;
    const p = priorityOf(s);
    if (comparePriority(p, peer.theirs) <= 0) return;
    peer.send({ kind: 'Leader', snapshot: s });
    peer.theirs = p;
  }

  /**
   * A rollback is unjustified (EBADROLLBACK) when the peer's chain was known to agree with ours
   * at the snapshot height and the snapshot is compatible with our chain (§2.4 code 3).
   */
  checkRollback(s: VerifiedSnapshot, agreement: ForkRange): void {
    const agreedAt = agreement.lower > s.height;
    if (agreedAt && snapshotCompatible(this.chain.params, s, this.chain.length, (h) => this.chain.hashAt(h))) {
      fail('EBADROLLBACK', `rollback below height ${s.height}, where our chains agreed`);
    }
  }
}
