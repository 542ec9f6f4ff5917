// Starting a light node at a checkpoint instead of genesis (issue 14; consensus.md §5.5): the
// headers the rules look back on must hash-link, one by one, to the checkpoint's own header; the
// chain then verifies on from there, and never cuts below the checkpoint. Mainnet's checkpoint
// cannot be exercised offline (no mainnet chain here): a regtest chain with real proof of work and
// a checkpoint of the same form at a retarget height stands in for it, through the same code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { MAINNET_CHECKPOINT, checkpointOf, type Checkpoint } from '../../ts/consensus/checkpoint.js';
import { MAINNET, REGTEST, TESTNET } from '../../ts/consensus/params.js';
import { blockHash } from '../../ts/core/header.js';
import { addressOfPrivateKey } from '../../ts/core/keys.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { anchorStart, LightChain } from '../../ts/web/light_chain.js';
import { LightNode, type LightStatus } from '../../ts/web/light_node.js';
import { HttpFollower } from '../../ts/web/http_follower.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { waitFor } from '../helpers/peers.js';
import { powChain } from './pow_chain.js';

await initKernel();
const N = 1_500;
const C = 1_440; // a regtest retarget height: the rules look back to 720 from there
let chain: Awaited<ReturnType<typeof powChain>>;
let cp: Checkpoint;
let node: TestNode;

beforeAll(async () => {
  chain = await powChain(N, addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => i + 21)));
  cp = { height: C, header: chain.headers[C - 1], hash: blockHash(chain.headers[C - 1]) };
  node = await startNode(['--regtest', '--bind=127.0.0.1:0', '--ws-port=0', '--ws-bind-localhost'], chain.dir);
}, 300_000);
afterAll(async () => {
  await node?.stop();
  if (chain) await removeDir(chain.dir);
});

const history = () => chain.headers.slice(anchorStart(cp) - 1, C);

describe('an anchored light chain', () => {
  it('holds the mainnet checkpoint and looks back to the previous retarget', () => {
    expect(checkpointOf(MAINNET)).toBe(MAINNET_CHECKPOINT);
    expect(checkpointOf(TESTNET)).toBeNull();
    expect(anchorStart(MAINNET_CHECKPOINT)).toBe(2_237_760);
    expect(anchorStart(cp)).toBe(720);
  });

  it('starts at the checkpoint and verifies every later header', () => {
    const c = LightChain.anchored(REGTEST, cp, history());
    expect([c.length, c.anchor, c.worksum]).toEqual([C, C, 0n]);
    for (let h = C + 1; h <= N; h++) c.append(chain.headers[h - 1], Math.floor(Date.now() / 1000));
    expect(c.length).toBe(N);
    expect(c.hashAt(N)).toBe(Buffer.from(blockHash(chain.headers[N - 1])).toString('hex'));
    expect(() => c.truncate(C - 1)).toThrow(/EGRIDMISMATCH|below the checkpoint/);
    c.truncate(C);
    expect(c.length).toBe(C);
  });

  it('refuses history that does not lead to the checkpoint', () => {
    const h = history();
    const broken = h.slice();
    broken[100] = broken[100].slice();
    broken[100][79] ^= 1;
    expect(() => LightChain.anchored(REGTEST, cp, broken)).toThrow(/not the parent of/);
    expect(() => LightChain.anchored(REGTEST, { ...cp, header: chain.headers[C] }, h)).toThrow(/is not the checkpoint/);
    expect(() => LightChain.anchored(REGTEST, cp, h.slice(1))).toThrow(/headers before the checkpoint/);
    // A header after the checkpoint that is not its child is refused by the consensus rules.
    const c = LightChain.anchored(REGTEST, cp, h);
    expect(() => c.append(chain.headers[C + 1])).toThrow(/EHEADERLINK|prevHash/);
  });
});

describe('a light node given a checkpoint', () => {
  it('over WebSocket: starts at the checkpoint, then verifies on to the tip', async () => {
    let last: LightStatus | null = null;
    const port = await waitFor('the WebSocket endpoint', async () => /WebSocket P2P endpoint is ws:\/\/[\d.]+:(\d+)/.exec(node.output())?.[1]);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, 'binary');
    const light = new LightNode({
      network: 'regtest',
      params: REGTEST,
      socket: ws as never,
      checkpoint: cp,
      onStatus: (s) => {
        last = s;
      },
    });
    try {
      await waitFor('the tip', async () => last?.verified === N || last?.error, 60_000);
      expect(last!.error).toBeNull();
      expect(last!.anchor).toBe(C);
      expect(light.chain.length).toBe(N);
    } finally {
      light.close();
      if (ws.readyState !== ws.CLOSED) await once(ws, 'close');
    }
  }, 90_000);

  it('over HTTP: the same', async () => {
    const f = new HttpFollower({ params: REGTEST, get: (path) => node.data(path), checkpoint: cp, pollMs: 50 });
    try {
      await waitFor('the tip', async () => f.status().verified === N || f.status().error, 60_000);
      expect(f.status()).toMatchObject({ verified: N, anchor: C, error: null });
    } finally {
      f.close();
    }
  }, 90_000);
});
