// A secp256k1 signer in OpenSSL (node:crypto): a third implementation, so that some of the valid
// signatures the kernel is held to come neither from libsecp256k1 (the oracle) nor from the kernel.
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { be32, HALF_N, N, toBig } from './secp_math.js';

export class OpensslSigner {
  private readonly key: KeyObject;
  /** OpenSSL's own d·G, compressed. */
  readonly publicKey: Uint8Array;

  constructor(sk32: Uint8Array) {
    // SEC 1 ECPrivateKey { 1, d, [0] secp256k1 } without the public key: OpenSSL computes d·G itself.
    const der = Buffer.concat([Buffer.from('302e0201010420', 'hex'), sk32, Buffer.from('a00706052b8104000a', 'hex')]);
    this.key = createPrivateKey({ key: der, format: 'der', type: 'sec1' });
    const jwk = createPublicKey(this.key).export({ format: 'jwk' });
    const x = Buffer.from(jwk.x!, 'base64url');
    const y = Buffer.from(jwk.y!, 'base64url');
    this.publicKey = Uint8Array.of(2 + (y[31] & 1), ...x);
  }

  /**
   * The digest sha256(message) and OpenSSL's signature r ‖ s of the message (random nonce), s
   * replaced by n − s when high: the consensus rule accepts low s only.
   */
  sign(message: Uint8Array): { digest: Uint8Array; rs: Uint8Array } {
    const rs = sign('sha256', message, { key: this.key, dsaEncoding: 'ieee-p1363' });
    const s = toBig(rs.subarray(32));
    if (s > HALF_N) rs.set(be32(N - s), 32);
    return { digest: createHash('sha256').update(message).digest(), rs: new Uint8Array(rs) };
  }
}
