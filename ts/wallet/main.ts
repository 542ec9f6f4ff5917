// `wartnode-wallet [options] <command> [args]`: a wallet on the command line, an HTTP client of a
// node (docs/architecture.md "Layers": it uses the codecs and the kernel, never the node's own
// layers; test/architecture/imports.test.ts). Keys stay in the wallet file; signing happens here.
// It talks to a node of any API generation (contract, 0.10, 0.8: generations.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { formatAddress } from '../core/address.js';
import { COIN_DECIMALS } from '../core/amount.js';
import { NodeError } from '../core/errors.js';
import { fromHexExact, toHex } from '../core/hex.js';
import { isValidPrivateKey, publicKeyOf, randomPrivateKey } from '../core/keys.js';
import { assetNameBytes, type TransactionPayload } from '../core/transaction.js';
import { initKernel } from '../kernel/instance.js';
import { MAX_PRICE_DECIMALS, priceDecimal, priceToBytes } from '../kernel/price.js';
import { COMMIT, NODE_VERSION } from '../version.js';
import { balanceLines, historyText, orderLines } from './account_views.js';
import { resolveAsset, resolveTokenSpec } from './assets.js';
import { addressArg, amountArg, coinArg, feeArg, hashArg, isAssetName, priceArg, uintArg } from './inputs.js';
import { NodeClient, NodeRefusal } from './node_client.js';
import { NodeApi } from './node_api.js';
import { GENERATION_NAMES, isGenerationName } from './generations.js';
import { PASSPHRASE_ENV, newPassphrase, unlockPassphrase } from './passphrase.js';
import { checkFunds } from './funds_check.js';
import { UsageError, optionsHelp, parseOptions, type OptionSpec } from '../cli/options.js';
import { minimumFee, submit } from './submit.js';
import { WalletError } from './wallet_error.js';
import { createWalletFile, readWalletFile } from './wallet_file.js';
import { cancelableOrder } from './cancel.js';

const DEFAULT_NODE = 'http://127.0.0.1:3000';
const DEFAULT_WALLET = join(homedir(), '.wartnode', 'wallet.json');
const DEFAULT_WAIT_SECONDS = 600;

const OPTIONS: OptionSpec[] = [
  { name: 'node', value: 'URL', help: `the node's HTTP endpoint (default ${DEFAULT_NODE})` },
  {
    name: 'api',
    value: 'GENERATION',
    help: `the node's API generation: ${GENERATION_NAMES.join(', ')} (default: the wallet reads it\nfrom the node's /transaction/minfee answer)`,
  },
  { name: 'wallet', value: 'FILE', help: 'the wallet file (default ~/.wartnode/wallet.json), created with mode 0600' },
  {
    name: 'passphrase-file',
    value: 'FILE',
    help: `the passphrase is the file's first line; otherwise ${PASSPHRASE_ENV},\notherwise the wallet asks in a terminal. create/restore encrypt the key\n(scrypt + AES-256-GCM) when a passphrase is given this way`,
  },
  { name: 'encrypt', help: 'create/restore: ask for a passphrase in the terminal' },
  { name: 'fee', value: 'AMOUNT', help: "transaction fee in WART (default: the node's minimum), rounded up to the fee grid" },
  { name: 'wait', help: 'wait until the transaction is in a block (at most --timeout seconds)' },
  { name: 'timeout', value: 'SECONDS', help: `how long --wait waits (default ${DEFAULT_WAIT_SECONDS})` },
  { name: 'before', value: 'ID', help: 'history: entries older than history id ID' },
  { name: 'version', short: 'V', help: 'print the version and exit' },
  { name: 'help', short: 'h', help: 'this text' },
];

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
  cancel <txhash>                     cancel one of your open limit orders (once a block holds it)
  liquidity deposit <asset> <base> <coin>
                                      add <base> units of <asset> and <coin> WART to its pool
  liquidity withdraw <asset> <shares> redeem pool shares (liquidity tokens)
A node of API generation 0.8 (the mainnet reference 0.8.20) has no assets, orders or pools:
there only create, restore, address, show, balance, history and send work.

Options:
${optionsHelp(OPTIONS)}
`;

function out(line: string): void {
  process.stdout.write(line + '\n');
}

async function run(argv: string[]): Promise<void> {
  const { values, words } = parseOptions(argv, OPTIONS);
  const text = (name: string) => values.get(name) as string | undefined;
  const o = {
    node: text('node'),
    api: text('api'),
    wallet: text('wallet'),
    'passphrase-file': text('passphrase-file'),
    encrypt: values.has('encrypt'),
    fee: text('fee'),
    wait: values.has('wait'),
    timeout: text('timeout'),
    before: text('before'),
  };
  if (values.has('help')) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.has('version')) {
    out(`wartnode-wallet ${NODE_VERSION} (commit ${COMMIT})`);
    return;
  }
  if (words.length === 0) throw new UsageError('no command given', USAGE);

  const walletPath = o.wallet ?? DEFAULT_WALLET;
  const passphraseSrc = { file: o['passphrase-file'] };
  if (o.api !== undefined && !isGenerationName(o.api)) throw new UsageError(`--api is one of ${GENERATION_NAMES.join(', ')}, not '${o.api}'`);
  const stated = o.api;
  let connected: Promise<NodeApi> | undefined;
  /** The node, in the API generation it speaks (asked once). */
  const node = (): Promise<NodeApi> => (connected ??= NodeApi.connect(new NodeClient(o.node ?? DEFAULT_NODE), stated));
  /** The node, for a command of assets, orders or pools: refused where its generation has none. */
  const exchangeNode = async (command: string): Promise<NodeApi> => {
    const n = await node();
    n.requireExchange(command);
    return n;
  };
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
  /**
   * Checks inputs and funds first, then unlocks the key, then sends: a bad input, a shortfall or a
   * wrong passphrase sends nothing.
   */
  const send = async (payload: () => Promise<TransactionPayload>): Promise<void> => {
    const p = await payload();
    const n = await node();
    const txFee = fee ?? (await minimumFee(n));
    await checkFunds(n, (await readWalletFile(walletPath)).address, p, txFee.feeE8);
    const sk = await unlock();
    await submit(n, sk, p, { fee: txFee, waitSeconds, print: out, warn: (line) => process.stderr.write(`wartnode-wallet: warning: ${line}\n`) });
  };
  const store = async (sk: Uint8Array): Promise<void> => {
    const passphrase = await newPassphrase(passphraseSrc, o.encrypt === true);
    const address = await createWalletFile(walletPath, sk, passphrase);
    out(address);
    process.stderr.write(
      `wallet written to ${walletPath}${passphrase === null ? ' (the key is NOT encrypted: give --passphrase-file or --encrypt to encrypt it)' : ' (the key is encrypted)'}\n`,
    );
  };

  switch (cmd) {
    case 'create':
      args(0, '');
      return store(randomPrivateKey());
    case 'restore': {
      const [hex] = args(1, 'a private key (64 hex chars)');
      const sk = fromHexExact(hex, 32);
      if (!sk || !isValidPrivateKey(sk)) throw new WalletError('a private key is 64 hex chars of a valid secp256k1 key');
      return store(sk);
    }
    case 'address':
      args(0, '');
      out((await readWalletFile(walletPath)).address);
      return;
    case 'show': {
      args(0, '');
      const w = await readWalletFile(walletPath);
      const sk = await w.unlock(w.encrypted ? await unlockPassphrase(passphraseSrc) : null);
      out(`address     ${w.address}`);
      out(`public key  ${toHex(publicKeyOf(sk))}`);
      out(`private key ${toHex(sk)}`);
      return;
    }
    case 'balance': {
      const a = await accountOf();
      (await balanceLines(await node(), a)).forEach(out);
      return;
    }
    case 'history': {
      const a = await accountOf();
      const before = o.before === undefined ? undefined : String(uintArg(o.before, '--before'));
      (await historyText(await node(), a, before)).forEach(out);
      return;
    }
    case 'orders': {
      const a = await accountOf();
      (await orderLines(await exchangeNode(cmd), a)).forEach(out);
      return;
    }
    case 'send': {
      const [to, amount] = args(2, '<address> <amount>');
      return send(async () => ({ type: 'coinTransfer', toAddress: addressArg(to), amount: coinArg(amount, 'amount') }));
    }
    case 'token': {
      const [, [token, to, amount]] = subcommand({ send: 3 }, { send: '<token> <address> <amount>' });
      const n = await exchangeNode('token send');
      return send(async () => {
        const toAddress = addressArg(to);
        const t = await resolveTokenSpec(n, token);
        const me = (await readWalletFile(walletPath)).address;
        const { token: info } = await n.tokenBalance(me, t.spec);
        return {
          type: 'tokenTransfer',
          assetHash: hashArg(t.hash, 'asset hash'),
          isLiquidity: t.isLiquidity,
          toAddress,
          amount: amountArg(amount, info.decimals, 'amount'),
        };
      });
    }
    case 'asset': {
      const [, [name, supply, decimalsText]] = subcommand({ create: 3 }, { create: '<NAME> <supply> <decimals>' });
      await exchangeNode('asset create');
      return send(async () => {
        if (!isAssetName(name)) throw new WalletError(`'${name}' must be 1 to 5 letters or digits`);
        const precision = uintArg(decimalsText, 'decimals');
        if (precision > MAX_PRICE_DECIMALS) throw new WalletError(`decimals must be 0 to ${MAX_PRICE_DECIMALS}`);
        return { type: 'assetCreation', name: assetNameBytes(name), precision, supply: amountArg(supply, precision, 'supply') };
      });
    }
    case 'buy':
    case 'sell': {
      const [assetText, amount, priceText] = args(3, '<asset> <amount> <price>');
      const isBuy = cmd === 'buy';
      const n = await exchangeNode(cmd);
      return send(async () => {
        const a = await resolveAsset(n, assetText);
        const amountU = amountArg(amount, isBuy ? COIN_DECIMALS : a.decimals, 'amount');
        const limit = priceArg(priceText, a.decimals, isBuy);
        process.stderr.write(
          `limit price ${priceDecimal(limit, a.decimals)} WART/${a.name} (${limit.hex}; the price grid's ${isBuy ? 'highest at or below' : 'lowest at or above'} ${priceText})\n`,
        );
        return { type: 'limitSwap', assetHash: hashArg(a.hash, 'asset hash'), isBuy, amount: amountU, limit: priceToBytes(limit) };
      });
    }
    case 'cancel': {
      const [txText] = args(1, '<txhash>');
      const n = await exchangeNode(cmd);
      return send(async () => {
        const id = await cancelableOrder(n, (await readWalletFile(walletPath)).address, toHex(hashArg(txText, 'transaction hash')));
        return { type: 'cancelation', cancelHeight: id.pinHeight, cancelNonceId: id.nonceId };
      });
    }
    case 'liquidity': {
      const [sub, more] = subcommand({ deposit: 3, withdraw: 2 }, { deposit: '<asset> <base> <coin>', withdraw: '<asset> <shares>' });
      const n = await exchangeNode(`liquidity ${sub}`);
      return send(async () => {
        const a = await resolveAsset(n, more[0]);
        const assetHash = hashArg(a.hash, 'asset hash');
        if (sub === 'deposit')
          return { type: 'liquidityDeposit', assetHash, base: amountArg(more[1], a.decimals, 'base amount'), quote: coinArg(more[2], 'coin amount') };
        const { token: shares } = await n.tokenBalance((await readWalletFile(walletPath)).address, `liquidity:${a.hash}`);
        return { type: 'liquidityWithdrawal', assetHash, shares: amountArg(more[1], shares.decimals, 'shares') };
      });
    }
    default:
      throw new UsageError(`unknown command '${cmd}'`);
  }
}

await initKernel();
run(process.argv.slice(2)).then(
  () => process.exit(0),
  (e) => {
    const say = (line: string) => process.stderr.write(`wartnode-wallet: ${line}\n`);
    if (e instanceof UsageError) {
      say(e.message);
      process.stderr.write(e.help ?? "Try 'wartnode-wallet --help'.\n");
      process.exit(2);
    }
    if (e instanceof NodeRefusal || e instanceof WalletError) say(e.message);
    else if (e instanceof NodeError)
      say(e.message); // a check of core's (a codec's range), told as is
    else say(`internal error: ${String(e)} (please report it with the command and the node's --api generation)`);
    process.exit(1);
  },
);
