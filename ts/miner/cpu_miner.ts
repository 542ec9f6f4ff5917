// A small CPU miner that uses only GET /chain/mine/:account and POST /chain/append, and the kernel's
// exact PoW test for the template's height (consensus.md §3.1). It varies the nonce, then the extra
// nonce: merkleroot = SHA256(merklePrefix ‖ body[0..10)) (http-api-details.md §5.6).
import { sha256 } from '../kernel/hash.js';
import { powCheck } from '../kernel/pow.js';
import { fromHex, toHex } from '../core/hex.js';
import { MAINNET, PowVersion, TESTNET, powVersionAt } from '../consensus/params.js';

export interface MiningTask {
  header: string;
  body: string;
  merklePrefix: string;
  height: number;
  testnet: boolean;
}

export interface MinedBlock {
  height: number;
  header: Uint8Array;
  body: Uint8Array;
}

const EXTRA_NONCE_BYTES = 10;
const NONCE_OFFSET = 76;
const MERKLE_OFFSET = 36;

/**
 * Searches up to `maxTries` nonces for a header the network accepts at the task's height.
 * Returns null when none is found (the caller fetches a fresh template).
 */
export function solve(task: MiningTask, maxTries = 2_000_000): MinedBlock | null {
  const header = fromHex(task.header)!;
  const body = fromHex(task.body)!;
  const prefix = fromHex(task.merklePrefix)!;
  // A template says `testnet` on every test network; at heights 1–2 that does not tell the hash:
  // Janus7 on the (DeFi) testnet and regtest, Janus8 on regtest-mainnet. There the nonce must pass both.
  const version = powVersionAt(task.testnet ? TESTNET : MAINNET, task.height);
  const also = task.testnet && version !== PowVersion.Janus8 ? PowVersion.Janus8 : null;
  const view = new DataView(header.buffer, header.byteOffset);
  for (let tries = 0, extra = 0; tries < maxTries; extra++) {
    if (extra > 0) {
      new DataView(body.buffer, body.byteOffset).setUint32(EXTRA_NONCE_BYTES - 4, extra);
      const x = new Uint8Array(prefix.length + EXTRA_NONCE_BYTES);
      x.set(prefix);
      x.set(body.subarray(0, EXTRA_NONCE_BYTES), prefix.length);
      header.set(sha256(x), MERKLE_OFFSET);
    }
    for (let nonce = 0; nonce <= 0xffffffff && tries < maxTries; nonce++, tries++) {
      view.setUint32(NONCE_OFFSET, nonce);
      if (powCheck(header, version) && (also === null || powCheck(header, also))) return { height: task.height, header, body };
    }
  }
  return null;
}

/** The node could not be reached at all (refused, unknown host, reset): wrong URL or node down. */
export class NodeUnreachable extends Error {}

interface Answer {
  code: number;
  error?: string;
  data?: unknown;
}

async function call(rpc: string, path: string, init?: RequestInit): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(rpc + path, init);
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new NodeUnreachable(`cannot reach the node at ${rpc}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text();
  try {
    return JSON.parse(text) as Answer;
  } catch {
    throw new Error(`${rpc}${path} answered HTTP ${res.status} with something that is not JSON: is ${rpc} a node's RPC endpoint?`);
  }
}

export async function mineBlocks(rpc: string, address: string, blocks: number, log: (s: string) => void): Promise<number> {
  let mined = 0;
  while (mined < blocks) {
    const task = await call(rpc, `/chain/mine/${address}`);
    if (task.code !== 0) throw new Error(`/chain/mine: ${task.error} (code ${task.code})`);
    const block = solve(task.data as MiningTask);
    if (!block) continue;
    const reply = await call(rpc, '/chain/append', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ height: block.height, header: toHex(block.header), body: toHex(block.body), worker: 'cpu_miner' }),
    });
    if (reply.code !== 0) {
      log(`block #${block.height} refused: ${reply.error} (code ${reply.code})`);
      continue;
    }
    mined++;
    log(`mined block #${block.height}`);
  }
  return mined;
}
