// What the RPC layer may use of the running node. main.ts assembles it; routes see nothing else.
import type { Config } from '../config.js';
import type { MinFeePolicy } from '../mempool/fee_policy.js';

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
  minFee: MinFeePolicy;
  store: StoreInfo;
}
