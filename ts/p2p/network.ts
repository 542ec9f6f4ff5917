// Per-network P2P settings (p2p.md §1.2): handshake magic and seed peers (the default listen
// ports belong to the command line, config.ts). Regtest is ours: its own magic keeps regtest and
// testnet nodes apart, and it has no seeds.
import type { NetworkName } from '../consensus/params.js';

export interface PeerEndpoint { host: string; port: number }

/** The 14-byte magic: the connector sends `…?`, the acceptor answers `…!` (§1.4). */
export function handshakeMagic(network: NetworkName, connector: boolean): Uint8Array {
  const word = network === 'mainnet' ? 'WARTHOG' : network === 'testnet' ? 'TESTNET' : 'REGTEST';
  return new TextEncoder().encode(`${word} GRUNT${connector ? '?' : '!'}`);
}

const MAINNET_SEEDS = [
  '122.148.197.165:9186', '135.181.77.214:9186', '185.209.228.16:9186', '185.215.180.7:9186',
  '193.218.118.57:9186', '194.164.30.182:9186', '203.25.209.147:9186', '209.12.214.158:9186',
  '213.199.59.252:20016', '47.187.202.183:9186', '49.13.161.201:9186', '51.75.21.134:9186',
  '62.72.44.89:9186', '63.231.144.31:9186', '74.208.75.230:9186', '74.208.77.165:9186',
  '82.146.46.246:9186', '89.107.33.239:9186', '89.117.150.162:9186', '89.163.224.253:9186',
];
const TESTNET_SEEDS = ['193.218.118.57:9286', '98.71.18.140:9286'];

/** The pinned peers used when no `--connect` list is given (§1.2). */
export function seedPeers(network: NetworkName): PeerEndpoint[] {
  const list = network === 'mainnet' ? MAINNET_SEEDS : network === 'testnet' ? TESTNET_SEEDS : [];
  return list.map((s) => {
    const [host, port] = s.split(':');
    return { host, port: Number(port) };
  });
}
