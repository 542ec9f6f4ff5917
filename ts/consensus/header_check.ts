// Validity of a new header on top of a header chain (consensus.md §9.2 items 1–6), checked in the
// reference's order (http-api-details.md §5.7): link, version, target, proof of work, checkpoint,
// timestamps. Signed snapshots (§5.6) are the chain manager's.
import { powCheck } from '../kernel/pow.js';
import { fail } from '../core/errors.js';
import { blockHash, parseHeader, serializeHeader, type Header } from '../core/header.js';
import { equalBytes, toHex } from '../core/hex.js';
import { agreesWithCheckpoint } from './checkpoint.js';
import { MEDIAN_N, powVersionAt, requiredHeaderVersion, targetKindAt, type NetworkParams } from './params.js';
import { nextTarget, retargetFloor } from './retarget.js';
import { decodeTarget, type Target } from './target.js';
import { checkTimestamp, type TimestampContext } from './timestamp.js';

/** What the header rules read from the chain the new header extends. */
export interface HeaderChainView {
  /** Height of the tip (0 for an empty chain). */
  readonly length: number;
  /** Hash of the tip (the genesis hash for an empty chain). */
  readonly tipHash: Uint8Array;
  /** Timestamp of block `height`, 1 ≤ height ≤ length. */
  timestampAt(height: number): number;
  /** Raw target of block `height`, 1 ≤ height ≤ length. */
  targetAt(height: number): number;
}

/** The target the next block must carry (§5.2). */
export function expectedTarget(p: NetworkParams, chain: HeaderChainView): number {
  const h = chain.length;
  return nextTarget(p, h, h === 0 ? p.genesisTarget : chain.targetAt(h), (k) => chain.timestampAt(k));
}

/** The decoded target of block `height` whose raw target is `raw` (its kind follows from the height). */
export function targetAt(p: NetworkParams, height: number, raw: number): Target {
  return decodeTarget(raw, targetKindAt(p, height));
}

/** Inputs of the timestamp rules for the next block (§5.3). */
export function timestampContext(chain: HeaderChainView, now?: number): TimestampContext {
  const h = chain.length;
  const previous: number[] = [];
  for (let k = Math.max(1, h + 1 - MEDIAN_N); k <= h; k++) previous.push(chain.timestampAt(k));
  return { previous, retargetFloorTimestamp: h === 0 ? 0 : chain.timestampAt(retargetFloor(h)), now };
}

/** PoW of block `height` through the kernel, with the PoW version of that height (§3.1). */
export function checkPow(p: NetworkParams, height: number, header80: Uint8Array): boolean {
  return powCheck(header80, powVersionAt(p, height));
}

export interface HeaderCheckOptions {
  /** Local clock (Unix seconds) for the future rule; skipped when omitted. */
  now?: number;
  /** Skip the PoW check (only for `/debug/fakemine` blocks made by this node, as R does). */
  skipPow?: boolean;
  /**
   * The PoW check's result and the header's hash when computed beforehand (in parallel, for many
   * headers); the PoW verdict still counts in the order of checks.
   */
  computed?: { pow: boolean; hash: Uint8Array };
}

export interface CheckedHeader {
  height: number;
  header: Header;
  raw: Uint8Array;
  hash: Uint8Array;
}

/** Checks `header` as block length + 1 of `chain`; throws NodeError (EHEADERLINK, EBLOCKVERSION, EDIFFICULTY, EPOW, EGRIDMISMATCH, ETIMESTAMP, ECLOCKTOLERANCE). */
export function checkHeader(p: NetworkParams, chain: HeaderChainView, header: Header | Uint8Array, opts: HeaderCheckOptions = {}): CheckedHeader {
  const h = chain.length + 1;
  const raw = header instanceof Uint8Array ? header : serializeHeader(header);
  const parsed = header instanceof Uint8Array ? parseHeader(header) : header;

  if (!equalBytes(parsed.prevHash, chain.tipHash)) fail('EHEADERLINK', `prevHash is not the hash of block ${h - 1}`);
  const version = requiredHeaderVersion(p, h);
  if (version !== null && parsed.version !== version) fail('EBLOCKVERSION', `version ${parsed.version} at height ${h}, expected ${version}`);
  const target = expectedTarget(p, chain);
  if (parsed.target !== target) fail('EDIFFICULTY', `target ${hex32(parsed.target)}, expected ${hex32(target)}`);
  if (!opts.skipPow && !(opts.computed?.pow ?? checkPow(p, h, raw))) fail('EPOW');
  const hash = opts.computed?.hash ?? blockHash(raw);
  if (!agreesWithCheckpoint(p, h, hash)) fail('EGRIDMISMATCH', `block ${h} ${toHex(hash)} contradicts the checkpoint`);
  checkTimestamp(parsed.timestamp, timestampContext(chain, opts.now));
  return { height: h, header: parsed, raw, hash };
}

const hex32 = (v: number): string => v.toString(16).padStart(8, '0');
