// The 16-bit fee code of an amount (http-api-details.md §4.5): the view `/tools/encode16bit/*`
// answers, and that the reference generations write again with their own rounding (clients.md §3),
// so routes and generations both build it from here.
import { fee16Decode, fee16Encode, type Fee16Rounding } from '../../kernel/fee16.js';
import { named, obj } from '../schema.js';
import { CoinAmount, CompactFee, coinAmount, compactFee } from './amount.js';

export const Encode16bit = named('Encode16bit', obj({ original: CoinAmount, rounded: CompactFee }));

/** The contract rounds to the closest grid value; the reference generations round down (clients.md §3). */
export function encode16bit(e8: bigint, rounding: Fee16Rounding = 'closest') {
  const code = fee16Encode(e8, rounding);
  return { original: coinAmount(e8), rounded: compactFee(fee16Decode(code), code) };
}
