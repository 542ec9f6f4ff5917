// Signatures recovered at admission are remembered (consensus/signature.ts, as Bitcoin Core's
// signature cache): a block entry with the same digest and signature takes the remembered key
// without recovering, a different signature over the same digest does not, a wrong signer still
// fails, and the memory is bounded (the oldest first out).
import { describe, expect, it } from 'vitest';
import { MAX_SEEN_SIGNATURES, recoverRemembered, recoveredInPlace, seenSignatureKey, verifyEntrySignature } from '../../ts/consensus/signature.js';
import { entryTxHash, type CoinTransferEntry } from '../../ts/core/entry.js';
import { addressOfPrivateKey, publicKeyOf, signDigest } from '../../ts/core/keys.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { sha256 } from '../../ts/kernel/hash.js';

await initKernel();

const sk = (i: number) => Uint8Array.from({ length: 32 }, (_, k) => (k === 31 ? i : 1));
const height = 50,
  pinHash = sha256(Uint8Array.of(1)),
  toAddress = addressOfPrivateKey(sk(3)),
  ctx = { toAddress };

function signedEntry(signer: Uint8Array, nonceId: number): CoinTransferEntry {
  const e: CoinTransferEntry = {
    kind: 'coinTransfer',
    originId: 1n,
    pinNonce: { nonceId, relativePin: 0, reserved: new Uint8Array(3) },
    feeCode: 1,
    toId: 2n,
    amount: 7n,
    signature: new Uint8Array(65),
  };
  e.signature = signDigest(entryTxHash(e, height, pinHash, ctx), signer);
  return e;
}

describe('the signatures admission recovered', () => {
  it('are not recovered again in a block; another signature over the digest is', () => {
    const e = signedEntry(sk(1), 1);
    const digest = entryTxHash(e, height, pinHash, ctx);
    expect(seenSignatureKey(digest, e.signature)).toBeUndefined();
    expect(recoverRemembered(digest, e.signature)).toEqual(publicKeyOf(sk(1)));
    expect(seenSignatureKey(digest, e.signature)).toEqual(publicKeyOf(sk(1)));

    let n = recoveredInPlace();
    expect(verifyEntrySignature(e, height, pinHash, addressOfPrivateKey(sk(1)), ctx)).toEqual(digest);
    expect(recoveredInPlace()).toBe(n);
    // The remembered key is still checked against the entry's origin.
    expect(() => verifyEntrySignature(e, height, pinHash, addressOfPrivateKey(sk(2)), ctx)).toThrow(/origin address/);

    // Same digest, another signer's signature: not the remembered key.
    const other = { ...e, signature: signDigest(digest, sk(2)) };
    expect(seenSignatureKey(digest, other.signature)).toBeUndefined();
    n = recoveredInPlace();
    expect(verifyEntrySignature(other, height, pinHash, addressOfPrivateKey(sk(2)), ctx)).toEqual(digest);
    expect(recoveredInPlace()).toBe(n + 1);
  });

  it('a signature that recovers no key is not remembered', () => {
    const e = signedEntry(sk(1), 2);
    const digest = entryTxHash(e, height, pinHash, ctx);
    const bad = e.signature.slice();
    bad.fill(0, 0, 32); // r = 0
    expect(recoverRemembered(digest, bad)).toBeNull();
    expect(seenSignatureKey(digest, bad)).toBeUndefined();
  });

  it(`keeps at most ${MAX_SEEN_SIGNATURES}, the oldest first out`, () => {
    const first = signedEntry(sk(5), 100);
    const firstDigest = entryTxHash(first, height, pinHash, ctx);
    recoverRemembered(firstDigest, first.signature);
    const second = signedEntry(sk(5), 101);
    const secondDigest = entryTxHash(second, height, pinHash, ctx);
    recoverRemembered(secondDigest, second.signature);
    // Remembering the first again moves it to the end: the second is now the older one.
    recoverRemembered(firstDigest, first.signature);
    for (let i = 0; i < MAX_SEEN_SIGNATURES - 1; i++) {
      const d = sha256(Uint8Array.of(i & 0xff, i >> 8, 7));
      recoverRemembered(d, signDigest(d, sk(6)));
    }
    expect(seenSignatureKey(secondDigest, second.signature)).toBeUndefined();
    expect(seenSignatureKey(firstDigest, first.signature)).toEqual(publicKeyOf(sk(5)));
  });
});
