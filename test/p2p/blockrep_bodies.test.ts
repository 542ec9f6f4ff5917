// Blockrep bodies in both forms (p2p.md §8 item 2): the raw concatenation a 0.10.3 reference sent
// (recorded, test/vectors/p2p) is split against the headers; the 0.8.20 reference's length-prefixed
// reply is taken as is; a payload that is neither is refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHeader } from '../../ts/core/header.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { blockrepBodies } from '../../ts/p2p/blockrep_bodies.js';
import { decodeMessage, type BlockrepMsg } from '../../ts/p2p/messages.js';
import { MSG } from '../../ts/p2p/protocol.js';

await initKernel();

interface Msg {
  type: { code: number | null };
  hex: string;
  decoded: { first: number; last: number };
}
function load(name: string) {
  const t = JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/p2p', name), 'utf8'));
  const messages: Msg[] = t.connections[0].messages;
  const req = messages.find((m) => m.type.code === MSG.Blockreq)!.decoded;
  const rep = decodeMessage(MSG.Blockrep, fromHex(messages.find((m) => m.type.code === MSG.Blockrep)!.hex)!.subarray(10)) as BlockrepMsg;
  const blocks: { height: number; header: string; body: string }[] = t.chain.blocks;
  const range = blocks.filter((b) => b.height >= req.first && b.height <= req.last);
  return { req, rep, headers: range.map((b) => parseHeader(fromHex(b.header)!)), bodies: range.map((b) => b.body) };
}

describe('Blockrep bodies', () => {
  it("splits the 0.10.3 reference's bodies sent without length prefixes", () => {
    const { req, rep, headers, bodies } = load('ref-0.10.3-sync-from-ref.json');
    expect(rep.bodies === null || rep.bodies.length !== bodies.length).toBe(true);
    const got = blockrepBodies(REGTEST, rep, req.first, headers);
    expect(got.map((b) => toHex(b.bytes))).toEqual(bodies);
  });

  it("takes the 0.8.20 reference's length-prefixed bodies", () => {
    const { req, rep, headers, bodies } = load('ref-0.8.20-sync-from-ref.json');
    expect(rep.bodies?.length).toBe(bodies.length);
    expect(blockrepBodies(REGTEST, rep, req.first, headers).map((b) => toHex(b.bytes))).toEqual(bodies);
  });

  it('refuses a payload that is neither, or has a body too few', () => {
    const { req, rep, headers } = load('ref-0.10.3-sync-from-ref.json');
    const cut = { ...rep, bodies: null, raw: rep.raw!.subarray(0, rep.raw!.length - 1) };
    expect(() => blockrepBodies(REGTEST, cut, req.first, headers)).toThrow(/length-prefixed/);
    expect(() => blockrepBodies(REGTEST, rep, req.first, [...headers, headers[0]])).toThrow();
  });
});
