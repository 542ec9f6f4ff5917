// Accounts: /account/:account/coin_balance, /account/:account/balance/:tokenspec,
// /account/richlist/:tokenspec and /account/:account/history/:beforeId (http-api.md "Accounts";
// http-api-details.md §1.5, §7; exchange.md §1, §2.6, §3.1, §10.3).
import { fail, quoted } from '../../core/errors.js';
import { COIN_TOKEN_ID, balanceOf, dbReader } from '../../state/ledger.js';
import { accountTransactions } from '../../state/history_query.js';
import { richlist } from '../../state/richlist.js';
import { formatAddress } from '../../core/address.js';
import { route } from '../route.js';
import { accountParam, findAccount, resolveAccount, u64Param } from '../params.js';
import { resolveToken, tokenSpecParam } from '../token_spec.js';
import { arr, hexStr, named, nul, nullable, obj } from '../schema.js';
import { Account, accountView } from '../views/account.js';
import { CoinAmount, TokenAmount, coinAmount, tokenAmount } from '../views/amount.js';
import { AssetRecord } from '../views/asset.js';
import { ActionsByBlock, blocksOf } from '../views/block.js';
import { Token, tokenView } from '../views/token.js';

const ACCOUNT_OR_NONE = 'an address (48 hex chars) or a numeric account id; one without an account answers `account: null`';
/** The richlist shows the 100 largest holders (http-api-details.md §7.4). */
const RICHLIST_LENGTH = 100;

export const accountRoutes = [
  route({
    method: 'GET',
    path: '/account/:account/coin_balance',
    dependsOn: 'chain+mempool',
    params: { account: ACCOUNT_OR_NONE },
    errors: ['EBADADDRESS', 'EINV_ARGS'],
    doc:
      'The coin balance of an account: total, locked in open orders, and reserved by its pending transactions. ' +
      'An address without an account (or an unknown account id) answers zeros and `account: null`.',
    response: named(
      'CoinBalance',
      obj({
        account: nullable(Account),
        coin: obj({ locked: CoinAmount, mempool: CoinAmount, total: CoinAmount }),
      }),
    ),
    handler: async ({ params, node, view }) => {
      const a = await findAccount(view, accountParam(params.account));
      const b = a === null ? { total: 0n, locked: 0n } : await balanceOf(dbReader(view.db), a.accountId, COIN_TOKEN_ID);
      return {
        account: a && accountView(a.accountId, a.address),
        coin: {
          locked: coinAmount(b.locked),
          mempool: coinAmount(a === null ? 0n : node.mempool.pool.reserved(a.accountId, COIN_TOKEN_ID)),
          total: coinAmount(b.total),
        },
      };
    },
  }),
  route({
    method: 'GET',
    path: '/account/:account/balance/:tokenspec',
    dependsOn: 'chain+mempool',
    params: { account: ACCOUNT_OR_NONE },
    errors: ['EBADADDRESS', 'EINV_ARGS'],
    doc:
      'The balance of one token (the coin, an asset or a liquidity token). An address without an account ' +
      '(or an unknown account id) answers zeros with `account: null` and `lookupTrace: null`.',
    response: named(
      'TokenBalance',
      obj({
        account: nullable(Account),
        balance: obj({ locked: TokenAmount, mempool: TokenAmount, total: TokenAmount }),
        // Forked assets do not exist (exchange.md §2.6): no lookup ever fails or uses a snapshot.
        lookupTrace: nullable(obj({ fails: arr(AssetRecord), snapshotHeight: nul })),
        token: Token,
      }),
    ),
    handler: async ({ params, node, view }) => {
      const p = accountParam(params.account);
      const spec = tokenSpecParam(params.tokenspec);
      const a = await findAccount(view, p);
      const token =
        (await resolveToken(view, spec)) ?? fail('tokenId' in spec ? 'ETOKIDNOTFOUND' : 'EASSETHASHNOTFOUND', `no token ${quoted(params.tokenspec)}`);
      const b = a === null ? { total: 0n, locked: 0n } : await balanceOf(dbReader(view.db), a.accountId, token.id);
      const mempool = a === null ? 0n : node.mempool.pool.reserved(a.accountId, token.id);
      return {
        account: a && accountView(a.accountId, a.address),
        balance: { locked: tokenAmount(b.locked, token.decimals), mempool: tokenAmount(mempool, token.decimals), total: tokenAmount(b.total, token.decimals) },
        lookupTrace: a && { fails: [], snapshotHeight: null },
        token: tokenView(token),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/account/richlist/:tokenspec',
    dependsOn: 'chain',
    doc: 'The 100 largest holders of a token.',
    response: named('Richlist', obj({ richlist: arr(obj({ address: hexStr(48), balance: TokenAmount })), token: Token })),
    handler: async ({ params, view }) => {
      const spec = tokenSpecParam(params.tokenspec);
      const token = (await resolveToken(view, spec)) ?? fail('ETOKIDNOTFOUND', `no token ${quoted(params.tokenspec)}`);
      const holders = await richlist(view.db, token.id, RICHLIST_LENGTH);
      return {
        richlist: holders.map((h) => ({ address: formatAddress(h.address), balance: tokenAmount(h.total, token.decimals) })),
        token: tokenView(token),
      };
    },
  }),
  route({
    method: 'GET',
    path: '/account/:account/history/:beforeId',
    dependsOn: 'chain',
    doc: "An account's history, newest first, a page at a time (see [History paging](#history-paging)).",
    response: ActionsByBlock,
    handler: async ({ params, view }) => {
      const p = accountParam(params.account);
      const beforeId = u64Param(params.beforeId, 'beforeId');
      const a = await resolveAccount(view, p);
      if (a.accountId === null) fail('ENOTFOUND', 'this address has no account (and so no history) yet');
      const txs = await accountTransactions(view.db, a.accountId!, beforeId);
      // Newest block first, as the reference orders account history (details §7.3 says ascending,
      // the reference's converter reverses); the last block may be partial. Paging goes by the
      // smallest id, so entries of a block appended meanwhile (left out by blocksOf) do not matter.
      return { fromId: txs.length ? txs[0].id : 0n, perBlock: blocksOf(view, txs, 'descending') };
    },
  }),
];
