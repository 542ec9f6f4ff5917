// Headless Chromium (Debian `chromium`, installed by `make test`) driven over the DevTools protocol
// with the `ws` client: start it on a page (launchChromium), and the plain page of most tests
// (openPage: evaluate expressions in it, save a screenshot).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { WebSocket } from 'ws';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => spawnSync(p, ['--version']).status === 0);

/** The flags of every headless run: no window, no sandbox (containers), nothing fetched in the background. */
export const HEADLESS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A Chromium started by launchChromium, its first page attached over the DevTools protocol. */
export interface DevTools {
  /** Sends a DevTools protocol command; resolves with its result. */
  call(method: string, params?: object): Promise<any>;
  /** Evaluates `expression` in the page (awaiting a promise) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Stops Chromium and removes its profile. */
  close(): Promise<void>;
}

/** Starts a new headless Chromium on `url` with an empty profile, `flags` beside HEADLESS. */
export async function launchChromium(url: string, flags: string[]): Promise<DevTools> {
  if (!CHROMIUM) throw new Error('Chromium is required (make test installs Debian chromium)');
  const profile = mkdtempSync(join(tmpdir(), 'wartnode-chromium-'));
  const proc: ChildProcess = spawn(
    CHROMIUM,
    [...HEADLESS, ...flags, '--remote-debugging-port=0', '--remote-allow-origins=*', `--user-data-dir=${profile}`, url],
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
    // Full-page screenshots of a long page exceed ws's default 100 MiB message.
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
    return {
      call,
      async evaluate<T>(expression: string): Promise<T> {
        const r = await evaluateAcrossNavigation(call, expression);
        if (r.exceptionDetails) throw new Error(`page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
        return r.result.value as T;
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

/**
 * Chromium answers an evaluation with a protocol error when the page is between documents: the
 * context it ran in was destroyed by a navigation, or the next one does not exist yet. Under load a
 * page's first load (or a reload a test started) can still be under way when the test evaluates, so
 * such an evaluation is run again in the new document, for at most 30 s.
 */
const BETWEEN_DOCUMENTS = /Execution context was destroyed|Cannot find default execution context|Cannot find context with specified id/;

async function evaluateAcrossNavigation(call: DevTools['call'], expression: string): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    } catch (e) {
      if (!BETWEEN_DOCUMENTS.test((e as Error).message) || attempt >= 300) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Saves a PNG answer of Page.captureScreenshot. */
export function savePng(path: string, base64: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.from(base64, 'base64'));
}

export interface Browser {
  /** Evaluates `expression` in the page (awaiting a promise) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Saves a PNG of the page. */
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens `url` in a new headless Chromium. */
export async function openPage(url: string): Promise<Browser> {
  const page = await launchChromium(url, ['--window-size=1200,1400']);
  return {
    evaluate: page.evaluate,
    async screenshot(path: string): Promise<void> {
      const r = await page.call('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
      savePng(path, r.data);
    },
    close: page.close,
  };
}
