// Store and read path (issue 12): `/chain/block/:id` requests per second (16 connections), and
// block-append latency idle and under 200 concurrent readers of `/dex/market/:asset` (with their
// p50/p99): reads run on a snapshot and never wait for block application.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initKernel } from '../ts/kernel/instance.js';
import { buildExchangeChain } from '../test/helpers/exchange_chain.js';
import { removeDir, startNode } from '../test/helpers/node.js';

const BLOCKS = 200;
const RPS_CONNECTIONS = 16;
const RPS_MS = 4_000;
const READERS = 200;
const APPENDS = 100;

/**
 * READERS loops of GET `url` in a child process, each on its own keep-alive connection; on "stop"
 * on stdin, prints their latencies (ms) as JSON. Plain sockets: with fetch() the readers' process
 * saturated its core while the node idled 40–60% of the time, so they loaded themselves, not the node.
 */
const READERS_SCRIPT = `
import { connect } from 'node:net';
const [url, n] = process.argv.slice(-2);
const { hostname, port, pathname } = new URL(url);
const request = 'GET ' + pathname + ' HTTP/1.1\\r\\nHost: ' + hostname + '\\r\\n\\r\\n';
const times = [];
let stop = false;
process.stdin.on('data', () => { stop = true; });
const reader = () => new Promise((resolve, reject) => {
  const socket = connect(Number(port), hostname);
  let buf = Buffer.alloc(0), t = 0;
  const next = () => { if (stop) { socket.end(); resolve(); } else { t = performance.now(); socket.write(request); } };
  socket.on('connect', next);
  socket.on('error', reject);
  socket.on('data', (d) => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    const head = buf.indexOf('\\r\\n\\r\\n');
    if (head < 0) return;
    const length = Number(/content-length: *(\\d+)/i.exec(buf.subarray(0, head).toString())?.[1]);
    if (buf.length < head + 4 + length) return;
    const body = buf.subarray(head + 4, head + 4 + length).toString();
    if (!body.startsWith('{"code":0,')) reject(new Error(url + ': ' + body.slice(0, 200)));
    times.push(performance.now() - t);
    buf = buf.subarray(head + 4 + length);
    next();
  });
});
process.stdout.write('reading\\n');
await Promise.all(Array.from({ length: Number(n) }, reader));
process.stdout.write(JSON.stringify(times) + '\\n');
`;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function timed(url: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(url);
  const b = (await r.json()) as { code: number };
  if (b.code !== 0) throw new Error(`${url}: code ${b.code}`);
  return performance.now() - t;
}

export async function benchStore(): Promise<void> {
  await initKernel();
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-store-'));
  const node = await startNode(['--regtest'], dir);
  try {
    const ex = await buildExchangeChain(node, 61);
    const miner = `${node.url}/debug/fakemine/${ex.A.addressText}`;
    while ((await node.data('/chain/head')).chainHead.height < BLOCKS) await fetch(miner);
    const height = (await node.data('/chain/head')).chainHead.height as number;

    // /chain/block/:id at random heights, and /chain/head (the cheapest route) for scale: 16 connections.
    const rps = async (path: () => string) => {
      let served = 0;
      const until = performance.now() + RPS_MS;
      await Promise.all(
        Array.from({ length: RPS_CONNECTIONS }, async () => {
          while (performance.now() < until) {
            await timed(`${node.url}${path()}`);
            served++;
          }
        }),
      );
      return Math.round(served / (RPS_MS / 1000));
    };
    const blocks = await rps(() => `/chain/block/${1 + Math.floor(Math.random() * height)}`);
    const head = await rps(() => '/chain/head');
    console.log(`store: /chain/block/:id ${blocks} req/s, /chain/head ${head} req/s (${RPS_CONNECTIONS} connections, ${height} blocks, one client process)`);

    const idle: number[] = [];
    for (let i = 0; i < APPENDS; i++) idle.push(await timed(miner));

    const market = `${node.url}/dex/market/${ex.asset}`;
    // The readers run in a child process: their own event loop must not delay the append's timing.
    const readers = spawn(process.execPath, ['--input-type=module', '-e', READERS_SCRIPT, market, String(READERS)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    readers.stdout!.on('data', (d) => {
      out += d;
    });
    await new Promise<void>((resolve, reject) => {
      readers.stdout!.on('data', () => {
        if (out.includes('reading')) resolve();
      });
      readers.once('exit', (code) => reject(new Error(`readers exited with ${code}`)));
    });
    await new Promise((r) => setTimeout(r, 500)); // all readers under way
    const loadStart = performance.now();
    const loaded: number[] = [];
    for (let i = 0; i < APPENDS; i++) loaded.push(await timed(miner));
    const loadSeconds = (performance.now() - loadStart) / 1000;
    readers.stdin!.end('stop\n');
    const reads = JSON.parse(await new Promise<string>((resolve) => readers.once('exit', () => resolve(/\[.*\]/.exec(out)![0])))) as number[];
    console.log(
      `store: block append (fakemine) idle p50 ${ms(quantile(idle, 0.5))} p99 ${ms(quantile(idle, 0.99))}; ` +
        `under ${READERS} readers p50 ${ms(quantile(loaded, 0.5))} p99 ${ms(quantile(loaded, 0.99))} ` +
        `(p50 ratio ${(quantile(loaded, 0.5) / quantile(idle, 0.5)).toFixed(2)}×, target ≤ 3×)`,
    );
    console.log(
      `store: /dex/market/:asset under ${READERS} readers and appends: p50 ${ms(quantile(reads, 0.5))} p99 ${ms(quantile(reads, 0.99))} ` +
        `(${reads.length} reads, ${Math.round(reads.length / (loadSeconds + 0.5))}/s)`,
    );
  } finally {
    await node.stop();
    await removeDir(dir);
  }
}
