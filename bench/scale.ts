// Mainnet scale (issue 10): a node holding 1,000,000 headers, its RSS (and ×5.4, mainnet's ~5.4
// million headers, mainnet.md §1), its start-up time, header sync between two nodes over the whole
// chain, and full blocks synced per second. The chain is regtest with real proof of work, targets
// and timestamps. Blocks 1–2 go through the chain manager; the rest of the fixture is written to the
// store directly (header, chunk records, body, hash index, head and check record), as applying a million blocks would take hours:
// the ledger stays at height 2, which start-up and header sync never read.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chain } from '../ts/chain/chain.js';
import { encodeCheck, extendCrc } from '../ts/chain/integrity.js';
import { PackedHeaders } from '../ts/chain/packed_headers.js';
import { buildTemplate } from '../ts/mining/template.js';
import { REGTEST, powVersionAt } from '../ts/consensus/params.js';
import { initKernel } from '../ts/kernel/instance.js';
import { powCheck } from '../ts/kernel/pow.js';
import { openDatabase, type BatchOp } from '../ts/store/database.js';
import { HEADER_CHUNK, META_CHECK, META_HEAD, bodyKey, hashIndexKey, headerChunkKey, headerKey, u32Value } from '../ts/store/keys.js';
import { mineRegtestHeader } from '../test/helpers/regtest_headers.js';
import { fullBlocksPerSecond, startNode, type RunningNode } from './sync.js';

const HEADERS = Number(process.env.BENCH_HEADERS ?? 1_000_000);
const MAINNET_HEADERS = 5.4e6;
// Blocks 20 s apart, the last one in the past: a header from the future is refused (consensus.md).
const T0 = Math.min(1_700_000_000, 1_760_000_000 - 20 * HEADERS);
const WRITE_BATCH = 20_000;
/** Bumped when the fixture's layout changes, so that an old cached one is not reused. */
const FIXTURE_VERSION = 1;

/**
 * A regtest data directory whose chain holds `n` blocks (see the file comment), kept in the temp
 * directory between runs (mining a million headers takes minutes); node A only adds peer records.
 */
export async function buildFixture(n: number): Promise<string> {
  const dir = join(tmpdir(), `wartnode-bench-scale-${n}-v${FIXTURE_VERSION}`);
  if (existsSync(join(dir, 'complete'))) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const { db } = await openDatabase(dir);
  const chain = await Chain.open(db, REGTEST);
  const miner = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
  for (let h = 1; h <= 2; h++) {
    const t = await buildTemplate(chain, db, miner, T0 + 20 * h);
    const v = new DataView(t.header.buffer, t.header.byteOffset);
    for (let nonce = 0; !powCheck(t.header, powVersionAt(REGTEST, h)); nonce++) v.setUint32(76, nonce);
    await chain.append(t.header, t.body, { now: T0 + 20 * h });
  }
  // From height 3 on, every body is the same: the reward to the miner, who has an account by now.
  const t3 = await buildTemplate(chain, db, miner, T0 + 60);
  const body = t3.body,
    merkleRoot = t3.header.subarray(36, 68);
  const headers = new PackedHeaders(REGTEST);
  for (let h = 1; h <= 2; h++) headers.push(chain.rawHeaderAt(h), chain.hashAt(h));
  let crc = extendCrc(extendCrc(0, chain.rawHeaderAt(1)), chain.rawHeaderAt(2));
  let ops: BatchOp[] = [];
  for (let h = 3; h <= n; h++) {
    const raw = mineRegtestHeader(headers, merkleRoot, T0);
    crc = extendCrc(crc, raw);
    ops.push(
      { type: 'put', key: headerKey(h), value: raw },
      { type: 'put', key: bodyKey(h), value: body },
      { type: 'put', key: hashIndexKey(headers.tipHash), value: u32Value(h) },
    );
    // The chunk records the chain manager writes with every 4,096th block.
    if (h % HEADER_CHUNK === 0) ops.push({ type: 'put', key: headerChunkKey(h / HEADER_CHUNK - 1), value: headers.rangeAt(h - HEADER_CHUNK + 1, h) });
    if (ops.length >= 3 * WRITE_BATCH || h === n) {
      if (h === n) {
        ops.push({ type: 'put', key: META_HEAD, value: u32Value(n) });
        ops.push({ type: 'put', key: META_CHECK, value: encodeCheck({ height: n, tipHash: headers.tipHash, headerCrc: crc }) });
      }
      await db.batch(ops);
      ops = [];
    }
  }
  await db.close();
  await writeFile(join(dir, 'complete'), '');
  return dir;
}

/** A field of /proc/<pid>/status in MB (VmRSS: all resident; RssAnon: not backed by files). */
function statusMb(pid: number, field: 'VmRSS' | 'RssAnon' | 'RssFile'): number {
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : NaN;
}
const rssMb = (pid: number) => statusMb(pid, 'VmRSS');

/** Resolves when `node` has printed a line matching `re`; its match. */
function waitForLine(node: RunningNode, re: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const m = re.exec(node.output());
      if (!m) return;
      clearTimeout(timer);
      node.proc.stdout!.off('data', look);
      node.proc.stderr!.off('data', look);
      resolve(m);
    };
    const timer = setTimeout(() => reject(new Error(`no line ${re} within ${timeoutMs / 1000} s:\n${node.output().slice(-2000)}`)), timeoutMs);
    node.proc.stdout!.on('data', look);
    node.proc.stderr!.on('data', look);
    look();
  });
}

export async function benchScale(): Promise<void> {
  await initKernel();
  let t = performance.now();
  const dir = await buildFixture(HEADERS);
  console.log(`scale: fixture of ${HEADERS} regtest headers ready in ${((performance.now() - t) / 1000).toFixed(1)} s (${dir}, kept for the next run)`);
  const bDir = await mkdtemp(join(tmpdir(), 'wartnode-bench-scale-b-'));
  let a: RunningNode | null = null,
    b: RunningNode | null = null;
  try {
    const empty = await startNode(bDir, []);
    await new Promise((r) => setTimeout(r, 2_000));
    const rssEmpty = rssMb(empty.proc.pid!),
      anonEmpty = statusMb(empty.proc.pid!, 'RssAnon');
    await empty.stop();
    await rm(bDir, { recursive: true, force: true });
    t = performance.now();
    a = await startNode(dir, []);
    const loaded = waitForLine(a, /headers loaded in ([\d.]+) s/, 1_000);
    const startup = (performance.now() - t) / 1000;
    const load = Number((await loaded)[1]);
    await new Promise((r) => setTimeout(r, 2_000));
    const rss = rssMb(a.proc.pid!);
    const scale = MAINNET_HEADERS / HEADERS;
    console.log(`RSS of a node holding ${HEADERS} headers: ${rss.toFixed(0)} MB; ×${scale.toFixed(1)} (mainnet estimate): ${(rss * scale).toFixed(0)} MB`);
    const anon = statusMb(a.proc.pid!, 'RssAnon');
    console.log(
      `  an empty node: ${rssEmpty.toFixed(0)} MB, so empty + ${scale.toFixed(1)} × the growth: ${(rssEmpty + scale * (rss - rssEmpty)).toFixed(0)} MB`,
    );
    console.log(
      `  anonymous memory (not file pages the system can reclaim): ${anon.toFixed(0)} MB, empty ${anonEmpty.toFixed(0)} MB, empty + ${scale.toFixed(1)} × the growth: ${(anonEmpty + scale * (anon - anonEmpty)).toFixed(0)} MB`,
    );
    console.log(
      `start-up with ${HEADERS} headers: ${startup.toFixed(2)} s until the RPC endpoint is up, of which ${load.toFixed(2)} s loading the headers (×${scale.toFixed(1)}: ${(load * scale).toFixed(1)} s)`,
    );

    t = performance.now();
    b = await startNode(bDir, [`--connect=${a.p2p}`]);
    const line = await waitForLine(b, new RegExp(`Verified (\\d+) headers of \\S+ up to height ${HEADERS} in [\\d.]+ s \\((\\d+)/s\\)`), 900_000);
    const s = (performance.now() - t) / 1000;
    console.log(
      `p2p headers synced/s (${line[1]} headers, from starting the second node): ${Math.round(Number(line[1]) / s)}; the download itself (its log line): ${line[2]}`,
    );
    console.log(`RSS of the syncing node holding ${line[1]} verified headers: ${rssMb(b.proc.pid!).toFixed(0)} MB`);
  } finally {
    await b?.stop();
    await a?.stop();
    await rm(bDir, { recursive: true, force: true });
  }
  console.log(`p2p full blocks synced/s: ${(await fullBlocksPerSecond()).toFixed(2)}`);
}
