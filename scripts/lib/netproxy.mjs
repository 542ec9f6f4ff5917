// The links of a loopback test network, one TCP front per node: every node dials the others only
// through their fronts, so the harness can cut the network in two and heal it, or slow one node
// down, for nodes it cannot reconfigure (the references). A front reads the connector's handshake
// hello (p2p.md §1.4: magic (14) ‖ version u32 ‖ 4 zero bytes ‖ listen port u16) to learn which
// node is dialling (each node listens on a port of its own), refuses what crosses a partition or
// comes from no known node, and connects on to its node from the dialler's own loopback source
// address (127.0.2.k), so that a reference's one-inbound-connection-per-IP rule sees one IP per peer.
// Nodes listen on 127.0.1.k: an address a node learns from a peer's claimed listen port
// (127.0.2.k:port) leads nowhere, so no link bypasses the fronts.
import { createServer, connect } from 'node:net';

const HELLO = 24;

export class Fronts {
  /**
   * `nodeOfListenPort(port)`: the name of the node listening on that P2P port, or null.
   * `sourceOf(name)`: the loopback address connections from that node come from.
   * `mayLink(a, b)`: whether the two may be linked at all (default: any two).
   */
  constructor({ nodeOfListenPort, sourceOf, mayLink = () => true, log = () => {} }) {
    this.nodeOfListenPort = nodeOfListenPort;
    this.mayLink = mayLink;
    this.sourceOf = sourceOf;
    this.log = log;
    this.servers = new Map(); // name → server
    this.targets = new Map(); // name → {host, port}
    this.links = new Set(); // {from, to, a, b}
    this.side = new Map(); // name → side while partitioned
    this.slow = new Map(); // name → bytes per second while slowed
    this.refused = { partition: 0, unknown: 0, down: 0, pair: 0 };
  }

  /** Opens the front of `name` on 127.0.0.1:`port`, leading to its node at `target` {host, port}. */
  open(name, port, target) {
    this.targets.set(name, target);
    return new Promise((resolve, reject) => {
      const server = createServer((s) => this.#accept(name, s));
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        this.servers.set(name, server);
        resolve();
      });
    });
  }

  /** True when `a` and `b` may talk (no partition, or both on one side). */
  allowed(a, b) {
    if (!this.side.size) return true;
    return this.side.get(a) === this.side.get(b);
  }

  /** Cuts the network into `groups` (arrays of names): every link across is closed and refused until heal(). */
  partition(groups) {
    this.side.clear();
    groups.forEach((g, i) => {
      for (const n of g) this.side.set(n, i);
    });
    for (const l of [...this.links]) if (!this.allowed(l.from, l.to)) this.#close(l);
  }

  heal() {
    this.side.clear();
  }

  /** Every link of `name` forwards at most `bytesPerSecond` each way, each chunk held `delayMs` first, until unslow(). */
  slowDown(name, bytesPerSecond, delayMs) {
    this.slow.set(name, { bytesPerSecond, delayMs });
  }

  unslow(name) {
    this.slow.delete(name);
  }

  close() {
    for (const l of [...this.links]) this.#close(l);
    for (const s of this.servers.values()) s.close();
  }

  #close(l) {
    this.links.delete(l);
    l.a.destroy();
    l.b?.destroy();
  }

  #accept(to, a) {
    a.on('error', () => {});
    let head = Buffer.alloc(0);
    const onData = (chunk) => {
      head = Buffer.concat([head, chunk]);
      if (head.length < HELLO) return;
      a.off('data', onData);
      a.pause();
      const from = this.nodeOfListenPort(head.readUInt16BE(22));
      if (from === null) {
        this.refused.unknown++;
        return a.destroy();
      }
      if (!this.mayLink(from, to)) {
        this.refused.pair++;
        return a.destroy();
      }
      if (!this.allowed(from, to)) {
        this.refused.partition++;
        return a.destroy();
      }
      const t = this.targets.get(to);
      const b = connect({ host: t.host, port: t.port, localAddress: this.sourceOf(from) });
      const l = { from, to, a, b };
      this.links.add(l);
      b.on('error', () => {});
      b.once('connect', () => {
        this.#pipe(l, a, b, head, from, to);
        this.#pipe(l, b, a, null, to, from);
        a.resume();
      });
      const end = (why) => () => {
        if (why === 'b-close' && !b.connecting && !l.piped) this.refused.down++;
        if (this.links.has(l)) this.#close(l);
      };
      a.once('close', end('a-close'));
      b.once('close', end('b-close'));
    };
    a.on('data', onData);
  }

  /** Forwards `src` to `dst` (first `first`), slowed while either end is slowed. */
  #pipe(l, src, dst, first, from, to) {
    l.piped = true;
    const queue = [];
    let busy = false;
    const pump = () => {
      if (busy) return;
      const chunk = queue.shift();
      if (!chunk) return src.resume();
      const s = this.slow.get(from) ?? this.slow.get(to);
      if (!s) {
        if (!dst.destroyed) dst.write(chunk);
        return pump();
      }
      busy = true;
      setTimeout(
        () => {
          busy = false;
          if (!dst.destroyed) dst.write(chunk);
          pump();
        },
        s.delayMs + (1000 * chunk.length) / s.bytesPerSecond,
      );
    };
    const push = (chunk) => {
      queue.push(chunk);
      if (queue.length > 64) src.pause();
      pump();
    };
    if (first) push(first);
    src.on('data', push);
  }
}

/** Sends `bytes` of garbage (from `rnd`) to `host:port` from `source`, then closes; resolves when done or refused. */
export function sendGarbage({ host, port, source, bytes, rnd }) {
  return new Promise((resolve) => {
    const s = connect({ host, port, localAddress: source });
    s.on('error', () => resolve(false));
    s.once('connect', () => {
      const b = Buffer.alloc(bytes);
      for (let i = 0; i < bytes; i++) b[i] = Math.floor(rnd() * 256);
      s.end(b);
    });
    s.once('close', () => resolve(true));
    s.setTimeout(10_000, () => s.destroy());
  });
}
