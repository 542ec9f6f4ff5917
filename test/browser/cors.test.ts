// CORS in headless Chromium (clients.md §5): a page on another origin sends a JSON
// `POST /transaction/add` and a `GET` with `Content-Type: application/json` (both preflighted by the
// browser) to nodes serving the 0.10 and the 0.8 generation, and reads their answers.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { writeJson } from '../../ts/api/json.js';
import { openPage } from '../helpers/chromium.js';
import { genesisHash, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(121),
  B = TestWallet.fromSeed(122);

let server: Server;
let base = '';
const nodes: TestNode[] = [];
const calls: { url: string; body: string }[] = [];

/** A transfer signed by A, in the naming of `api`. */
async function transferBody(node: TestNode, api: '0.10' | '0.8'): Promise<Record<string, unknown>> {
  const genesis = await genesisHash(node);
  const r = requestJson(
    signRequest(A.sk, { type: 'coinTransfer', toAddress: B.address, amount: 1234n }, { pinHeight: 0, pinHash: genesis, nonceId: 1, feeCode: 0x4fa2 }),
  );
  const { type: _t, coinE8, ...rest } = r;
  return api === '0.10' ? { ...rest, type: 'wartTransfer', wartE8: coinE8 } : { ...rest, amountE8: coinE8 };
}

beforeAll(async () => {
  for (const api of ['0.10', '0.8'] as const) {
    const n = await startNode(['--regtest', `--api=${api}`]);
    nodes.push(n);
    await n.get(`/debug/fakemine/${A.addressText}`);
    calls.push({ url: n.url, body: writeJson(await transferBody(n, api)) });
  }
  // The page's origin is this server; the nodes listen on other ports, so other origins.
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>other origin</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

it('a page on another origin posts JSON and gets answers from both generations', async () => {
  const page = await openPage(`${base}/`);
  try {
    // The tab starts blank: wait until it shows the page (a fetch from it would be cut by the navigation).
    for (let i = 0; (await page.evaluate<string>('location.origin + document.readyState')) !== `${base}complete`; i++) {
      if (i > 200) throw new Error('the page did not load');
      await new Promise((r) => setTimeout(r, 50));
    }
    // Content-Type application/json makes both requests preflighted (clients.md §5).
    const [v010, v08] = await page.evaluate<any[]>(`(async () => {
      const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
      const out = [];
      for (const c of ${JSON.stringify(calls)}) {
        const head = await (await fetch(c.url + '/chain/head', { headers: json })).json();
        const add = await (await fetch(c.url + '/transaction/add', { method: 'POST', headers: json, body: c.body })).json();
        out.push({ origin: location.origin, head, add });
      }
      return out;
    })()`);
    expect(v010.origin).toBe(base);
    expect(v010.head.data.chainHead.height).toBe(1);
    expect(v010.add).toMatchObject({ code: 0, data: { txHash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(v08.head.data.height).toBe(1);
    expect(v08.add).toMatchObject({ code: 0, data: { txHash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  } finally {
    await page.close();
  }
});
