// signerAddress (the system's RIPEMD160 where it has one) equals core/address.ts's derivation.
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { addressFromPublicKey } from '../../ts/core/address.js';
import { publicKeyOf } from '../../ts/core/keys.js';
import { signerAddress } from '../../ts/mempool/signer.js';

await initKernel();

describe('signerAddress', () => {
  it('is addressFromPublicKey', () => {
    for (let i = 1; i <= 50; i++) {
      const sk = new Uint8Array(32).fill(i);
      sk[0] = 0x10;
      const pub = publicKeyOf(sk);
      expect(signerAddress(pub)).toEqual(addressFromPublicKey(pub));
    }
  });
});
