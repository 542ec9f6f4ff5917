// The reference's built-in seed peers (p2p.md §1.2: the 0.10 list; mainnet.md §6: the 0.8.20 list
// mainnet runs today), as data. Mainnet takes the union of both, so a node finds peers of either
// generation. Dialled only when the user asks (`--seeds`): a node of ours never sends traffic off
// the machine on its own. `--connect` replaces the list, as in the reference.
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

export type SeedTable = Record<NetworkName, readonly PeerEndpoint[]>;

export const SEEDS: SeedTable = {
  mainnet: union(endpoints(MAINNET_0_10), endpoints(MAINNET_0_8)),
  testnet: endpoints('193.218.118.57:9286 98.71.18.140:9286'),
  regtest: [], // ours: local networks only
};

/**
 * The pinned peers the node keeps dialling: the `--connect` list when given (it replaces the
 * seeds), else the network's seeds when `--seeds` asks for them, else none.
 */
export function pinnedPeers(network: NetworkName, connect: PeerEndpoint[] | undefined, seeds: boolean, table: SeedTable = SEEDS): PeerEndpoint[] {
  if (connect) return connect;
  return seeds ? [...table[network]] : [];
}

/** The start-up line saying whom the node dials, and why. */
export function dialPlanLine(network: NetworkName, connect: PeerEndpoint[] | undefined, seeds: boolean, table: SeedTable = SEEDS): string {
  const list = (es: readonly PeerEndpoint[]) => es.map(formatEndpoint).join(', ');
  if (connect) return `Peers to dial (--connect${seeds ? ', which replaces --seeds' : ''}): ${list(connect)}`;
  if (!seeds) return 'Dialling no peers (neither --connect nor --seeds given); inbound peers are accepted';
  return table[network].length > 0
    ? `Dialling the ${table[network].length} built-in ${network} seed peers (--seeds)`
    : `--seeds: there are no built-in ${network} seed peers; give peers with --connect`;
}
