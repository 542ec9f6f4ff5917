// The capability table (dialect.ts): what peers of each reference generation understand
// (mainnet.md §5.2, §5.5), and the legacy transaction reply 15 in the layout a 0.8.20 reference sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { capabilitiesOf, decodeVersion } from '../../ts/p2p/dialect.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import { decodeMessage, encodeMessage, type TxrepMsg } from '../../ts/p2p/messages.js';
import { MSG } from '../../ts/p2p/protocol.js';

await initKernel();

const transcript = JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/p2p/ref-0.8.20-txrelay.json'), 'utf8'));

describe('capabilities by handshake version', () => {
  it('0.8.20: codes 0–16 but 12, Init 0, Ping 4, legacy reply, no Txnotify, 30 blocks, 60 s pong', () => {
    const c = capabilitiesOf(decodeVersion(0x000814));
    expect([...c.knows].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16]);
    expect(c).toMatchObject({
      dialect: 'v1',
      initV3: false,
      pingV2: false,
      tokens: false,
      txrep: 'LegacyTxrep',
      txnotify: false,
      maxBlocksPerRequest: 30,
      pongDeadlineMs: 60_000,
      mayLeadSync: true,
    });
  });

  it('0.9.15: InitV3 and PingV2 but no Txrep 31 and no Txnotify', () => {
    const c = capabilitiesOf(decodeVersion(0x00090f));
    expect([28, 29, 30].every((t) => c.knows.has(t))).toBe(true);
    expect(c.knows.has(MSG.Txrep)).toBe(false);
    expect(c).toMatchObject({ dialect: 'newer', initV3: true, pingV2: true, tokens: false, txrep: 'LegacyTxrep', txnotify: false, maxBlocksPerRequest: 30 });
  });

  it('0.10.3: everything we send, Txrep 31 and Txnotify', () => {
    const c = capabilitiesOf(decodeVersion(0x000a03));
    expect([13, 28, 29, 30, 31].every((t) => c.knows.has(t))).toBe(true);
    expect([12, 17, 18, 27].some((t) => c.knows.has(t))).toBe(false); // never sent: we have no WebRTC (p2p.md §1.7)
    expect(c).toMatchObject({ tokens: true, txrep: 'Txrep', txnotify: true, pongDeadlineMs: 120_000 });
  });
});

describe('the legacy transaction reply (code 15, mainnet.md §8 #1)', () => {
  const frame = transcript.connections[0].messages.find((m: { type: { code: number } }) => m.type.code === MSG.LegacyTxrep);
  const bytes = fromHex(frame.hex)!;

  it("re-encodes the 0.8.20 reference's LegacyTxrep byte for byte", () => {
    const m = decodeMessage(MSG.LegacyTxrep, bytes.subarray(10)) as TxrepMsg;
    expect(m.legacy).toBe(true);
    expect(m.txs[0]!.payload.type).toBe('coinTransfer');
    const again = encodeMessage(m);
    expect(toHex(encodeFrame(again.type, again.payload))).toBe(frame.hex);
  });

  it('refuses to put another transaction type into it', () => {
    const m = decodeMessage(MSG.LegacyTxrep, bytes.subarray(10)) as TxrepMsg;
    const t = { ...m.txs[0]!, payload: { type: 'cancelation' as const, cancelHeight: 1, cancelNonceId: 1 } };
    expect(() => encodeMessage({ ...m, txs: [t] })).toThrow(/LegacyTxrep/);
  });
});
