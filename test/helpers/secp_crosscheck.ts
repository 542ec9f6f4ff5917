// One batch of the signature cross-check: the kernel's three recovery paths (recover_many, the
// hinted recover_many_hinted, and the single recover for every SINGLE_EVERY-th case) against
// libsecp256k1's verdict, the kernel's refusal status against a reason found without the kernel, and
// the verdict the case's class implies.
import { recoverManyHintedKernel, recoverManyKernel, recoverPublicKeyKernel } from '../../ts/kernel/secp256k1.js';
import type { Libsecp256k1 } from './libsecp256k1.js';
import { type Case, CLASSES } from './secp_cases.js';
import { be32, HALF_N, N, P, toBig, toHex } from './secp_math.js';

/** The single-signature export is checked on one case in this many (it shares `prepare` with the batch). */
export const SINGLE_EVERY = 16;
/** A worker stops after this many failing cases (one is enough to fail; a few show a pattern). */
export const MAX_FAILURES = 20;

export interface Tally {
  cases: number;
  /** cases per class (CLASSES order), and how many of them recovered a key */
  byClass: number[];
  recoveredByClass: number[];
  /** cases per kernel status 0..5 (0: recovered; RECOVER_ERRORS) */
  byStatus: number[];
  /** keys recovered with recid 2 or 3 (x = r + n: only small r get there) */
  recoveredAtRPlusN: number;
  singles: number;
  failures: string[];
}

export const newTally = (): Tally => ({
  cases: 0,
  byClass: CLASSES.map(() => 0),
  recoveredByClass: CLASSES.map(() => 0),
  byStatus: [0, 0, 0, 0, 0, 0],
  recoveredAtRPlusN: 0,
  singles: 0,
  failures: [],
});

/**
 * Why a signature the reference refuses is refused, by the kernel's status codes and without it:
 * recid > 3 (1), r or s not in [1, n − 1] (2), s > n/2 (3), x = r (+ n for recid 2/3) ≥ p or no
 * curve point there (4, the point parsed by libsecp256k1), else the key is the point at infinity (5).
 */
export function refusalReason(sig: Uint8Array, lib: Libsecp256k1): number {
  const recid = sig[64];
  if (recid > 3) return 1;
  const r = toBig(sig.subarray(0, 32));
  const s = toBig(sig.subarray(32, 64));
  if (r === 0n || s === 0n || r >= N || s >= N) return 2;
  if (s > HALF_N) return 3;
  const x = recid >= 2 ? r + N : r;
  return x >= P || !lib.hasPointAt(be32(x)) ? 4 : 5;
}

const same = (a: Uint8Array | null, b: Uint8Array | null) => toHex(a) === toHex(b);

/**
 * What is wrong with the kernel's answers to one case, or null: `many` and `hinted` are its 34-byte
 * answers status ‖ key, `single` recoverPublicKeyKernel's (undefined where not asked).
 */
export function judge(c: Case, many: Uint8Array, hinted: Uint8Array, single: Uint8Array | null | undefined, lib: Libsecp256k1): string | null {
  const want = lib.recover(c.digest, c.sig);
  const status = many[0];
  const got = status === 0 ? many.subarray(1) : null;
  const problems: string[] = [];
  const verdict = (k: Uint8Array | null) => (k ? toHex(k) : 'refused');
  if (!same(got, want)) problems.push(`recover_many ${status === 0 ? toHex(got) : `refused (${status})`}, libsecp256k1 ${verdict(want)}`);
  if (status !== 0 && many.subarray(1).some((v) => v !== 0)) problems.push('recover_many refused with a key');
  if (!want) {
    const reason = refusalReason(c.sig, lib);
    if (status !== reason) problems.push(`kernel status ${status}, reason ${reason}`);
  }
  if (!same(hinted, many)) problems.push(`recover_many_hinted answered ${toHex(hinted)}, recover_many ${toHex(many)}`);
  if (single !== undefined && !same(single, want)) problems.push(`recover (single) ${verdict(single)}`);
  if (c.implied === 'signer' && !same(want, c.signer)) problems.push(`libsecp256k1 ${verdict(want)}, not the signer's key`);
  if (c.implied === 'other' && (!want || same(want, c.signer))) problems.push(`libsecp256k1 ${verdict(want)}, not another key`);
  if (typeof c.implied === 'number' && (want || refusalReason(c.sig, lib) !== c.implied)) problems.push(`the class implies refusal ${c.implied}`);
  if (problems.length === 0) return null;
  return `case #${c.index} (${c.cls}): digest ${toHex(c.digest)} signature ${toHex(c.sig)} hint ${toHex(c.hint)} signer ${toHex(c.signer)}: ${problems.join('; ')}`;
}

/** Runs one batch through the kernel's paths and judges every case into `tally`. */
export function checkBatch(cases: Case[], lib: Libsecp256k1, tally: Tally, seed: number): void {
  const plain = new Uint8Array(97 * cases.length);
  const withHints = new Uint8Array(130 * cases.length);
  cases.forEach((c, i) => {
    plain.set(c.digest, 97 * i);
    plain.set(c.sig, 97 * i + 32);
    withHints.set(c.digest, 130 * i);
    withHints.set(c.sig, 130 * i + 32);
    withHints.set(c.hint, 130 * i + 97);
  });
  const many = recoverManyKernel(plain);
  const hinted = recoverManyHintedKernel(withHints);
  cases.forEach((c, i) => {
    const single = c.index % SINGLE_EVERY === 0 ? recoverPublicKeyKernel(c.digest, c.sig) : undefined;
    const a = many.subarray(34 * i, 34 * (i + 1));
    const problem = judge(c, a, hinted.subarray(34 * i, 34 * (i + 1)), single, lib);
    const k = CLASSES.findIndex((x) => x.name === c.cls);
    tally.cases++;
    tally.byClass[k]++;
    tally.byStatus[a[0]]++;
    if (a[0] === 0) tally.recoveredByClass[k]++;
    if (a[0] === 0 && c.sig[64] >= 2) tally.recoveredAtRPlusN++;
    if (single !== undefined) tally.singles++;
    if (problem && tally.failures.length < MAX_FAILURES) tally.failures.push(`seed ${seed} ${problem}`);
  });
}
