// Signed snapshots (consensus.md §5.6): the 101-byte wire form, the signer's importance in the
// network's key list (here our own keys, given as the list; and the real mainnet list, which must
// refuse them), priority order and compatibility (ignored on testnet rules).
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { publicKeyOf } from '../../ts/core/keys.js';
import { MAINNET, REGTEST, TESTNET } from '../../ts/consensus/params.js';
import {
  MAINNET_LEADER_KEYS,
  SNAPSHOT_SIZE,
  agreesWithSnapshot,
  comparePriority,
  decodeSnapshot,
  encodeSnapshot,
  priorityOf,
  signSnapshot,
  snapshotCompatible,
  verifySnapshot,
  type SnapshotRules,
} from '../../ts/consensus/signed_snapshot.js';
import { NodeError } from '../../ts/core/errors.js';

await initKernel();

const sk = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0x22));
const ours: SnapshotRules = { leaderKeys: [publicKeyOf(sk(1)), publicKeyOf(sk(2)), publicKeyOf(sk(3))], enforceSnapshots: true };
const hash = (b: number) => new Uint8Array(32).fill(b);

function code(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof NodeError ? e.errorName : String(e);
  }
}

describe('signed snapshots', () => {
  it('round-trips the 101-byte wire form: height ‖ hash ‖ signature', () => {
    const s = signSnapshot(1234, hash(7), sk(1));
    const bytes = encodeSnapshot(s);
    expect(bytes.length).toBe(SNAPSHOT_SIZE);
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 0x04, 0xd2]);
    expect(bytes.subarray(4, 36)).toEqual(hash(7));
    expect(decodeSnapshot(bytes)).toEqual(s);
    expect(code(() => decodeSnapshot(bytes.subarray(0, 100)))).not.toBeNull();
  });

  it("gives the signer's index in the key list as importance", () => {
    expect(verifySnapshot(ours, signSnapshot(10, hash(1), sk(1))).importance).toBe(0);
    expect(verifySnapshot(ours, signSnapshot(10, hash(1), sk(3))).importance).toBe(2);
  });

  it('refuses a key outside the list (EBADLEADER), with the real mainnet keys too', () => {
    expect(code(() => verifySnapshot(ours, signSnapshot(10, hash(1), sk(9))))).toBe('EBADLEADER');
    expect(MAINNET.leaderKeys).toBe(MAINNET_LEADER_KEYS);
    expect(MAINNET.leaderKeys.length).toBe(8);
    for (const n of [1, 2, 3]) expect(code(() => verifySnapshot(MAINNET, signSnapshot(10, hash(1), sk(n))))).toBe('EBADLEADER');
  });

  it('the signature covers the hash only: another hash recovers another key; a malformed one is ECORRUPTEDSIG', () => {
    const s = signSnapshot(10, hash(1), sk(1));
    expect(verifySnapshot(ours, { ...s, height: 99 }).importance).toBe(0); // the height is not signed (p2p.md §3.6)
    expect(code(() => verifySnapshot(ours, { ...s, hash: hash(2) }))).toBe('EBADLEADER');
    expect(code(() => verifySnapshot(ours, { ...s, signature: new Uint8Array(65) }))).toBe('ECORRUPTEDSIG');
  });

  it('orders priorities by importance, then height', () => {
    expect(comparePriority({ importance: 1, height: 5 }, { importance: 0, height: 900 })).toBeGreaterThan(0);
    expect(comparePriority({ importance: 1, height: 5 }, { importance: 1, height: 6 })).toBeLessThan(0);
    expect(comparePriority(priorityOf(null), { importance: 0, height: 0 })).toBe(0);
  });

  it('a chain is compatible iff shorter than the height or holding the hash there; testnet and regtest ignore snapshots', () => {
    const s = verifySnapshot(ours, signSnapshot(3, hash(3), sk(1)));
    const chain = [hash(0), hash(1), hash(2), hash(3)];
    expect(snapshotCompatible(ours, s, 2, (h) => chain[h])).toBe(true);
    expect(snapshotCompatible(ours, s, 3, (h) => chain[h])).toBe(true);
    expect(snapshotCompatible(ours, s, 3, () => hash(9))).toBe(false);
    expect(agreesWithSnapshot(ours, s, 3, hash(9))).toBe(false);
    expect(agreesWithSnapshot(ours, s, 4, hash(9))).toBe(true);
    for (const p of [TESTNET, REGTEST]) {
      expect(p.enforceSnapshots).toBe(false);
      expect(snapshotCompatible(p, s, 3, () => hash(9))).toBe(true);
    }
  });
});
