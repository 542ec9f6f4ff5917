// The stratum server of a regtest node (`--stratum`; clients.md §7) with real proof of work:
// the protocol and its error codes over a raw connection, new jobs on a new block and on a
// better mempool, and two concurrent CPU miners (dist/miner.mjs --stratum) that mine blocks
// without ever duplicating work (distinct extranonce1 in every block they made).
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { PowVersion, powCheck } from '../../ts/kernel/pow.js';
import { fromHex, fromHexExact, toHex } from '../../ts/core/hex.js';
import { merkleRootOf, minerHeader } from '../../ts/stratum/job.js';
import { requestJson, signRequest } from '../../ts/core/signed_request.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = join(import.meta.dirname, '../../dist/miner.mjs');
const A = TestWallet.fromSeed(31);
const B = TestWallet.fromSeed(32);
const FEE_CODE = 0x4fa2;

let node: TestNode;
let port: number;
beforeAll(async () => {
  node = await startNode(['--regtest', '--stratum=127.0.0.1:0']);
  port = Number((await waitFor('stratum endpoint', async () => /Stratum endpoint is [\d.]+:(\d+)\./.exec(node.output())))[1]);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

/** A raw stratum connection: JSON lines, replies by id, notifications in order. */
class Client {
  readonly socket: Socket;
  private buffer = '';
  readonly messages: any[] = [];
  closed = false;
  private nextId = 100;

  constructor() {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => {
      this.buffer += d;
      const lines = this.buffer.split('\n');
      this.buffer = lines.pop()!;
      for (const l of lines) if (l) this.messages.push(JSON.parse(l));
    });
    this.socket.on('close', () => {
      this.closed = true;
    });
    this.socket.on('error', () => undefined);
  }

  sendRaw(text: string): void {
    this.socket.write(text + '\n');
  }

  async call(method: string, params: unknown): Promise<any> {
    const id = this.nextId++;
    this.sendRaw(JSON.stringify({ id, method, params }));
    return waitFor(`reply ${id}`, async () => this.messages.find((m) => m.id === id), 20_000);
  }

  /** The notifications of `method` received so far. */
  notes(method: string): any[] {
    return this.messages.filter((m) => m.method === method);
  }

  async nextNote(method: string, after: number): Promise<any> {
    return waitFor(`${method} #${after + 1}`, async () => this.notes(method)[after], 20_000);
  }
}

function solve(notify: string[], e1: string, e2: Uint8Array): Uint8Array {
  const [, prevHash, merklePrefix, version, nbits, ntime] = notify;
  const root = merkleRootOf(fromHex(merklePrefix)!, Uint8Array.from([...fromHex(e1)!, ...e2]));
  for (let nonce = 0; ; nonce++) {
    const h = minerHeader(fromHex(prevHash)!, fromHex(nbits)!, root, fromHex(version)!, fromHex(ntime)!, nonce);
    if (powCheck(h, PowVersion.Janus8) || powCheck(h, PowVersion.Janus7)) return h;
  }
}

describe('stratum', () => {
  it('speaks the protocol and answers each error with its code', async () => {
    const c = new Client();
    const sub = await c.call('mining.subscribe', ['test/1']);
    expect(sub.error).toBeNull();
    expect(sub.result[0]).toEqual([['mining.notify', '']][0]);
    expect(sub.result[1]).toMatch(/^[0-9a-f]{8}$/);
    expect(sub.result[2]).toBe(6);
    const e1: string = sub.result[1];

    c.sendRaw(JSON.stringify({ id: 7, method: 'mining.extranonce.subscribe', params: [] })); // unknown: ignored
    const early = new Client();
    await early.call('mining.subscribe', []);
    const unauth = await early.call('mining.submit', ['00', '000000000000', '00000000', '00000000']);
    expect(unauth.error).toEqual([24, 'Unauthorized worker.', null]);
    await waitFor('closed after 24', async () => early.closed);

    const bad = new Client();
    const badUser = await bad.call('mining.authorize', ['not-an-address', 'x']);
    expect(badUser.error).toEqual([30, 'User format must be <Address>[.<Workername>]', null]);
    await waitFor('closed after 30', async () => bad.closed);

    const junk = new Client();
    junk.sendRaw('{not json');
    await waitFor('closed after junk', async () => junk.closed);

    expect((await c.call('mining.authorize', [`${A.addressText}.rig1`, 'x'])).result).toBe(true);
    const diff = await c.nextNote('mining.set_difficulty', 0);
    expect(typeof diff.params[0]).toBe('number');
    const notify = (await c.nextNote('mining.notify', 0)).params;
    expect(notify).toHaveLength(7);
    expect(notify[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(notify[1]).toBe(await node.data('/chain/block/0/hash'));
    expect(notify.slice(3, 6).every((x: string) => /^[0-9a-f]{8}$/.test(x))).toBe(true);
    expect(notify[6]).toBe(true);

    expect((await c.call('mining.submit', ['ff'.repeat(32), '000000000000', notify[5], '00000000'])).error[0]).toBe(21);
    expect((await c.call('mining.submit', [notify[0], '00', notify[5], '00000000'])).error[0]).toBe(20);

    const e2 = fromHexExact('0000000000ab', 6)!;
    const header = solve(notify, e1, e2);
    const ok = await c.call('mining.submit', [A.addressText, notify[0], toHex(e2), notify[5], toHex(header.subarray(76, 80))]);
    expect(ok).toEqual({ id: ok.id, result: true, error: null });
    expect((await node.data('/chain/head')).chainHead.height).toBe(1);
    const bytes: string = (await node.data('/chain/block/1/binary')).bytes;
    expect(bytes.slice(0, 20)).toBe(e1 + toHex(e2));

    // The same solution again: the chain moved on, the block is refused with code 40 and the node's reason.
    const again = await c.call('mining.submit', [notify[0], toHex(e2), notify[5], toHex(header.subarray(76, 80))]);
    expect(again.error?.[0] === 40 || again.error?.[0] === 21).toBe(true);

    // A new block (from elsewhere) gives a new job on the new previous block.
    const seen = c.notes('mining.notify').length;
    expect((await node.get(`/debug/fakemine/${B.addressText}`)).body.code).toBe(0);
    const head = (await node.data('/chain/head')).chainHead.hash;
    await waitFor('job on the new head', async () =>
      c
        .notes('mining.notify')
        .slice(seen)
        .some((n) => n.params[1] === head),
    );
    c.socket.destroy();
  });

  it('pushes a better template when the mempool pays more', async () => {
    const c = new Client();
    await c.call('mining.subscribe', []);
    expect((await c.call('mining.authorize', [B.addressText, ''])).result).toBe(true);
    const first = (await c.nextNote('mining.notify', 0)).params;
    // A (paid block 1) sends a transfer with a fee: the template for B now earns that fee.
    const genesis = fromHex(await node.data('/chain/block/0/hash'))!;
    const req = signRequest(
      A.sk,
      { type: 'coinTransfer', toAddress: B.address, amount: 1000n },
      { pinHeight: 0, pinHash: genesis, nonceId: 1, feeCode: FEE_CODE },
    );
    expect((await node.post('/transaction/add', requestJson(req))).body.code).toBe(0);
    const better = await waitFor('a job with the transfer', async () =>
      c
        .notes('mining.notify')
        .map((n) => n.params)
        .find((p) => p[2] !== first[2]),
    );
    expect(better[1]).toBe(first[1]); // same previous block, new body
    c.socket.destroy();
  });

  it('two CPU miners mine through stratum without duplicating work', async () => {
    const start = (await node.data('/chain/head')).chainHead.height;
    const run = (w: TestWallet) =>
      new Promise<string>((resolve, reject) => {
        const p = spawn(process.execPath, [MINER, '--stratum', `127.0.0.1:${port}`, '--address', w.addressText, '--blocks', '3'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        p.stdout.on('data', (d) => {
          out += d;
        });
        p.stderr.on('data', (d) => {
          out += d;
        });
        p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`miner exited ${code}: ${out}`))));
      });
    const [outA, outB] = await Promise.all([run(A), run(B)]);
    const e1A = /extranonce1 ([0-9a-f]{8})/.exec(outA)![1];
    const e1B = /extranonce1 ([0-9a-f]{8})/.exec(outB)![1];
    expect(e1A).not.toBe(e1B);
    expect(outA).toMatch(/mined 3 blocks/);
    expect(outB).toMatch(/mined 3 blocks/);
    const end = (await node.data('/chain/head')).chainHead.height;
    expect(end).toBe(start + 6);
    const byMiner = new Map<string, string[]>();
    const work = new Set<string>(); // what was hashed: previous block and merkle root
    for (let h = start + 1; h <= end; h++) {
      const b = await node.data(`/chain/block/${h}`);
      const to = b.body.reward.transaction.data.toAddress;
      const e1 = (await node.data(`/chain/block/${h}/binary`)).bytes.slice(0, 8);
      byMiner.set(to, [...(byMiner.get(to) ?? []), e1]);
      work.add(`${b.header.prevHash}:${b.header.merkleroot}`);
    }
    expect(byMiner.get(A.addressText)).toEqual([e1A, e1A, e1A]);
    expect(byMiner.get(B.addressText)).toEqual([e1B, e1B, e1B]);
    expect(work.size).toBe(6);
  });
});
