// A test wallet: a key, its address, and signed coin transfers both as body entries (for blocks
// built by hand) and as the POST /transaction/add fields.
import { addressOfPrivateKey } from '../../ts/core/keys.js';
import { formatAddress } from '../../ts/core/address.js';
import { signDigest } from '../../ts/core/keys.js';
import { fee16Decode } from '../../ts/kernel/fee16.js';
import { relativePinFor } from '../../ts/core/pin.js';
import { txHash } from '../../ts/core/transaction.js';
import type { CoinTransferEntry } from '../../ts/core/entry.js';

export class TestWallet {
  readonly address: Uint8Array;
  constructor(readonly sk: Uint8Array) { this.address = addressOfPrivateKey(sk); }

  static fromSeed(seed: number): TestWallet {
    const sk = new Uint8Array(32);
    new DataView(sk.buffer).setUint32(28, seed + 1);
    sk[0] = 0x42;
    return new TestWallet(sk);
  }

  get addressText(): string { return formatAddress(this.address); }

  /** A coin transfer as a body entry of block `height`, pinned to `pinHeight` whose hash is `pinHash`. */
  coinTransferEntry(o: {
    height: number; pinHeight: number; pinHash: Uint8Array; nonceId: number; feeCode: number;
    originId: bigint; toId: bigint; toAddress: Uint8Array; amount: bigint;
  }): CoinTransferEntry {
    const k = relativePinFor(o.height, o.pinHeight);
    if (k === null) throw new Error(`pin ${o.pinHeight} not usable at height ${o.height}`);
    const hash = txHash(
      { pinHash: o.pinHash, pinHeight: o.pinHeight, nonceId: o.nonceId, feeE8: fee16Decode(o.feeCode) },
      { type: 'coinTransfer', toAddress: o.toAddress, amount: o.amount },
    );
    return {
      kind: 'coinTransfer', originId: o.originId, pinNonce: { nonceId: o.nonceId, relativePin: k, reserved: new Uint8Array(3) },
      feeCode: o.feeCode, signature: signDigest(hash, this.sk), toId: o.toId, amount: o.amount,
    };
  }
}
