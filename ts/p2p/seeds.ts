// The reference's built-in seed peers (p2p.md §1.2: the 0.10 list; mainnet.md §6: the 0.8.20 list
// mainnet runs today), as data. Mainnet takes the union of both, so a node finds peers of either
// generation. A mainnet or testnet node dials its network's list by default, as the reference and
// Bitcoin Core do; `--connect` replaces the list, `--no-seeds` and `--isolated` turn it off. Local
// networks (regtest) have no seeds. Tests replace the table (`WARTNODE_SEEDS`, config.ts) so that
// no test node ever dials a public address.
import type { NetworkName } from '../consensus/params.js';
import { formatEndpoint, parseEndpoint } from '../core/endpoint.js';
import type { PeerEndpoint } from './network.js';

const endpoints = (text: string): PeerEndpoint[] =>
  text
    .trim()
    .split(/\s+/)
    .map((t) => {
      const e = parseEndpoint(t);
      if (!e) throw new Error(`seed list: '${t}' is not IP:PORT`);
      return e;
    });

/** 0.10 (defi, p2p.md §1.2). */
const MAINNET_0_10 = `
  122.148.197.165:9186 135.181.77.214:9186 185.209.228.16:9186 185.215.180.7:9186
  193.218.118.57:9186  194.164.30.182:9186 203.25.209.147:9186 209.12.214.158:9186
  213.199.59.252:20016 47.187.202.183:9186 49.13.161.201:9186  51.75.21.134:9186
  62.72.44.89:9186     63.231.144.31:9186  74.208.75.230:9186  74.208.77.165:9186
  82.146.46.246:9186   89.107.33.239:9186  89.117.150.162:9186 89.163.224.253:9186`;
/** 0.8.20 (master, mainnet.md §6); five entries are in both lists. */
const MAINNET_0_8 = `
  135.181.77.214:9186 15.235.162.190:9186 193.218.118.57:9186 203.25.209.147:9186 213.199.59.252:20016
  37.114.63.165:9186  64.92.35.4:9186     68.227.255.200:9186 74.122.131.1:9186   81.163.20.40:9186
  88.11.56.103:9186   89.163.224.253:9186 96.41.20.26:9186`;

function union(...lists: PeerEndpoint[][]): PeerEndpoint[] {
  const seen = new Set<string>();
  return lists.flat().filter((e) => !seen.has(`${e.host}:${e.port}`) && !!seen.add(`${e.host}:${e.port}`));
}

/** Seed peers by network; a network without an entry (a local one) has none. */
export type SeedTable = Partial<Record<NetworkName, readonly PeerEndpoint[]>>;

export const SEEDS: SeedTable = {
  mainnet: union(endpoints(MAINNET_0_10), endpoints(MAINNET_0_8)),
  testnet: endpoints('193.218.118.57:9286 98.71.18.140:9286'),
  // regtest and any other local network: none
};

/** The seed peers of `network` in `table`. */
export function seedsOf(network: NetworkName, table: SeedTable = SEEDS): readonly PeerEndpoint[] {
  return table[network] ?? [];
}

/**
 * The pinned peers the node keeps dialling: the `--connect` list when given (it replaces the
 * seeds), else the network's seeds unless `seeds` is false (`--no-seeds`).
 */
export function pinnedPeers(network: NetworkName, connect: PeerEndpoint[] | undefined, seeds: boolean, table: SeedTable = SEEDS): PeerEndpoint[] {
  if (connect) return connect;
  return seeds ? [...seedsOf(network, table)] : [];
}

/**
 * The start-up line saying whom the node dials, and why. `source` names where the seed list comes
 * from: the built-in table, or the one a test gave (`WARTNODE_SEEDS`).
 */
export function dialPlanLine(network: NetworkName, connect: PeerEndpoint[] | undefined, seeds: boolean, table: SeedTable = SEEDS, source = 'built-in'): string {
  const list = (es: readonly PeerEndpoint[]) => es.map(formatEndpoint).join(', ');
  if (connect) return `Peers to dial (--connect, which replaces the seed list): ${list(connect)}`;
  if (!seeds) return 'Dialling no peers (--no-seeds); inbound peers are accepted';
  const s = seedsOf(network, table);
  return s.length > 0
    ? `Dialling the ${s.length} ${source} ${network} seed peers (--no-seeds turns this off): ${list(s)}`
    : `Dialling no peers: ${network} has no ${source} seed peers (give peers with --connect); inbound peers are accepted`;
}
