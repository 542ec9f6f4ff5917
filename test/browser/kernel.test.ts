// The browser bundle of the kernel (dist/browser.js) in headless Chromium: it must compute the
// janushash number of a real mainnet header (consensus.md §11.2) exactly as the node does.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM, HEADLESS } from '../helpers/chromium.js';

const HEADER =
  '05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5';

const PAGE = `<!doctype html><html><body><pre id="out">pending</pre><script type="module">
import { initKernel, janushashNumber, fromHex, sha256d, toHex } from './browser.js';
const out = document.getElementById('out');
try {
  await initKernel();
  const h = fromHex('${HEADER}');
  out.textContent = JSON.stringify({ janushash: janushashNumber(h), hash: toHex(sha256d(h)) });
} catch (e) { out.textContent = 'error: ' + e; }
</script></body></html>`;

let server: Server;
let base: string;
beforeAll(async () => {
  const bundle = readFileSync(join(import.meta.dirname, '../../dist/browser.js'));
  server = createServer((req, res) => {
    if (req.url === '/browser.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(bundle);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

// Asynchronous: the page is served by this same process, so its event loop must keep running.
function runChromium(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(CHROMIUM!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '',
      stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`chromium timed out\n${stderr}`));
    }, 60_000);
    p.on('exit', () => {
      clearTimeout(timer);
      resolve({ stdout, stderr });
    });
  });
}

it('computes the janushash number of a mainnet header in Chromium', async () => {
  expect(CHROMIUM, 'Chromium is required (make test installs Debian chromium)').toBeDefined();
  const profile = mkdtempSync(join(tmpdir(), 'wartnode-chromium-'));
  try {
    const r = await runChromium([
      ...HEADLESS,
      '--disable-quic',
      `--user-data-dir=${profile}`,
      '--virtual-time-budget=20000',
      '--dump-dom',
      `${base}/index.html`,
    ]);
    const m = /<pre id="out">([^<]*)<\/pre>/.exec(r.stdout);
    expect(m, r.stdout + r.stderr).not.toBeNull();
    const result = JSON.parse(m![1].replace(/&quot;/g, '"'));
    expect(result).toEqual({ janushash: 2.554370686684796e-14, hash: '80b200a9ac37d7c41d98ad1cc2d6add8ab50a3905bf52d8347b56955923c28bc' });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
