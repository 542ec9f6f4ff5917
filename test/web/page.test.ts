// The page at `/` in headless Chromium: its light node downloads a 2,000-block regtest chain (real
// proof of work) from the serving node over WebSocket, or over HTTP where the node has no
// --ws-port, and verifies every header with the node's consensus code; a peer or an HTTP proxy that
// serves a header with bad proof of work is refused in the page. A screenshot is saved under dist/
// (not committed) and the visible verified height is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { toHex } from '../../ts/core/hex.js';
import { WebSocketServer, type WebSocket } from 'ws';
import { initKernel } from '../../ts/kernel/instance.js';
import { checkPow } from '../../ts/consensus/header_check.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { addressOfPrivateKey } from '../../ts/core/keys.js';
import { acceptorReply, HELLO_SIZE } from '../../ts/p2p/handshake.js';
import { encodeFrame, FrameDecoder } from '../../ts/p2p/framing.js';
import { decodeMessage, encodeMessage, type Message } from '../../ts/p2p/messages.js';
import { NO_PRIORITY } from '../../ts/p2p/elements.js';
import { OUR_VERSION } from '../../ts/p2p/dialect.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { openPage, type Browser } from '../helpers/chromium.js';
import { mine, startPeerNode, waitFor } from '../helpers/peers.js';
import { formatAddress } from '../../ts/core/address.js';
import { servedRoutes } from '../../ts/api/generations/index.js';
import type { ApiName } from '../../ts/api/generations/generation.js';
import { ROUTES } from '../../ts/api/routes/index.js';
import { powChain } from './pow_chain.js';

await initKernel();

const N = 2000;
const addressText = formatAddress(addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => i + 11)));
const SCREENSHOT = join(import.meta.dirname, '../../dist/screenshots/light-node.png');
let node: TestNode, chain: Awaited<ReturnType<typeof powChain>>;

beforeAll(async () => {
  chain = await powChain(N, addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => i + 7)));
  node = await startNode(['--regtest', '--bind=127.0.0.1:0', '--ws-port=0', '--ws-bind-localhost'], chain.dir);
}, 300_000);

afterAll(async () => {
  await node?.stop();
  if (chain) await removeDir(chain.dir);
});

interface Shown {
  height: string | undefined;
  announced: string | undefined;
  state: string | undefined;
}
const shown = (b: Browser) =>
  b.evaluate<Shown>(`({
  height: document.getElementById('verified-height')?.textContent,
  announced: document.getElementById('peer-length')?.textContent,
  state: document.getElementById('light-state')?.textContent })`);

describe('the page at /', () => {
  it('serves the page and its script', async () => {
    const page = await fetch(`${node.url}/`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/web/app.js');
    expect(JSON.parse(/<script id="config" type="application\/json">(.*?)<\/script>/s.exec(html)![1]).ws.port).toBeGreaterThan(0);
    expect((await fetch(`${node.url}/web/app.js`)).status).toBe(200);
  });

  it('verifies all 2,000 headers in the browser and shows the verified height', async () => {
    const b = await openPage(`${node.url}/`);
    try {
      const s = await waitFor(
        'the page to verify the chain',
        async () => {
          const v = await shown(b);
          return v.height === String(N) || /refused/.test(v.state ?? '') ? v : null;
        },
        120_000,
      );
      expect(s.state).not.toMatch(/refused/);
      expect(s.height).toBe(String(N));
      expect(s.announced).toBe(String(N));
      const tip = await b.evaluate<string>('window.lightNode.status().verifiedHash');
      expect(tip).toBe((await node.data('/chain/head')).chainHead.hash);
      // The status and route panels are filled from the node.
      await waitFor(
        'the status panel',
        async () => (await b.evaluate<string>(`document.getElementById('status').textContent`)).includes('API generation'),
        10_000,
      );
      expect(await b.evaluate<number>(`document.querySelectorAll('#routes tr').length`)).toBeGreaterThan(40);
      // The search opens a block by its height (test/web/explorer.test.ts walks the explorer).
      await b.evaluate(`(() => { const i = document.getElementById('search-input'); i.value = '5'; i.form.requestSubmit(); })()`);
      await waitFor(
        'the block page',
        async () => (await b.evaluate<string>(`location.hash + ' ' + document.getElementById('view').dataset.state`)) === '#/block/5 ready',
        10_000,
      );
      expect(await b.evaluate<string>(`document.querySelector('#view h1').textContent`)).toBe('Block 5');
      await b.evaluate(`location.hash = '#/'`);
      await waitFor(
        'the front page',
        async () =>
          (await b.evaluate<string>(`document.getElementById('view').dataset.state`)) === 'ready' &&
          (await b.evaluate<boolean>(`!!document.getElementById('routes')`)),
        10_000,
      );
      // Routes that change the node are listed but not links.
      expect(await b.evaluate<boolean>(`[...document.querySelectorAll('#routes a')].some((a) => a.textContent === '/debug/rollback')`)).toBe(false);
      await b.screenshot(SCREENSHOT);
    } finally {
      await b.close();
    }
  });

  it('refuses a header with bad proof of work served by a modified peer', async () => {
    const BAD = 1234;
    const peer = await badPowPeer(chain.headers, chain.worksum, BAD);
    const b = await openPage(`${node.url}/?peer=ws://127.0.0.1:${peer.port}/`);
    try {
      const s = await waitFor(
        'the page to refuse the chain',
        async () => {
          const v = await shown(b);
          return /refused/.test(v.state ?? '') ? v : null;
        },
        60_000,
      );
      expect(s.state).toContain(`header ${BAD} refused (EPOW`);
      expect(s.height).toBe(String(BAD - 1));
    } finally {
      await b.close();
      peer.close();
    }
  });
});

describe('the light node over HTTP', () => {
  it('verifies all 2,000 headers read over the HTTP interface', async () => {
    const b = await openPage(`${node.url}/?source=http`);
    try {
      const s = await waitFor(
        'the page to verify the chain over HTTP',
        async () => {
          const v = await shown(b);
          return v.height === String(N) || /refused/.test(v.state ?? '') ? v : null;
        },
        180_000,
      );
      expect(s.state).not.toMatch(/refused/);
      expect(s.height).toBe(String(N));
      expect(await b.evaluate<string>(`document.getElementById('light-source').textContent`)).toContain('HTTP interface');
      expect(await b.evaluate<string>('window.lightNode.status().verifiedHash')).toBe((await node.data('/chain/head')).chainHead.hash);
    } finally {
      await b.close();
    }
  }, 240_000);

  it('refuses a header with bad proof of work served by a modified HTTP proxy', async () => {
    const BAD = 1500;
    const proxy = await badPowProxy(node.url, chain.headers[BAD - 1], BAD);
    const b = await openPage(`${node.url}/?http=http://127.0.0.1:${proxy.port}`);
    try {
      const s = await waitFor(
        'the page to refuse the chain',
        async () => {
          const v = await shown(b);
          return /refused/.test(v.state ?? '') ? v : null;
        },
        120_000,
      );
      expect(s.state).toContain(`header ${BAD} refused (EPOW`);
      expect(s.height).toBe(String(BAD - 1));
    } finally {
      await b.close();
      proxy.close();
    }
  }, 180_000);
});

describe.each(['0.10', '0.8'])('the page with --api=%s', (api) => {
  it('shows the status, verifies the chain over HTTP (no --ws-port), follows it, and lists the routes that generation serves', async () => {
    const n = await startPeerNode([], undefined, [`--api=${api}`]);
    try {
      await mine(n, addressText, 5);
      const b = await openPage(`${n.url}/`);
      try {
        await waitFor('the light node', async () => (await shown(b)).height === '5' || /refused/.test((await shown(b)).state ?? ''), 30_000);
        expect((await shown(b)).height).toBe('5');
        expect(await b.evaluate<string>(`document.getElementById('light-source').textContent`)).toMatch(/HTTP interface, the node having no --ws-port/);
        await mine(n, addressText, 2);
        await waitFor('the light node to follow', async () => (await shown(b)).height === '7', 30_000);
        const status = await waitFor(
          'the status panel',
          async () => {
            const t = await b.evaluate<string>(`document.getElementById('status').textContent`);
            return t.includes('API generation') ? t : null;
          },
          10_000,
        );
        expect(status).toContain(`API generation${api}`);
        expect(status).toMatch(/Height5/);
        const listed = await b.evaluate<string[]>(
          `[...document.querySelectorAll('#routes tr')].slice(1).map((r) => r.cells[0].textContent + ' ' + r.cells[1].textContent)`,
        );
        expect(listed).toEqual(servedRoutes(api as ApiName, ROUTES).map((r) => `${r.method} ${r.path}`));
      } finally {
        await b.close();
      }
    } finally {
      await n.stop();
      await removeDir(n.dataDir);
    }
  });
});

/** A WebSocket P2P acceptor serving `headers`, with header `bad`'s nonce changed so that its PoW fails. */
async function badPowPeer(headers: Uint8Array[], worksum: bigint, bad: number): Promise<{ port: number; close(): void }> {
  const served = headers.map((h, i) => {
    if (i + 1 !== bad) return h;
    // Regtest's target is trivial: change the nonce until the proof of work really fails.
    const x = h.slice();
    const view = new DataView(x.buffer);
    for (let nonce = view.getUint32(76) + 1; checkPow(REGTEST, bad, x); nonce++) view.setUint32(76, nonce >>> 0);
    return x;
  });
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'binary' });
  wss.on('connection', (ws: WebSocket) => {
    let hello = new Uint8Array(0),
      acked = false;
    const decoder = new FrameDecoder();
    const send = (m: Message) => {
      const { type, payload } = encodeMessage(m);
      ws.send(encodeFrame(type, payload));
    };
    ws.on('message', (data: Buffer) => {
      let chunk = new Uint8Array(data);
      if (hello.length < HELLO_SIZE) {
        hello = new Uint8Array([...hello, ...chunk]);
        if (hello.length < HELLO_SIZE) return;
        ws.send(acceptorReply('regtest', OUR_VERSION));
        chunk = hello.subarray(HELLO_SIZE);
      }
      if (!acked && chunk.length) {
        acked = true;
        chunk = chunk.subarray(1);
      }
      for (const f of decoder.push(chunk)) {
        const m = decodeMessage(f.type, f.payload);
        if (m.kind === 'Init') send({ kind: 'Init', v3: true, descriptor: 0, priority: NO_PRIORITY, length: served.length, worksum, grid: [], flags: 0 });
        if (m.kind === 'Batchreq') send({ kind: 'Batchrep', nonce: m.nonce, headers: served.slice(m.start - 1, m.start - 1 + m.count) });
      }
    });
  });
  await new Promise((r) => wss.once('listening', r));
  return { port: (wss.address() as { port: number }).port, close: () => wss.close() };
}

/** An HTTP proxy to the node that serves header `bad` (its `raw`) with a nonce whose proof of work fails. */
async function badPowProxy(target: string, header: Uint8Array, bad: number): Promise<{ port: number; close(): void }> {
  const x = header.slice();
  const view = new DataView(x.buffer);
  for (let nonce = view.getUint32(76) + 1; checkPow(REGTEST, bad, x); nonce++) view.setUint32(76, nonce >>> 0);
  const server = createHttpServer(async (req, res) => {
    const r = await fetch(target + req.url);
    let text = await r.text();
    if (req.url === `/chain/block/${bad}/header`) {
      const j = JSON.parse(text);
      j.data.header.raw = toHex(x);
      text = JSON.stringify(j);
    }
    res.writeHead(r.status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}
