// What the RPC layer may use of the running node. main.ts assembles it. Routes see it split in two:
// a route that changes the chain or the mempool gets `NodeServices` (the live chain); every other
// route gets `ReadServices` and the read view the server opened for it (route.ts), so nothing it
// reads can come from a state other than that view's — the database and the live chain are not
// in its reach.
import type { Config } from '../config.js';
import type { Chain } from '../chain/chain.js';
import type { MempoolService } from '../mempool/service.js';
import type { P2PNode } from '../p2p/service.js';
import type { VerifiedSnapshot } from '../consensus/signed_snapshot.js';
import type { NodeMetrics } from './metrics.js';

export interface StoreInfo {
  chainDBPath: string;
  peersDBPath: string;
  rxtxDBPath: string;
  /** Bytes the chain database occupies on disk now. */
  chainDBSize(): Promise<bigint>;
}

/** What a read route may use of the mempool: the pending transactions, the minimum fee and its change count, not its changes. */
export type MempoolReads = Pick<MempoolService, 'pool' | 'minFeeCode' | 'version'>;

/** What every route may use: nothing of it reads the chain's state. */
export interface ReadServices {
  config: Config;
  /** Unix seconds when the process started. */
  startedAt: number;
  mempool: MempoolReads;
  store: StoreInfo;
  /** Caught up with the network: no connected peer announces more work (true when isolated or alone). */
  synced(): boolean;
  /** The peer-to-peer node; null when isolated (or not started yet). */
  p2p(): P2PNode | null;
  /** The best signed snapshot received from peers (consensus.md §5.6), or null: kept beside the chain's state, not in it. */
  signedSnapshot(): VerifiedSnapshot | null;
  /** Unix seconds now (the only clock the routes use). */
  now(): number;
  /** The node's metrics (`/metrics`). */
  metrics: Pick<NodeMetrics, 'render'>;
  log: { info(line: string): void; warn(line: string): void };
}

/** What the server and the routes that change the chain or the mempool use: the live chain, and the mempool whole. */
export interface NodeServices extends ReadServices {
  mempool: MempoolService;
  chain: Chain;
}
