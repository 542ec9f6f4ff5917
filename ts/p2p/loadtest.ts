// Load tests (p2p.md §6): a connection in header (block) load-test mode gets, whenever it is idle,
// a Batchreq for the batch slot holding the peer's tip (a Blockreq for its last 30 blocks), until
// the mode is disabled. Replies are dropped. The point is to exercise the peer's throttling (§3.8).
import { PeerGone, RequestExpired, type Peer, type RequestWithoutNonce } from './peer.js';
import { BATCH_SIZE, BLOCK_BATCH } from './protocol.js';

const IDLE_POLL_MS = 100;
const EMPTY_CHAIN_POLL_MS = 1_000;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The next load-test request for `peer`, or null when there is nothing to ask for. */
export function loadRequest(peer: Peer): RequestWithoutNonce | null {
  const c = peer.chain;
  if (!c || !peer.loadtest) return null;
  if (peer.loadtest === 'header') {
    const slot = c.length === 0 ? 0 : Math.floor((c.length - 1) / BATCH_SIZE);
    return { kind: 'Batchreq', descriptor: c.descriptor, start: slot * BATCH_SIZE + 1, count: BATCH_SIZE };
  }
  if (c.length === 0) return null;
  return { kind: 'Blockreq', descriptor: c.descriptor, first: Math.max(1, c.length - BLOCK_BATCH + 1), last: c.length };
}

/** Sets the mode of `peer` (null: disable) and runs its request loop while a mode is set. */
export function setLoadTest(peer: Peer, mode: 'header' | 'block' | null): void {
  const running = peer.loadtest !== null;
  peer.loadtest = mode;
  if (mode && !running) void loop(peer);
}

async function loop(peer: Peer): Promise<void> {
  while (peer.loadtest && !peer.conn.closed) {
    const req = peer.busy ? null : loadRequest(peer);
    if (!req) {
      await pause(peer.chain && !peer.busy ? EMPTY_CHAIN_POLL_MS : IDLE_POLL_MS);
      continue;
    }
    try {
      await peer.request(req);
    } catch (e) {
      if (e instanceof PeerGone) break;
      if (!(e instanceof RequestExpired)) await pause(IDLE_POLL_MS);
    }
  }
  peer.loadtest = null;
}
