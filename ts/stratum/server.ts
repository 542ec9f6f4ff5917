// The solo-mining stratum server (`--stratum=IP:PORT`; clients.md §7): newline-terminated JSON
// over TCP. A miner subscribes (gets its extranonce1), authorizes with the address to be paid, then
// receives `mining.set_difficulty` and `mining.notify` for every new template of that address, and
// submits solutions, which are appended as blocks. Templates are rebuilt after every chain change
// and, when the mempool changed, every TEMPLATE_POLL_MS; a mempool template is pushed only when it
// pays more. Bounded: connections, line length, jobs kept per address.
import { createServer, type Server, type Socket } from 'node:net';
import type { Chain } from '../chain/chain.js';
import { buildTemplate } from '../mining/template.js';
import { merkleNewTypeAt } from '../consensus/params.js';
import { formatAddress, parseAddress } from '../core/address.js';
import { NodeError } from '../core/errors.js';
import { fromHexExact } from '../core/hex.js';
import type { PendingTx } from '../mempool/pending.js';
import { EXTRANONCE1_BYTES, EXTRANONCE2_BYTES, completeBlock, jobOf, notifyParams, type Job } from './job.js';

export const MAX_STRATUM_CONNECTIONS = 256;
const MAX_LINE_BYTES = 16 * 1024;
const JOBS_KEPT = 8;
/** How often the mempool is checked for a better template (a new block is pushed at once). */
export const TEMPLATE_POLL_MS = 500;

/** Stratum error codes (clients.md §7). */
export const STRATUM_ERRORS = {
  malformed: [20, 'Malformed request'],
  jobNotFound: [21, 'Job not found'],
  unauthorized: [24, 'Unauthorized worker.'],
  badUser: [30, 'User format must be <Address>[.<Workername>]'],
  rejected: [40, ''],
} as const;

export interface StratumSource {
  chain: Chain;
  /** Pending transactions, best-paying first. */
  pending(): PendingTx[];
  /** A number that changes whenever the mempool does. */
  mempoolVersion(): number;
  /** Unix seconds. */
  now(): number;
  log: { info(line: string): void; warn(line: string): void };
}

interface Miner {
  address: Uint8Array;
  /** Jobs of the current previous block, newest last. */
  jobs: Job[];
  connections: Set<Connection>;
}

class Connection {
  private buffer = '';
  address: string | null = null;
  worker = '';
  constructor(
    readonly socket: Socket,
    readonly extranonce1: Uint8Array,
  ) {}

  send(msg: unknown): void {
    if (!this.socket.destroyed) this.socket.write(JSON.stringify(msg) + '\n');
  }

  /** Splits received bytes into lines; null when the line limit is exceeded. */
  lines(chunk: string): string[] | null {
    this.buffer += chunk;
    const parts = this.buffer.split('\n');
    this.buffer = parts.pop()!;
    if (this.buffer.length > MAX_LINE_BYTES) return null;
    return parts.filter((l) => l.trim() !== '');
  }
}

export class StratumServer {
  private readonly connections = new Set<Connection>();
  private readonly miners = new Map<string, Miner>();
  private extranonceCounter = 0;
  private refreshing: Promise<void> | null = null;
  private refreshAgain: 'block' | 'mempool' | null = null;
  private seenMempool = -1;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly src: StratumSource,
    readonly server: Server,
  ) {
    src.chain.onSettled(async () => {
      setImmediate(() => this.refresh('block'));
    });
    this.timer = setInterval(() => {
      if (this.miners.size && src.mempoolVersion() !== this.seenMempool) this.refresh('mempool');
    }, TEMPLATE_POLL_MS);
    this.timer.unref();
  }

  static start(src: StratumSource, host: string, port: number): Promise<StratumServer> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.maxConnections = MAX_STRATUM_CONNECTIONS;
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const s = new StratumServer(src, server);
        server.on('connection', (socket) => s.accept(socket));
        server.on('error', (e) => src.log.warn(`stratum listener: ${e.message}`));
        resolve(s);
      });
    });
  }

  get port(): number {
    const a = this.server.address();
    return typeof a === 'object' && a ? a.port : 0;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const c of this.connections) c.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    // extranonce1: a connection counter in little-endian byte order, as the reference writes it on x86.
    const e1 = new Uint8Array(EXTRANONCE1_BYTES);
    new DataView(e1.buffer).setUint32(0, this.extranonceCounter++ >>> 0, true);
    const c = new Connection(socket, e1);
    this.connections.add(c);
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (chunk: string) => {
      const lines = c.lines(chunk);
      if (!lines) return void socket.destroy();
      for (const line of lines) {
        if (socket.destroyed) break;
        this.handle(c, line).catch((e) => {
          this.src.log.warn(`stratum: ${(e as Error)?.stack ?? e}`);
          socket.destroy();
        });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.connections.delete(c);
      this.leave(c);
    });
  }

  private leave(c: Connection): void {
    if (c.address === null) return;
    const m = this.miners.get(c.address);
    if (m && m.connections.delete(c) && m.connections.size === 0) this.miners.delete(c.address);
    c.address = null;
  }

  private fail(c: Connection, id: number, error: readonly [number, string], close = false): void {
    c.send({ id, result: null, error: [error[0], error[1], null] });
    if (close) c.socket.end();
  }

  private async handle(c: Connection, line: string): Promise<void> {
    let msg: { id?: unknown; method?: unknown; params?: unknown };
    try {
      msg = JSON.parse(line);
    } catch {
      return void c.socket.destroy();
    }
    if (typeof msg !== 'object' || msg === null || !Number.isInteger(msg.id)) return void c.socket.destroy();
    const id = msg.id as number;
    const params = msg.params;
    switch (msg.method) {
      case 'mining.subscribe':
        if (!Array.isArray(params)) return void c.socket.destroy();
        return c.send({ id, result: [['mining.notify', ''], Buffer.from(c.extranonce1).toString('hex'), EXTRANONCE2_BYTES], error: null });
      case 'mining.authorize': {
        const user = Array.isArray(params) && typeof params[0] === 'string' ? params[0] : '';
        const dot = user.indexOf('.');
        const address = parseAddress(dot < 0 ? user : user.slice(0, dot));
        if (!address) return this.fail(c, id, STRATUM_ERRORS.badUser, true);
        this.leave(c);
        c.address = formatAddress(address);
        c.worker = dot < 0 ? '' : user.slice(dot + 1);
        let m = this.miners.get(c.address);
        if (!m) this.miners.set(c.address, (m = { address, jobs: [], connections: new Set() }));
        m.connections.add(c);
        c.send({ id, result: true, error: null });
        const job = m.jobs.at(-1);
        if (job) this.notify(c, job);
        else this.refresh('block');
        return;
      }
      case 'mining.submit':
        return this.submit(c, id, params);
      default:
        return; // unknown methods are ignored (clients.md §7)
    }
  }

  private async submit(c: Connection, id: number, params: unknown): Promise<void> {
    if (c.address === null) return this.fail(c, id, STRATUM_ERRORS.unauthorized, true);
    // [jobId, extranonce2, ntime, nonce], or with the worker name first.
    const p = Array.isArray(params) && params.length === 5 ? params.slice(1) : params;
    if (!Array.isArray(p) || p.length !== 4 || !p.every((x) => typeof x === 'string')) return this.fail(c, id, STRATUM_ERRORS.malformed);
    const [jobId, e2hex, ntimeHex, nonceHex] = p as string[];
    const e2 = fromHexExact(e2hex, EXTRANONCE2_BYTES);
    const ntime = fromHexExact(ntimeHex, 4);
    const nonce = fromHexExact(nonceHex, 4);
    if (!e2 || !ntime || !nonce) return this.fail(c, id, STRATUM_ERRORS.malformed);
    const job = this.miners.get(c.address)?.jobs.find((j) => j.id === jobId.toLowerCase());
    if (!job) return this.fail(c, id, STRATUM_ERRORS.jobNotFound);
    const block = completeBlock(job, c.extranonce1, e2, ntime, nonce);
    const worker = c.worker ? ` (stratum worker ${c.worker})` : ' (stratum)';
    try {
      const b = await this.src.chain.append(block.header, block.body, { now: this.src.now() });
      this.src.log.info(`Accepted new block #${b.height}${worker}`);
      c.send({ id, result: true, error: null });
    } catch (e) {
      if (!(e instanceof NodeError)) throw e;
      this.src.log.warn(`Rejected new block #${job.template.height}${worker}: ${e.message}`);
      this.fail(c, id, [STRATUM_ERRORS.rejected[0], e.message]);
    }
  }

  private notify(c: Connection, job: Job): void {
    c.send({ id: null, method: 'mining.set_difficulty', params: [job.template.difficulty] });
    c.send({ id: null, method: 'mining.notify', params: notifyParams(job) });
  }

  /** Rebuilds every miner's template; `mempool`: pushed only if it pays more than the last job. */
  private refresh(reason: 'block' | 'mempool'): void {
    if (this.refreshing) {
      if (this.refreshAgain !== 'block') this.refreshAgain = reason;
      return;
    }
    this.refreshing = this.rebuild(reason)
      .catch((e) => this.src.log.warn(`stratum template: ${(e as Error)?.message ?? e}`))
      .finally(() => {
        this.refreshing = null;
        const again = this.refreshAgain;
        this.refreshAgain = null;
        if (again) this.refresh(again);
      });
  }

  private async rebuild(reason: 'block' | 'mempool'): Promise<void> {
    const { chain } = this.src;
    this.seenMempool = this.src.mempoolVersion();
    for (const m of [...this.miners.values()]) {
      const t = await chain.locked(() => buildTemplate(chain, chain.db, m.address, this.src.now(), this.src.pending()));
      // Stratum completes the body's 10-byte extra nonce and the new-type merkle root only.
      if (!merkleNewTypeAt(chain.params, t.height) || t.body.length < EXTRANONCE1_BYTES + EXTRANONCE2_BYTES) continue;
      const job = jobOf(t);
      const last = m.jobs.at(-1);
      if (last && last.id === job.id) continue;
      if (last && last.prevHash === job.prevHash) {
        if (reason === 'mempool' && job.template.blockReward <= last.template.blockReward) continue;
        m.jobs.push(job);
        if (m.jobs.length > JOBS_KEPT) m.jobs.shift();
      } else {
        m.jobs = [job]; // a new previous block: older jobs can no longer be appended
      }
      for (const c of m.connections) this.notify(c, job);
    }
  }
}
