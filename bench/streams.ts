// Streams under load: `/stream` events delivered per second to 100 subscribers of the `chain`
// topic while blocks are applied, and how much that slows block application (the same blocks
// applied with and without the subscribers). The subscribers run in a child process, so their
// parsing does not count as the node's work.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initKernel } from '../ts/kernel/instance.js';
import { Chain } from '../ts/chain/chain.js';
import { buildTemplate } from '../ts/mining/template.js';
import { REGTEST } from '../ts/consensus/params.js';
import { addressOfPrivateKey } from '../ts/core/keys.js';
import { MinFeePolicy } from '../ts/mempool/fee_policy.js';
import { MempoolService } from '../ts/mempool/service.js';
import { openDatabase } from '../ts/store/database.js';
import { StreamHub } from '../ts/api/streams/hub.js';
import { attachStreams } from '../ts/api/streams/endpoint.js';
import type { NodeServices } from '../ts/api/services.js';

const T0 = 1_700_000_000;
const BLOCKS = 400;
const SUBSCRIBERS = 100;

interface RawBlock {
  header: Uint8Array;
  body: Uint8Array;
}

async function tempNode() {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-streams-'));
  const { db } = await openDatabase(dir);
  const chain = await Chain.open(db, REGTEST);
  const mempool = new MempoolService(chain, new MinFeePolicy());
  return { dir, db, chain, mempool };
}

/** BLOCKS blocks paying four miners in turn (each block's reward account changes the minerdist). */
async function makeBlocks(): Promise<RawBlock[]> {
  const n = await tempNode();
  const miners = [1, 2, 3, 4].map((k) => addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => i + k)));
  const out: RawBlock[] = [];
  for (let h = 1; h <= BLOCKS; h++) {
    const t = await buildTemplate(n.chain, n.db, miners[h % 4], T0 + 20 * h);
    await n.chain.append(t.header, t.body, { now: T0 + 20 * h, skipPow: true });
    out.push({ header: t.header, body: t.body });
  }
  await n.db.close();
  await rm(n.dir, { recursive: true, force: true });
  return out;
}

/** Subscribers in a child process: each subscribes `chain`, counts events, reports when all saw `expect`. */
const CLIENTS = `
import WebSocket from 'ws';
const [url, n, expect] = process.argv.slice(-3);
let open = 0, events = 0, firstAt = 0, lastAt = 0, done = 0;
for (let i = 0; i < Number(n); i++) {
  const ws = new WebSocket(url);
  let blocks = 0;
  ws.on('open', () => { ws.send(JSON.stringify({ action: 'subscribe', topic: 'chain' })); });
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    if (m.type === 'chain.state' && blocks === 0 && m.event.head.height === 0) { if (++open === Number(n)) process.stdout.write('ready\\n'); return; }
    const now = performance.now();
    if (!firstAt) firstAt = now;
    lastAt = now;
    events++;
    blocks += m.type === 'chain.append' ? m.event.newBlocks.length : 0;
    if (m.type === 'chain.state') blocks = m.event.head.height;
    if (blocks >= Number(expect) && !ws.doneFlag) {
      ws.doneFlag = true;
      if (++done === Number(n)) { process.stdout.write(JSON.stringify({ events, seconds: (lastAt - firstAt) / 1000 }) + '\\n'); process.exit(0); }
    }
  });
}
`;

async function applyAll(blocks: RawBlock[], subscribers: number): Promise<{ applySeconds: number; events?: number; deliverySeconds?: number }> {
  const n = await tempNode();
  // The hub reads the chain, the mempool and the API generation of the node's services.
  const node = { chain: n.chain, mempool: n.mempool, config: { api: 'contract' } } as unknown as NodeServices;
  const hub = new StreamHub(node, { recent: () => [], subscribe: () => () => undefined });
  const server: Server = createServer((_, res) => res.end());
  const closeStreams = attachStreams(server, hub, () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  let report: Promise<string> | null = null;
  let child: ReturnType<typeof spawn> | null = null;
  if (subscribers > 0) {
    child = spawn(process.execPath, ['--input-type=module', '-e', CLIENTS, `ws://127.0.0.1:${port}/stream`, String(subscribers), String(blocks.length)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: process.cwd(),
    });
    let out = '';
    const ready = new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('ready')) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`subscribers exited ${code}`)));
    });
    report = new Promise((resolve) =>
      child!.stdout!.on('data', () => {
        const m = /\{.*\}/.exec(out);
        if (m) resolve(m[0]);
      }),
    );
    await ready;
  }
  const start = performance.now();
  for (const [i, b] of blocks.entries()) await n.chain.append(b.header, b.body, { now: T0 + 20 * (i + 1), skipPow: true });
  const applySeconds = (performance.now() - start) / 1000;
  let result: { applySeconds: number; events?: number; deliverySeconds?: number } = { applySeconds };
  if (report) {
    const r = JSON.parse(await report) as { events: number; seconds: number };
    result = { applySeconds, events: r.events, deliverySeconds: r.seconds };
  }
  child?.kill();
  closeStreams();
  await new Promise<void>((r) => server.close(() => r()));
  await n.db.close();
  await rm(n.dir, { recursive: true, force: true });
  return result;
}

export async function benchStreams(): Promise<void> {
  await initKernel();
  const blocks = await makeBlocks();
  await applyAll(blocks.slice(0, 50), 0); // warm-up
  // The machine is shared: the three configurations take turns, three rounds, and the fastest run
  // of each counts.
  type Run = Awaited<ReturnType<typeof applyAll>>;
  const best = (runs: Run[]) => runs.reduce((a, b) => (b.applySeconds < a.applySeconds ? b : a));
  const runs: Run[][] = [[], [], []];
  for (let round = 0; round < 3; round++) {
    runs[0].push(await applyAll(blocks, 0));
    runs[1].push(await applyAll(blocks, 1));
    runs[2].push(await applyAll(blocks, SUBSCRIBERS));
  }
  const [without, one, withSubs] = runs.map(best);
  console.log(`blocks applied/s without stream subscribers: ${Math.round(BLOCKS / without.applySeconds)} (${BLOCKS} blocks)`);
  console.log(`blocks applied/s with 1 /stream chain subscriber: ${Math.round(BLOCKS / one.applySeconds)}`);
  console.log(`blocks applied/s with ${SUBSCRIBERS} /stream chain subscribers: ${Math.round(BLOCKS / withSubs.applySeconds)}`);
  console.log(`block application slowdown with ${SUBSCRIBERS} subscribers: ×${(withSubs.applySeconds / without.applySeconds).toFixed(2)}`);
  console.log(
    `/stream events delivered/s to ${SUBSCRIBERS} subscribers: ${Math.round(withSubs.events! / withSubs.deliverySeconds!)} (${withSubs.events} events in ${withSubs.deliverySeconds!.toFixed(2)} s)`,
  );
}
