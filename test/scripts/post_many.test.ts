// scripts/lib/post-many.mjs, the admission client of scripts/apiperf.mjs: every body posted once,
// each answer matched to its body across keep-alive connections (answers cut by Content-Length,
// also when one arrives in pieces or two in one read), and an answer it cannot cut is an error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a script library without types
import { postMany } from '../../scripts/lib/post-many.mjs';

let server: Server | null = null;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  return new Promise((r) => server!.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`)));
}

describe('postMany', () => {
  it('posts each body once and returns the answers in body order', async () => {
    const seen: number[] = [];
    const connections = new Set<unknown>();
    const url = await listen((req, res) => {
      connections.add(req.socket);
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const { i } = JSON.parse(body) as { i: number };
        seen.push(i);
        const text = JSON.stringify({ code: 0, echo: i, pad: 'x'.repeat(i % 7 === 0 ? 70_000 : 10) });
        // Some answers written in two pieces, with the headers first.
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        if (i % 3 === 0) {
          res.write(text.slice(0, 5));
          setImmediate(() => res.end(text.slice(5)));
        } else res.end(text);
      });
    });
    const bodies = Array.from({ length: 200 }, (_, i) => ({ i }));
    const { seconds, answers } = await postMany(url, '/transaction/add', bodies, 8);
    expect(seconds).toBeGreaterThan(0);
    expect(answers.map((a: string) => JSON.parse(a).echo)).toEqual(bodies.map((b) => b.i));
    expect([...seen].sort((a, b) => a - b)).toEqual(bodies.map((b) => b.i));
    expect(connections.size).toBe(8);
  });

  it('fails on an answer without Content-Length', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }); // chunked
      res.end('{"code":0}');
    });
    await expect(postMany(url, '/x', [{}], 1)).rejects.toThrow(/without Content-Length/);
  });
});
