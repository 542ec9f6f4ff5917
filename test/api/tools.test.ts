// /tools/*, /transaction/minfee and /debug/json_schemas against a real node over HTTP.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { removeDir, startNode } from '../helpers/node.js';
import { sharedNode } from '../helpers/shared_node.js';

const vectors = (name: string) => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8'));

const node = sharedNode();

const expectError = async (path: string, code: number) => {
  const r = await node().get(path);
  expect(r.body.code, `${path} → ${r.text}`).toBe(code);
  expect(r.body.error.length).toBeGreaterThan(0);
};

describe('/tools/encode16bit', () => {
  it('rounds to the closest representable fee', async () => {
    const cases: [string, bigint | number, string, number, string][] = [
      // input, rounded E8, rounded str, original E8, bytes
      ['5001', 5000, '0.00005000', 5001, '30e2'],
      ['100010', 100032, '0.00100032', 100010, '421b'],
      ['1000448', 1000448, '0.01000448', 1000448, '4fa2'],
      ['1023', 1023, '0.00001023', 1023, '27fe'],
      ['0', 1, '0.00000001', 0, '0000'],
    ];
    for (const [input, e8, str, orig, bytes] of cases) {
      const r = await node().get(`/tools/encode16bit/from_e8/${input}`);
      expect(r.body).toEqual({ code: 0, data: { original: { str: orig === 0 ? '0' : expect.any(String), E8: orig }, rounded: { str, E8: e8, bytes } } });
    }
  });

  it('keeps uint64 values exact', async () => {
    const r = await node().get('/tools/encode16bit/from_e8/18446744073709551615');
    expect(r.body.data.original.E8).toBe(18446744073709551615n);
    expect(r.body.data.original.str).toBe('184467440737.09551615');
    expect(r.body.data.rounded.bytes).toBe('ffff');
    expect(r.body.data.rounded.E8).toBe(18437736874454810624n);
  });

  it('parses coin amount strings', async () => {
    const r = await node().get('/tools/encode16bit/from_string/0.00005001');
    expect(r.body.data.original).toEqual({ str: '0.00005001', E8: 5001 });
    expect(r.body.data.rounded.E8).toBe(5000);
    expect((await node().get('/tools/encode16bit/from_string/1')).body.data.original.E8).toBe(100000000);
    expect((await node().get('/tools/encode16bit/from_string/.5')).body.data.original.E8).toBe(50000000);
  });

  it('refuses bad input', async () => {
    for (const p of ['abc', '-1', '1.5', '18446744073709551616', '0x10', '%20']) await expectError(`/tools/encode16bit/from_e8/${p}`, 94);
    for (const p of ['abc', '-1', '1.123456789', '1e5', '1.2.3', '%201', '184467440737.09551616']) await expectError(`/tools/encode16bit/from_string/${p}`, 88);
  });
});

describe('/tools/parse_price', () => {
  it('answers every recorded reference case', async () => {
    for (const c of vectors('prices.json').cases) {
      const path = `/tools/parse_price/${c.price}/${c.decimals}`;
      if (c.error) {
        const r = await node().get(path);
        expect(r.body.code, `${path} → ${r.text}`).not.toBe(0);
        continue;
      }
      const r = await node().get(path);
      // Whole-number doubles above 2^53 print without a point; the exact parser reads them as bigint.
      const asDoubles = (p: Record<string, unknown>) => ({ ...p, doubleRaw: Number(p.doubleRaw), doubleAdjusted: Number(p.doubleAdjusted) });
      expect(r.body.code, path).toBe(0);
      expect({ ...r.body.data, floor: asDoubles(r.body.data.floor), ceil: asDoubles(r.body.data.ceil) }, path).toEqual({
        decimals: Number(c.decimals),
        floor: c.floor,
        ceil: c.ceil,
      });
    }
  });

  it('uses the documented codes', async () => {
    await expectError('/tools/parse_price/abc/4', 129);
    await expectError('/tools/parse_price/-1/4', 129);
    // The reference parses with from_chars, which refuses a leading '+' (reference-0.10 README §1).
    await expectError('/tools/parse_price/+1/4', 129);
    await expectError('/tools/parse_price/%2B0.5/4', 129);
    expect((await node().get('/tools/parse_price/1e+2/4')).body.code).toBe(0);
    await expectError('/tools/parse_price/1/abc', 94);
    await expectError('/tools/parse_price/1/19', 196);
  });
});

describe('/tools/wallet', () => {
  it('derives the reference addresses', async () => {
    for (const c of vectors('wallets.json').cases) {
      const path = `/tools/wallet/from_privkey/${c.privKey}`;
      if (c.error) {
        await expectError(path, 70);
        continue;
      }
      const r = await node().get(path);
      expect(r.body.data).toEqual({ address: c.address, privKey: c.privKey.toLowerCase(), pubKey: c.pubKey });
    }
  });

  it('refuses invalid keys', async () => {
    for (const k of ['0'.repeat(64), 'ab', 'x'.repeat(64), '1'.repeat(66)]) await expectError(`/tools/wallet/from_privkey/${k}`, 70);
  });

  it('makes fresh wallets whose address matches the key', async () => {
    const a = (await node().get('/tools/wallet/new')).body.data;
    const b = (await node().get('/tools/wallet/new')).body.data;
    expect(a.privKey).not.toBe(b.privKey);
    expect((await node().get(`/tools/wallet/from_privkey/${a.privKey}`)).body.data).toEqual(a);
  });
});

describe('/tools/janushash_number', () => {
  it('matches the reference for every recorded header', async () => {
    for (const c of vectors('janushash.json').cases) {
      const r = await node().get(`/tools/janushash_number/${c.headerHex}`);
      expect(r.body.data, c.source).toEqual({ janushashNumber: Number(c.janushashNumber) });
    }
  });

  it('returns the mainnet header value of consensus.md §11.2', async () => {
    const h =
      '05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5';
    expect((await node().get(`/tools/janushash_number/${h}`)).body.data.janushashNumber).toBe(2.554370686684796e-14);
    expect((await node().get(`/tools/janushash_number/${h.toUpperCase()}`)).body.data.janushashNumber).toBe(2.554370686684796e-14);
  });

  it('refuses headers that are not 80 bytes of hex', async () => {
    for (const h of ['00', '0'.repeat(158), '0'.repeat(162), 'g'.repeat(160)]) await expectError(`/tools/janushash_number/${h}`, 317);
  });
});

describe('/tools/info', () => {
  it('reports version, database and uptime', async () => {
    const d = (await node().get('/tools/info')).body.data;
    expect(d.version).toMatchObject({ major: 0, minor: 10, patch: 3 });
    expect(d.version.name).toBe(`v0.10.3 "${d.version.commit}"`);
    expect(d.chainDBPath.startsWith(node().dataDir)).toBe(true);
    expect(d.dbSize).toBeGreaterThan(0);
    expect(d.uptime.seconds).toBeGreaterThanOrEqual(0);
    expect(d.uptime.formatted).toMatch(/^\d+d \d+h \d+m \d+s$/);
    expect(Math.abs(d.uptime.since - Date.now() / 1000)).toBeLessThan(120);
  });
});

describe('/transaction/minfee', () => {
  it('defaults to 0.01000448', async () => {
    expect((await node().get('/transaction/minfee')).body.data).toEqual({ minFee: { str: '0.01000448', E8: 1000448, bytes: '4fa2' } });
  });

  it('rounds --minfee up to the 16-bit grid', async () => {
    const other = await startNode(['--regtest', '--minfee=0.00005001']);
    try {
      expect((await other.get('/transaction/minfee')).body.data.minFee).toEqual({ str: '0.00005004', E8: 5004, bytes: '30e3' });
    } finally {
      await other.stop();
      await removeDir(other.dataDir);
    }
  });
});

describe('errors and schemas', () => {
  it('answers unknown routes and methods with a JSON error', async () => {
    const r = await node().get('/no/such/route');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(56);
    const p = await node().post('/tools/info', {});
    expect(p.body.code).toBe(56);
  });

  it('serves the JSON Schemas of every declared response type', async () => {
    const res = await fetch(node().url + '/debug/json_schemas');
    const doc = await res.json();
    for (const name of ['CoinAmount', 'CompactFee', 'Encode16bit', 'Price', 'ParsedPrice', 'NodeInfo', 'Wallet', 'JanushashNumber', 'MinFee']) {
      expect(doc[name], name).toBeTypeOf('object');
    }
    expect(doc.CoinAmount).toEqual({
      type: 'object',
      properties: { str: { type: 'string' }, E8: { type: 'integer', minimum: 0 } },
      required: ['str', 'E8'],
      additionalProperties: false,
    });
    expect(doc.Encode16bit.properties.original).toEqual({ $ref: 'CoinAmount' });
  });
});
