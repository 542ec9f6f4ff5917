import { beforeAll, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { isCanonicalSignature } from '../../ts/core/keys.js';
import { Rng, someSignature } from './gen.js';
beforeAll(async () => { await initKernel(); });
it('dbg', () => {
  const s = someSignature(new Rng(3));
  console.log(isCanonicalSignature(s));
  const a = s.slice(); a[64] = 4; console.log('recid4', isCanonicalSignature(a));
  const b = s.slice(); b[32] = 0xff; console.log('highs', isCanonicalSignature(b));
  const c = s.slice(); c[0] = 0xff; console.log('r', isCanonicalSignature(c));
});
