// Helpers of the refusal tables of `--api=0.10` and `--api=0.8` (refusals_0_10.test.ts,
// refusals_0_8.test.ts): a request sent as raw bytes and its answer read as raw bytes (or the
// connection closed without one), and transaction bodies signed on the test chain, then edited.
import { request } from 'node:http';
import { expect } from 'vitest';
import { writeJson } from '../../ts/api/json.js';
import { toHex } from '../../ts/core/hex.js';
import type { TransactionPayload } from '../../ts/core/transaction.js';
import { parseJsonExact } from '../helpers/json.js';
import type { Reply, TestNode } from '../helpers/node.js';
import { requestJson, signRequest, type SignOptions, type TestWallet } from '../helpers/wallet.js';

export interface Req {
  method?: string;
  path: string;
  /** A POST body: a JSON value, or a string sent as it is. */
  body?: unknown;
}

/** What the reference answered: the exact body (HTTP 200), or no answer at all. */
export type Want = string | 'closed';

export interface Case {
  name: string;
  req: () => Req | Promise<Req>;
  want: Want;
  /** Where the expectation comes from: a recording (file and its note) or the reference's source. */
  from: string;
}

/** What these tests need of a node: one they started, or a running reference (externalNode). */
export type AskedNode = Pick<TestNode, 'url' | 'get' | 'post' | 'data'>;

/**
 * A node the test did not start, at `url` (a running reference node, to hold a table against it):
 * requests without our node's answer checks.
 */
export function externalNode(url: string): AskedNode {
  const request = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(url + path, { method, body: body === undefined ? undefined : typeof body === 'string' ? body : writeJson(body) });
    const text = await res.text();
    return { status: res.status, text, body: text ? parseJsonExact(text) : undefined };
  };
  return {
    url,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
    data: async (path) => {
      const r = await request('GET', path);
      if (r.body?.code !== 0) throw new Error(`${path} → ${r.text}`);
      return r.body.data;
    },
  };
}

/** The answer to `r` on a fresh connection: HTTP status and body text, or 'closed'. */
export function ask(node: AskedNode, r: Req): Promise<{ status: number; text: string } | 'closed'> {
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : writeJson(r.body);
  return new Promise((resolve, reject) => {
    const req = request(node.url + r.path, { method: r.method ?? (body === undefined ? 'GET' : 'POST'), agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode!, text }));
      res.on('error', reject);
    });
    req.on('error', (e: Error & { code?: string }) => (e.code === 'ECONNRESET' ? resolve('closed') : reject(e)));
    if (body !== undefined) req.setHeader('Content-Type', 'application/json');
    req.end(body);
  });
}

/**
 * Asserts every case's answer. `compact`: a JSON answer is compared in compact form (a reference
 * that indents its JSON, held against the table).
 */
export async function expectAnswers(node: AskedNode, cases: Case[], compact = false): Promise<void> {
  const wrong: string[] = [];
  for (const c of cases) {
    const r = await c.req();
    const a = await ask(node, r);
    const text = a !== 'closed' && compact && a.text ? writeJson(parseJsonExact(a.text)) : a !== 'closed' ? a.text : '';
    const got = a === 'closed' ? 'closed' : a.status === 200 ? text : `HTTP ${a.status} ${text}`;
    if (got !== c.want)
      wrong.push(`${c.name} (${r.method ?? (r.body === undefined ? 'GET' : 'POST')} ${r.path.slice(0, 90)}): want ${c.want}, got ${got}  [${c.from}]`);
  }
  expect(wrong).toEqual([]);
}

/** Marks a member to leave out of an edited body. */
export const DROP = Symbol('drop');
export type Edit = Record<string, unknown>;

/** A body with members replaced, added or dropped (DROP). */
export function edited(body: Record<string, unknown>, edit: Edit = {}): Record<string, unknown> {
  const out = { ...body };
  for (const [k, v] of Object.entries(edit)) {
    if (v === DROP) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The order n of secp256k1. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The same signature with s replaced by n − s and the recovery id flipped (the high-s twin). */
export function highS(sig: string): string {
  const s = BigInt(`0x${sig.slice(64, 128)}`);
  const recid = parseInt(sig.slice(128), 16) ^ 1;
  return sig.slice(0, 64) + (N - s).toString(16).padStart(64, '0') + recid.toString(16).padStart(2, '0');
}

/** The signature with another recovery id byte. */
export const withRecid = (sig: string, recid: number): string => sig.slice(0, 128) + recid.toString(16).padStart(2, '0');

export interface Signer {
  /** The signed body of a transaction in the contract's names; `o` overrides pin, nonce and fee. */
  sign(w: TestWallet, payload: TransactionPayload, o?: Partial<SignOptions>): Record<string, unknown>;
}

/** Signs on a chain whose pin is `pinHash` at height 0, each body with a new nonce id from `firstNonce`. */
export function signer(pinHash: () => Uint8Array, firstNonce: number, feeCode: number): Signer {
  let nonce = firstNonce;
  return {
    sign: (w, payload, o = {}) => requestJson(signRequest(w.sk, payload, { pinHeight: 0, pinHash: pinHash(), nonceId: nonce++, feeCode, ...o })),
  };
}

export const hex = toHex;

/** 0.01000448, the default minimum fee, as a 16-bit fee code. */
export const FEE_CODE = 0x4fa2;
/** A refusal as the references write it: `{"code":…,"error":…}`. */
export const E = (code: number, text: string): string => JSON.stringify({ code, error: text });
/** POST /transaction/add of `body`. */
export const post = (body: unknown): Req => ({ path: '/transaction/add', body });
/** An address text (48 hex characters) with a wrong checksum: its last character changed. */
export const badChecksumOf = (address: string): string => `${address.slice(0, 47)}${address[47] === '0' ? '1' : '0'}`;
