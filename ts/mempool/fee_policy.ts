// The minimum mempool fee (http-api-details.md §4.5): configured by --minfee or at run time,
// always rounded UP to the 16-bit grid; admission compares 16-bit codes (monotone, consensus.md §7.4).
import { fee16Decode, fee16Encode } from '../kernel/fee16.js';

export const DEFAULT_MIN_FEE_E8 = 1_000_448n; // 0.01000448, code 0x4fa2

export class MinFeePolicy {
  private code: number;

  constructor(minFeeE8: bigint = DEFAULT_MIN_FEE_E8) {
    this.code = fee16Encode(minFeeE8, 'up');
  }

  /** Sets a new minimum (rounded up); returns its code. */
  set(minFeeE8: bigint): number {
    this.code = fee16Encode(minFeeE8, 'up');
    return this.code;
  }

  get minCode(): number {
    return this.code;
  }
  get minE8(): bigint {
    return fee16Decode(this.code);
  }
}
