// The kinds of history entries (exchange.md §10.1): one per reward, per signed transaction and per
// recorded match. The same names key a block body's entries in the API, which the browser page
// reads (so this file imports nothing). The order is the stored kind byte: append only.
export const HISTORY_KINDS = [
  'reward',
  'coinTransfer',
  'tokenTransfer',
  'limitSwap',
  'match',
  'liquidityDeposit',
  'liquidityWithdrawal',
  'cancelation',
  'assetCreation',
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
