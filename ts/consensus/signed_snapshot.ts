// Signed snapshots (consensus.md §5.6, p2p.md §3.6): a leader key pins one block hash at one height.
// Pure: the 101-byte wire form, verification against a network's leader-key list (importance = the
// key's index), priority order and chain compatibility. The key list is a network parameter.
import { Reader, Writer } from '../core/bytes.js';
import { fail } from '../core/errors.js';
import { HASH_SIZE } from '../core/header.js';
import { equalBytes, fromHex } from '../core/hex.js';
import { recoverPublicKey, signDigest } from '../core/keys.js';

export const SNAPSHOT_SIZE = 101;

/** Priority: (importance, height), compared lexicographically (§5.6). */
export interface Priority {
  importance: number;
  height: number;
}

export const NO_PRIORITY: Priority = { importance: 0, height: 0 };

/** The wire content: height, block hash, 65-byte recoverable signature made directly over the hash. */
export interface SignedSnapshot {
  height: number;
  hash: Uint8Array;
  signature: Uint8Array;
}

/** A snapshot whose signer is a leader key: its importance is that key's index. */
export interface VerifiedSnapshot extends SignedSnapshot {
  importance: number;
}

/** The mainnet leader keys (compressed), index = importance (§5.6). */
export const MAINNET_LEADER_KEYS: readonly Uint8Array[] = [
  '02686b3ea29dc1fcfd0de6fd067d1903f09080e2407d1f230e9551b69fbd808408',
  '03ac7ab39fc4ad459170470f1dc1d85fe7cb92d987d75467f3fa5d6692cd27cebf',
  '035bd7cec5091b482f1b89db677abe94e247e1fbf5dcfb3cd883f45201791f1748',
  '0251fe6976096039ad68d9f987cc4d924e43ad9c7e1080301f4fe3b53868f69b87',
  '02b83c2b7580983382bd29ba138f20d84f3172d1cad3103eabe50ebad3fde02011',
  '02f581bd9ca28a19802ceb2dc96ba53b1f3e7dcbbb06bb7f97032843518d10dbcf',
  '03b612b5bb4648cedc65080452418486c13249d21c30ff2fc08322012e1196d868',
  '0283df9d39202c98d3c40402d23662d3d77c30b48ec171ba8cd39b77ff2b89ff71',
].map((h) => fromHex(h)!);

/** What a network says about snapshots: who may sign, and whether they bind its chain. */
export interface SnapshotRules {
  leaderKeys: readonly Uint8Array[];
  /** False on testnet and regtest: every snapshot counts as compatible (§5.7). */
  enforceSnapshots: boolean;
}

export function writeSnapshot(w: Writer, s: SignedSnapshot): void {
  w.u32(s.height).bytes(s.hash, HASH_SIZE).bytes(s.signature, 65);
}

export function readSnapshot(r: Reader): SignedSnapshot {
  return { height: r.u32(), hash: r.bytes(HASH_SIZE), signature: r.bytes(65) };
}

export function encodeSnapshot(s: SignedSnapshot): Uint8Array {
  const w = new Writer(SNAPSHOT_SIZE);
  writeSnapshot(w, s);
  return w.finish();
}

export function decodeSnapshot(bytes: Uint8Array): SignedSnapshot {
  const r = new Reader(bytes);
  const s = readSnapshot(r);
  r.end();
  return s;
}

/** Recovers the signer: ECORRUPTEDSIG if no key recovers, EBADLEADER if it is not a leader key. */
export function verifySnapshot(rules: SnapshotRules, s: SignedSnapshot): VerifiedSnapshot {
  const pub = recoverPublicKey(s.hash, s.signature) ?? fail('ECORRUPTEDSIG', 'snapshot signature');
  const importance = rules.leaderKeys.findIndex((k) => equalBytes(k, pub));
  if (importance < 0) fail('EBADLEADER', 'snapshot not signed by a leader key');
  return { height: s.height, hash: s.hash, signature: s.signature, importance };
}

/** Signs `hash` at `height` (a node holding a leader key; tests with their own key list). */
export function signSnapshot(height: number, hash: Uint8Array, secretKey: Uint8Array): SignedSnapshot {
  return { height, hash, signature: signDigest(hash, secretKey) };
}

export function priorityOf(s: VerifiedSnapshot | null): Priority {
  return s ? { importance: s.importance, height: s.height } : NO_PRIORITY;
}

/** Negative, zero or positive as a < b, a = b, a > b (importance first, then height). */
export function comparePriority(a: Priority, b: Priority): number {
  return a.importance !== b.importance ? a.importance - b.importance : a.height - b.height;
}

/** Whether a chain of `length` blocks with `hashAt` agrees with `s` (always on testnet rules). */
export function snapshotCompatible(rules: SnapshotRules, s: SignedSnapshot, length: number, hashAt: (h: number) => Uint8Array): boolean {
  return !rules.enforceSnapshots || length < s.height || equalBytes(hashAt(s.height), s.hash);
}

/** False iff block `hash` at `height` contradicts `s` (the per-header form of compatibility). */
export function agreesWithSnapshot(rules: SnapshotRules, s: SignedSnapshot | null, height: number, hash: Uint8Array): boolean {
  return !s || !rules.enforceSnapshots || s.height !== height || equalBytes(s.hash, hash);
}
