// Headless Chromium for the explorer walkthrough (launchChromium of test/helpers/chromium.ts), with
// what a walkthrough needs beyond the plain page: a viewport of a given width (a phone's 390 px),
// full-page screenshots at that width, and waiting for a condition in the page.
import { launchChromium, savePng } from '../helpers/chromium.js';

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
  const { call, evaluate, close } = await launchChromium(url, ['--disable-quic', '--hide-scrollbars', '--window-size=1280,900']);
  let size = { width: 1280, height: 900, mobile: false };
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
      savePng(path, r.data);
    },
    close,
  };
}
