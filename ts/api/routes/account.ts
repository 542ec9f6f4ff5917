// Accounts: /account/:account/coin_balance and /account/:account/history/:beforeId (http-api.md
// "Accounts"; http-api-details.md §1.5, §7.2, §7.3; exchange.md §10.3).
import { parseAddress } from '../../core/address.js';
import { fail } from '../../core/errors.js';
import { COIN_TOKEN_ID, accountIdOf, addressOf, balanceOf, dbReader } from '../../state/ledger.js';
import { accountTransactions } from '../../state/history_query.js';
import { route } from '../route.js';
import { u64Param } from '../params.js';
import type { NodeServices } from '../services.js';
import { named, obj } from '../schema.js';
import { Account, accountView } from '../views/account.js';
import { CoinAmount, coinAmount } from '../views/amount.js';
import { ActionsByBlock, blocksOf } from '../views/block.js';

const ADDRESS_CHARS = 48;

type AccountParam = { address: Uint8Array } | { accountId: bigint };

/** `:account` (details §1.5): exactly 48 chars is an address (bad hex or checksum ⇒ 71), anything else an account id (⇒ 94). */
function accountParam(text: string): AccountParam {
  if (text.length === ADDRESS_CHARS) {
    return { address: parseAddress(text) ?? fail('EBADADDRESS', `'${text}' is not a 48-hex address with a valid checksum`) };
  }
  return { accountId: u64Param(text, 'account id') };
}

/**
 * The account a parameter names. An address without an account yet (it never received anything)
 * has accountId null; an unknown account id ⇒ 56.
 */
async function resolveAccount(node: NodeServices, p: AccountParam): Promise<{ accountId: bigint | null; address: Uint8Array }> {
  const s = dbReader(node.db);
  if ('address' in p) return { accountId: (await accountIdOf(s, p.address)) ?? null, address: p.address };
  const address = (await addressOf(s, p.accountId)) ?? fail('ENOTFOUND', `no account with id ${p.accountId}`);
  return { accountId: p.accountId, address };
}

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
        // No mempool yet: nothing is pending, so nothing is reserved.
        coin: { locked: coinAmount(b.locked), mempool: coinAmount(0n), total: coinAmount(b.total) },
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
