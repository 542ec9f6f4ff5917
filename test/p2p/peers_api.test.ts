// The /peers/* routes and their peer-to-peer companions (/tools/sample_verified_peers,
// /debug/header_download, /loadtest/*) with three regtest nodes on loopback: shapes (checked by
// the helpers against the declared schemas) and values; a misbehaving peer (from 127.0.0.2, with
// --ban-loopback) recorded as an offense and banned, then released by /peers/unban; bans, offenses
// and the address book kept across a restart; /peers/disconnect; the documented error codes.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { freePorts, mine, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(401);
let A: TestNode, B: TestNode, C: TestNode;
const all = () => [A, B, C];

beforeAll(async () => {
  // A listens on the highest port: the pinned connections B→A and C→A stay when A dials back (mutualDial).
  const [pb, pc, pa] = await freePorts(3);
  A = await startPeerNode([], undefined, ['--ban-loopback', `--bind=127.0.0.1:${pa}`]);
  await mine(A, MINER.addressText, 3);
  B = await startPeerNode([A], undefined, [`--bind=127.0.0.1:${pb}`]);
  C = await startPeerNode([A], undefined, [`--bind=127.0.0.1:${pc}`]);
  await sameHead(A, [B, C]);
});

afterAll(async () => {
  for (const n of all()) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

/** The id of `n`'s established outbound connection to `to` (from its log, once its schedule shows it connected). */
async function liveConnectionId(n: TestNode, to: TestNode): Promise<number> {
  await waitFor(
    'the connection',
    async () => (await n.data('/peers/connection_schedule')).connectedVerified.some((e: any) => e.schedule.address === to.p2p),
    20_000,
  );
  return connectionId(n, to);
}

/** The id `n`'s log gave its latest outbound connection to `to`. */
const connectionId = (n: TestNode, to: TestNode): number => {
  const ids = [...n.output().matchAll(new RegExp(`Connected to peer ${to.p2p!.replace(/\./g, '\\.')} \\(#(\\d+)`, 'g'))];
  return Number(ids[ids.length - 1][1]);
};

/** A raw TCP connection to `to` from a chosen loopback address; resolves when it closes. */
function rawFrom(localAddress: string, to: TestNode, send: string): { socket: Socket; closed: Promise<Buffer> } {
  const [host, port] = to.p2p!.split(':');
  const socket = connect({ host, port: Number(port), localAddress });
  let got = Buffer.alloc(0);
  socket.on('data', (d) => {
    got = Buffer.concat([got, d]);
  });
  socket.on('error', () => {});
  socket.once('connect', () => socket.write(send));
  return { socket, closed: new Promise((r) => socket.once('close', () => r(got))) };
}

describe('peers of a small network', () => {
  it("/peers/connected describes each peer's chain and connection", async () => {
    const [peer] = await waitFor('B to see A', async () => {
      const list = await B.data('/peers/connected');
      return list.length ? list : null;
    });
    const aPort = Number(A.p2p!.split(':')[1]);
    const fromA = (await B.data('/peers/connected')).find((p: any) => p.connection.port === aPort) ?? peer;
    expect(fromA.chain).toMatchObject({ length: 3, grid: [], forkLower: 1, forkUpper: 4 });
    expect(fromA.chain.worksumHex).toMatch(/^0x[0-9a-f]{64}$/);
    expect(fromA.connection.ip).toBe('127.0.0.1');
    expect(Math.abs(fromA.connection.since - Date.now() / 1000)).toBeLessThan(120);
    expect(fromA.leaderPriority).toEqual({ ack: { priority: 0, since: 0 }, theirs: { priority: 0, since: 0 } });
    expect(fromA.throttle.delay).toBe(0);
  });

  it('/peers/connected/connection, /peers/ip_count: the raw connections and the count per IP', async () => {
    const conns = await A.data('/peers/connected/connection');
    expect(conns.length).toBeGreaterThanOrEqual(2);
    for (const c of conns) expect(c.ip).toBe('127.0.0.1');
    const counts = await A.data('/peers/ip_count');
    expect(counts).toHaveLength(1);
    expect(counts[0][0]).toBe('127.0.0.1');
    expect(counts[0][1]).toBeGreaterThanOrEqual(2);
  });

  it('/peers/connection_schedule and /tools/sample_verified_peers: the pinned peer is verified', async () => {
    const s = await B.data('/peers/connection_schedule');
    const a = s.connectedVerified.find((e: any) => e.schedule.address === A.p2p);
    expect(a, JSON.stringify(s)).toBeDefined();
    expect(a.schedule.expiresIn).toBeNull();
    expect(a.secondsSinceVerified).toBeGreaterThanOrEqual(0);
    expect(await B.data('/tools/sample_verified_peers/10')).toContain(A.p2p);
    expect(await B.data('/tools/sample_verified_peers/0')).toEqual([]);
    // A learned B's listen address from B's handshake and verified it by connecting back (§4.1).
    await waitFor('A to verify B', async () => (await A.data('/tools/sample_verified_peers/10')).includes(B.p2p));
  });

  it('/peers/transmission_minutes and _hours: bytes per host in aligned buckets', async () => {
    for (const path of ['/peers/transmission_minutes', '/peers/transmission_hours']) {
      const { byHost } = await B.data(path);
      const buckets = byHost['127.0.0.1'];
      expect(buckets.length, path).toBeGreaterThanOrEqual(1);
      const width = path.endsWith('minutes') ? 60 : 3600;
      for (const b of buckets) expect(b.timestamp % width).toBe(0);
      expect(buckets.reduce((s: number, b: any) => s + b.rxBytes, 0)).toBeGreaterThan(100);
      expect(buckets.reduce((s: number, b: any) => s + b.txBytes, 0)).toBeGreaterThan(100);
    }
  });

  it('/debug/header_download and /peers/throttled on a quiet network', async () => {
    const d = await B.data('/debug/header_download');
    expect(d).toMatchObject({ config: { maxLeaders: 1, pendingDepth: 1 }, leaderListSize: 0, queuedBatches: {}, verifierMapSize: 0 });
    expect(d.minWork).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await A.data('/peers/throttled')).toEqual([]);
  });

  it('bad ids and pages give the documented codes', async () => {
    expect((await A.get('/peers/offenses/0')).body.code).toBe(90);
    expect((await A.get('/peers/offenses/x')).body.code).toBe(94);
    for (const path of ['/peers/disconnect/999999', '/loadtest/header_request/999999', '/loadtest/block_request/999999', '/loadtest/disable/999999']) {
      expect((await A.get(path)).body.code, path).toBe(56);
    }
    expect((await A.get('/peers/disconnect/abc')).body.code).toBe(94);
  });
});

describe('a misbehaving peer', () => {
  it('appears in /peers/offenses and /peers/banned, is refused, and /peers/unban releases it', async () => {
    await rawFrom('127.0.0.2', A, 'GET / HTTP/1.1\r\nHost: example\r\n\r\n').closed; // > 24 bytes: EHANDSHAKE
    const offense = await waitFor('the offense', async () => (await A.data('/peers/offenses/1')).find((o: any) => o.ip === '127.0.0.2'));
    expect(offense.offense).toBe('EHANDSHAKE');
    expect(Math.abs(offense.time - Date.now() / 1000)).toBeLessThan(60);
    expect(await A.data('/peers/offenses/2')).toEqual([]);
    const ban = (await A.data('/peers/banned')).find((b: any) => b.ip === '127.0.0.2');
    expect(ban).toMatchObject({ reason: 'EHANDSHAKE' });
    expect(Math.abs(ban.banuntil - (Date.now() / 1000 + 20 * 60))).toBeLessThan(60);
    // Refused: closed before any handshake byte comes back.
    const refused = await rawFrom('127.0.0.2', A, '').closed;
    expect(refused.length).toBe(0);
    expect(A.output()).toMatch(/Refused connection from banned 127\.0\.0\.2/);
    // Released.
    const unban = await A.get('/peers/unban');
    expect(unban.body).toEqual({ code: 0 });
    expect(await A.data('/peers/banned')).toEqual([]);
    const again = rawFrom('127.0.0.2', A, '');
    await new Promise((r) => setTimeout(r, 300));
    expect(again.socket.destroyed).toBe(false);
    again.socket.destroy();
  });
});

describe('restarts', () => {
  it('a restarted node keeps its bans, its offenses and its address book', async () => {
    await rawFrom('127.0.0.3', A, 'garbage that is no handshake').closed;
    await waitFor('the ban', async () => (await A.data('/peers/banned')).some((b: any) => b.ip === '127.0.0.3'));
    const offensesBefore = await A.data('/peers/offenses/1');
    await A.stop();
    A = await startPeerNode([], A.dataDir, ['--ban-loopback', `--bind=${A.p2p}`]);
    expect((await A.data('/peers/banned')).map((b: any) => b.ip)).toEqual(['127.0.0.3']);
    expect(await A.data('/peers/offenses/1')).toEqual(offensesBefore);
    // B restarts without --connect: it dials A again from its address book.
    await B.stop();
    B = await startPeerNode([], B.dataDir, [`--bind=${B.p2p}`]);
    await waitFor(
      'B to reconnect to A',
      async () => (await B.data('/peers/connection_schedule')).connectedVerified.some((e: any) => e.schedule.address === A.p2p),
      20_000,
    );
    await mine(A, MINER.addressText, 1);
    await sameHead(A, [B]);
  });
});

describe('operations on a connection', () => {
  it('/peers/disconnect closes it; the outbound side reconnects', async () => {
    const id = await liveConnectionId(C, A);
    expect((await C.get(`/peers/disconnect/${id}`)).body).toEqual({ code: 0 });
    await waitFor('the close', async () => C.output().includes('(EAPICMD)'));
    expect((await C.get(`/peers/disconnect/${id}`)).body.code).toBe(56);
    await waitFor('C to reconnect', async () => connectionId(C, A) !== id, 20_000);
  });

  it('/loadtest/header_request makes the peer throttle us; /loadtest/disable stops it', async () => {
    const id = await liveConnectionId(C, A);
    expect((await C.get(`/loadtest/header_request/${id}`)).body).toEqual({ code: 0 });
    const throttled = await waitFor('A to throttle C', async () => (await A.data('/peers/throttled'))[0], 20_000);
    expect(throttled.connection.endpoint).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    expect(throttled.throttle.delay).toBeGreaterThan(0);
    expect(throttled.throttle.headerRequest.since).toBe(8640);
    expect((await C.get(`/loadtest/disable/${id}`)).body).toEqual({ code: 0 });
  });
});
