// P2P flood resistance (README "Peer budgets"): a regtest node with a full mempool (10,000); one raw
// peer, then four, flood Txnotify (4,444 random txids a message) as fast as the node reads,
// reconnecting at once whenever the node closes them (loopback peers are never banned). Meanwhile one client asks
// GET /chain/head back to back and the node's RSS is sampled every 50 ms; the same is measured idle
// first. Targets: peak RSS under flood ≤ 2× idle; /chain/head p99 under flood ≤ 50 ms.
// `BENCH_ONLY=p2pflood make bench` runs only this section.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fee16Decode, fee16Encode } from '../ts/kernel/fee16.js';
import { initKernel } from '../ts/kernel/instance.js';
import { OUR_VERSION } from '../ts/p2p/dialect.js';
import { NO_PRIORITY } from '../ts/p2p/elements.js';
import { encodeFrame } from '../ts/p2p/framing.js';
import { connectorHello, REPLY_SIZE } from '../ts/p2p/handshake.js';
import { encodeMessage, type Message } from '../ts/p2p/messages.js';
import { fundedSigner, postTransactions, startBenchNode } from './node_process.js';

const MEMPOOL = 10_000,
  IDS = 4_444,
  DISTINCT_FRAMES = 16;
const IDLE_MS = 5_000,
  FLOOD_MS = 15_000;

const frame = (m: Message): Uint8Array => {
  const { type, payload } = encodeMessage(m);
  return encodeFrame(type, payload);
};

/** Resident set size of a process (bytes), from /proc. */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** /chain/head latencies (ms), one request after the other, and the node's peak RSS over `ms`. */
async function measure(url: string, pid: number, ms: number): Promise<{ latencies: number[]; peakRss: number }> {
  let peakRss = rss(pid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rss(pid));
  }, 50);
  const latencies: number[] = [];
  for (const until = performance.now() + ms; performance.now() < until; ) {
    const t = performance.now();
    const r = (await (await fetch(`${url}/chain/head`)).json()) as { code: number };
    if (r.code !== 0) throw new Error(`/chain/head answered code ${r.code}`);
    latencies.push(performance.now() - t);
  }
  clearInterval(sampler);
  return { latencies, peakRss: Math.max(peakRss, rss(pid)) };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (x: number) => `${(x / 1e6).toFixed(0)} MB`;

/**
 * The flooding peer's loop, in a worker thread so that its writes neither wait on nor delay the
 * latency client: connect, handshake, Init, then the given frames as fast as the socket takes them;
 * reconnect when the node closes it. Reports sessions and bytes accepted when told to stop.
 */
const FLOODER = `
const { parentPort, workerData: w } = require('node:worker_threads');
const net = require('node:net');
let stopped = false, sessions = 0, bytes = 0, n = 0, socket = null;
parentPort.on('message', () => { stopped = true; socket?.destroy(); });
function session() {
  if (stopped) return parentPort.postMessage({ sessions, bytes });
  sessions++;
  const s = socket = net.connect({ host: w.host, port: w.port });
  s.setNoDelay(true);
  let got = 0, flooding = false;
  const pump = () => {
    while (!s.destroyed && !stopped) if (!s.write(w.frames[n++ % w.frames.length])) return void s.once('drain', pump);
  };
  s.on('connect', () => s.write(w.hello));
  s.on('data', (d) => {
    got += d.length;
    if (flooding || got < w.replySize) return;
    flooding = true;
    s.write(new Uint8Array([0]));
    s.write(w.init);
    pump();
  });
  s.on('error', () => {});
  s.on('close', () => { bytes += s.bytesWritten - s.writableLength; session(); });
}
session();
`;

/** Starts the flooding worker against `address`; the returned function stops it and tells what it sent. */
function flood(address: string): () => Promise<{ sessions: number; bytes: number }> {
  const [host, port] = address.split(':');
  const fee = fee16Encode(10_000_000n, 'up'); // above the full mempool's threshold: every id is wanted
  const frames = Array.from({ length: DISTINCT_FRAMES }, () =>
    frame({
      kind: 'Txnotify',
      nonce: 1,
      txids: Array.from({ length: IDS }, () => {
        const b = randomBytes(12);
        return { id: { accountId: b.readBigUInt64BE(0) >> 1n, pinHeight: 0, nonceId: b.readUInt32BE(8) }, feeCode: fee };
      }),
    }),
  );
  const init = frame({ kind: 'Init', v3: true, descriptor: 0, priority: NO_PRIORITY, flags: 0, length: 0, worksum: 0n, grid: [] });
  const worker = new Worker(FLOODER, {
    eval: true,
    workerData: { host, port: Number(port), hello: connectorHello('regtest', OUR_VERSION, 0), replySize: REPLY_SIZE, init, frames },
  });
  return () =>
    new Promise((resolve) => {
      worker.once('message', (r) => {
        void worker.terminate();
        resolve(r);
      });
      worker.postMessage('stop');
    });
}

export async function benchP2pFlood(): Promise<void> {
  await initKernel();
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-flood-'));
  const node = await startBenchNode(dir, ['--bind=127.0.0.1:0']);
  try {
    const sign = await fundedSigner(node.url);
    const fee = fee16Decode(fee16Encode(1_000_448n, 'up'));
    const filled = await postTransactions(
      node.url,
      Array.from({ length: MEMPOOL }, (_, i) => sign(i, fee)),
    );
    const idle = await measure(node.url, node.pid, IDLE_MS);
    console.log(
      `p2p flood: mempool ${filled} transactions; idle ${IDLE_MS / 1000} s: /chain/head p50 ${ms(quantile(idle.latencies, 0.5))}, p99 ${ms(quantile(idle.latencies, 0.99))}; peak RSS ${mb(idle.peakRss)}`,
    );
    for (const peers of [1, 4]) {
      const stops = Array.from({ length: peers }, () => flood(node.p2p!));
      const flooded = await measure(node.url, node.pid, FLOOD_MS);
      const sent = await Promise.all(stops.map((stop) => stop()));
      const sessions = sent.reduce((n, x) => n + x.sessions, 0),
        bytes = sent.reduce((n, x) => n + x.bytes, 0);
      const who = peers === 1 ? 'one peer' : `${peers} peers`;
      console.log(
        `p2p flood: ${who} flooded Txnotify of ${IDS} random txids for ${FLOOD_MS / 1000} s: ${mb(bytes)} written over ${sessions} connections, ${sessions - peers} closed by the node`,
      );
      console.log(
        `p2p flood: ${who}: /chain/head p50 ${ms(quantile(flooded.latencies, 0.5))}, p99 ${ms(quantile(flooded.latencies, 0.99))} (target ≤ 50 ms), max ${ms(Math.max(...flooded.latencies))}, ${flooded.latencies.length} requests; peak RSS ${mb(flooded.peakRss)} = ${(flooded.peakRss / idle.peakRss).toFixed(2)}× idle (target ≤ 2×)`,
      );
    }
  } finally {
    await node.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
