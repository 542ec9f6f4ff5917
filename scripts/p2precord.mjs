// Recording TCP proxy for Warthog P2P (shared/spec/p2p.md; 0.8 differences: shared/spec/mainnet.md §5).
// A project tool (copied from the reference tools folder), used by scripts/record-exchange.mjs and
// scripts/mainnet-interop.mjs; the payloads are decoded by scripts/lib/wire.mjs (Txrep entries of every
// exchange type too, by the sizes and layouts of ts/p2p/tx_message.ts).
// startProxy({ listenPort, targetPort, connector: 'ours'|'ref' }) accepts connections on 127.0.0.1:listenPort,
// forwards each to 127.0.0.1:targetPort, and keeps every chunk with its direction and arrival time.
// transcript(conn) splits the two byte streams into the handshake parts and the frames and decodes them.
import net from 'node:net';
import { helloFields, decode, frameAt, HELLO_BYTES, replyFields, hx, nameOf, REPLY_BYTES, verifiedFrameAt } from './lib/wire.mjs';

export { decode, NAMES } from './lib/wire.mjs';

// `admit` (optional): called for each incoming connection (with its socket); when it returns false the
// connection is closed at once, neither forwarded nor recorded (a recording that starts later than the
// peers, a partition). `host` / `targetHost` (default 127.0.0.1): the listening and the target address;
// `localAddress`: the address the forwarded connection leaves from (what the target sees as its peer).
// `acceptor` (default: the other of ours/ref): the label of the target side. `cut()` closes every
// forwarded connection, both ends.
export function startProxy({ listenPort, targetPort, connector, acceptor, admit = () => true, host = '127.0.0.1', targetHost = '127.0.0.1', localAddress }) {
  acceptor ??= connector === 'ours' ? 'ref' : 'ours';
  const conns = [];
  const live = new Set();
  const server = net.createServer((c) => {
    if (!admit(c)) {
      c.on('error', () => {});
      c.destroy();
      return;
    }
    const t0 = performance.now();
    const rec = { t0, wall0: new Date().toISOString(), connector, acceptor, chunks: [], events: [] };
    conns.push(rec);
    const up = net.connect({ port: targetPort, host: targetHost, ...(localAddress ? { localAddress } : {}) });
    live.add(c);
    live.add(up);
    c.on('close', () => live.delete(c));
    up.on('close', () => live.delete(up));
    const lab = (from) => (from === 'c' ? `${connector}→${acceptor}` : `${acceptor}→${connector}`);
    c.on('data', (d) => {
      rec.chunks.push({ from: 'c', t: performance.now() - t0, data: Buffer.from(d) });
      up.write(d);
    });
    up.on('data', (d) => {
      rec.chunks.push({ from: 'a', t: performance.now() - t0, data: Buffer.from(d) });
      c.write(d);
    });
    const ev = (from, what) => rec.events.push({ dir: lab(from), t_ms: +(performance.now() - t0).toFixed(1), event: what });
    c.on('end', () => {
      ev('c', 'FIN');
      up.end();
    });
    up.on('end', () => {
      ev('a', 'FIN');
      c.end();
    });
    c.on('error', (e) => {
      ev('c', `error ${e.code ?? e.message}`);
      up.destroy();
    });
    up.on('error', (e) => {
      ev('a', `error ${e.code ?? e.message}`);
      c.destroy();
    });
    c.on('close', () => up.destroy());
    up.on('close', () => c.destroy());
  });
  // `ready`: resolves once listening, rejects if the address cannot be bound.
  const ready = new Promise((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.listen(listenPort, host);
  const cut = () => {
    for (const k of live) k.destroy();
  };
  return {
    server,
    conns,
    ready,
    cut,
    /** Sockets open now (both ends of each forwarded connection). */
    liveCount: () => live.size,
    close: () =>
      new Promise((r) => {
        cut();
        server.close(() => r());
        setTimeout(r, 2000);
      }),
  };
}

function frames(chunks, role, dir) {
  const all = Buffer.concat(chunks.map((c) => c.data));
  const ends = [];
  let acc = 0;
  for (const c of chunks) {
    acc += c.data.length;
    ends.push({ end: acc, t: c.t });
  }
  const tAt = (lastByte) => ends.find((e) => e.end > lastByte)?.t ?? ends[ends.length - 1]?.t ?? 0;
  const out = [];
  const push = (o, n, type, decoded) => out.push({ dir, t_ms: +tAt(o + n - 1).toFixed(1), type, hex: hx(all.subarray(o, o + n)), decoded });
  /** Pushes the frame at `o` (it is whole), returns its end. */
  const pushFrame = (o) => {
    const f = frameAt(all, o);
    const decoded = decode(f.type, f.payload);
    if (!f.checksumOk) decoded.checksum = 'MISMATCH';
    if (f.hi) decoded.typeHighByte = f.hi;
    push(o, f.end - o, { code: f.type, name: nameOf(f.type) }, decoded);
    return f.end;
  };
  let o = 0;
  if (role === 'connector') {
    if (all.length < HELLO_BYTES) {
      if (all.length) push(0, all.length, { code: null, name: 'ShortHandshake' }, {});
      return out;
    }
    push(0, HELLO_BYTES, { code: null, name: 'Handshake (connector, 24 bytes)' }, helloFields(all));
    o = HELLO_BYTES;
    // The ack byte follows the hello, except from a connector before 0.9 (0.8.20), whose Init may come
    // first (ts/p2p/handshake.ts AckStream): each frame that starts here and verifies is taken as
    // such, the first byte where none does is the ack.
    while (o < all.length) {
      if (!verifiedFrameAt(all, o)) {
        push(o, 1, { code: null, name: 'HandshakeAck (1 byte)' }, { byte: all[o], ...(o > HELLO_BYTES ? { afterFrames: true } : {}) });
        o += 1;
        break;
      }
      o = pushFrame(o);
    }
  } else {
    if (all.length < REPLY_BYTES) {
      if (all.length) push(0, all.length, { code: null, name: 'ShortHandshake' }, {});
      return out;
    }
    push(0, REPLY_BYTES, { code: null, name: 'HandshakeReply (acceptor, 22 bytes)' }, replyFields(all));
    o = REPLY_BYTES;
  }
  while (!frameAt(all, o).error) o = pushFrame(o);
  if (o < all.length) push(o, all.length - o, { code: null, name: 'TrailingBytes (incomplete frame at close)' }, { bytes: all.length - o });
  return out;
}

/** The decoded transcript of one proxied connection: messages of both directions, in time order, and close events. */
export function transcript(rec) {
  const cDir = `${rec.connector}→${rec.acceptor}`,
    aDir = `${rec.acceptor}→${rec.connector}`;
  const msgs = [
    ...frames(
      rec.chunks.filter((c) => c.from === 'c'),
      'connector',
      cDir,
    ),
    ...frames(
      rec.chunks.filter((c) => c.from === 'a'),
      'acceptor',
      aDir,
    ),
  ].sort((a, b) => a.t_ms - b.t_ms);
  return { connector: rec.connector, acceptor: rec.acceptor, messages: msgs, closeEvents: rec.events };
}
