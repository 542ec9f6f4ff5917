// Headless Chromium for the explorer walkthrough, as test/helpers/chromium.ts starts it (the
// DevTools protocol over the `ws` client), with what a walkthrough needs beyond it: a viewport of a
// given width (a phone's 390 px), full-page screenshots at that width, and waiting for a condition
// in the page.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { WebSocket } from 'ws';
import { CHROMIUM } from '../helpers/chromium.js';

export interface Tab {
  /** Evaluates `expression` in the page (awaiting a promise) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy; returns that value. Fails with `what` and the last value after `timeoutMs`. */
  waitFor<T = unknown>(what: string, expression: string, timeoutMs?: number): Promise<T>;
  /** The viewport's CSS width and height (a phone: mobile emulation, touch). */
  viewport(width: number, height: number, mobile?: boolean): Promise<void>;
  /** Saves a PNG of the whole page at the current viewport width. */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens `url` in a new headless Chromium with an empty profile. */
export async function openTab(url: string): Promise<Tab> {
  if (!CHROMIUM) throw new Error('Chromium is required (make test installs Debian chromium)');
  const profile = mkdtempSync(join(tmpdir(), 'wartnode-explorer-'));
  const proc: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      '--window-size=1280,900',
      '--remote-debugging-port=0',
      '--remote-allow-origins=*',
      `--user-data-dir=${profile}`,
      url,
    ],
    { stdio: 'ignore', detached: true },
  );
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const cleanup = async () => {
    // The whole process group: Chromium's helper processes keep writing to the profile otherwise.
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      proc.kill('SIGKILL');
    }
    await exited;
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    const portFile = join(profile, 'DevToolsActivePort');
    for (let i = 0; !existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2; i++) {
      if (i > 600) throw new Error('Chromium did not open its DevTools port');
      await new Promise((r) => setTimeout(r, 100));
    }
    const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
    interface Target {
      type: string;
      webSocketDebuggerUrl: string;
    }
    let target: Target | undefined;
    for (let i = 0; !target; i++) {
      const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Target[];
      target = list.find((t) => t.type === 'page');
      if (!target && i > 300) throw new Error('no page target');
      if (!target) await new Promise((r) => setTimeout(r, 100));
    }
    const ws = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 512 * 1024 * 1024 });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    let nextId = 1;
    const pending = new Map<number, { resolve(v: any): void; reject(e: Error): void }>();
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error.message));
      else p.resolve(m.result);
    });
    const call = (method: string, params: object = {}): Promise<any> =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      });
    let size = { width: 1280, height: 900, mobile: false };
    const evaluate = async <T>(expression: string): Promise<T> => {
      const r = await call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      if (r.exceptionDetails) throw new Error(`page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
      return r.result.value as T;
    };
    const metrics = (height: number) =>
      call('Emulation.setDeviceMetricsOverride', {
        width: size.width,
        height,
        deviceScaleFactor: 1,
        mobile: size.mobile,
        screenWidth: size.width,
        screenHeight: Math.max(height, size.height),
      });
    return {
      evaluate,
      async waitFor<T>(what: string, expression: string, timeoutMs = 60_000): Promise<T> {
        const until = Date.now() + timeoutMs;
        let last: unknown;
        for (;;) {
          last = await evaluate<T>(expression);
          if (last) return last as T;
          if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      async viewport(width: number, height: number, mobile = false): Promise<void> {
        size = { width, height, mobile };
        await metrics(height);
        if (mobile) await call('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
      },
      async screenshot(path: string): Promise<void> {
        // The page's full height at this width, laid out before the capture.
        const height = await evaluate<number>('Math.ceil(document.documentElement.scrollHeight)');
        await metrics(Math.max(height, size.height));
        const r = await call('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false });
        await metrics(size.height);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, Buffer.from(r.data, 'base64'));
      },
      async close(): Promise<void> {
        ws.close();
        await cleanup();
      },
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
