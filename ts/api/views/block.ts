// Blocks (http-api.md "Block"; http-api-details.md §4.4, §5.5, §7.3): `{header, body,
// confirmations, height}`, the body listing the block's history entries by type as
// `{historyId, transaction}`, in history-id order. `/chain/block/:id` shows every entry of a block
// (its reward is never null); latest-transaction and account-history results show blocks
// restricted to some entries (a block at the edge of the range may lack its reward).
// Every entry shows `processed` where its type has one (never null for mined entries).
import type { ChainReadState } from '../../chain/read_view.js';
import { fail } from '../../core/errors.js';
import type { MinedTransaction } from '../../state/history_query.js';
import { arr, int, named, nullable, obj, u64, type Infer, type Shape } from '../schema.js';
import { Header, headerView } from './header.js';
import {
  AssetCreationTransaction,
  CancelationTransaction,
  CoinTransferTransaction,
  LimitSwapTransaction,
  LiquidityDepositTransaction,
  LiquidityWithdrawalTransaction,
  MatchTransaction,
  RewardTransaction,
  TokenTransferTransaction,
  assetCreationTransaction,
  cancelationTransaction,
  coinTransferTransaction,
  limitSwapTransaction,
  liquidityDepositTransaction,
  liquidityWithdrawalTransaction,
  matchTransaction,
  rewardTransaction,
  tokenTransferTransaction,
} from './transaction.js';

/** A body entry `{historyId, transaction}` of one type. */
const entry = <T>(name: string, transaction: Shape<T>) => named(name, obj({ historyId: u64, transaction }));

const RewardEntry = entry('RewardEntry', RewardTransaction);
const Entries = {
  coinTransfer: arr(entry('CoinTransferEntry', CoinTransferTransaction)),
  tokenTransfer: arr(entry('TokenTransferEntry', TokenTransferTransaction)),
  limitSwap: arr(entry('LimitSwapEntry', LimitSwapTransaction)),
  match: arr(entry('MatchEntry', MatchTransaction)),
  liquidityDeposit: arr(entry('LiquidityDepositEntry', LiquidityDepositTransaction)),
  liquidityWithdrawal: arr(entry('LiquidityWithdrawalEntry', LiquidityWithdrawalTransaction)),
  assetCreation: arr(entry('AssetCreationEntry', AssetCreationTransaction)),
  cancelation: arr(entry('CancelationEntry', CancelationTransaction)),
};

export const Block = named('Block', obj({ header: Header, body: obj({ reward: RewardEntry, ...Entries }), confirmations: int, height: int }));

/** A block showing only some of its entries. */
export const PartialBlock = named(
  'PartialBlock',
  obj({
    header: Header,
    body: obj({ reward: nullable(RewardEntry), ...Entries }),
    confirmations: int,
    height: int,
  }),
);

/** `/transaction/latest` and `/account/:account/history/:beforeId`. */
export const ActionsByBlock = named('ActionsByBlock', obj({ fromId: u64, perBlock: arr(PartialBlock) }));

type PartialBlockView = Infer<typeof PartialBlock>;

/** Block `height` of `chain` with the entries `txs` (all of that block, ascending ids). */
export function partialBlockView(chain: ChainReadState, height: number, txs: MinedTransaction[]): PartialBlockView {
  const body: PartialBlockView['body'] = {
    reward: null,
    coinTransfer: [],
    tokenTransfer: [],
    limitSwap: [],
    match: [],
    liquidityDeposit: [],
    liquidityWithdrawal: [],
    assetCreation: [],
    cancelation: [],
  };
  for (const t of txs) {
    const historyId = t.id;
    switch (t.kind) {
      case 'reward':
        body.reward = { historyId, transaction: rewardTransaction(t) };
        break;
      case 'coinTransfer':
        body.coinTransfer.push({ historyId, transaction: coinTransferTransaction(t) });
        break;
      case 'tokenTransfer':
        body.tokenTransfer.push({ historyId, transaction: tokenTransferTransaction(t) });
        break;
      case 'limitSwap':
        body.limitSwap.push({ historyId, transaction: limitSwapTransaction(t) });
        break;
      case 'match':
        body.match.push({ historyId, transaction: matchTransaction(t) });
        break;
      case 'liquidityDeposit':
        body.liquidityDeposit.push({ historyId, transaction: liquidityDepositTransaction(t) });
        break;
      case 'liquidityWithdrawal':
        body.liquidityWithdrawal.push({ historyId, transaction: liquidityWithdrawalTransaction(t) });
        break;
      case 'assetCreation':
        body.assetCreation.push({ historyId, transaction: assetCreationTransaction(t) });
        break;
      case 'cancelation':
        body.cancelation.push({ historyId, transaction: cancelationTransaction(t) });
        break;
    }
  }
  return { header: headerView(chain, height), body, confirmations: chain.length - height + 1, height };
}

/** Block `height` with all its entries. */
export function blockView(chain: ChainReadState, height: number, txs: MinedTransaction[]): Infer<typeof Block> {
  const b = partialBlockView(chain, height, txs);
  const reward = b.body.reward ?? fail('EBUG', `block ${height} has no reward entry`);
  return { ...b, body: { ...b.body, reward } };
}

/**
 * Groups entries (ascending ids) into their blocks, ascending or descending by height. Entries of
 * blocks above the chain's tip (appended or rolled back while they were read) are left out.
 */
export function blocksOf(chain: ChainReadState, txs: MinedTransaction[], order: 'ascending' | 'descending'): PartialBlockView[] {
  const byHeight = new Map<number, MinedTransaction[]>();
  for (const t of txs) {
    if (t.height > chain.length) continue;
    const list = byHeight.get(t.height);
    if (list) list.push(t);
    else byHeight.set(t.height, [t]);
  }
  const heights = [...byHeight.keys()].sort((a, b) => (order === 'ascending' ? a - b : b - a));
  return heights.map((h) => partialBlockView(chain, h, byHeight.get(h)!));
}
