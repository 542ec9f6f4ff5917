// Command line → Config (http-api-details.md §12.1, plus our --datadir and --regtest).
// Pure: takes argv and the environment, returns a Config or a usage error; main.ts does the I/O.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseUnits, COIN_DECIMALS } from './core/amount.js';
import { NODE_VERSION } from './version.js';

export type Network = 'mainnet' | 'testnet' | 'regtest';

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
  /** `--isolated`: no peer-to-peer connections at all. */
  isolated?: boolean;
  /** `--ban-loopback`: ban misbehaving loopback peers too (p2p.md §4.4 exempts them; for tests). */
  banLoopback?: boolean;
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
                        peers to connect to, replacing the built-in seed list
      --isolated        no peer-to-peer connections in or out
      --ban-loopback    ban misbehaving peers on loopback addresses too (they are exempt by
                        default; for testing bans on one machine)
      --minfee=AMOUNT   minimum mempool fee in coins, e.g. 0.01 (rounded up to the 16-bit fee grid;
                        default 0.01000448)
      --datadir=DIR     where the node stores everything (default ~/.wartnode, with a
                        testnet/ or regtest/ subdirectory on those networks)
      --testnet         the Warthog testnet
      --regtest         local test network: testnet rules with a trivial minimum target
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
  const takesValue = new Set(['rpc', 'minfee', 'datadir', 'bind', 'connect']);
  const short: Record<string, string> = { r: 'rpc', h: 'help', V: 'version', b: 'bind', C: 'connect' };
  const known = new Set([...takesValue, 'testnet', 'regtest', 'isolated', 'ban-loopback', 'help', 'version']);
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
  const config: Config = { network, rpc, dataDir, minFeeE8 };
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
  if (given.has('isolated')) config.isolated = true;
  if (given.has('ban-loopback')) config.banLoopback = true;
  return { kind: 'run', config };
}
