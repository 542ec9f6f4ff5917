// libsecp256k1 itself, natively (the C library the reference node links, here through the prebuilt
// addon of the npm `secp256k1` package): the oracle the kernel's recovery is held against. The raw
// addon is loaded, not the package's index, because the index silently falls back to a pure-JS
// implementation (elliptic) when the native build is missing, and wraps every refusal in a throw.
import { createRequire } from 'node:module';
import { join } from 'node:path';

interface Addon {
  /** 0, writing sk·G to `out` (33 bytes: compressed, 65: uncompressed); 1 for sk 0 or ≥ n. */
  publicKeyCreate(out: Uint8Array, sk: Uint8Array): number;
  /** 0 when `pub` parses as a public key (x < p and on the curve). */
  publicKeyVerify(pub: Uint8Array): number;
  /** 1 when r or s ≥ n (secp256k1_ecdsa_signature_parse_compact fails), else 0 with s made low in place. */
  signatureNormalize(sig64: Uint8Array): number;
  /** 0 with a low-s signature and its recid (RFC 6979 nonce). */
  ecdsaSign(out: { signature: Uint8Array; recid: number }, digest: Uint8Array, sk: Uint8Array): number;
  /** 0 with the key in `out` (33 bytes: compressed); 1 for r or s ≥ n, 2 when recovery fails. recid must be 0..3. */
  ecdsaRecover(out: Uint8Array, sig64: Uint8Array, recid: number, digest: Uint8Array): number;
}

export class Libsecp256k1 {
  private readonly addon: Addon;

  /**
   * The library of the `secp256k1` package in `packageDir` (passed in: a worker's bundle resolves
   * nothing from where it runs). Throws unless the native library loads.
   */
  constructor(packageDir: string) {
    const load = createRequire(join(packageDir, 'package.json'))('node-gyp-build') as (dir: string) => { Secp256k1: new () => Addon };
    this.addon = new (load(packageDir).Secp256k1)();
  }

  /**
   * The reference's verdict on a 65-byte signature r ‖ s ‖ recid of a 32-byte digest, step by step
   * as its crypto.cpp decides (RecoverableSignature::construct, then the PubKey constructor): recid
   * 0..3; secp256k1_ecdsa_recoverable_signature_parse_compact (r, s < n); secp256k1_ecdsa_signature_normalize
   * must leave s unchanged (low s); secp256k1_ecdsa_recover. The compressed key, or null.
   */
  recover(digest: Uint8Array, sig65: Uint8Array): Uint8Array | null {
    const recid = sig65[64];
    // checked first, as the reference does: libsecp256k1 treats recid > 3 as a caller's bug and aborts
    if (recid > 3) return null;
    const sig64 = sig65.slice(0, 64);
    if (this.addon.signatureNormalize(sig64) !== 0) return null;
    for (let i = 32; i < 64; i++) if (sig64[i] !== sig65[i]) return null;
    const out = new Uint8Array(33);
    return this.addon.ecdsaRecover(out, sig64, recid, digest) === 0 ? out : null;
  }

  /** r ‖ s ‖ recid signed by libsecp256k1 (s low, deterministic nonce). */
  sign(digest: Uint8Array, sk: Uint8Array): Uint8Array {
    const out = { signature: new Uint8Array(64), recid: -1 };
    if (this.addon.ecdsaSign(out, digest, sk) !== 0) throw new Error('libsecp256k1 refused to sign');
    return Uint8Array.of(...out.signature, out.recid);
  }

  /** sk·G, compressed (33 bytes) or uncompressed (65). */
  publicKey(sk: Uint8Array, compressed = true): Uint8Array {
    const out = new Uint8Array(compressed ? 33 : 65);
    if (this.addon.publicKeyCreate(out, sk) !== 0) throw new Error('secret key out of range');
    return out;
  }

  /** Whether a curve point has this x (32 bytes big-endian, x < p), by parsing 02 ‖ x as a key. */
  hasPointAt(x32: Uint8Array): boolean {
    return this.addon.publicKeyVerify(Uint8Array.of(2, ...x32)) === 0;
  }
}
