// `wartnode-wallet [options] <command> [args]`: a wallet on the command line, an HTTP client of a
// node (DESIGN.md: core and kernel only). Keys stay in the wallet file; signing happens here.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatAddress } from '../core/address.js';
import { COIN_DECIMALS } from '../core/amount.js';
import { NodeError } from '../core/errors.js';
import { fromHexExact, toHex } from '../core/hex.js';
import { isValidPrivateKey, publicKeyOf, randomPrivateKey } from '../core/keys.js';
import { assetNameBytes, type TransactionPayload } from '../core/transaction.js';
import { initKernel } from '../kernel/instance.js';
import { MAX_PRICE_DECIMALS, priceDoubleAdjusted, priceToBytes } from '../kernel/price.js';
import { balanceLines, historyLines, historyPage, orderLines } from './account_views.js';
import { resolveAsset, resolveTokenSpec, tokenBalance } from './assets.js';
import { addressArg, amountArg, coinArg, feeArg, hashArg, isAssetName, priceArg, uintArg } from './inputs.js';
import { NodeClient, NodeRefusal } from './node_client.js';
import { PASSPHRASE_ENV, newPassphrase, unlockPassphrase } from './passphrase.js';
import { submit } from './submit.js';
import { createWalletFile, readWalletFile } from './wallet_file.js';

const DEFAULT_NODE = 'http://127.0.0.1:3000';
const DEFAULT_WALLET = join(homedir(), '.wartnode', 'wallet.json');
const DEFAULT_WAIT_SECONDS = 600;

const USAGE = `usage: wartnode-wallet [options] <command> [arguments]

Keys:
  create                              make a new key and store it in the wallet file
  restore <privkey>                   store an existing key (64 hex chars) in the wallet file
  address                             print the wallet's address
  show                                print the address, public key and PRIVATE KEY
Account (of the wallet, or of the address given):
  balance [address]                   coin and every token held
  history [address] [--before ID]     newest transactions first; --before pages back
  orders [address]                    open buy and sell orders
Transactions (print the transaction hash; --wait also the height of the block that includes it):
  send <address> <amount>             send coins (WART), e.g. 1.5
  token send <token> <address> <amount>
                                      send an asset or a pool's liquidity token: <token> is
                                      asset:<hash>, liquidity:<hash>, or an asset's hash, id or name
  asset create <NAME> <supply> <decimals>
                                      create an asset (1-5 letters or digits; supply in whole units)
  buy <asset> <amount> <price>        order: spend <amount> WART buying <asset> at most <price>
  sell <asset> <amount> <price>       order: sell <amount> of <asset> at least <price>
                                      (<price> in WART per whole unit of the asset)
  cancel <txhash>                     cancel one of your pending orders or transactions
  liquidity deposit <asset> <base> <coin>
                                      add <base> units of <asset> and <coin> WART to its pool
  liquidity withdraw <asset> <shares> redeem pool shares (liquidity tokens)

Options:
  --node URL              the node's HTTP endpoint (default ${DEFAULT_NODE})
  --wallet FILE           the wallet file (default ~/.wartnode/wallet.json), created with mode 0600
  --passphrase-file FILE  the passphrase is the file's first line; otherwise ${PASSPHRASE_ENV},
                          otherwise the wallet asks in a terminal. create/restore encrypt the key
                          (scrypt + AES-256-GCM) when a passphrase is given this way
  --encrypt               create/restore: ask for a passphrase in the terminal
  --fee AMOUNT            transaction fee in WART (default: the node's minimum), rounded up to the fee grid
  --wait                  wait until the transaction is in a block (at most --timeout seconds)
  --timeout SECONDS       how long --wait waits (default ${DEFAULT_WAIT_SECONDS})
  -h, --help              this text
`;

const OPTIONS = {
  node: { type: 'string' }, wallet: { type: 'string' }, 'passphrase-file': { type: 'string' }, encrypt: { type: 'boolean' },
  fee: { type: 'string' }, wait: { type: 'boolean' }, timeout: { type: 'string' }, before: { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends NodeError {
  constructor(detail: string) { super('EINV_ARGS', detail); }
}

function out(line: string): void {
  process.stdout.write(line + '\n');
}

async function run(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values: o, positionals: words } = parsed;
  if (o.help || words.length === 0) { process.stdout.write(USAGE); return; }

  const walletPath = o.wallet ?? DEFAULT_WALLET;
  const passphraseSrc = { file: o['passphrase-file'] };
  const node = () => new NodeClient(o.node ?? DEFAULT_NODE);
  const fee = o.fee === undefined ? null : feeArg(o.fee);
  const waitSeconds = o.wait ? (o.timeout === undefined ? DEFAULT_WAIT_SECONDS : uintArg(o.timeout, '--timeout')) : null;
  const [cmd, ...rest] = words;
  const args = (n: number, names: string): string[] => {
    if (rest.length !== n) throw new UsageError(`'${cmd}' takes ${n ? names : 'no arguments'}`);
    return rest;
  };
  const subcommand = (subs: Record<string, number>, names: Record<string, string>): [string, string[]] => {
    const [sub, ...more] = rest;
    if (!(sub in subs)) throw new UsageError(`'${cmd}' is followed by ${Object.keys(subs).join(' or ')}`);
    if (more.length !== subs[sub]) throw new UsageError(`'${cmd} ${sub}' takes ${names[sub]}`);
    return [sub, more];
  };
  const accountOf = async (): Promise<string> => {
    if (rest.length > 1) throw new UsageError(`'${cmd}' takes at most one address`);
    if (rest.length === 1) return formatAddress(addressArg(rest[0]));
    return (await readWalletFile(walletPath)).address;
  };
  const unlock = async (): Promise<Uint8Array> => {
    const w = await readWalletFile(walletPath);
    return w.unlock(w.encrypted ? await unlockPassphrase(passphraseSrc) : null);
  };
  /** Checks inputs first, then unlocks the key, then sends: a bad input or passphrase sends nothing. */
  const send = async (payload: () => Promise<TransactionPayload>): Promise<void> => {
    const p = await payload();
    const sk = await unlock();
    await submit(node(), sk, p, { fee, waitSeconds, print: out, warn: (line) => process.stderr.write(`wartnode-wallet: warning: ${line}\n`) });
  };
  const store = async (sk: Uint8Array): Promise<void> => {
    const passphrase = await newPassphrase(passphraseSrc, o.encrypt === true);
    const address = await createWalletFile(walletPath, sk, passphrase);
    out(address);
    process.stderr.write(`wallet written to ${walletPath}${passphrase === null ? ' (the key is NOT encrypted: give --passphrase-file or --encrypt to encrypt it)' : ' (the key is encrypted)'}\n`);
  };

  switch (cmd) {
    case 'create': args(0, ''); return store(randomPrivateKey());
    case 'restore': {
      const [hex] = args(1, 'a private key (64 hex chars)');
      const sk = fromHexExact(hex, 32);
      if (!sk || !isValidPrivateKey(sk)) throw new NodeError('EBADPRIVKEY', 'a private key is 64 hex chars of a valid secp256k1 key');
      return store(sk);
    }
    case 'address': args(0, ''); out((await readWalletFile(walletPath)).address); return;
    case 'show': {
      args(0, '');
      const w = await readWalletFile(walletPath);
      const sk = await w.unlock(w.encrypted ? await unlockPassphrase(passphraseSrc) : null);
      out(`address     ${w.address}`);
      out(`public key  ${toHex(publicKeyOf(sk))}`);
      out(`private key ${toHex(sk)}`);
      return;
    }
    case 'balance': { const a = await accountOf(); (await balanceLines(node(), a)).forEach(out); return; }
    case 'history': {
      const a = await accountOf();
      const before = o.before === undefined ? undefined : String(uintArg(o.before, '--before'));
      const page = await historyPage(node(), a, before);
      historyLines(page, a).forEach(out);
      if (page.perBlock.length === 0) out('no history');
      else if (BigInt(page.fromId) > 1n) process.stderr.write(`older entries: history --before ${page.fromId}\n`);
      return;
    }
    case 'orders': { const a = await accountOf(); (await orderLines(node(), a)).forEach(out); return; }
    case 'send': {
      const [to, amount] = args(2, '<address> <amount>');
      return send(async () => ({ type: 'coinTransfer', toAddress: addressArg(to), amount: coinArg(amount, 'amount') }));
    }
    case 'token': {
      const [, [token, to, amount]] = subcommand({ send: 3 }, { send: '<token> <address> <amount>' });
      return send(async () => {
        const toAddress = addressArg(to);
        const n = node();
        const t = await resolveTokenSpec(n, token);
        const me = (await readWalletFile(walletPath)).address;
        const { token: info } = await tokenBalance(n, me, t.spec);
        return { type: 'tokenTransfer', assetHash: hashArg(t.hash, 'asset hash'), isLiquidity: t.isLiquidity, toAddress, amount: amountArg(amount, info.decimals, 'amount') };
      });
    }
    case 'asset': {
      const [, [name, supply, decimalsText]] = subcommand({ create: 3 }, { create: '<NAME> <supply> <decimals>' });
      return send(async () => {
        if (!isAssetName(name)) throw new NodeError('EASSETNAME', `'${name}' must be 1 to 5 letters or digits`);
        const precision = uintArg(decimalsText, 'decimals');
        if (precision > MAX_PRICE_DECIMALS) throw new NodeError('EBADASSETDECIMALS', `decimals must be 0 to ${MAX_PRICE_DECIMALS}`);
        return { type: 'assetCreation', name: assetNameBytes(name), precision, supply: amountArg(supply, precision, 'supply') };
      });
    }
    case 'buy': case 'sell': {
      const [assetText, amount, priceText] = args(3, '<asset> <amount> <price>');
      const isBuy = cmd === 'buy';
      return send(async () => {
        const a = await resolveAsset(node(), assetText);
        const amountU = amountArg(amount, isBuy ? COIN_DECIMALS : a.decimals, 'amount');
        const limit = priceArg(priceText, a.decimals, isBuy);
        process.stderr.write(`limit price ${priceDoubleAdjusted(limit, a.decimals)} WART/${a.name} (${limit.hex})\n`);
        return { type: 'limitSwap', assetHash: hashArg(a.hash, 'asset hash'), isBuy, amount: amountU, limit: priceToBytes(limit) };
      });
    }
    case 'cancel': {
      const [txText] = args(1, '<txhash>');
      return send(async () => {
        hashArg(txText, 'transaction hash');
        const t = await node().get<{ transaction: { signedCommon?: { originAddress: string; pinHeight: number; nonceId: number } } }>(`/transaction/lookup/${txText}`);
        const c = t.transaction.signedCommon;
        if (!c || c.originAddress !== (await readWalletFile(walletPath)).address) throw new NodeError('EINV_ARGS', `transaction ${txText} was not sent by this wallet`);
        return { type: 'cancelation', cancelHeight: c.pinHeight, cancelNonceId: c.nonceId };
      });
    }
    case 'liquidity': {
      const [sub, more] = subcommand({ deposit: 3, withdraw: 2 }, { deposit: '<asset> <base> <coin>', withdraw: '<asset> <shares>' });
      return send(async () => {
        const n = node();
        const a = await resolveAsset(n, more[0]);
        const assetHash = hashArg(a.hash, 'asset hash');
        if (sub === 'deposit') return { type: 'liquidityDeposit', assetHash, base: amountArg(more[1], a.decimals, 'base amount'), quote: coinArg(more[2], 'coin amount') };
        const { token: shares } = await tokenBalance(n, (await readWalletFile(walletPath)).address, `liquidity:${a.hash}`);
        return { type: 'liquidityWithdrawal', assetHash, shares: amountArg(more[1], shares.decimals, 'shares') };
      });
    }
    default: throw new UsageError(`unknown command '${cmd}'`);
  }
}

await initKernel();
run(process.argv.slice(2)).then(() => process.exit(0), (e) => {
  if (e instanceof NodeRefusal) process.stderr.write(`wartnode-wallet: ${e.message}\n`);
  else if (e instanceof NodeError) process.stderr.write(`wartnode-wallet: error ${e.code}: ${e.message}\n${e instanceof UsageError ? "Try 'wartnode-wallet --help'.\n" : ''}`);
  else process.stderr.write(`wartnode-wallet: ${(e as Error)?.stack ?? e}\n`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
