// A signed transaction a block template can take: what the template builder needs to write its
// body entry and to rank it. The mempool's pending transaction (mempool/pending.ts) is one with more
// (its hash, sender address and pin hash); declared here so that block assembly, which the mempool
// uses to vet exchange transactions, does not depend on the mempool.
import type { TransactionPayload } from '../core/transaction.js';

export interface BlockCandidate {
  payload: TransactionPayload;
  originId: bigint;
  pinHeight: number;
  nonceId: number;
  feeCode: number;
  feeE8: bigint;
  signature: Uint8Array;
  /** The asset of the token-era types that name one (by hash in the payload). */
  assetId?: bigint;
}
