// Command line → Config (http-api-details.md §12.1, plus our --datadir and --regtest).
// Pure: takes argv and the environment, returns a Config or a usage error; main.ts does the I/O.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseUnits, COIN_DECIMALS } from './core/amount.js';
import { NODE_VERSION } from './version.js';
import { parseEndpoint, type Endpoint } from './core/endpoint.js';
import { UsageError, optionsHelp, parseOptions, type OptionSpec } from './cli/options.js';
import type { SeedTable } from './p2p/seeds.js';
import type { NetworkName } from './consensus/params.js';

export type Network = NetworkName;

/** The HTTP API generations `--api` chooses from (clients.md §1–§3; their tables are api/generations/). */
export type ApiName = 'contract' | '0.10' | '0.8';
export const API_NAMES: ApiName[] = ['contract', '0.10', '0.8'];

export interface Config {
  network: Network;
  rpc: Endpoint;
  dataDir: string;
  /** Minimum mempool fee as given (E8); rounded up to the 16-bit grid by the fee policy. */
  minFeeE8: bigint | null;
  /** P2P listen endpoint (`--bind`); absent: 0.0.0.0 and the network's port (p2pBind). */
  bind?: Endpoint;
  /** Peers to connect to (`--connect`), replacing the network's seed list (p2p.md §1.2). */
  connect?: Endpoint[];
  /** `--no-seeds`: do not dial the network's seed peers (p2p/seeds.ts), which mainnet and testnet dial by default. */
  noSeeds?: boolean;
  /**
   * The seed table replacing the built-in one (p2p/seeds.ts SEEDS): the test hook
   * `WARTNODE_SEEDS=IP:PORT,...` (empty: no seeds), so that test nodes dial only loopback listeners.
   */
  seedTable?: SeedTable;
  /** `--isolated`: no peer-to-peer connections at all. */
  isolated?: boolean;
  /** `--debug`: also log debug lines (refused and aborted HTTP requests). */
  debug?: boolean;
  /** `--ban-loopback`: ban misbehaving loopback peers too (p2p.md §4.4 exempts them; for tests). */
  banLoopback?: boolean;
  /** `--reindex`: rebuild the whole state from the stored blocks before starting. */
  reindex?: boolean;
  /** `--publicrpc` / `--enable-public`: the public RPC listener (clients.md §1, §8). */
  publicRpc?: Endpoint;
  /** `--stratum`: the solo-mining stratum server (clients.md §7). */
  stratum?: Endpoint;
  /** `--ws-port` and its companions: P2P over WebSocket (clients.md §6.3). */
  ws?: { host: string; port: number; xForwardedFor: boolean; tls?: { cert: string; key: string } };
  /** `--api`: the generation of the HTTP interface (clients.md §1–§3); default the contract. */
  api: ApiName;
}

export type ParseResult =
  | { kind: 'run'; config: Config }
  | { kind: 'help'; text: string }
  | { kind: 'version'; text: string }
  | { kind: 'error'; message: string };

const DEFAULT_RPC_PORT: Record<Network, number> = { mainnet: 3000, testnet: 3100, regtest: 3200, 'regtest-mainnet': 3300 };
/** Default P2P port (p2p.md §1.2); our local networks use 9386 (regtest) and 9486 (regtest-mainnet). */
export const DEFAULT_P2P_PORT: Record<Network, number> = { mainnet: 9186, testnet: 9286, regtest: 9386, 'regtest-mainnet': 9486 };

/** The P2P listen endpoint: `--bind`, or 0.0.0.0 on the network's default port. */
export function p2pBind(c: Config): Endpoint {
  return c.bind ?? { host: '0.0.0.0', port: DEFAULT_P2P_PORT[c.network] };
}

/** The node's options: `parseArgs` reads them and --help lists them, both from this table. */
const OPTIONS: OptionSpec[] = [
  {
    name: 'rpc',
    short: 'r',
    value: 'IP:PORT',
    help: 'JSON RPC endpoint (default 127.0.0.1:3000, testnet :3100, regtest :3200,\nregtest-mainnet :3300)',
  },
  {
    name: 'bind',
    short: 'b',
    value: 'IP:PORT',
    help: 'P2P listen endpoint (default 0.0.0.0:9186, testnet :9286, regtest :9386,\nregtest-mainnet :9486)',
  },
  { name: 'connect', short: 'C', value: 'IP:PORT,...', help: 'peers to connect to (always retried); replaces the seed list' },
  {
    name: 'no-seeds',
    help: "do not dial the network's built-in seed peers (the reference's lists),\nwhich mainnet and testnet dial by default: only the --connect peers\nand inbound ones",
  },
  { name: 'seeds', help: 'dial the seed peers: the default, kept for scripts that ask for it' },
  { name: 'isolated', help: 'no peer-to-peer connections in or out' },
  { name: 'ws-port', value: 'PORT', help: 'also accept peers (browser nodes) over WebSocket on PORT, all interfaces' },
  { name: 'ws-bind-localhost', help: 'the WebSocket listener binds 127.0.0.1 only' },
  { name: 'ws-x-forwarded-for', help: "behind a reverse proxy: a WebSocket peer's IP is its X-Forwarded-For\nheader, and an upgrade without one is refused" },
  { name: 'ws-tls-cert', value: 'FILE', help: 'serve the WebSocket listener over TLS (wss://) with this certificate\n(PEM); goes with --ws-tls-key' },
  { name: 'ws-tls-key', value: 'FILE', help: "the TLS certificate's private key (PEM); goes with --ws-tls-cert" },
  { name: 'ban-loopback', help: 'ban misbehaving peers on loopback addresses too (they are exempt by\ndefault; for testing bans on one machine)' },
  {
    name: 'publicrpc',
    value: 'IP:PORT',
    help: 'public RPC listener: only the public routes, with a per-IP request\nbudget and connection caps (off by default)',
  },
  { name: 'enable-public', help: 'the public RPC listener on 0.0.0.0:3001 (unless --publicrpc is given)' },
  { name: 'stratum', value: 'IP:PORT', help: "solo-mining stratum server for miners (bzminer, janusminer, the\nbuilt-in miner's --stratum); off by default" },
  {
    name: 'api',
    value: 'GENERATION',
    help: 'HTTP API generation: contract (default, http-api.md), 0.10 (the DeFi\nreference node: wart names) or 0.8 (the mainnet reference node)',
  },
  { name: 'minfee', value: 'AMOUNT', help: 'minimum mempool fee in coins, e.g. 0.01 (rounded up to the 16-bit fee\ngrid; default 0.01000448)' },
  {
    name: 'datadir',
    value: 'DIR',
    help: 'where the node stores everything (default ~/.wartnode, with a\ntestnet/ or regtest/ subdirectory on those networks)',
  },
  { name: 'reindex', help: 'rebuild the whole state from the blocks stored in the database (after\nthe node reported it damaged), then start' },
  { name: 'testnet', help: 'the Warthog testnet' },
  { name: 'regtest', help: 'local test network: testnet rules with a trivial minimum target' },
  {
    name: 'regtest-mainnet',
    help: "local test network: mainnet's rules of today from height 1 (header\nversion 3, Janus8, coin transfers only) with a trivial minimum target",
  },
  { name: 'debug', help: 'also log debug lines (refused or aborted HTTP requests)' },
  { name: 'help', short: 'h', help: 'print this help and exit' },
  { name: 'version', short: 'V', help: 'print the version and exit' },
];

export const HELP = `wartnode ${NODE_VERSION} — Warthog-compatible full node

Usage: wartnode [options]

${optionsHelp(OPTIONS, '=')}
`;

/** What the command line reads from the environment; `WARTNODE_SEEDS` is a test hook (Config.seedTable). */
export interface ConfigEnv {
  HOME?: string;
  WARTNODE_SEEDS?: string;
}

export function parseArgs(argv: string[], env: ConfigEnv = { HOME: homedir(), WARTNODE_SEEDS: process.env.WARTNODE_SEEDS }): ParseResult {
  try {
    return read(parseOptions(argv, OPTIONS, { words: false }).values, env);
  } catch (e) {
    if (e instanceof UsageError) return { kind: 'error', message: e.message };
    throw e;
  }
}

/** The value of an endpoint option, if given. */
function endpointOption(given: Map<string, string | true>, name: string): Endpoint | undefined {
  const text = given.get(name);
  if (typeof text !== 'string') return undefined;
  return parseEndpoint(text) ?? usage(`bad --${name} option '${text}' (expected IP:PORT)`);
}

function usage(message: string): never {
  throw new UsageError(message);
}

function read(given: Map<string, string | true>, env: ConfigEnv): ParseResult {
  if (given.has('help')) return { kind: 'help', text: HELP };
  if (given.has('version')) return { kind: 'version', text: `wartnode ${NODE_VERSION}` };
  const chosen = (['testnet', 'regtest', 'regtest-mainnet'] as const).filter((n) => given.has(n));
  if (chosen.length > 1) usage(`--${chosen[0]} and --${chosen[1]} exclude each other`);
  const network = (chosen[0] ?? 'mainnet') as Network;
  const rpc = endpointOption(given, 'rpc') ?? { host: '127.0.0.1', port: DEFAULT_RPC_PORT[network] };

  let minFeeE8: bigint | null = null;
  const minfee = given.get('minfee');
  if (typeof minfee === 'string') {
    minFeeE8 = parseUnits(minfee, COIN_DECIMALS) ?? usage(`Bad --minfee option '${minfee}' specified (expected a coin amount such as 0.01)`);
  }

  const datadirText = given.get('datadir');
  let dataDir: string;
  if (typeof datadirText === 'string') {
    if (datadirText === '') usage('--datadir needs a directory');
    dataDir = datadirText;
  } else {
    if (!env.HOME) usage('no home directory: give --datadir');
    dataDir = network === 'mainnet' ? join(env.HOME, '.wartnode') : join(env.HOME, '.wartnode', network);
  }
  const apiText = given.get('api');
  let api: ApiName = 'contract';
  if (typeof apiText === 'string') {
    if (!(API_NAMES as string[]).includes(apiText)) usage(`bad --api option '${apiText}' (expected ${API_NAMES.join(', ')})`);
    api = apiText as ApiName;
  }
  const config: Config = { network, rpc, dataDir, minFeeE8, api };
  const bind = endpointOption(given, 'bind');
  if (bind) config.bind = bind;
  const connectText = given.get('connect');
  if (typeof connectText === 'string') {
    const list = connectText
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    const endpoints = list.map((t) => parseEndpoint(t));
    if (!list.length || endpoints.some((e) => !e)) usage(`bad --connect option '${connectText}' (expected IP:PORT,...)`);
    config.connect = endpoints as Endpoint[];
  }
  const publicRpc = endpointOption(given, 'publicrpc') ?? (given.has('enable-public') ? { host: '0.0.0.0', port: 3001 } : undefined);
  if (publicRpc) config.publicRpc = publicRpc;
  const stratum = endpointOption(given, 'stratum');
  if (stratum) config.stratum = stratum;
  if (given.has('isolated')) config.isolated = true;
  if (given.has('seeds') && given.has('no-seeds')) usage('--seeds and --no-seeds exclude each other');
  if (given.has('no-seeds')) config.noSeeds = true;
  if (env.WARTNODE_SEEDS !== undefined) config.seedTable = { [network]: seedList(env.WARTNODE_SEEDS) };
  if (given.has('ban-loopback')) config.banLoopback = true;
  if (given.has('reindex')) config.reindex = true;
  if (given.has('debug')) config.debug = true;
  const ws = wsOptions(given);
  if (ws) config.ws = ws;
  return { kind: 'run', config };
}

/** `WARTNODE_SEEDS`: IP:PORT entries separated by commas or spaces; empty: none. */
function seedList(text: string): Endpoint[] {
  const words = text.split(/[\s,]+/).filter((t) => t !== '');
  const list = words.map((t) => parseEndpoint(t));
  if (list.some((e) => !e)) usage(`bad WARTNODE_SEEDS '${text}' (expected IP:PORT,...)`);
  return list as Endpoint[];
}

/** `--ws-port` and its companions. */
function wsOptions(given: Map<string, string | true>): Config['ws'] {
  const portText = given.get('ws-port');
  const cert = given.get('ws-tls-cert'),
    key = given.get('ws-tls-key');
  if (portText === undefined) {
    const stray = ['ws-bind-localhost', 'ws-x-forwarded-for', 'ws-tls-cert', 'ws-tls-key'].find((n) => given.has(n));
    return stray ? usage(`--${stray} needs --ws-port`) : undefined;
  }
  if (typeof portText !== 'string' || !/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    usage(`bad --ws-port option '${portText}' (expected a port number)`);
  if ((cert === undefined) !== (key === undefined)) usage('--ws-tls-cert and --ws-tls-key go together');
  return {
    host: given.has('ws-bind-localhost') ? '127.0.0.1' : '0.0.0.0',
    port: Number(portText),
    xForwardedFor: given.has('ws-x-forwarded-for'),
    ...(typeof cert === 'string' && typeof key === 'string' ? { tls: { cert, key } } : {}),
  };
}
