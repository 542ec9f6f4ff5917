// P2P over WebSocket (`--ws-port`, clients.md §6.3): a light node (ts/web, the page's own code, here
// over the `ws` client) syncs and verifies the header chain of a node that was fed its blocks over TCP,
// follows new blocks live, and misbehaviour over WebSocket gets the same offenses as over TCP.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { initKernel } from '../../ts/kernel/instance.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { OUR_VERSION } from '../../ts/p2p/dialect.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import { connectorHello } from '../../ts/p2p/handshake.js';
import { MSG } from '../../ts/p2p/protocol.js';
import { LightNode, type LightStatus } from '../../ts/web/light_node.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { head, mine, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(1401);
let feeder: TestNode, A: TestNode, wsUrl: string;

beforeAll(async () => {
  feeder = await startPeerNode();
  await mine(feeder, MINER.addressText, 40);
  A = await startPeerNode([feeder], undefined, ['--ws-port=0', '--ws-bind-localhost']);
  await sameHead(feeder, [A]);
  wsUrl = await wsEndpoint(A);
}, 120_000);

afterAll(async () => {
  for (const n of [feeder, A]) {
    await n?.stop();
    if (n) await removeDir(n.dataDir);
  }
});

/** The node's WebSocket P2P URL, from its start-up log. */
const wsEndpoint = (n: TestNode): Promise<string> =>
  waitFor(
    'the WebSocket endpoint',
    async () => {
      const m = /WebSocket P2P endpoint is ws:\/\/([\d.]+:\d+)\./.exec(n.output());
      return m ? `ws://${m[1]}/` : null;
    },
    10_000,
  );

const offenses = () =>
  A.output()
    .split('\n')
    .filter((l) => l.includes('offense recorded'));

function light(url = wsUrl): { node: LightNode; last: () => LightStatus } {
  let last: LightStatus | null = null;
  const socket = new WebSocket(url, 'binary');
  const node = new LightNode({
    network: 'regtest',
    params: REGTEST,
    socket: socket as never,
    onStatus: (s) => {
      last = s;
    },
  });
  return { node, last: () => last ?? node.status() };
}

describe('a light node over WebSocket', () => {
  it('verifies the whole header chain of a TCP-fed node and follows it live', async () => {
    const { node, last } = light();
    try {
      const tip = await head(A);
      await waitFor('the verified height to reach the head', async () => last().verified === tip.height || last().error, 30_000);
      expect(last().error).toBeNull();
      expect(last().verified).toBe(tip.height);
      expect(last().verifiedHash).toBe(tip.hash);
      // The node lists the WebSocket peer among its connections.
      expect((await A.data('/peers/connected')).length).toBeGreaterThanOrEqual(2);
      await mine(feeder, MINER.addressText, 3);
      const next = await sameHead(feeder, [A]);
      await waitFor('the light node to follow', async () => last().verified === next.height || last().error, 30_000);
      expect(last().verifiedHash).toBe(next.hash);
    } finally {
      node.close();
    }
  });

  it('shows a reorg: the chain cut back to the fork point, then the new branch verified', async () => {
    const R = await startPeerNode([], undefined, ['--ws-port=0', '--ws-bind-localhost']);
    const { node, last } = light(await wsEndpoint(R));
    try {
      await mine(R, MINER.addressText, 10);
      await waitFor('the light node at 10', async () => last().verified === 10 || last().error);
      const old = last().verifiedHash;
      for (let i = 0; i < 3; i++) expect((await R.get('/debug/rollback')).body.code).toBe(0);
      await mine(R, MINER.addressText, 5);
      const tip = await head(R);
      await waitFor('the light node on the new branch', async () => last().verifiedHash === tip.hash || last().error);
      expect(last().error).toBeNull();
      expect(last().verified).toBe(12);
      // One Fork, or one per announcement if the rollbacks were announced apart: the deepest cut is block 7.
      expect(Math.min(...last().reorgs)).toBe(7);
      expect(last().verifiedHash).not.toBe(old);
    } finally {
      node.close();
      await R.stop();
      await removeDir(R.dataDir);
    }
  });

  it('serves wss:// with --ws-tls-cert and --ws-tls-key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wartnode-tls-'));
    const cert = join(dir, 'cert.pem'),
      key = join(dir, 'key.pem');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert]);
    expect(made.status, `openssl: ${made.stderr}`).toBe(0);
    const T = await startPeerNode([], undefined, ['--ws-port=0', '--ws-bind-localhost', `--ws-tls-cert=${cert}`, `--ws-tls-key=${key}`]);
    try {
      await mine(T, MINER.addressText, 3);
      const url = await waitFor('the wss endpoint', async () => /WebSocket P2P endpoint is (wss:\/\/[\d.]+:\d+)\./.exec(T.output())?.[1], 10_000);
      let last: LightStatus | null = null;
      const socket = new WebSocket(`${url}/`, 'binary', { rejectUnauthorized: false });
      const node = new LightNode({
        network: 'regtest',
        params: REGTEST,
        socket: socket as never,
        onStatus: (st) => {
          last = st;
        },
      });
      try {
        await waitFor('the light node over TLS', async () => last?.verified === 3 || last?.error);
        expect(last!.error).toBeNull();
        expect(last!.verifiedHash).toBe((await head(T)).hash);
      } finally {
        node.close();
      }
    } finally {
      await T.stop();
      await removeDir(T.dataDir);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses plain HTTP on the WebSocket port', async () => {
    const r = await fetch(wsUrl.replace('ws:', 'http:'));
    expect(r.status).toBe(426);
  });

  it('closes a WebSocket peer that sends garbage, with the same offense as over TCP', async () => {
    const socket = new WebSocket(wsUrl, 'binary');
    await new Promise((r, j) => {
      socket.once('open', r);
      socket.once('error', j);
    });
    const closed = new Promise((r) => socket.once('close', r));
    socket.send(new Uint8Array(24).fill(0x41));
    await closed;
    await waitFor('the offense', async () => offenses().some((l) => l.includes('EHANDSHAKE 13')), 10_000);
    expect(JSON.stringify(await A.data('/peers/offenses/1'))).toContain('EHANDSHAKE');
  });

  it('closes a WebSocket peer that declares an oversized frame (EMSGLEN), as over TCP', async () => {
    const socket = new WebSocket(wsUrl, 'binary');
    socket.binaryType = 'arraybuffer';
    await new Promise((r, j) => {
      socket.once('open', r);
      socket.once('error', j);
    });
    const closed = new Promise((r) => socket.once('close', r));
    let replied = false;
    socket.on('message', () => {
      replied = true;
    });
    socket.send(connectorHello('regtest', OUR_VERSION, 0));
    await waitFor('the acceptor reply', async () => replied, 5_000);
    socket.send(new Uint8Array([0]));
    const frame = encodeFrame(MSG.InitV3, new Uint8Array(47));
    new DataView(frame.buffer).setUint32(0, 200_000); // more than InitV3's 100,000-byte maximum
    socket.send(frame.subarray(0, 10));
    await closed;
    await waitFor('the offense', async () => offenses().some((l) => l.includes('EMSGLEN 2')), 10_000);
  });
});
