// What the RPC layer may use of the running node. main.ts assembles it; routes see nothing else.
import type { Config } from '../config.js';
import type { Chain } from '../chain/chain.js';
import type { MempoolService } from '../mempool/service.js';
import type { P2PNode } from '../p2p/service.js';
import type { Db } from '../store/database.js';

export interface StoreInfo {
  chainDBPath: string;
  peersDBPath: string;
  rxtxDBPath: string;
  /** Bytes the chain database occupies on disk now. */
  chainDBSize(): Promise<bigint>;
}

export interface NodeServices {
  config: Config;
  /** Unix seconds when the process started. */
  startedAt: number;
  mempool: MempoolService;
  store: StoreInfo;
  db: Db;
  chain: Chain;
  /** Caught up with the network: no connected peer announces more work (true when isolated or alone). */
  synced(): boolean;
  /** The peer-to-peer node; null when isolated (or not started yet). */
  p2p(): P2PNode | null;
  /** Unix seconds now (the only clock the routes use). */
  now(): number;
  log: { info(line: string): void; warn(line: string): void };
}
