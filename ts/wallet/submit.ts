// Signs a transaction and hands it to the node (http-api.md "Adding a transaction"): pinned to the
// head's pin (/chain/head), a fresh random nonce id, the fee given or the node's minimum
// (/transaction/minfee). Optionally waits until a block includes it (/transaction/lookup).
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS } from '../core/errors.js';
import { WalletError } from './wallet_error.js';
import { fromHexExact, toHex } from '../core/hex.js';
import { writeJson } from '../core/json.js';
import { requestJson, signRequest } from '../core/signed_request.js';
import { txHash, type TransactionPayload } from '../core/transaction.js';
import { fee16Decode, fee16Encode } from '../kernel/fee16.js';
import { NodeRefusal, type NodeClient } from './node_client.js';

export interface SubmitOptions {
  /** From --fee, or the node's minimum (minimumFee). */
  fee: { feeCode: number; feeE8: bigint };
  /** Seconds to wait for inclusion in a block; null does not wait. */
  waitSeconds: number | null;
  print(line: string): void;
  warn(line: string): void;
}

const POLL_MS = 500;

async function pin(node: NodeClient, warn: (line: string) => void): Promise<{ pinHeight: number; pinHash: Uint8Array }> {
  const head = await node.get<{ chainHead: { pinHeight: number; pinHash: string }; synced: boolean }>('/chain/head');
  if (head.synced === false) warn(`the node is not synced with its network: the transaction is pinned to its head, which may be behind`);
  const pinHash = fromHexExact(head.chainHead.pinHash, 32);
  if (!pinHash || !Number.isSafeInteger(head.chainHead.pinHeight)) throw new WalletError('/chain/head gave no valid pin');
  return { pinHeight: head.chainHead.pinHeight, pinHash };
}

/** The node's minimum fee, on the fee grid. */
export async function minimumFee(node: NodeClient): Promise<{ feeCode: number; feeE8: bigint }> {
  const { minFee } = await node.get<{ minFee: { E8: number | bigint } }>('/transaction/minfee');
  const feeCode = fee16Encode(BigInt(minFee.E8), 'up');
  return { feeCode, feeE8: fee16Decode(feeCode) };
}

/** Signs `payload` with `sk`, submits it and prints its hash (and, waiting, the height of its block). */
export async function submit(node: NodeClient, sk: Uint8Array, payload: TransactionPayload, o: SubmitOptions): Promise<string> {
  const { pinHeight, pinHash } = await pin(node, o.warn);
  const { feeCode, feeE8 } = o.fee;
  const nonceId = randomInt(0, 2 ** 32);
  const signed = signRequest(sk, payload, { pinHeight, pinHash, nonceId, feeCode });
  const hash = toHex(txHash({ pinHash, pinHeight, nonceId, feeE8 }, payload));
  const reply = await node.request<{ data?: { txHash?: string }; txHash?: string }>('POST', '/transaction/add', writeJson(requestJson(signed)), true);
  const echoed = reply.data?.txHash ?? reply.txHash;
  if (echoed !== undefined && echoed !== hash) throw new WalletError(`the node reports hash ${echoed} for transaction ${hash}`);
  o.print(hash);
  if (o.waitSeconds !== null) o.print(`mined in block ${await waitMined(node, hash, o.waitSeconds)}`);
  return hash;
}

/** Polls the transaction until a block includes it; fails when it leaves the mempool unmined or time runs out. */
async function waitMined(node: NodeClient, hash: string, seconds: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    let t: { mined: { block: { height: number } } | null };
    try {
      t = await node.get(`/transaction/lookup/${hash}`);
    } catch (e) {
      if (e instanceof NodeRefusal && e.code === ERRORS.ENOTFOUND[0]) {
        throw new WalletError(`transaction ${hash} left the mempool unmined (replaced, evicted or its pin expired): send it again`);
      }
      throw e;
    }
    if (t.mined) return t.mined.block.height;
    if (Date.now() >= deadline) throw new WalletError(`transaction ${hash} is still unmined after ${seconds} s (it stays in the mempool)`);
    await sleep(POLL_MS);
  }
}
