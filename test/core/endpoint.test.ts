import { expect, test } from 'vitest';
import { formatEndpoint, parseEndpoint } from '../../ts/core/endpoint.js';

test('HOST:PORT: IPv4, [IPv6] and localhost everywhere; other names only where a program dials them', () => {
  expect(parseEndpoint('127.0.0.1:3000')).toEqual({ host: '127.0.0.1', port: 3000 });
  expect(parseEndpoint('[::1]:0')).toEqual({ host: '::1', port: 0 });
  expect(parseEndpoint('localhost:9186')).toEqual({ host: 'localhost', port: 9186 });
  expect(parseEndpoint('pool.example:3457')).toBeNull();
  expect(parseEndpoint('pool.example:3457', 'name')).toEqual({ host: 'pool.example', port: 3457 });
  for (const bad of ['nonsense', '127.0.0.1', '127.0.0.1:70000', '300.0.0.1:1', '::1:80', ':80', 'a b:1', '1.2.3:4']) {
    expect(parseEndpoint(bad, 'name'), bad).toBeNull();
  }
});

test('an IPv6 host is written in brackets, so the text parses back', () => {
  for (const e of [
    { host: '::1', port: 80 },
    { host: '10.0.0.1', port: 9186 },
  ])
    expect(parseEndpoint(formatEndpoint(e))).toEqual(e);
});
