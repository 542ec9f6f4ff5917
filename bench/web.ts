// The light node of the page at `/` (issue 14): headers verified per second by the page's light node
// in headless Chromium, and by the same light node code in Node.js, both over the node's WebSocket
// P2P port against the same regtest chain (real proof of work); the ratio Chromium ÷ Node.js.
import { WebSocket } from 'ws';
import { REGTEST } from '../ts/consensus/params.js';
import { addressOfPrivateKey } from '../ts/core/keys.js';
import { initKernel } from '../ts/kernel/instance.js';
import { LightNode } from '../ts/web/light_node.js';
import { CHROMIUM, openPage } from '../test/helpers/chromium.js';
import { removeDir, startNode } from '../test/helpers/node.js';
import { powChain } from '../test/web/pow_chain.js';

const N = 5_000;

async function until<T>(check: () => Promise<T | null> | T | null, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function benchWeb(): Promise<void> {
  await initKernel();
  const chain = await powChain(N, addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => i + 9)));
  const node = await startNode(['--regtest', '--bind=127.0.0.1:0', '--ws-port=0', '--ws-bind-localhost'], chain.dir);
  try {
    const ws = await until(() => /WebSocket P2P endpoint is (ws:\/\/[\d.]+:\d+)\./.exec(node.output())?.[1] ?? null, 10_000);
    // Node.js: the light node over the `ws` client.
    const t0 = performance.now();
    const light = new LightNode({ network: 'regtest', params: REGTEST, socket: new WebSocket(`${ws}/`, 'binary') as never });
    await until(() => (light.status().verified === N ? true : light.status().error ? Promise.reject(new Error(light.status().error!)) : null), 120_000);
    const nodeRate = N / ((performance.now() - t0) / 1000);
    light.close();
    console.log(`light node in Node.js: ${Math.round(nodeRate)} headers verified/s (${N} regtest headers over WebSocket, PoW included)`);
    if (!CHROMIUM) {
      console.log('light node in headless Chromium: skipped (no chromium; make test installs it)');
      return;
    }
    const page = await openPage(`${node.url}/`);
    try {
      const rate = await until(
        () =>
          page
            .evaluate<{ v: number; r: number; e: string | null } | null>(
              `window.lightNode ? (({ verified: v, headersPerSecond: r, error: e }) => ({ v, r, e }))(window.lightNode.status()) : null`,
            )
            .then((s) => (s && s.e ? Promise.reject(new Error(s.e)) : s && s.v === N ? s.r : null)),
        180_000,
      );
      console.log(`light node in headless Chromium (the page at /): ${rate} headers verified/s; Chromium ÷ Node.js = ${(rate / nodeRate).toFixed(2)}`);
    } finally {
      await page.close();
    }
  } finally {
    await node.stop();
    await removeDir(chain.dir);
  }
}
