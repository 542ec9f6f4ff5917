// The CPU miner over stratum (clients.md §7): subscribe (the node gives this connection its
// extranonce1), authorize with the address to be paid, then for each `mining.notify` search
// extranonce2 × nonce for a header with valid proof of work and `mining.submit` it. The search runs
// in slices so a new job preempts the old one at once.
import { connect, type Socket } from 'node:net';
import { fromHex, fromHexExact, toHex } from '../core/hex.js';
import { PowVersion, powCheck } from '../kernel/pow.js';
import { EXTRANONCE2_BYTES, merkleRootOf, minerHeader } from '../stratum/job.js';

const SLICE = 5_000;

interface Notify {
  jobId: string;
  prevHash: Uint8Array;
  merklePrefix: Uint8Array;
  version: Uint8Array;
  nbits: Uint8Array;
  ntime: Uint8Array;
}

/**
 * PoW versions a header of this version word may be checked with: version 4 headers are
 * VerusHash 2.2 (Janus8) everywhere; version 3 is 2.1 on testnet heights 1–2 and 2.2 on mainnet.
 */
function powVersionsFor(version: Uint8Array): PowVersion[] {
  const v = new DataView(version.buffer, version.byteOffset).getUint32(0);
  return v >= 4 ? [PowVersion.Janus8] : [PowVersion.Janus8, PowVersion.Janus7];
}

export class StratumError extends Error {}

/** Mines `blocks` blocks (Infinity: until stopped) through the stratum server at host:port. */
export function mineStratum(host: string, port: number, address: string, blocks: number, log: (s: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host, port });
    let buffer = '';
    let nextId = 3;
    let extranonce1: Uint8Array | null = null;
    let job: Notify | null = null;
    let extranonce2 = 0;
    let nonce = 0;
    let waiting = false; // a submit is in flight
    let mined = 0;
    let done = false;
    let scheduled = false;

    const send = (msg: unknown) => socket.write(JSON.stringify(msg) + '\n');
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (err) reject(err);
      else resolve(mined);
    };

    const schedule = () => {
      if (scheduled || done) return;
      scheduled = true;
      setImmediate(search);
    };

    const search = () => {
      scheduled = false;
      if (done || waiting || !job || !extranonce1) return;
      const j = job;
      const e2 = new Uint8Array(EXTRANONCE2_BYTES);
      const view = new DataView(e2.buffer);
      view.setUint16(0, Math.floor(extranonce2 / 2 ** 32));
      view.setUint32(2, extranonce2 >>> 0);
      const extra = new Uint8Array(extranonce1.length + e2.length);
      extra.set(extranonce1);
      extra.set(e2, extranonce1.length);
      const root = merkleRootOf(j.merklePrefix, extra);
      const versions = powVersionsFor(j.version);
      for (let i = 0; i < SLICE; i++, nonce++) {
        if (nonce > 0xffffffff) {
          nonce = 0;
          extranonce2++;
          return schedule();
        }
        const header = minerHeader(j.prevHash, j.nbits, root, j.version, j.ntime, nonce);
        if (versions.some((v) => powCheck(header, v))) {
          waiting = true;
          send({ id: nextId++, method: 'mining.submit', params: [j.jobId, toHex(e2), toHex(j.ntime), toHex(header.subarray(76, 80))] });
          nonce++;
          return;
        }
      }
      schedule();
    };

    const handle = (line: string) => {
      const msg = JSON.parse(line) as { id: number | null; method?: string; params?: unknown[]; result?: unknown; error?: [number, string, null] | null };
      if (msg.method === 'mining.notify' && Array.isArray(msg.params)) {
        const [jobId, prevHash, merklePrefix, version, nbits, ntime] = msg.params as string[];
        job = {
          jobId,
          prevHash: fromHexExact(prevHash, 32)!,
          merklePrefix: fromHex(merklePrefix)!,
          version: fromHexExact(version, 4)!,
          nbits: fromHexExact(nbits, 4)!,
          ntime: fromHexExact(ntime, 4)!,
        };
        extranonce2 = 0;
        nonce = 0;
        return schedule();
      }
      if (msg.method) return; // mining.set_difficulty: solo mining, the block target decides
      if (msg.id === 1) {
        const r = msg.result as [unknown, string, number];
        extranonce1 = fromHex(r[1]);
        log(`subscribed: extranonce1 ${r[1]}, extranonce2 ${r[2]} bytes`);
        return;
      }
      if (msg.id === 2) {
        if (msg.result !== true) return finish(new StratumError(`authorize refused: ${msg.error?.[1]} (${msg.error?.[0]})`));
        log(`authorized as ${address}`);
        return;
      }
      waiting = false;
      if (msg.result === true) {
        mined++;
        log(`mined block (job ${job?.jobId.slice(0, 16)}…)`);
        if (mined >= blocks) return finish();
      } else {
        log(`block refused: ${msg.error?.[1]} (code ${msg.error?.[0]})`);
      }
      schedule();
    };

    socket.setEncoding('utf8');
    socket.on('connect', () => {
      send({ id: 1, method: 'mining.subscribe', params: ['wartnode-cpu-miner'] });
      send({ id: 2, method: 'mining.authorize', params: [address, ''] });
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      try {
        for (const l of lines) if (l.trim()) handle(l);
      } catch (e) {
        finish(new StratumError(`bad message from the stratum server: ${(e as Error).message}`));
      }
    });
    socket.on('error', (e) => finish(new StratumError(`stratum ${host}:${port}: ${e.message}`)));
    socket.on('close', () => finish(done ? undefined : new StratumError(`stratum ${host}:${port} closed the connection`)));
  });
}
