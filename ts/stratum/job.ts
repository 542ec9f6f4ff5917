// A stratum mining job (clients.md §7): a block template and how a miner's solution completes it.
// The body's extra nonce (bytes 0–9) is extranonce1 (4 bytes, one per connection) ‖ extranonce2
// (6 bytes, the miner's); the merkle root is SHA256(merklePrefix ‖ extra nonce) (new merkle type,
// http-api-details.md §5.6); the miner chooses the header's timestamp and nonce.
import type { BlockTemplate } from '../mining/template.js';
import { toHex } from '../core/hex.js';
import { blockHash } from '../core/header.js';
import { sha256 } from '../kernel/hash.js';

export const EXTRANONCE1_BYTES = 4;
export const EXTRANONCE2_BYTES = 6;
const EXTRA_NONCE_BYTES = EXTRANONCE1_BYTES + EXTRANONCE2_BYTES;

// Header layout (consensus.md §2.1): prevHash 0–32, target 32–36, merkle root 36–68, version 68–72,
// timestamp 72–76, nonce 76–80.
const TARGET = 32;
const MERKLE = 36;
const VERSION = 68;
const TIME = 72;
const NONCE = 76;

export interface Job {
  /** Hex hash of the template header (the reference's job id). */
  id: string;
  template: BlockTemplate;
  prevHash: string;
}

export function jobOf(template: BlockTemplate): Job {
  return { id: toHex(blockHash(template.header)), template, prevHash: toHex(template.header.subarray(0, 32)) };
}

/** `mining.notify` params: [jobId, prevHash, merklePrefix, version, nbits, ntime, clean]. */
export function notifyParams(job: Job): [string, string, string, string, string, string, boolean] {
  const h = job.template.header;
  return [
    job.id,
    job.prevHash,
    toHex(job.template.merklePrefix),
    toHex(h.subarray(VERSION, VERSION + 4)),
    toHex(h.subarray(TARGET, TARGET + 4)),
    toHex(h.subarray(TIME, TIME + 4)),
    true,
  ];
}

/** The header and body of `job` completed by a miner's solution. */
export function completeBlock(
  job: Job,
  extranonce1: Uint8Array,
  extranonce2: Uint8Array,
  ntime: Uint8Array,
  nonce: Uint8Array,
): { header: Uint8Array; body: Uint8Array } {
  const body = job.template.body.slice();
  body.set(extranonce1, 0);
  body.set(extranonce2, EXTRANONCE1_BYTES);
  const header = job.template.header.slice();
  header.set(merkleRootOf(job.template.merklePrefix, body.subarray(0, EXTRA_NONCE_BYTES)), MERKLE);
  header.set(ntime, TIME);
  header.set(nonce, NONCE);
  return { header, body };
}

export function merkleRootOf(merklePrefix: Uint8Array, extraNonce: Uint8Array): Uint8Array {
  const x = new Uint8Array(merklePrefix.length + extraNonce.length);
  x.set(merklePrefix);
  x.set(extraNonce, merklePrefix.length);
  return sha256(x);
}

/** The 80-byte header a miner hashes (clients.md §7): prevHash ‖ nbits ‖ merkleroot ‖ version ‖ ntime ‖ nonce. */
export function minerHeader(
  prevHash: Uint8Array,
  nbits: Uint8Array,
  merkleRoot: Uint8Array,
  version: Uint8Array,
  ntime: Uint8Array,
  nonce: number,
): Uint8Array {
  const h = new Uint8Array(80);
  h.set(prevHash, 0);
  h.set(nbits, TARGET);
  h.set(merkleRoot, MERKLE);
  h.set(version, VERSION);
  h.set(ntime, TIME);
  new DataView(h.buffer).setUint32(NONCE, nonce);
  return h;
}
