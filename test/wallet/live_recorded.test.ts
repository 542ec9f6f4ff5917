// The wallet over the reference nodes' own answers: every run of the built wallet against a live
// reference recorded by `scripts/wallet-live.mjs --record test/vectors/wallet-live` (0.8.20, the
// mainnet reference; 0.10.3, the DeFi reference), each request with the answer the reference sent.
// A read command (balance, history, orders) is replayed through the wallet's own views over its
// run's answers and must print what the wallet printed live; a command 0.8 has no assets, orders or
// pools for must stop with the same one line before anything is signed; a transaction the wallet
// sent must have been taken by the reference under the hash the wallet printed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson } from '../../ts/core/json.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { balanceLines, historyText, orderLines } from '../../ts/wallet/account_views.js';
import type { GenerationName } from '../../ts/wallet/generations.js';
import { NodeApi, type Transport } from '../../ts/wallet/node_api.js';
import { replyData } from '../../ts/wallet/node_client.js';
import { WalletError } from '../../ts/wallet/wallet_error.js';

await initKernel();

const DIR = join(import.meta.dirname, '../vectors/wallet-live');
const BASE = 'http://reference';

interface Exchange {
  method: string;
  path: string;
  body?: string;
  status?: number;
  answer?: string;
  closed?: string;
}
interface RecordedRun {
  args: string[];
  exit: number;
  stdout: string;
  stderr: string;
  exchanges: Exchange[];
}
const recordings: Record<string, { reference: string; runs: RecordedRun[] }> = Object.fromEntries(
  (existsSync(DIR) ? readdirSync(DIR) : []).filter((f) => /^ref-.*\.json$/.test(f)).map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8'))]),
);

const VALUED = new Set(['--node', '--api', '--wallet', '--passphrase-file', '--fee', '--timeout', '--before']);
/** A run's options and words (the wallet's own option table: ts/wallet/main.ts). */
function argsOf(args: string[]): { options: Record<string, string | true>; words: string[] } {
  const options: Record<string, string | true> = {};
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (VALUED.has(args[i])) options[args[i].slice(2)] = args[++i];
    else if (args[i].startsWith('--')) options[args[i].slice(2)] = true;
    else words.push(args[i]);
  }
  return { options, words };
}

/** A node answering each path with its run's recorded answers, in the order they came. */
function replay(run: RecordedRun): Transport {
  const queues = new Map<string, Exchange[]>();
  for (const x of run.exchanges) queues.set(`${x.method} ${x.path}`, [...(queues.get(`${x.method} ${x.path}`) ?? []), x]);
  const answer = (route: string) => {
    const q = queues.get(route);
    if (!q) throw new Error(`the run asked no ${route}`);
    const x = q.length > 1 ? q.shift()! : q[0];
    if (x.answer === undefined) throw new WalletError(`the node at ${BASE} closed the connection without answering ${route}`);
    return replyData(readJson(x.answer), route, BASE);
  };
  return {
    base: BASE,
    get: async <T>(path: string) => answer(`GET ${path}`) as T,
    post: async <T>(path: string) => answer(`POST ${path}`) as T,
  };
}

/** The account a run is about: its address argument, else the one its requests name. */
function accountOf(run: RecordedRun, words: string[]): string {
  if (words[1]) return words[1];
  const m = run.exchanges.map((x) => /^\/account\/([0-9a-f]{48})\//.exec(x.path)).find(Boolean);
  if (!m) throw new Error(`no account in ${run.args.join(' ')}`);
  return m[1];
}

const EXCHANGE_COMMANDS: Record<string, (w: string[]) => string> = {
  orders: () => 'orders',
  token: () => 'token send',
  asset: () => 'asset create',
  buy: () => 'buy',
  sell: () => 'sell',
  cancel: () => 'cancel',
  liquidity: (w) => `liquidity ${w[1]}`,
};

describe.each(Object.keys(recordings))('the wallet over %s', (file) => {
  const { runs } = recordings[file];
  const connect = (run: RecordedRun, o: Record<string, string | true>) => NodeApi.connect(replay(run), o.api as GenerationName | undefined);

  it('balance, history and orders print what they printed live', async () => {
    let replayed = 0;
    for (const run of runs) {
      const { options, words } = argsOf(run.args);
      if (run.exit !== 0 || !['balance', 'history', 'orders'].includes(words[0])) continue;
      const api = await connect(run, options);
      const me = accountOf(run, words);
      const lines =
        words[0] === 'balance'
          ? await balanceLines(api, me)
          : words[0] === 'history'
            ? await historyText(api, me, options.before as string | undefined)
            : await orderLines(api, me);
      expect(lines.map((l) => `${l}\n`).join(''), run.args.join(' ')).toBe(run.stdout);
      replayed++;
    }
    expect(replayed).toBeGreaterThanOrEqual(8);
  });

  it('a command of assets, orders or pools where the node has none: the same line, nothing signed', async () => {
    for (const run of runs) {
      const { options, words } = argsOf(run.args);
      if (run.exit !== 1 || !/needs assets, orders and pools/.test(run.stderr)) continue;
      expect(
        run.exchanges.filter((x) => x.method !== 'GET'),
        run.args.join(' '),
      ).toEqual([]);
      const api = await connect(run, options);
      expect(() => api.requireExchange(EXCHANGE_COMMANDS[words[0]](words))).toThrow(run.stderr.replace(/^wartnode-wallet: /, '').trimEnd());
    }
  });

  it('every transaction the wallet printed was taken by the reference under that hash', () => {
    let sent = 0;
    for (const run of runs) {
      const posts = run.exchanges.filter((x) => x.method === 'POST' && x.path === '/transaction/add');
      if (run.exit !== 0 || posts.length === 0) continue;
      expect(posts, run.args.join(' ')).toHaveLength(1);
      const reply = replyData<{ txHash: string }>(readJson(posts[0].answer!), 'POST /transaction/add');
      expect(run.stdout.split('\n')[0]).toBe(reply.txHash);
      sent++;
    }
    expect(sent).toBeGreaterThanOrEqual(2);
  });
});

describe("0.10.3's print of a transfer of pool shares (reference-differences.md, share-transfers)", () => {
  const rec = recordings['ref-0.10.3.json'];
  const runs = rec?.runs ?? [];
  const sendRun = runs.find((r) => r.exit === 0 && /^token send liquidity:/.test(argsOf(r.args).words.join(' ')));
  const tx = sendRun?.stdout.trim() ?? '';
  const [, spec, to] = sendRun ? argsOf(sendRun.args).words.slice(1) : [];
  /** The history runs whose output lists the transfer: pending (from the mempool), then mined. */
  const listing = runs.filter((r) => argsOf(r.args).words[0] === 'history' && r.stdout.includes(tx));
  const answerOf = (run: RecordedRun, re: RegExp) => replyData<any>(readJson(run.exchanges.find((x) => re.test(x.path))!.answer!), '');
  const lineOf = (lines: string[]) => lines.find((l) => l.endsWith(tx));

  it.runIf(rec)('pending: the mempool prints its amount with the asset decimals; the wallet with the shares', async () => {
    const run = listing.find((r) => r.stdout.includes(`pending `) && lineOf(r.stdout.split('\n'))!.startsWith('pending'))!;
    const entry = answerOf(run, /^\/transaction\/mempool$/).find((m: any) => m.transaction.hash === tx);
    expect(entry.transaction.data).toMatchObject({ isLiquidity: true, amount: { str: '100.000', u64: 100000, decimals: 3 } });
    const lines = await historyText(await NodeApi.connect(replay(run), '0.10'), accountOf(run, argsOf(run.args).words));
    expect(lineOf(lines)).toMatch(/^pending +- +tokenTransfer +received 0\.00100000 TOKA-LP from [0-9a-f]{48}  /);
  });

  it.runIf(rec)('mined: printed as one of the asset; the signed hash tells the shares, by the pin hash', async () => {
    const run = listing.find((r) => argsOf(r.args).options.api === undefined && !lineOf(r.stdout.split('\n'))!.startsWith('pending'))!;
    const page = answerOf(run, /\/history\/9223372036854775807$/);
    const entry = page.perBlock.flatMap((b: any) => b.body.tokenTransfer ?? []).find((e: any) => e.transaction.hash === tx);
    expect(entry.transaction.data).toMatchObject({
      isLiquidity: false,
      tokenSpec: spec.replace('liquidity:', 'asset:'),
      amount: { str: '100.000', u64: 100000 },
    });
    const me = accountOf(run, ['history']);
    const told = await historyText(await NodeApi.connect(replay(run)), me);
    expect(lineOf(told)).toMatch(new RegExp(`tokenTransfer +sent 0\\.00100000 TOKA-LP to ${to}, fee 0\\.01000448  ${tx}$`));
    expect(run.exchanges.filter((x) => /^\/chain\/block\/\d+\/hash$/.test(x.path))).toHaveLength(1);
    // A node that does not tell the pin hash: the entry stays as printed.
    const untold = { ...run, exchanges: run.exchanges.filter((x) => !/^\/chain\/block\//.test(x.path)) };
    expect(lineOf(await historyText(await NodeApi.connect(replay(untold)), me))).toMatch(/tokenTransfer +sent 100\.000 TOKA to /);
  });
});

describe("0.10.3's uninitialised `remaining` of a filled order (reference-differences.md, uninitialised-remaining)", () => {
  const rec = recordings['ref-0.10.3.json'];
  const runs = rec?.runs ?? [];

  it.runIf(rec)('the orders that crossed the pool: closed, as the open orders tell', async () => {
    const crossing = runs.filter((r) => r.exit === 0 && /^(buy TOKA 0\.1 0\.03|sell TOKA 1 0\.01)$/.test(argsOf(r.args).words.join(' ')));
    expect(crossing).toHaveLength(2);
    for (const order of crossing) {
      const tx = order.stdout.trim();
      const run = runs.find((r) => argsOf(r.args).words[0] === 'history' && new RegExp(`^ +\\d+ .*${tx}$`, 'm').test(r.stdout))!;
      const page = replyData<any>(readJson(run.exchanges.find((x) => x.path.endsWith('/history/9223372036854775807'))!.answer!), '');
      const entry = page.perBlock.flatMap((b: any) => b.body.limitSwap ?? []).find((e: any) => e.transaction.hash === tx);
      expect(entry.transaction.processed.remaining.str).toBe('');
      expect(run.exchanges.filter((x) => /\/open_orders$/.test(x.path))).toHaveLength(1);
      const lines = await historyText(
        await NodeApi.connect(replay(run), argsOf(run.args).options.api as GenerationName | undefined),
        accountOf(run, ['history']),
      );
      expect(lines.find((l) => l.endsWith(tx))).toMatch(/order: .*, closed \(filled or canceled\), fee 0\.01000448  /);
    }
  });
});
