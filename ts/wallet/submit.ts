// Signs a transaction and hands it to the node (http-api.md "Adding a transaction"): pinned to the
// head's pin (/chain/head), a fresh random nonce id, the fee given or the node's minimum
// (/transaction/minfee). Optionally waits until a block includes it (/transaction/lookup). The
// routes' names and shapes are those of the node's API generation (node_api.ts).
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WalletError } from './wallet_error.js';
import { fromHexExact, toHex } from '../core/hex.js';
import { requestJson, signRequest } from '../core/signed_request.js';
import { txHash, type TransactionPayload } from '../core/transaction.js';
import { fee16Decode, fee16Encode } from '../kernel/fee16.js';
import type { NodeApi } from './node_api.js';

export interface SubmitOptions {
  /** From --fee, or the node's minimum (minimumFee). */
  fee: { feeCode: number; feeE8: bigint };
  /** Seconds to wait for inclusion in a block; null does not wait. */
  waitSeconds: number | null;
  print(line: string): void;
  warn(line: string): void;
}

const POLL_MS = 500;

async function pin(api: NodeApi, warn: (line: string) => void): Promise<{ pinHeight: number; pinHash: Uint8Array }> {
  const head = await api.head();
  if (head.synced === false) warn(`the node is not synced with its network: the transaction is pinned to its head, which may be behind`);
  return { pinHeight: Number(head.chainHead.pinHeight), pinHash: fromHexExact(head.chainHead.pinHash, 32)! };
}

/** The node's minimum fee, on the fee grid. */
export async function minimumFee(api: NodeApi): Promise<{ feeCode: number; feeE8: bigint }> {
  const feeCode = fee16Encode(await api.minFeeE8(), 'up');
  return { feeCode, feeE8: fee16Decode(feeCode) };
}

/** Signs `payload` with `sk`, submits it and prints its hash (and, waiting, the height of its block). */
export async function submit(api: NodeApi, sk: Uint8Array, payload: TransactionPayload, o: SubmitOptions): Promise<string> {
  const { pinHeight, pinHash } = await pin(api, o.warn);
  const { feeCode, feeE8 } = o.fee;
  const nonceId = randomInt(0, 2 ** 32);
  const signed = signRequest(sk, payload, { pinHeight, pinHash, nonceId, feeCode });
  const hash = toHex(txHash({ pinHash, pinHeight, nonceId, feeE8 }, payload));
  const echoed = await api.add(requestJson(signed));
  if (echoed.toLowerCase() !== hash) throw new WalletError(`the node reports hash ${echoed} for transaction ${hash}`);
  o.print(hash);
  if (o.waitSeconds !== null) o.print(`mined in block ${await waitMined(api, hash, o.waitSeconds)}`);
  return hash;
}

/** Polls the transaction until a block includes it; fails when it leaves the mempool unmined or time runs out. */
async function waitMined(api: NodeApi, hash: string, seconds: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const t = await api.lookup(hash);
    if (t === null) throw new WalletError(`transaction ${hash} left the mempool unmined (replaced, evicted or its pin expired): send it again`);
    if (t.mined) return Number(t.mined.block.height);
    if (Date.now() >= deadline) throw new WalletError(`transaction ${hash} is still unmined after ${seconds} s (it stays in the mempool)`);
    await sleep(POLL_MS);
  }
}
