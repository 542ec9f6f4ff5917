// The HTTP edge on raw sockets (issue 12): every request the node can answer gets a JSON body, also
// those the HTTP parser refuses, CONNECT and unknown methods; aborted uploads and broken bodies are
// one debug line each, never a stack trace; error texts quote at most ~100 characters of input.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../ts/api/routes/index.js';
import { MAX_BODY_BYTES } from '../../ts/api/server.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
let port = 0;
beforeAll(async () => {
  node = await startNode(['--regtest', '--debug']);
  port = Number(new URL(node.url).port);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

interface RawReply {
  status: number;
  headers: string;
  body: any;
}

/** Sends `data` on a fresh connection and reads until the node closes it; null when nothing came back. */
function raw(data: string | Buffer, opts: { closeAfterMs?: number } = {}): Promise<RawReply | null> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (d) => chunks.push(d));
    s.on('error', () => {});
    const timer = setTimeout(() => s.destroy(), opts.closeAfterMs ?? 10_000);
    s.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      if (!text) return resolve(null);
      const split = text.indexOf('\r\n\r\n');
      const headers = text.slice(0, split);
      let body = text.slice(split + 4);
      if (/transfer-encoding: chunked/i.test(headers)) {
        let out = '';
        for (let at = 0; ; ) {
          const eol = body.indexOf('\r\n', at);
          const n = parseInt(body.slice(at, eol), 16);
          if (!n) break;
          out += body.slice(eol + 2, eol + 2 + n);
          at = eol + 4 + n;
        }
        body = out;
      }
      try {
        resolve({ status: Number(headers.split(' ')[1]), headers, body: JSON.parse(body) });
      } catch (e) {
        reject(new Error(`not JSON: ${JSON.stringify(text.slice(0, 300))}`));
      }
    });
    s.write(data);
  });
}

/** Sends `data` on a fresh connection; the whole answer as text, once the node closes it. */
function rawText(data: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (d) => chunks.push(d));
    s.on('error', () => {});
    s.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    s.write(data);
  });
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`;

describe('requests the HTTP parser refuses get a JSON error', () => {
  it.each([
    ['a space in the path', get('/chain/he ad'), 400, 94],
    ['a tab in the path', get('/chain/\thead'), 400, 94],
    ['a NUL in the path', get('/chain/\0head'), 400, 94],
    ['a malformed request line', 'HELLO\r\n\r\n', 501, 56],
    ['an unknown method', 'FOO /chain/head HTTP/1.1\r\nHost: x\r\n\r\n', 501, 56],
    ['an oversized header', get('/chain/head', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431, 94],
    ['a header without a colon', 'GET /chain/head HTTP/1.1\r\nHost x\r\n\r\n', 400, 94],
  ])('%s', async (_, request, status, code) => {
    const r = await raw(request);
    expect(r, 'an answer').not.toBe(null);
    expect(r!.status).toBe(status);
    expect(r!.headers).toMatch(/content-type: application\/json/i);
    expect(r!.body).toMatchObject({ code });
    expect(typeof r!.body.error).toBe('string');
  });

  it('CONNECT is answered, not dropped', async () => {
    const r = await raw('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n');
    expect(r!.status).toBe(405);
    expect(r!.body).toEqual({ code: 56, error: "Not found: no route CONNECT '127.0.0.1:80': the node is no proxy" });
  });

  it('an Expect the node does not meet', async () => {
    const r = await raw(get('/chain/head', 'Expect: teapot\r\n'));
    expect(r!.status).toBe(417);
    expect(r!.body).toEqual({ code: 94, error: "Invalid API arguments: unsupported Expect header 'teapot'" });
  });

  it('a method koa sees but no route serves: 404 with code 56', async () => {
    const r = await raw('PROPFIND /chain/head HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(r!.status).toBe(404);
    expect(r!.body.code).toBe(56);
  });

  it('a broken chunked body: JSON code 89', async () => {
    const r = await raw(
      'POST /transaction/add HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n5\r\n{"a":\r\nZZ\r\nxx\r\n',
    );
    expect(r!.status).toBe(400);
    expect(r!.body).toEqual({ code: 89, error: 'Malformed body data: malformed request body (HPE_INVALID_CHUNK_SIZE)' });
  });
});

describe('answers below the routes are JSON too', () => {
  const upgrade = (path: string, protocol: string) =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: ${protocol}\r\n` +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
  it.each([
    ['a WebSocket upgrade on a path that has no stream', upgrade('/chain/head', 'websocket'), 404, 56, /no WebSocket at '\/chain\/head'/],
    ['an upgrade to h2c', upgrade('/chain/head', 'h2c'), 404, 56, /no upgrade to 'h2c'/],
    ['an HTTP/1.1 request without Host', 'GET /chain/head HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 94, /needs a Host header/],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 404, 56, /no route OPTIONS '\*'/],
  ])('%s', async (_, request, status, code, text) => {
    const r = await raw(request);
    expect(r, 'an answer').not.toBe(null);
    expect(r!.status).toBe(status);
    expect(r!.headers).toMatch(/content-type: application\/json/i);
    expect(r!.body.code).toBe(code);
    expect(r!.body.error).toMatch(text);
  });

  it('a preflight on a path stays 204 without a body; HTTP/1.0 needs no Host', async () => {
    const pre = await rawText(
      'OPTIONS /chain/head HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://a.example\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n',
    );
    expect(pre).toMatch(/^HTTP\/1\.1 204 /);
    expect((await raw('GET /chain/head HTTP/1.0\r\n\r\n'))!.body.code).toBe(0);
  });
});

describe('limits that stay', () => {
  it('a body over 1 MiB is refused with 89', async () => {
    const body = `{"x":"${'a'.repeat(MAX_BODY_BYTES)}"}`;
    const r = await raw(
      `POST /transaction/add HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(r!.body.code).toBe(89);
  });

  it('a 10^6-digit number is read as a double and refused by the member check', async () => {
    const body = `{"type":"coinTransfer","pinHeight":${'9'.repeat(1_000_000)},"nonceId":1}`;
    const r = await node.post('/transaction/add', body);
    expect(r.body).toEqual({ code: 72, error: "Invalid height: 'pinHeight' must be an unsigned 32-bit integer" });
  });
});

describe('error texts quote at most ~100 characters of a parameter', () => {
  const LONG = 'x'.repeat(5000);
  it('on every route with a path parameter, and an unknown path', async () => {
    const paths = ROUTES.filter((r) => r.method === 'GET' && r.path.includes(':')).flatMap((r) =>
      [...r.path.matchAll(/:(\w+)/g)].map((m) => r.path.replace(`:${m[1]}`, LONG).replace(/:\w+/g, '1')),
    );
    paths.push(`/no/such/${LONG}`);
    for (const path of paths) {
      const r = await node.get(path);
      if (r.body.code === 0) continue;
      expect(r.body.error.length, `${path.slice(0, 60)}: ${r.body.error.slice(0, 200)}`).toBeLessThanOrEqual(300);
      expect(r.body.error).not.toContain('x'.repeat(101));
    }
  });
});

describe('the log', () => {
  it('aborted uploads are one debug line each, without a stack trace', async () => {
    const before = node.output().length;
    for (let i = 0; i < 10; i++) {
      await raw('POST /transaction/add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":', { closeAfterMs: 50 });
    }
    expect((await node.data('/chain/head')).chainHead.height).toBe(0);
    // The node notices each closed connection on its own time: wait for the ten lines (bounded).
    const lines = () =>
      node
        .output()
        .slice(before)
        .split('\n')
        .filter((l) => l);
    for (let i = 0; i < 100 && lines().length < 10; i++) await new Promise((r) => setTimeout(r, 100));
    expect(lines().length).toBe(10);
    for (const l of lines()) expect(l).toMatch(/^\[[\d-]+ [\d:]+\] \[debug\] HTTP /);
  });

  it('nothing the edge logs is a stack trace or above debug level', () => {
    const out = node.output();
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).not.toMatch(/\[(error|warn)\]/);
    expect(out).toMatch(/\[debug\] HTTP request from 127\.0\.0\.1:\d+ refused: HPE_INVALID_CHUNK_SIZE/);
  });
});
