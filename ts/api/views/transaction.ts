// Transaction objects of mined entries (http-api.md "Transaction"; http-api-details.md §10):
// `{data, hash, signedCommon?}`. Rewards are implicit and carry no signedCommon. Only the coin-era
// types exist so far; the token-era ones are added with the exchange.
import { formatAddress } from '../../core/address.js';
import { toHex } from '../../core/hex.js';
import { feeE8OfCode } from '../../core/transaction.js';
import type { MinedCoinTransfer, MinedReward } from '../../state/history_query.js';
import { hexStr, int, named, obj, u64, type Infer } from '../schema.js';
import { CoinAmount, coinAmount } from './amount.js';

const Hash = hexStr(64);
const Address = hexStr(48);

/** `data` of `reward` and `coinTransfer`. */
const CoinsTo = obj({ toAddress: Address, amount: CoinAmount });

/** Present on every signed transaction; `originAddress` is the 48-char form (details §14.13). */
export const SignedCommon = named('SignedCommon', obj({
  originId: u64, originAddress: Address, fee: CoinAmount, nonceId: int, pinHeight: int,
}));

export const RewardTransaction = named('RewardTransaction', obj({ data: CoinsTo, hash: Hash }));
export const CoinTransferTransaction = named('CoinTransferTransaction', obj({ data: CoinsTo, hash: Hash, signedCommon: SignedCommon }));

export interface SignedFacts {
  originId: bigint;
  originAddress: Uint8Array;
  feeCode: number;
  nonceId: number;
  pinHeight: number;
}

export function signedCommon(s: SignedFacts): Infer<typeof SignedCommon> {
  return {
    originId: s.originId, originAddress: formatAddress(s.originAddress), fee: coinAmount(feeE8OfCode(s.feeCode)),
    nonceId: s.nonceId, pinHeight: s.pinHeight,
  };
}

export function rewardTransaction(t: MinedReward): Infer<typeof RewardTransaction> {
  return { data: { toAddress: formatAddress(t.toAddress), amount: coinAmount(t.amount) }, hash: toHex(t.hash) };
}

export function coinTransferTransaction(t: MinedCoinTransfer): Infer<typeof CoinTransferTransaction> {
  const e = t.entry;
  return {
    data: { toAddress: formatAddress(t.toAddress), amount: coinAmount(e.amount) },
    hash: toHex(t.hash),
    signedCommon: signedCommon({
      originId: e.originId, originAddress: t.originAddress, feeCode: e.feeCode, nonceId: e.pinNonce.nonceId, pinHeight: t.pinHeight,
    }),
  };
}
