// Per-network P2P settings (p2p.md §1.2): the handshake magic (the default listen ports belong to
// the command line, config.ts). Regtest is ours: its own magic keeps regtest and testnet nodes apart.
// There is no built-in seed list yet: until talking to reference nodes has been checked, the node
// dials only the peers given with --connect (and accepts inbound connections).
import type { NetworkName } from '../consensus/params.js';

export interface PeerEndpoint {
  host: string;
  port: number;
}

/** The 14-byte magic: the connector sends `…?`, the acceptor answers `…!` (§1.4). */
export function handshakeMagic(network: NetworkName, connector: boolean): Uint8Array {
  const word = network === 'mainnet' ? 'WARTHOG' : network === 'testnet' ? 'TESTNET' : 'REGTEST';
  return new TextEncoder().encode(`${word} GRUNT${connector ? '?' : '!'}`);
}
