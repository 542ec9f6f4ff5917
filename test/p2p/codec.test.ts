// Wire codecs against the layouts of p2p.md: handshake bytes (§1.4), framing and its checks
// (§1.5), the common elements (§2.1), every message we send or parse (§2.4) as golden layouts and
// round trips, and the tolerances of §8 item 1 (Init type 0 with or without the flags byte).
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { Reader, Writer } from '../../ts/core/bytes.js';
import { OUR_VERSION, canLeadSync, dialectOf, encodeVersion, decodeVersion } from '../../ts/p2p/dialect.js';
import { AckStream, Handshake, acceptorReply, connectorHello } from '../../ts/p2p/handshake.js';
import { FrameDecoder, encodeFrame } from '../../ts/p2p/framing.js';
import { readWorksum, writeWorksum } from '../../ts/p2p/elements.js';
import { decodeMessage, encodeMessage, type Message } from '../../ts/p2p/messages.js';
import { MAX_PAYLOAD, MSG } from '../../ts/p2p/protocol.js';
import { TX_MESSAGE_SIZE, type WireTransaction } from '../../ts/p2p/tx_message.js';
import type { TransactionPayload } from '../../ts/core/transaction.js';
import { errorOf } from '../helpers/error_of.js';

await initKernel();

const ascii = (s: string) => toHex(new TextEncoder().encode(s));
const hdr = (fill: number) => new Uint8Array(80).fill(fill);

/** encode → decode gives the message back; returns the payload hex. */
function roundTrip(m: Message): string {
  const { type, payload } = encodeMessage(m);
  expect(decodeMessage(type, payload)).toEqual(m);
  expect(payload.length).toBeLessThanOrEqual(MAX_PAYLOAD.get(type)!);
  return toHex(payload);
}

describe('handshake (§1.4)', () => {
  it('has the documented 24- and 22-byte layouts', () => {
    expect(OUR_VERSION).toBe(0x00000a03);
    expect(toHex(connectorHello('mainnet', OUR_VERSION, 9186))).toBe(ascii('WARTHOG GRUNT?') + '00000a03' + '00000000' + '23e2');
    expect(toHex(acceptorReply('mainnet', OUR_VERSION))).toBe(ascii('WARTHOG GRUNT!') + '00000a03' + '00000000');
    expect(toHex(connectorHello('testnet', OUR_VERSION, 0)).slice(0, 28)).toBe(ascii('TESTNET GRUNT?'));
    expect(toHex(acceptorReply('regtest', OUR_VERSION)).slice(0, 28)).toBe(ascii('REGTEST GRUNT!'));
  });

  it('runs both sides to completion; the ack may arrive together with the first message', () => {
    const connector = new Handshake('mainnet', true, OUR_VERSION, 9186);
    const acceptor = new Handshake('mainnet', false, 0x000a02, 0);
    const hello = connector.start()!;
    const a1 = acceptor.feed(hello.subarray(0, 10));
    expect(a1).toMatchObject({ send: null, done: false });
    const a2 = acceptor.feed(hello.subarray(10));
    expect(a2.send!.length).toBe(22);
    expect(acceptor.peerVersion).toEqual({ major: 0, minor: 10, patch: 3 });
    expect(acceptor.peerListenPort).toBe(9186);
    const c = connector.feed(a2.send!);
    expect(c).toMatchObject({ done: true });
    expect(Array.from(c.send!)).toEqual([0]);
    expect(connector.peerVersion).toEqual({ major: 0, minor: 10, patch: 2 });
    const frame = encodeFrame(MSG.Append, new Uint8Array(36));
    const a3 = acceptor.feed(new Uint8Array([0, ...frame]));
    expect(a3.done).toBe(true);
    expect(toHex(a3.rest)).toBe(toHex(frame));
  });

  it('refuses a wrong magic, another network and surplus bytes (EHANDSHAKE)', () => {
    expect(errorOf(() => new Handshake('mainnet', false, OUR_VERSION, 0).feed(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: x\r\n')))).toBe('EHANDSHAKE');
    expect(errorOf(() => new Handshake('mainnet', false, OUR_VERSION, 0).feed(connectorHello('testnet', OUR_VERSION, 1)))).toBe('EHANDSHAKE');
    expect(errorOf(() => new Handshake('mainnet', false, OUR_VERSION, 0).feed(new Uint8Array([...connectorHello('mainnet', OUR_VERSION, 1), 0])))).toBe(
      'EHANDSHAKE',
    );
    expect(errorOf(() => new Handshake('mainnet', true, OUR_VERSION, 0).feed(new Uint8Array([...acceptorReply('mainnet', OUR_VERSION), 0])))).toBe(
      'EHANDSHAKE',
    );
  });

  // 0.8.20 as connector may write its Init before the ack byte (strace of a live 0.8.20; a59f7ddf
  // src/node/asyncio/connection.cpp:85–90): both orders give the same frames, however the bytes are cut.
  it("the acceptor finds the ack byte before or after the connector's first frames", () => {
    const init = encodeFrame(
      MSG.InitV1,
      encodeMessage({ kind: 'Init', v3: false, descriptor: 0, priority: { importance: 0, height: 0 }, length: 0, worksum: 0n, grid: [], flags: null }).payload,
    );
    const bigInit = encodeFrame(
      MSG.InitV1,
      encodeMessage({
        kind: 'Init',
        v3: false,
        descriptor: 0,
        priority: { importance: 0, height: 0 },
        length: 8_640 * 600,
        worksum: 1n,
        grid: Array.from({ length: 600 }, (_, i) => hdr(i % 251)),
        flags: null,
      }).payload,
    );
    const ping = encodeFrame(
      MSG.Ping,
      encodeMessage({ kind: 'Ping', v2: false, nonce: 7, priority: { importance: 0, height: 0 }, maxAddresses: 5, maxTransactions: 100, ndiscard: 0 }).payload,
    );
    const cat = (...xs: Uint8Array[]) => {
      const o = new Uint8Array(xs.reduce((n, x) => n + x.length, 0));
      let i = 0;
      for (const x of xs) {
        o.set(x, i);
        i += x.length;
      }
      return o;
    };
    const ack = new Uint8Array([0]);
    for (const first of [init, bigInit]) {
      const frames = cat(first, ping, ping);
      for (const stream of [cat(ack, first, ping, ping), cat(first, ack, ping, ping), cat(first, ping, ack, ping)]) {
        for (const cut of [1, 2, 5, 11, first.length, first.length + 1, stream.length]) {
          const a = new AckStream();
          const out = cat(a.push(stream.subarray(0, cut)), a.push(stream.subarray(cut)));
          expect(a.acked).toBe(true);
          expect(toHex(out)).toBe(toHex(frames));
        }
        const a = new AckStream(); // byte by byte
        const out = cat(...Array.from(stream, (x) => a.push(new Uint8Array([x]))));
        expect(toHex(out)).toBe(toHex(frames));
      }
    }
    // What is not a frame after the ack byte goes on to the decoder, which refuses it as before.
    const junk = new AckStream();
    expect(Array.from(junk.push(new Uint8Array([0, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9])))).toEqual([0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(junk.acked).toBe(true);
  });

  it('classifies versions into dialects (§2.6)', () => {
    expect(encodeVersion({ major: 0, minor: 10, patch: 3 })).toBe(0xa03);
    expect(decodeVersion(0x070837)).toEqual({ major: 7, minor: 8, patch: 55 });
    const d = (minor: number, patch: number) => dialectOf({ major: 0, minor, patch });
    expect([d(4, 9), d(6, 30), d(8, 14)]).toEqual(['v1', 'v1', 'v1']);
    expect([d(5, 0), d(7, 54)]).toEqual(['v2', 'v2']);
    expect([d(7, 55), d(9, 1), d(10, 3)]).toEqual(['newer', 'newer', 'newer']);
    expect([
      canLeadSync({ major: 0, minor: 7, patch: 60 }),
      canLeadSync({ major: 0, minor: 6, patch: 21 }),
      canLeadSync({ major: 0, minor: 10, patch: 3 }),
    ]).toEqual([false, true, true]);
  });
});

describe('framing (§1.5)', () => {
  it('writes L = payload + 2, a SHA-256 checksum over the type bytes and payload, high byte 0', () => {
    const payload = fromHex('0102030405')!;
    const f = encodeFrame(MSG.Append, payload);
    expect(toHex(f.subarray(0, 4))).toBe('00000007');
    expect(toHex(f.subarray(4, 8))).toBe(toHex(sha256(fromHex('0002' + '0102030405')!).subarray(0, 4)));
    expect(toHex(f.subarray(8))).toBe('0002' + '0102030405');
  });

  it('reassembles frames from any chunking', () => {
    const frames = [encodeFrame(MSG.Probereq, new Uint8Array(12).fill(7)), encodeFrame(MSG.Append, new Uint8Array(36))];
    const all = new Uint8Array([...frames[0], ...frames[1]]);
    const d = new FrameDecoder();
    const out = [];
    for (const b of all) out.push(...d.push(new Uint8Array([b])));
    expect(out.map((f) => [f.type, f.payload.length])).toEqual([
      [MSG.Probereq, 12],
      [MSG.Append, 36],
    ]);
    expect(new FrameDecoder().push(all).length).toBe(2);
  });

  it('checks type, length (on the header alone) and checksum in that order', () => {
    const withHeader = (L: number, hi: number, type: number) => {
      const h = new Uint8Array(10);
      new DataView(h.buffer).setUint32(0, L);
      h[8] = hi;
      h[9] = type;
      return h;
    };
    expect(errorOf(() => new FrameDecoder().push(withHeader(2, 0, 12)))).toBe('EMSGTYPE');
    expect(errorOf(() => new FrameDecoder().push(withHeader(2, 0, 17)))).toBe('EMSGTYPE');
    expect(errorOf(() => new FrameDecoder().push(withHeader(2, 0, 99)))).toBe('EMSGTYPE');
    expect(errorOf(() => new FrameDecoder().push(withHeader(2, 1, 2)))).toBe('EMSGTYPE');
    expect(errorOf(() => new FrameDecoder().push(withHeader(1, 0, 2)))).toBe('EMSGLEN');
    expect(errorOf(() => new FrameDecoder().push(withHeader(2 + 8040 + 1, 0, MSG.Append)))).toBe('EMSGLEN');
    expect(new FrameDecoder().push(withHeader(2 + 8040, 0, MSG.Append))).toEqual([]); // waits for the payload
    const f = encodeFrame(MSG.Append, new Uint8Array(36));
    f[20] ^= 1;
    expect(errorOf(() => new FrameDecoder().push(f))).toBe('ECHECKSUM');
  });

  it('has the documented maximum payloads (§2.2)', () => {
    expect(MAX_PAYLOAD.get(MSG.Batchrep)).toBe(4 + 8640 * 80);
    expect(MAX_PAYLOAD.get(MSG.Blockrep)).toBe(30 * (4 + 35_000));
    expect(MAX_PAYLOAD.get(MSG.Proberep)).toBe(189); // the reference's maxSize; a full reply has 4 + 4 + 1 + 160
    expect(MAX_PAYLOAD.get(MSG.SignedPinRollback)).toBe(101 + 4 + 32 + 4);
    expect(MAX_PAYLOAD.has(12)).toBe(false);
    expect(MAX_PAYLOAD.has(17)).toBe(false);
  });
});

describe('elements (§2.1)', () => {
  it('writes the worksum as eight big-endian u32 words, least significant first', () => {
    const v = (3n << 224n) | (1n << 32n) | 2n;
    const w = new Writer(32);
    writeWorksum(w, v);
    const bytes = w.finish();
    expect(toHex(bytes)).toBe('00000002' + '00000001' + '00000000'.repeat(5) + '00000003');
    expect(readWorksum(new Reader(bytes))).toBe(v);
  });
});

describe('messages (§2.4)', () => {
  const worksum = (1n << 64n) + 5n;
  const ws = '00000005' + '00000000' + '00000001' + '00000000'.repeat(5);

  it('Init: InitV3 (30) with the flags byte, InitV1 (0) without; type 0 is accepted with it too (§8 item 1)', () => {
    const m: Message = { kind: 'Init', v3: true, descriptor: 7, priority: { importance: 1, height: 2 }, length: 8640, worksum, grid: [hdr(9)], flags: 0 };
    const hex = roundTrip(m);
    expect(hex).toBe('00000007' + '0001' + '00000002' + '000021c0' + ws + '00000050' + toHex(hdr(9)) + '00');
    expect(encodeMessage(m).type).toBe(30);
    const v1 = { ...m, v3: false, flags: null };
    expect(encodeMessage(v1).type).toBe(0);
    expect(roundTrip(v1)).toBe(hex.slice(0, -2));
    expect(decodeMessage(0, fromHex(hex)!)).toMatchObject({ kind: 'Init', v3: false, flags: 0 });
    expect(errorOf(() => decodeMessage(0, fromHex(hex + '00')!))).toBe('EMSGINTEGRITY0');
    expect(errorOf(() => decodeMessage(30, fromHex(hex.slice(0, -2))!))).toBe('EMSGINTEGRITY0');
    const badGrid = '00000007' + '0001' + '00000002' + '000021c0' + ws + '00000051' + toHex(hdr(9)) + '00' + '00';
    expect(errorOf(() => decodeMessage(30, fromHex(badGrid)!))).toBe('EINV_GRID');
  });

  it('Fork, Append and SignedPinRollback', () => {
    expect(roundTrip({ kind: 'Fork', descriptor: 2, length: 9, worksum, forkHeight: 4, grid: [] })).toBe('00000002' + '00000009' + ws + '00000004');
    expect(roundTrip({ kind: 'Append', length: 9, worksum, grid: [hdr(1), hdr(2)] })).toBe('00000009' + ws + toHex(hdr(1)) + toHex(hdr(2)));
    expect(errorOf(() => decodeMessage(MSG.Append, fromHex('00000009' + ws + '00')!))).toBe('EINV_GRID');
    const snapshot = { height: 3, hash: new Uint8Array(32).fill(4), signature: new Uint8Array(65).fill(5) };
    const hex = roundTrip({ kind: 'SignedPinRollback', snapshot, length: 2, worksum, descriptor: 6 });
    expect(hex.length / 2).toBe(141);
    expect(hex.slice(202)).toBe('00000002' + ws + '00000006');
  });

  it('Ping / PingV2 and Pong / PongV2', () => {
    const ping = {
      kind: 'Ping' as const,
      v2: true,
      nonce: 0x01020304,
      priority: { importance: 0, height: 0 },
      maxAddresses: 5,
      maxTransactions: 100,
      ndiscard: 0,
    };
    expect(roundTrip(ping)).toBe('01020304' + '000000000000' + '0005' + '0064' + '00000000');
    expect(encodeMessage(ping).type).toBe(28);
    expect(roundTrip({ ...ping, v2: false })).toBe('01020304' + '000000000000' + '0005' + '0064');
    expect(encodeMessage({ ...ping, v2: false }).type).toBe(4);
    const pong: Message = {
      kind: 'Pong',
      v2: true,
      nonce: 9,
      addresses: [{ ip: '10.0.0.1', port: 9186 }],
      txids: [{ id: { accountId: 3n, pinHeight: 64, nonceId: 5 }, feeCode: 0x4fa2 }],
    };
    expect(roundTrip(pong)).toBe('00000009' + '0001' + '0a000001' + '23e2' + '0001' + '0000000000000003' + '00000040' + '00000005' + '4fa2');
    expect(encodeMessage(pong).type).toBe(29);
  });

  it('Batchreq / Batchrep', () => {
    expect(roundTrip({ kind: 'Batchreq', nonce: 1, descriptor: 2, start: 3, count: 8640 })).toBe('00000001' + '00000002' + '00000003' + '21c0');
    expect(errorOf(() => decodeMessage(MSG.Batchreq, fromHex('00000001' + '00000002' + '00000000' + '0001')!))).toBe('EBATCHHEIGHT');
    expect(errorOf(() => decodeMessage(MSG.Batchreq, fromHex('00000001' + '00000002' + '00000001' + '0000')!))).toBe('EBLOCKRANGE');
    expect(errorOf(() => decodeMessage(MSG.Batchreq, fromHex('00000001' + '00000002' + '00000001' + '21c1')!))).toBe('EBLOCKRANGE');
    expect(roundTrip({ kind: 'Batchrep', nonce: 1, headers: [hdr(3)] })).toBe('00000001' + toHex(hdr(3)));
    expect(errorOf(() => decodeMessage(MSG.Batchrep, fromHex('00000001' + '00')!))).toBe('EINV_HEADERVEC');
  });

  it('Probereq / Proberep with the presence flags', () => {
    expect(roundTrip({ kind: 'Probereq', nonce: 1, descriptor: 2, height: 3 })).toBe('00000001' + '00000002' + '00000003');
    expect(errorOf(() => decodeMessage(MSG.Probereq, fromHex('00000001' + '00000002' + '00000000')!))).toBe('EPROBEHEIGHT');
    expect(roundTrip({ kind: 'Proberep', nonce: 1, descriptor: 2, requested: null, current: hdr(6) })).toBe('00000001' + '00000002' + '02' + toHex(hdr(6)));
    expect(roundTrip({ kind: 'Proberep', nonce: 1, descriptor: 2, requested: hdr(5), current: hdr(6) })).toBe(
      '00000001' + '00000002' + '03' + toHex(hdr(5)) + toHex(hdr(6)),
    );
    expect(roundTrip({ kind: 'Proberep', nonce: 1, descriptor: 2, requested: null, current: null })).toBe('00000001' + '00000002' + '00');
    expect(errorOf(() => decodeMessage(MSG.Proberep, fromHex('00000001' + '00000002' + '04')!))).toBe('EINV_PROBE');
  });

  it('Blockreq (range first, then the descriptor) / Blockrep with a length prefix per body (§8 item 2)', () => {
    expect(roundTrip({ kind: 'Blockreq', nonce: 1, first: 2, last: 31, descriptor: 4 })).toBe('00000001' + '00000002' + '0000001f' + '00000004');
    expect(errorOf(() => decodeMessage(MSG.Blockreq, fromHex('00000001' + '00000003' + '00000002' + '00000004')!))).toBe('EBLOCKRANGE');
    expect(errorOf(() => decodeMessage(MSG.Blockreq, fromHex('00000001' + '00000000' + '00000002' + '00000004')!))).toBe('EBLOCKRANGE');
    const rep = encodeMessage({ kind: 'Blockrep', nonce: 1, bodies: [fromHex('aabb')!, new Uint8Array(0)] });
    expect(toHex(rep.payload)).toBe('00000001' + '00000002aabb' + '00000000');
    expect(decodeMessage(MSG.Blockrep, rep.payload)).toMatchObject({ nonce: 1, bodies: [fromHex('aabb')!, new Uint8Array(0)] });
    // Not length-prefixed: kept raw for the split against the headers (blockrep_bodies.ts).
    expect(decodeMessage(MSG.Blockrep, fromHex('00000001' + '00000003aabb')!)).toMatchObject({ bodies: null, raw: fromHex('00000003aabb') });
  });

  it('Txnotify, Txreq and Txrep with all seven transaction types (§2.1 sizes)', () => {
    const id = { accountId: 0x0102n, pinHeight: 32, nonceId: 9 };
    expect(roundTrip({ kind: 'Txnotify', nonce: 1, txids: [{ id, feeCode: 0x4fa2 }] })).toBe(
      '00000001' + '0001' + '0000000000000102' + '00000020' + '00000009' + '4fa2',
    );
    expect(roundTrip({ kind: 'Txreq', nonce: 1, ids: [id] })).toBe('00000001' + '0000000000000102' + '00000020' + '00000009');
    const asset = new Uint8Array(32).fill(0xa5);
    const to = new Uint8Array(20).fill(0x22);
    const payloads: TransactionPayload[] = [
      { type: 'coinTransfer', toAddress: to, amount: 5n },
      { type: 'tokenTransfer', assetHash: asset, isLiquidity: true, toAddress: to, amount: 6n },
      { type: 'assetCreation', supply: 1000n, precision: 4, name: new TextEncoder().encode('ABC\0\0') },
      { type: 'limitSwap', assetHash: asset, isBuy: false, amount: 7n, limit: fromHex('8000' + '4f')! },
      { type: 'liquidityDeposit', assetHash: asset, base: 8n, quote: 9n },
      { type: 'liquidityWithdrawal', assetHash: asset, shares: 10n },
      { type: 'cancelation', cancelHeight: 32, cancelNonceId: 3 },
    ];
    const txs: WireTransaction[] = payloads.map((payload) => ({
      id,
      reserved: new Uint8Array(3),
      feeCode: 0x4fa2,
      payload,
      signature: new Uint8Array(65).fill(1),
    }));
    const hex = roundTrip({ kind: 'Txrep', legacy: false, nonce: 1, txs: [...txs, null] });
    const total = 4 + payloads.reduce((n, p) => n + 2 + TX_MESSAGE_SIZE[p.type], 0) + 1;
    expect(hex.length / 2).toBe(total);
    expect(Object.values(TX_MESSAGE_SIZE)).toEqual([114, 147, 100, 130, 134, 126, 94]);
    // The coin transfer in full: present, indicator 1, id, 3 reserved, fee, to, amount, signature.
    expect(hex.slice(8, 8 + 2 * 116)).toBe(
      '01' + '01' + '0000000000000102' + '00000020' + '00000009' + '000000' + '4fa2' + toHex(to) + '0000000000000005' + '01'.repeat(65),
    );
    // As the live 0.10.3 reference writes them: the limit price in its 3 body bytes (mantissa,
    // exponent; a 130-byte message), the deposit's base (asset) before its quote (coin).
    const limitTx = toHex(encodeMessage({ kind: 'Txrep', legacy: false, nonce: 0, txs: [txs[3]] }).payload);
    expect(limitTx.slice(8 + 4 + 2 * 21 + 64 + 2 + 16, 8 + 4 + 2 * 21 + 64 + 2 + 16 + 6 + 2 * 65)).toBe('80004f' + '01'.repeat(65));
    const depositTx = toHex(encodeMessage({ kind: 'Txrep', legacy: false, nonce: 0, txs: [txs[4]] }).payload);
    expect(depositTx.slice(8 + 4 + 2 * 21 + 64, 8 + 4 + 2 * 21 + 64 + 32)).toBe('0000000000000008' + '0000000000000009');
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex('00000001' + '01' + '08' + '00'.repeat(114))!))).toBe('ETXTYPE');
    // LegacyTxrep (15): coin transfers without the indicator.
    const legacy = '00000001' + hex.slice(8 + 4, 8 + 2 * 116);
    expect(decodeMessage(MSG.LegacyTxrep, fromHex('00000001' + '01' + legacy.slice(8))!)).toEqual({ kind: 'Txrep', legacy: true, nonce: 1, txs: [txs[0]] });
  });

  it('refuses leftovers, zero amounts, flag bytes above 1 and the WebRTC messages', () => {
    expect(errorOf(() => decodeMessage(MSG.Probereq, fromHex('00000001' + '00000002' + '00000003' + '00')!))).toBe('EMSGINTEGRITY0');
    expect(errorOf(() => decodeMessage(MSG.Probereq, fromHex('00000001')!))).toBe('EMSGINTEGRITY0');
    const coin = (amount: string) => '00000001' + '01' + '01' + '00'.repeat(16) + '000000' + '4fa2' + '22'.repeat(20) + amount + '01'.repeat(65);
    expect(decodeMessage(MSG.Txrep, fromHex(coin('0000000000000001'))!).kind).toBe('Txrep');
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex(coin('0000000000000000'))!))).toBe('EZEROAMOUNT');
    const token =
      '00000001' + '01' + '02' + '00'.repeat(16) + '000000' + '4fa2' + 'a5'.repeat(32) + '02' + '22'.repeat(20) + '0000000000000001' + '01'.repeat(65);
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex(token)!))).toBe('EINVBUY');
    // The reference's parse checks of the exchange messages.
    const head = (indicator: string, pinHeight: string, nonceId: string) =>
      '00000001' + '01' + indicator + '0000000000000007' + pinHeight + nonceId + '000000' + '4fa2';
    const order = (amount: string) => head('04', '00000040', '00000001') + 'a5'.repeat(32) + '01' + amount + '80004f' + '01'.repeat(65);
    expect(decodeMessage(MSG.Txrep, fromHex(order('0000000000000001'))!).kind).toBe('Txrep');
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex(order('0000000000000000'))!))).toBe('EZEROAMOUNT');
    const deposit = (base: string, quote: string) => head('05', '00000040', '00000001') + 'a5'.repeat(32) + base + quote + '01'.repeat(65);
    expect(decodeMessage(MSG.Txrep, fromHex(deposit('0000000000000000', '0000000000000001'))!).kind).toBe('Txrep');
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex(deposit('0000000000000000', '0000000000000000'))!))).toBe('EZEROAMOUNT');
    const withdrawal = head('06', '00000040', '00000001') + 'a5'.repeat(32) + '0000000000000000' + '01'.repeat(65);
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex(withdrawal)!))).toBe('EZEROAMOUNT');
    const cancel = (pinHeight: string, nonceId: string, cancelHeight: string, cancelNonce: string) =>
      head('07', pinHeight, nonceId) + cancelHeight + cancelNonce + '01'.repeat(65);
    expect(decodeMessage(MSG.Txrep, fromHex(cancel('00000040', '00000001', '00000040', '00000002'))!).kind).toBe('Txrep');
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex(cancel('00000040', '00000001', '00000060', '00000002'))!))).toBe('ECANCELFUTURE');
    expect(errorOf(() => decodeMessage(MSG.Txrep, fromHex(cancel('00000040', '00000001', '00000040', '00000001'))!))).toBe('ECANCELSELF');
    expect(errorOf(() => decodeMessage(18, new Uint8Array(4)))).toBe('ERTCDISABLED');
    expect(errorOf(() => decodeMessage(27, new Uint8Array(4)))).toBe('ERTCDISABLED');
    expect(errorOf(() => decodeMessage(MSG.Txreq, fromHex('00000001' + '00'.repeat(16 * 5001))!))).toBe('EINV_TXREQ');
  });
});
