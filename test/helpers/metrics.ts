// Reads a node's `/metrics` (Prometheus text exposition format 0.0.4) and checks its form: every
// metric named `wartnode_…` with one HELP and one TYPE line before its samples, every sample line
// `name{labels} value`. Samples are keyed by `name{labels}` as written.
import { expect } from 'vitest';
import { PROMETHEUS_TEXT } from '../../ts/core/metrics.js';

export interface Scrape {
  text: string;
  samples: Map<string, number>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (\S+)$/;

/** Parses and checks an exposition; returns its samples. */
export function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const typed = new Map<string, string>();
  let help: string | null = null;
  for (const line of text.split('\n').slice(0, -1)) {
    const h = /^# HELP (\S+) .+$/.exec(line);
    const t = /^# TYPE (\S+) (counter|gauge|histogram)$/.exec(line);
    if (h) {
      expect(typed.has(h[1]), `${h[1]} described twice`).toBe(false);
      help = h[1];
    } else if (t) {
      expect(t[1], 'TYPE follows its HELP').toBe(help);
      typed.set(t[1], t[2]);
    } else {
      const m = SAMPLE.exec(line);
      expect(m, `sample line ${JSON.stringify(line)}`).not.toBeNull();
      const name = m![1];
      const family = typed.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
      expect(typed.has(family), `${name} has HELP and TYPE`).toBe(true);
      if (family !== name) expect(typed.get(family), `${name} of a histogram`).toBe('histogram');
      expect(family.startsWith('wartnode_')).toBe(true);
      const key = m![1] + (m![2] ?? '');
      expect(samples.has(key), `${key} twice`).toBe(false);
      samples.set(key, m![3] === '+Inf' ? Infinity : Number(m![3]));
    }
  }
  expect(text.endsWith('\n')).toBe(true);
  return samples;
}

/** GET /metrics from `url`: 200, the exposition's media type, a well-formed text. */
export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`);
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  expect(res.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
  return { text, samples: parseMetrics(text) };
}

/** The value of sample `key` (`name{labels}` as written), or undefined. */
export const sample = (s: Scrape, key: string): number | undefined => s.samples.get(key);
