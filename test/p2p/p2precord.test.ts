// The recording proxy's decoder (scripts/p2precord.mjs) on a connector that sends its Init before
// its ack byte, as 0.8.20 does (ts/p2p/handshake.ts AckStream): the units come out in stream order,
// the Init decoded, the ack where it was. Taking the Init's first byte for the ack had left every
// later unit of 0.8.20 undecoded in the recordings of scripts/mainnet-interop.mjs.
import { describe, expect, it } from 'vitest';
import { transcript } from '../../scripts/p2precord.mjs';
import { initKernel } from '../../ts/kernel/instance.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import { encodeMessage } from '../../ts/p2p/messages.js';
import { acceptorReply, connectorHello } from '../../ts/p2p/handshake.js';

await initKernel();

const frame = (length: number) => {
  const { type, payload } = encodeMessage({
    kind: 'Init',
    v3: false,
    descriptor: 0,
    priority: { importance: 0, height: 0 },
    length,
    worksum: BigInt(length),
    grid: [],
    flags: null,
  });
  return Buffer.from(encodeFrame(type, payload));
};
const hello = Buffer.from(connectorHello('regtest-mainnet', 0x00000814, 9486));
const reply = Buffer.from(acceptorReply('regtest-mainnet', 0x00000a03));
const ack = Buffer.from([0]);

describe('the recording proxy decodes a connector stream', () => {
  for (const [label, order, names] of [
    ['ack, then Init', [hello, ack, frame(7)], ['Handshake (connector, 24 bytes)', 'HandshakeAck (1 byte)', 'InitV1']],
    ['Init before the ack (0.8.20)', [hello, frame(7), ack], ['Handshake (connector, 24 bytes)', 'InitV1', 'HandshakeAck (1 byte)']],
    [
      'two frames before the ack',
      [hello, frame(7), frame(8), ack, frame(9)],
      ['Handshake (connector, 24 bytes)', 'InitV1', 'InitV1', 'HandshakeAck (1 byte)', 'InitV1'],
    ],
  ] as const) {
    it(label, () => {
      const stream = Buffer.concat([...order]);
      const t = transcript({
        connector: 'ref',
        acceptor: 'ours',
        chunks: [
          { from: 'c', t: 1, data: stream.subarray(0, 24) },
          { from: 'a', t: 2, data: reply },
          { from: 'c', t: 3, data: stream.subarray(24) },
        ],
        events: [],
      });
      const units = t.messages.filter((m) => m.dir === 'ref→ours');
      expect(units.map((u) => u.type.name)).toEqual(names);
      expect(units.map((u) => u.hex).join('')).toBe(stream.toString('hex'));
      expect(units.filter((u) => u.type.code === 0).map((u) => u.decoded.length)).toEqual(names.length === 5 ? [7, 8, 9] : [7]);
    });
  }
});
