// What a transaction spends, held against the account's free balance (total − locked in orders −
// pending in the mempool) before anything is signed, so a shortfall is told in coin and asset
// units. The node checks again on admission; this only spares the user its raw-E8 refusal.
import { COIN_DECIMALS, formatUnits } from '../core/amount.js';
import { toHex } from '../core/hex.js';
import type { TransactionPayload } from '../core/transaction.js';
import type { NodeApi } from './node_api.js';
import { WalletError } from './wallet_error.js';

type Row = {
  total: { u64?: number | bigint; E8?: number | bigint };
  locked: { u64?: number | bigint; E8?: number | bigint };
  mempool: { u64?: number | bigint; E8?: number | bigint };
};

const units = (a: { u64?: number | bigint; E8?: number | bigint }): bigint => BigInt(a.E8 ?? a.u64 ?? 0);
const free = (r: Row): bigint => units(r.total) - units(r.locked) - units(r.mempool);

/** The token a payload spends besides coin, as a spec, with the amount. */
function tokenSpend(p: TransactionPayload): { spec: string; amount: bigint } | null {
  switch (p.type) {
    case 'tokenTransfer':
      return { spec: `${p.isLiquidity ? 'liquidity' : 'asset'}:${toHex(p.assetHash)}`, amount: p.amount };
    case 'limitSwap':
      return p.isBuy ? null : { spec: `asset:${toHex(p.assetHash)}`, amount: p.amount };
    case 'liquidityDeposit':
      return p.base > 0n ? { spec: `asset:${toHex(p.assetHash)}`, amount: p.base } : null;
    case 'liquidityWithdrawal':
      return { spec: `liquidity:${toHex(p.assetHash)}`, amount: p.shares };
    default:
      return null;
  }
}

function coinSpend(p: TransactionPayload, feeE8: bigint): bigint {
  switch (p.type) {
    case 'coinTransfer':
      return feeE8 + p.amount;
    case 'limitSwap':
      return feeE8 + (p.isBuy ? p.amount : 0n);
    case 'liquidityDeposit':
      return feeE8 + p.quote;
    default:
      return feeE8;
  }
}

export async function checkFunds(api: NodeApi, address: string, p: TransactionPayload, feeE8: bigint): Promise<void> {
  const coin = (await api.coinBalance(address)) as Row;
  const needCoin = coinSpend(p, feeE8),
    haveCoin = free(coin);
  if (needCoin > haveCoin) {
    const text = (v: bigint) => `${formatUnits(v, COIN_DECIMALS)} WART`;
    throw new WalletError(
      `insufficient balance: this needs ${text(needCoin)}${needCoin !== feeE8 ? ` (fee ${text(feeE8)} included)` : ' (the fee)'}, ` +
        `${text(haveCoin < 0n ? 0n : haveCoin)} is free${units(coin.locked) + units(coin.mempool) > 0n ? ` (${text(units(coin.locked))} locked in orders, ${text(units(coin.mempool))} pending)` : ''}`,
    );
  }
  const t = tokenSpend(p);
  if (!t) return;
  const { balance, token } = await api.tokenBalance(address, t.spec);
  const have = free(balance as unknown as Row);
  if (t.amount > have) {
    const name = t.spec.startsWith('liquidity:') ? `${token.name}-LP` : token.name;
    const text = (v: bigint) => `${formatUnits(v, token.decimals)} ${name}`;
    throw new WalletError(`insufficient balance: this needs ${text(t.amount)}, ${text(have < 0n ? 0n : have)} is free`);
  }
}
