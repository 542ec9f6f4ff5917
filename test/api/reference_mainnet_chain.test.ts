// The recorded mainnet differential run (test/vectors/reference-0.8.20-mainnet, written by
// `scripts/mainnet-diff.mjs --record`; its README) replayed into a fresh node of ours
// (`--regtest-mainnet --api=0.8`, isolated): the steps in the order they happened live — transfers
// submitted, refusals, questions, each block appended with `POST /chain/append` — and after each
// our answer compared with the reference 0.8.20's recorded one by the live runner's own comparison
// (scripts/lib/mainnet-compare.mjs: exact numbers, keys in any order, templates by shape, its list
// of known reference defects, each a tagged line of docs/reference-differences.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, writeJson } from '../../scripts/lib/exact-json.mjs';
import { DOC, answerText, compareAnswers, locateKnown, type Answer } from '../../scripts/lib/mainnet-compare.mjs';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';

const DIR = join(import.meta.dirname, '../vectors/reference-0.8.20-mainnet');
interface Block {
  height: number;
  header: string;
  body: string;
  minedBy: 'ours' | 'ref';
}
type Ask = { get: string; a: number } | { post: string; body: string; a: number };
type Submit = { submit: string; txHash: string };
type Step = Ask | Submit | { block: number };
const REC = parseJson(readFileSync(join(DIR, 'recording.json'), 'utf8')) as { seed: any; blocks: Block[]; steps: Step[]; answers: any[] };
const num = (v: any) => Number(v?.t ?? v);
const blocks = REC.blocks.map((b) => ({ ...b, height: num(b.height) }));
const steps = REC.steps.map((s: any) => {
  const o: any = { ...s };
  for (const k of ['a', 'block']) if (k in o) o[k] = num(o[k]);
  return o as Step;
});
/** The reference's answer as the live runner saw it. */
const answerOf = (i: number): Answer => {
  const a = REC.answers[i];
  return { status: num(a.s), text: 't' in a ? a.t : writeJson(a.j) };
};

/** The steps by block: those before the first block, then each block with the steps up to the next one. */
const segments: { block: Block | null; steps: (Ask | Submit)[] }[] = [{ block: null, steps: [] }];
for (const s of steps) {
  if ('block' in s) segments.push({ block: blocks[s.block], steps: [] });
  else segments[segments.length - 1].steps.push(s);
}

let node: TestNode;
let height = 0;
beforeAll(async () => {
  node = await startNode(['--regtest-mainnet', '--api=0.8']);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

/** Our answer; status 0 when the node closed the connection without one (as the live runner records it). */
async function ask(method: 'GET' | 'POST', path: string, body?: string): Promise<Answer> {
  try {
    const r = await fetch(node.url + path, { method, body, headers: body === undefined ? {} : { 'content-type': 'application/json' } });
    return { status: r.status, text: await r.text() };
  } catch (e) {
    return { status: 0, text: String((e as { cause?: { code?: string } }).cause?.code ?? e) };
  }
}

describe('the recorded mainnet run (reference 0.8.20) replayed into our node, --regtest-mainnet --api=0.8', () => {
  it('names known defects the document lists, and holds at least 40 blocks and 200 transfers', () => {
    expect(locateKnown(readFileSync(join(import.meta.dirname, '../..', DOC), 'utf8'))).toEqual([]);
    expect(blocks.length).toBeGreaterThanOrEqual(40);
    const transfers = steps.filter((s) => 'submit' in s || ('post' in s && s.post === '/transaction/add' && answerOf(s.a).text.includes('txHash'))).length;
    expect(transfers).toBeGreaterThanOrEqual(200);
  });

  for (const seg of segments) {
    const name = seg.block ? `block ${seg.block.height} (mined by ${seg.block.minedBy === 'ref' ? 'the reference' : 'ours'})` : 'before the first block';
    it(`${name}: our answers equal the reference's`, async () => {
      const diffs: string[] = [];
      if (seg.block) {
        const b = seg.block;
        const r = await ask('POST', '/chain/append', JSON.stringify({ height: b.height, header: b.header, body: b.body }));
        expect(r.text, 'append').toBe('{"code":0,"error":null}');
        height = b.height;
      }
      for (const s of seg.steps) {
        if ('submit' in s) {
          const r = await ask('POST', '/transaction/add', s.submit);
          if (!r.text.includes(`"txHash":"${s.txHash}"`)) diffs.push(`submit ${s.submit}: ${answerText(r)}`);
          continue;
        }
        const [method, path, body] = 'get' in s ? (['GET', s.get, undefined] as const) : (['POST', s.post, s.body] as const);
        const ours = await ask(method, path, body);
        const ref = answerOf(s.a);
        for (const d of compareAnswers(`${method} ${path}`, ours, ref, { height }).diffs)
          diffs.push(
            `${method} ${path}${body !== undefined ? ` ${body.slice(0, 300)}` : ''} ${d.path}\n  ours: ${d.ours.slice(0, 400)}\n  ref:  ${d.ref.slice(0, 400)}`,
          );
      }
      expect(diffs, diffs.slice(0, 20).join('\n')).toEqual([]);
    });
  }
});
