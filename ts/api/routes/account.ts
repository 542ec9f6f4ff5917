// Accounts: /account/:account/coin_balance and /account/:account/history/:beforeId (http-api.md
// "Accounts"; http-api-details.md §1.5, §7.2, §7.3; exchange.md §10.3).
import { fail } from '../../core/errors.js';
import { COIN_TOKEN_ID, balanceOf, dbReader } from '../../state/ledger.js';
import { accountTransactions } from '../../state/history_query.js';
import { route } from '../route.js';
import { accountParam, resolveAccount, u64Param } from '../params.js';
import { named, obj } from '../schema.js';
import { Account, accountView } from '../views/account.js';
import { CoinAmount, coinAmount } from '../views/amount.js';
import { ActionsByBlock, blocksOf } from '../views/block.js';

/** Account ids start at 1 (consensus.md §6.6); 0 in a balance result means "no account yet". */
const NO_ACCOUNT_ID = 0n;

export const accountRoutes = [
  route({
    method: 'GET', path: '/account/:account/coin_balance',
    response: named('CoinBalance', obj({
      account: Account, coin: obj({ locked: CoinAmount, mempool: CoinAmount, total: CoinAmount }),
    })),
    handler: async ({ params, node }) => {
      const a = await resolveAccount(node, accountParam(params.account));
      const b = a.accountId === null ? { total: 0n, locked: 0n } : await balanceOf(dbReader(node.db), a.accountId, COIN_TOKEN_ID);
      return {
        account: accountView(a.accountId ?? NO_ACCOUNT_ID, a.address),
        coin: {
          locked: coinAmount(b.locked),
          mempool: coinAmount(a.accountId === null ? 0n : node.mempool.pool.reserved(a.accountId, COIN_TOKEN_ID)),
          total: coinAmount(b.total),
        },
      };
    },
  }),
  route({
    method: 'GET', path: '/account/:account/history/:beforeId', response: ActionsByBlock,
    handler: async ({ params, node }) => {
      const p = accountParam(params.account);
      const beforeId = u64Param(params.beforeId, 'beforeId');
      const a = await resolveAccount(node, p);
      if (a.accountId === null) fail('ENOTFOUND', 'this address has no account (and so no history) yet');
      const txs = await accountTransactions(node.db, a.accountId!, beforeId);
      // Newest block first, as the reference orders account history (details §7.3 says ascending,
      // the reference's converter reverses); the last block may be partial. Paging goes by the
      // smallest id, so entries of a block appended meanwhile (left out by blocksOf) do not matter.
      return { fromId: txs.length ? txs[0].id : 0n, perBlock: blocksOf(node.chain, txs, 'descending') };
    },
  }),
];
