// Pure pieces of the RPC layer: the JSON writer, the schema validator, the command line parser.
import { describe, expect, it } from 'vitest';
import { readJson, writeJson } from '../../ts/api/json.js';
import { arr, int, nullable, obj, str, tuple, u64, validate } from '../../ts/api/schema.js';
import { parseArgs } from '../../ts/config.js';
import { formatUnits, parseUnits } from '../../ts/core/amount.js';
import { parseJsonExact } from '../helpers/json.js';

describe('writeJson', () => {
  it('writes bigint as exact numbers and keeps key order', () => {
    expect(writeJson({ b: 18446744073709551615n, a: [1, 'x', null, true], c: { d: 0.1 } })).toBe(
      '{"b":18446744073709551615,"a":[1,"x",null,true],"c":{"d":0.1}}',
    );
    expect(parseJsonExact(writeJson({ v: 2n ** 64n - 1n }))).toEqual({ v: 2n ** 64n - 1n });
  });
});

describe('schema validation', () => {
  const S = obj({ a: u64, b: nullable(str), c: arr(int), t: tuple(int, str) });
  it('accepts matching values and reports mismatches', () => {
    expect(validate(S.schema, { a: 5n, b: null, c: [1], t: [1, 'x'] })).toEqual([]);
    expect(validate(S.schema, { a: -1, b: 1, c: [1.5], t: [1], x: 0 }).length).toBe(5);
  });
});

describe('amount strings', () => {
  it('formats like the reference', () => {
    expect(formatUnits(0n, 8)).toBe('0');
    expect(formatUnits(300000000n, 8)).toBe('3.00000000');
    expect(formatUnits(5n, 8)).toBe('0.00000005');
    expect(formatUnits(124799990n, 4)).toBe('12479.9990');
    expect(formatUnits(123n, 0)).toBe('123');
  });
  it('parses strictly', () => {
    expect(parseUnits('1', 8)).toBe(100000000n);
    expect(parseUnits('5.', 8)).toBe(500000000n);
    expect(parseUnits('.5', 8)).toBe(50000000n);
    for (const bad of ['', '.', '-1', '+1', '1e5', ' 1', '1.123456789', '1.2.3', '123456789012345678901']) expect(parseUnits(bad, 8), bad).toBeNull();
  });
});

describe('parseArgs', () => {
  const env = { HOME: '/home/u' };
  it('applies network defaults', () => {
    expect(parseArgs([], env)).toEqual({
      kind: 'run',
      config: { network: 'mainnet', rpc: { host: '127.0.0.1', port: 3000 }, dataDir: '/home/u/.wartnode', minFeeE8: null, api: 'contract' },
    });
    const t = parseArgs(['--testnet'], env);
    expect(t.kind === 'run' && t.config.rpc.port).toBe(3100);
    const r = parseArgs(['-r', '0.0.0.0:4000', '--regtest', '--minfee', '0.5'], env);
    expect(r).toEqual({
      kind: 'run',
      config: { network: 'regtest', rpc: { host: '0.0.0.0', port: 4000 }, dataDir: '/home/u/.wartnode/regtest', minFeeE8: 50000000n, api: 'contract' },
    });
    const g = parseArgs(['--api=0.8'], env);
    expect(g.kind === 'run' && g.config.api).toBe('0.8');
    expect(parseArgs(['--api=0.9'], env).kind).toBe('error');
  });
  it('reports errors', () => {
    for (const a of [['--x'], ['--rpc=1.2.3.4'], ['-z'], ['--minfee=1,5']]) expect(parseArgs(a, env).kind).toBe('error');
  });
});

describe('readJson', () => {
  it('reads integers of up to 40 characters exactly, longer ones as doubles (as JSON.parse)', () => {
    expect(readJson('1' + '0'.repeat(39))).toBe(10n ** 39n);
    expect(readJson('-' + '9'.repeat(39))).toBe(-(10n ** 39n - 1n));
    expect(readJson('1' + '0'.repeat(40))).toBe(1e40);
    expect(readJson('9'.repeat(1_000_000))).toBe(Infinity);
  });
  it('parses like JSON.parse but keeps large integers exact', () => {
    const text = '{"a":[1,-2.5e3,"x\\u0041\\n",true,false,null],"big":18446744073709551615,"neg":-9007199254740993,"__proto__":{"p":1}}';
    const v = readJson(text) as Record<string, unknown>;
    expect(v.a).toEqual([1, -2500, 'xA\n', true, false, null]);
    expect(v.big).toBe(18446744073709551615n);
    expect(v.neg).toBe(-9007199254740993n);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toContain('__proto__');
    for (const bad of ['', '{', '{"a" 1}', '[1,]', '01', '{"a":1}x', "{'a':1}", '"\\x"', 'tru', '[1 2]', '{1:2}']) {
      expect(() => readJson(bad), bad).toThrow(SyntaxError);
    }
  });
});
