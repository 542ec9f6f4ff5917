// Command line → Config (http-api-details.md §12.1, plus our --datadir and --regtest).
// Pure: takes argv and the environment, returns a Config or a usage error; main.ts does the I/O.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseUnits, COIN_DECIMALS } from './core/amount.js';
import { NODE_VERSION } from './version.js';

export type Network = 'mainnet' | 'testnet' | 'regtest';

/** The HTTP API generations `--api` chooses from (clients.md §1–§3; their tables are api/generations/). */
export type ApiName = 'contract' | '0.10' | '0.8';
export const API_NAMES: ApiName[] = ['contract', '0.10', '0.8'];

export interface Endpoint { host: string; port: number }

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
  /** `--seeds`: dial the network's built-in seed peers (p2p/seeds.ts); never without being asked. */
  seeds?: boolean;
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

const DEFAULT_RPC_PORT: Record<Network, number> = { mainnet: 3000, testnet: 3100, regtest: 3200 };
/** Default P2P port (p2p.md §1.2); regtest (ours) uses 9386. */
export const DEFAULT_P2P_PORT: Record<Network, number> = { mainnet: 9186, testnet: 9286, regtest: 9386 };

/** The P2P listen endpoint: `--bind`, or 0.0.0.0 on the network's default port. */
export function p2pBind(c: Config): Endpoint {
  return c.bind ?? { host: '0.0.0.0', port: DEFAULT_P2P_PORT[c.network] };
}

export const HELP = `wartnode ${NODE_VERSION} — Warthog-compatible full node

Usage: wartnode [options]

  -r, --rpc=IP:PORT     JSON RPC endpoint (default 127.0.0.1:3000, testnet :3100, regtest :3200)
  -b, --bind=IP:PORT    P2P listen endpoint (default 0.0.0.0:9186, testnet :9286, regtest :9386)
  -C, --connect=IP:PORT,...
                        peers to connect to (always retried); replaces the seed list
      --seeds           dial the network's built-in seed peers (the reference's lists).
                        Without --seeds or --connect the node dials no one: it only
                        accepts inbound peers
      --isolated        no peer-to-peer connections in or out
      --ws-port=PORT    also accept peers (browser nodes) over WebSocket on PORT, all interfaces
      --ws-bind-localhost
                        the WebSocket listener binds 127.0.0.1 only
      --ws-x-forwarded-for
                        behind a reverse proxy: a WebSocket peer's IP is its X-Forwarded-For
                        header, and an upgrade without one is refused
      --ws-tls-cert=FILE, --ws-tls-key=FILE
                        serve the WebSocket listener over TLS (wss://); both must be given
      --ban-loopback    ban misbehaving peers on loopback addresses too (they are exempt by
                        default; for testing bans on one machine)
      --publicrpc=IP:PORT
                        public RPC listener: only the public routes, with a per-IP request
                        budget and connection caps (off by default)
      --enable-public   the public RPC listener on 0.0.0.0:3001 (unless --publicrpc is given)
      --stratum=IP:PORT solo-mining stratum server for miners (bzminer, janusminer, the
                        built-in miner's --stratum); off by default
      --api=GENERATION  HTTP API generation: contract (default, http-api.md), 0.10 (the DeFi
                        reference node: wart names) or 0.8 (the mainnet reference node)
      --minfee=AMOUNT   minimum mempool fee in coins, e.g. 0.01 (rounded up to the 16-bit fee grid;
                        default 0.01000448)
      --datadir=DIR     where the node stores everything (default ~/.wartnode, with a
                        testnet/ or regtest/ subdirectory on those networks)
      --reindex         rebuild the whole state from the blocks stored in the database (after
                        the node reported it damaged), then start
      --testnet         the Warthog testnet
      --regtest         local test network: testnet rules with a trivial minimum target
      --debug           also log debug lines (refused or aborted HTTP requests)
  -h, --help            print this help and exit
  -V, --version         print the version and exit
`;

/** Parses `IP:PORT` (IPv4 or [IPv6]); null when malformed. */
export function parseEndpoint(text: string): Endpoint | null {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]|localhost):(\d{1,5})$/.exec(text);
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65535) return null; // 0: any free port (the log line names the one taken)
  const host = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  if (/^\d/.test(host) && host.split('.').some((o) => Number(o) > 255)) return null;
  return { host, port };
}

export function parseArgs(argv: string[], env: { HOME?: string } = { HOME: homedir() }): ParseResult {
  const given = new Map<string, string | true>();
  const takesValue = new Set(['rpc', 'minfee', 'datadir', 'bind', 'connect', 'publicrpc', 'stratum', 'ws-port', 'ws-tls-cert', 'ws-tls-key', 'api']);
  const short: Record<string, string> = { r: 'rpc', h: 'help', V: 'version', b: 'bind', C: 'connect' };
  const known = new Set([...takesValue, 'testnet', 'regtest', 'isolated', 'seeds', 'debug', 'ban-loopback', 'enable-public', 'ws-bind-localhost', 'ws-x-forwarded-for', 'reindex', 'help', 'version']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let name: string, value: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      value = eq < 0 ? undefined : a.slice(eq + 1);
    } else if (/^-[a-zA-Z]$/.test(a) && short[a[1]]) {
      name = short[a[1]];
    } else {
      return { kind: 'error', message: `unexpected argument '${a}'` };
    }
    if (!known.has(name)) return { kind: 'error', message: `unknown option '--${name}'` };
    if (given.has(name)) return { kind: 'error', message: `option '--${name}' given twice` };
    if (takesValue.has(name)) {
      if (value === undefined) {
        if (i + 1 >= argv.length || argv[i + 1].startsWith('-')) return { kind: 'error', message: `option '--${name}' needs a value` };
        value = argv[++i];
      }
      given.set(name, value);
    } else {
      if (value !== undefined) return { kind: 'error', message: `option '--${name}' takes no value` };
      given.set(name, true);
    }
  }
  if (given.has('help')) return { kind: 'help', text: HELP };
  if (given.has('version')) return { kind: 'version', text: `wartnode ${NODE_VERSION}` };
  if (given.has('testnet') && given.has('regtest')) return { kind: 'error', message: '--testnet and --regtest exclude each other' };
  const network: Network = given.has('testnet') ? 'testnet' : given.has('regtest') ? 'regtest' : 'mainnet';

  let rpc: Endpoint = { host: '127.0.0.1', port: DEFAULT_RPC_PORT[network] };
  const rpcText = given.get('rpc');
  if (typeof rpcText === 'string') {
    const e = parseEndpoint(rpcText);
    if (!e) return { kind: 'error', message: `bad --rpc option '${rpcText}' (expected IP:PORT)` };
    rpc = e;
  }

  let minFeeE8: bigint | null = null;
  const minfee = given.get('minfee');
  if (typeof minfee === 'string') {
    minFeeE8 = parseUnits(minfee, COIN_DECIMALS);
    if (minFeeE8 === null) return { kind: 'error', message: `Bad --minfee option '${minfee}' specified (expected a coin amount such as 0.01)` };
  }

  const datadirText = given.get('datadir');
  let dataDir: string;
  if (typeof datadirText === 'string') {
    if (datadirText === '') return { kind: 'error', message: '--datadir needs a directory' };
    dataDir = datadirText;
  } else {
    if (!env.HOME) return { kind: 'error', message: 'no home directory: give --datadir' };
    dataDir = network === 'mainnet' ? join(env.HOME, '.wartnode') : join(env.HOME, '.wartnode', network);
  }
  const apiText = given.get('api');
  let api: ApiName = 'contract';
  if (typeof apiText === 'string') {
    if (!(API_NAMES as string[]).includes(apiText)) return { kind: 'error', message: `bad --api option '${apiText}' (expected ${API_NAMES.join(', ')})` };
    api = apiText as ApiName;
  }
  const config: Config = { network, rpc, dataDir, minFeeE8, api };
  const bindText = given.get('bind');
  if (typeof bindText === 'string') {
    const e = parseEndpoint(bindText);
    if (!e) return { kind: 'error', message: `bad --bind option '${bindText}' (expected IP:PORT)` };
    config.bind = e;
  }
  const connectText = given.get('connect');
  if (typeof connectText === 'string') {
    const list = connectText.split(',').map((t) => t.trim()).filter((t) => t !== '');
    const endpoints = list.map(parseEndpoint);
    if (!list.length || endpoints.some((e) => !e)) return { kind: 'error', message: `bad --connect option '${connectText}' (expected IP:PORT,...)` };
    config.connect = endpoints as Endpoint[];
  }
  const publicText = given.get('publicrpc');
  if (typeof publicText === 'string') {
    const e = parseEndpoint(publicText);
    if (!e) return { kind: 'error', message: `bad --publicrpc option '${publicText}' (expected IP:PORT)` };
    config.publicRpc = e;
  } else if (given.has('enable-public')) {
    config.publicRpc = { host: '0.0.0.0', port: 3001 };
  }
  const stratumText = given.get('stratum');
  if (typeof stratumText === 'string') {
    const e = parseEndpoint(stratumText);
    if (!e) return { kind: 'error', message: `bad --stratum option '${stratumText}' (expected IP:PORT)` };
    config.stratum = e;
  }
  if (given.has('isolated')) config.isolated = true;
  if (given.has('seeds')) config.seeds = true;
  if (given.has('ban-loopback')) config.banLoopback = true;
  if (given.has('reindex')) config.reindex = true;
  if (given.has('debug')) config.debug = true;
  const ws = parseWsOptions(given);
  if (typeof ws === 'string') return { kind: 'error', message: ws };
  if (ws) config.ws = ws;
  return { kind: 'run', config };
}

/** `--ws-port` and its companions; a usage error as a string. */
function parseWsOptions(given: Map<string, string | true>): Config['ws'] | string | undefined {
  const portText = given.get('ws-port');
  const cert = given.get('ws-tls-cert'), key = given.get('ws-tls-key');
  if (portText === undefined) {
    const stray = ['ws-bind-localhost', 'ws-x-forwarded-for', 'ws-tls-cert', 'ws-tls-key'].find((n) => given.has(n));
    return stray ? `--${stray} needs --ws-port` : undefined;
  }
  if (typeof portText !== 'string' || !/^\d{1,5}$/.test(portText) || Number(portText) > 65535) return `bad --ws-port option '${portText}' (expected a port number)`;
  if ((cert === undefined) !== (key === undefined)) return '--ws-tls-cert and --ws-tls-key go together';
  return {
    host: given.has('ws-bind-localhost') ? '127.0.0.1' : '0.0.0.0',
    port: Number(portText),
    xForwardedFor: given.has('ws-x-forwarded-for'),
    ...(typeof cert === 'string' && typeof key === 'string' ? { tls: { cert, key } } : {}),
  };
}
