// Per-network P2P settings (p2p.md §1.2): the handshake magic (the default listen ports belong to
// the command line, config.ts). Regtest and regtest-mainnet are ours: their own magics (the networks'
// data, consensus/params.ts) keep their nodes apart from testnet and mainnet nodes.
// The seed peers a node dials by default are in seeds.ts.
import { networkParams, type NetworkName } from '../consensus/params.js';

export interface PeerEndpoint {
  host: string;
  port: number;
}

/** The 14-byte magic: the connector sends `…?`, the acceptor answers `…!` (§1.4). */
export function handshakeMagic(network: NetworkName, connector: boolean): Uint8Array {
  return new TextEncoder().encode(`${networkParams(network).magic} GRUNT${connector ? '?' : '!'}`);
}
