// Regtest headers with real proof of work, fast: each extends a packed header chain with the next
// target, the required version and a timestamp 20 s after the last, trying nonces until the
// kernel's check passes (or, for a test of refusals, until it fails). Used by tests and benchmarks.
import { PackedHeaders } from '../../ts/chain/packed_headers.js';
import { expectedTarget } from '../../ts/consensus/header_check.js';
import { REGTEST, powVersionAt, requiredHeaderVersion } from '../../ts/consensus/params.js';
import { blockHash } from '../../ts/core/header.js';
import { powCheck } from '../../ts/kernel/pow.js';

/** Mines header chain.length + 1 on `chain` (REGTEST) committing to `merkleRoot`, and appends it. */
export function mineRegtestHeader(chain: PackedHeaders, merkleRoot: Uint8Array, t0: number, valid = true): Uint8Array {
  const h = chain.length + 1;
  const raw = new Uint8Array(80);
  const v = new DataView(raw.buffer);
  raw.set(chain.tipHash, 0);
  v.setUint32(32, expectedTarget(REGTEST, chain));
  raw.set(merkleRoot, 36);
  v.setUint32(68, requiredHeaderVersion(REGTEST, h) ?? 4);
  v.setUint32(72, t0 + 20 * h);
  const version = powVersionAt(REGTEST, h);
  for (let nonce = 0; powCheck(raw, version) !== valid; nonce++) v.setUint32(76, nonce);
  chain.push(raw, blockHash(raw));
  return raw;
}

/** A packed regtest chain of `n` headers mined on an empty chain. */
export function regtestHeaders(n: number, merkleRoot = new Uint8Array(32), t0 = 1_700_000_000): PackedHeaders {
  const chain = new PackedHeaders(REGTEST);
  for (let i = 0; i < n; i++) mineRegtestHeader(chain, merkleRoot, t0);
  return chain;
}
