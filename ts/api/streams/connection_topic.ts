// The `connection` topic's producer (clients.md §6.1): the registered peer connections, and each
// one that joins or leaves. It reads the peer manager, not the chain: no view.
import type { Peer } from '../../p2p/peer.js';
import type { PeerManager } from '../../p2p/peer_manager.js';
import type { ConnectionView, StreamEventBody } from './events.js';

const connectionView = (p: Peer): ConnectionView => ({
  id: p.id,
  since: Math.floor(p.conn.since / 1000),
  peerAddr: p.address,
  inbound: p.conn.inbound,
});

export type ConnectionEvent =
  | { type: 'connection.add'; event: StreamEventBody<'connection.add'> }
  | { type: 'connection.remove'; event: StreamEventBody<'connection.remove'> };

export class ConnectionTopic {
  private peers: PeerManager | null = null;

  /** Reports peers joining and leaving to `emit` (while `wanted()`). */
  attach(manager: PeerManager, wanted: () => boolean, emit: (e: ConnectionEvent) => void): void {
    this.peers = manager;
    manager.onPeer((e) => {
      if (!wanted()) return;
      const total = manager.registered().length;
      if (e.kind === 'connected') emit({ type: 'connection.add', event: { connection: connectionView(e.peer), total } });
      else emit({ type: 'connection.remove', event: { id: e.peer.id, total } });
    });
  }

  state(): StreamEventBody<'connection.state'> {
    const connections = (this.peers?.registered() ?? []).map(connectionView);
    return { connections, total: connections.length };
  }
}
