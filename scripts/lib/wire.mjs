// The Warthog P2P wire (shared/spec/p2p.md; 0.8 differences: shared/spec/mainnet.md §5) as the scripts read
// it: message names by code, the payload decoder, frame checksums and the grunt handshake's parts. One copy
// for the recording proxy (scripts/p2precord.mjs) and the pcap decoder (scripts/p2pdecode.mjs).
import { createHash } from 'node:crypto';

export const NAMES = {
  0: 'InitV1',
  1: 'Fork',
  2: 'Append',
  3: 'SignedPinRollback',
  4: 'Ping',
  5: 'Pong',
  6: 'Batchreq',
  7: 'Batchrep',
  8: 'Probereq',
  9: 'Proberep',
  10: 'Blockreq',
  11: 'Blockrep',
  12: 'type12',
  13: 'Txnotify',
  14: 'Txreq',
  15: 'LegacyTxrep',
  16: 'Leader',
  18: 'RTCIdentity',
  19: 'RTCQuota',
  20: 'RTCSignalingList',
  21: 'RTCRequestForwardOffer',
  22: 'RTCForwardedOffer',
  23: 'RTCRequestForwardAnswer',
  24: 'RTCForwardOfferDenied',
  25: 'RTCForwardedAnswer',
  26: 'RTCVerificationOffer',
  27: 'RTCVerificationAnswer',
  28: 'PingV2',
  29: 'PongV2',
  30: 'InitV3',
  31: 'Txrep',
};

export const hx = (b) => Buffer.from(b).toString('hex');
const worksum = (b, o) => {
  let w = 0n;
  for (let i = 7; i >= 0; i--) w = (w << 32n) | BigInt(b.readUInt32BE(o + 4 * i));
  return '0x' + w.toString(16);
};
const prio = (b, o) => ({ importance: b.readUInt16BE(o), height: b.readUInt32BE(o + 2) });
const txid = (b, o) => ({ accountId: b.readBigUInt64BE(o).toString(), pinHeight: b.readUInt32BE(o + 8), nonceId: b.readUInt32BE(o + 12) });
const header = (b, o) => ({
  prevHash: hx(b.subarray(o, o + 32)),
  target: hx(b.subarray(o + 32, o + 36)),
  merkleRoot: hx(b.subarray(o + 36, o + 68)),
  version: b.readUInt32BE(o + 68),
  timestamp: b.readUInt32BE(o + 72),
  nonce: hx(b.subarray(o + 76, o + 80)),
  hash: hx(
    createHash('sha256')
      .update(
        createHash('sha256')
          .update(b.subarray(o, o + 80))
          .digest(),
      )
      .digest(),
  ),
});
const coinTx114 = (b, o) => ({
  txid: txid(b, o),
  reserved: hx(b.subarray(o + 16, o + 19)),
  compactFee: b.readUInt16BE(o + 19),
  toAddress: hx(b.subarray(o + 21, o + 41)),
  amountE8: b.readBigUInt64BE(o + 41).toString(),
  signature: hx(b.subarray(o + 49, o + 114)),
});

/** Txrep entries other than coin transfers (indicator → kind, message size without the indicator, fields after the 21 common bytes). */
const TX_KINDS = {
  2: {
    kind: 'tokenTransfer',
    size: 147,
    fields: (b, o) => ({
      assetHash: hx(b.subarray(o, o + 32)),
      isLiquidity: b[o + 32],
      toAddress: hx(b.subarray(o + 33, o + 53)),
      amount: b.readBigUInt64BE(o + 53).toString(),
    }),
  },
  3: {
    kind: 'assetCreation',
    size: 100,
    fields: (b, o) => ({
      supply: b.readBigUInt64BE(o).toString(),
      decimals: b[o + 8],
      name: b
        .subarray(o + 9, o + 14)
        .toString('latin1')
        .replace(/\0+$/, ''),
    }),
  },
  4: {
    kind: 'limitSwap',
    size: 130,
    fields: (b, o) => ({
      assetHash: hx(b.subarray(o, o + 32)),
      isBuy: b[o + 32],
      amount: b.readBigUInt64BE(o + 33).toString(),
      limit: hx(b.subarray(o + 41, o + 44)),
    }),
  },
  5: {
    kind: 'liquidityDeposit',
    size: 134,
    fields: (b, o) => ({ assetHash: hx(b.subarray(o, o + 32)), base: b.readBigUInt64BE(o + 32).toString(), quote: b.readBigUInt64BE(o + 40).toString() }),
  },
  6: { kind: 'liquidityWithdrawal', size: 126, fields: (b, o) => ({ assetHash: hx(b.subarray(o, o + 32)), shares: b.readBigUInt64BE(o + 32).toString() }) },
  7: { kind: 'cancelation', size: 94, fields: (b, o) => ({ cancelHeight: b.readUInt32BE(o), cancelNonceId: b.readUInt32BE(o + 4) }) },
};

/**
 * The entries of a Txrep payload (LegacyTxrep, Txrep) after its nonce: a flag byte each (0: no
 * transaction, null), then `entry(o)` → [the decoded entry, its size; null: the rest is undecodable].
 */
function txrepEntries(p, entry) {
  const entries = [];
  let o = 4;
  while (o < p.length) {
    if (!p[o++]) {
      entries.push(null);
      continue;
    }
    const [e, size] = entry(o);
    entries.push(e);
    if (size === null) break;
    o += size;
  }
  return entries;
}

/** Decodes one payload per p2p.md §2.4 (0.8: mainnet.md §5). Unparseable parts are reported, not thrown. */
export function decode(type, p) {
  try {
    switch (type) {
      case 0:
      case 30: {
        const g = p.readUInt32BE(46);
        const d = { descriptor: p.readUInt32BE(0), snapshotPriority: prio(p, 4), length: p.readUInt32BE(10), worksum: worksum(p, 14), gridBytes: g, grid: [] };
        for (let o = 50; o + 80 <= 50 + g; o += 80) d.grid.push(hx(p.subarray(o, o + 80)));
        const rest = p.length - 50 - g;
        if (rest === 1) d.flags = p[50 + g];
        else if (rest) d.trailingBytes = rest;
        return d;
      }
      case 1:
        return {
          descriptor: p.readUInt32BE(0),
          length: p.readUInt32BE(4),
          worksum: worksum(p, 8),
          forkHeight: p.readUInt32BE(40),
          gridEntries: (p.length - 44) / 80,
        };
      case 2:
        return { length: p.readUInt32BE(0), worksum: worksum(p, 4), gridEntries: (p.length - 36) / 80 };
      case 4:
      case 28: {
        const d = { nonce: p.readUInt32BE(0), snapshotPriority: prio(p, 4), maxAddresses: p.readUInt16BE(10), maxTransactions: p.readUInt16BE(12) };
        if (type === 28) d.ndiscard = p.readUInt32BE(14);
        return d;
      }
      case 5:
      case 29: {
        const na = p.readUInt16BE(4);
        const addrs = [];
        for (let i = 0; i < na; i++) {
          const o = 6 + 6 * i;
          addrs.push(`${p[o]}.${p[o + 1]}.${p[o + 2]}.${p[o + 3]}:${p.readUInt16BE(o + 4)}`);
        }
        const to = 6 + 6 * na,
          nt = p.readUInt16BE(to);
        const txids = [];
        for (let i = 0; i < nt; i++) {
          const o = to + 2 + 18 * i;
          txids.push({ ...txid(p, o), compactFee: p.readUInt16BE(o + 16) });
        }
        return { nonce: p.readUInt32BE(0), addresses: addrs, txids };
      }
      case 6:
        return { nonce: p.readUInt32BE(0), descriptor: p.readUInt32BE(4), start: p.readUInt32BE(8), count: p.readUInt16BE(12) };
      case 7: {
        const hs = [];
        for (let o = 4; o + 80 <= p.length; o += 80) hs.push(header(p, o));
        return { nonce: p.readUInt32BE(0), headerCount: (p.length - 4) / 80, headers: hs };
      }
      case 8:
        return { nonce: p.readUInt32BE(0), descriptor: p.readUInt32BE(4), height: p.readUInt32BE(8) };
      case 9: {
        const f = p[8];
        let o = 9;
        const d = { nonce: p.readUInt32BE(0), currentDescriptor: p.readUInt32BE(4), flags: f };
        if (f & 1) {
          d.requested = header(p, o);
          o += 80;
        }
        if (f & 2) {
          d.current = header(p, o);
          o += 80;
        }
        return d;
      }
      case 10:
        return { nonce: p.readUInt32BE(0), first: p.readUInt32BE(4), last: p.readUInt32BE(8), descriptor: p.readUInt32BE(12) };
      case 11: {
        const body = p.subarray(4);
        let o = 0;
        const lens = [];
        let ok = true;
        while (o < body.length) {
          if (o + 4 > body.length) {
            ok = false;
            break;
          }
          const L = body.readUInt32BE(o);
          if (L > 35000 || o + 4 + L > body.length) {
            ok = false;
            break;
          }
          lens.push(L);
          o += 4 + L;
        }
        const d = { nonce: p.readUInt32BE(0), bodyBytes: body.length };
        if (!body.length) d.form = 'empty';
        else if (ok) {
          d.form = 'length-prefixed (p2p.md §2.4)';
          d.bodies = [];
          let q = 0;
          for (const L of lens) {
            d.bodies.push(hx(body.subarray(q + 4, q + 4 + L)));
            q += 4 + L;
          }
        } else {
          d.form = 'NOT length-prefixed: raw bodies concatenated (0.10.3 sender quirk, p2p.md §8)';
          d.firstU32 = body.length >= 4 ? body.readUInt32BE(0) : null;
        }
        return d;
      }
      case 13: {
        const n = p.readUInt16BE(4);
        const ids = [];
        for (let i = 0; i < n && 6 + 18 * (i + 1) <= p.length; i++) {
          const o = 6 + 18 * i;
          ids.push({ ...txid(p, o), compactFee: p.readUInt16BE(o + 16) });
        }
        return { nonce: p.readUInt32BE(0), count: n, txids: ids };
      }
      case 14: {
        const ids = [];
        for (let o = 4; o + 16 <= p.length; o += 16) ids.push(txid(p, o));
        return { nonce: p.readUInt32BE(0), ids };
      }
      case 15:
        return { nonce: p.readUInt32BE(0), entries: txrepEntries(p, (o) => [coinTx114(p, o), 114]) };
      case 31:
        return {
          nonce: p.readUInt32BE(0),
          entries: txrepEntries(p, (o) => {
            const ind = p[o++];
            if (ind === 1) return [{ indicator: 1, kind: 'coinTransfer', ...coinTx114(p, o) }, 115];
            const k = TX_KINDS[ind];
            if (!k || o + k.size > p.length) return [{ indicator: ind, undecoded: hx(p.subarray(o)) }, null];
            const entry = {
              indicator: ind,
              kind: k.kind,
              txid: txid(p, o),
              reserved: hx(p.subarray(o + 16, o + 19)),
              compactFee: p.readUInt16BE(o + 19),
              ...k.fields(p, o + 21),
              signature: hx(p.subarray(o + k.size - 65, o + k.size)),
            };
            return [entry, 1 + k.size];
          }),
        };
      case 16:
        return { snapshotPriority: prio(p, 0) };
      default:
        return { payloadBytes: p.length };
    }
  } catch (e) {
    return { decodeError: e.message };
  }
}

/** The frame at `o` (length field `L`, p2p.md §2.2) carries the right checksum: sha256(type hi, type lo, payload)[0..4]. */
export const frameChecksumOk = (all, o, L) =>
  Buffer.compare(
    createHash('sha256')
      .update(all.subarray(o + 8, o + 8 + L))
      .digest()
      .subarray(0, 4),
    all.subarray(o + 4, o + 8),
  ) === 0;

/** The handshake's common 22 bytes at the start of `all` (p2p.md §2.1): magic 14, version u32, reserved 4. */
export const replyFields = (all) => ({
  magic: all.subarray(0, 14).toString('latin1'),
  version: `0x${all.readUInt32BE(14).toString(16).padStart(8, '0')}`,
  reserved: hx(all.subarray(18, 22)),
});
/** The connector's hello is 24 bytes (the 22 and its listen port u16), the acceptor's reply 22, the ack 1. */
export const HELLO_BYTES = 24;
export const REPLY_BYTES = 22;
export const helloFields = (all) => ({ ...replyFields(all), listenPort: all.readUInt16BE(22) });

/**
 * The frame at `o` of a byte stream (p2p.md §2.2: L u32 = payload + 2, checksum 4, type 2, payload):
 * { end, L, hi, type, payload, checksumOk }, or { error: 'short' | 'bad-length' | 'truncated', L } when no
 * whole frame starts there.
 */
export function frameAt(all, o) {
  if (o + 10 > all.length) return { error: 'short' };
  const L = all.readUInt32BE(o);
  if (L < 2) return { error: 'bad-length', L };
  if (o + 8 + L > all.length) return { error: 'truncated', L, hi: all[o + 8], type: all[o + 9] };
  return { end: o + 8 + L, L, hi: all[o + 8], type: all[o + 9], payload: all.subarray(o + 10, o + 8 + L), checksumOk: frameChecksumOk(all, o, L) };
}
/** A whole frame with a known code and a verified checksum starts at `o`. */
export function verifiedFrameAt(all, o) {
  const f = frameAt(all, o);
  return !f.error && f.hi === 0 && NAMES[f.type] !== undefined && f.checksumOk;
}
/** A message's name by its code (the low type byte). */
export const nameOf = (type) => NAMES[type] ?? `type${type}`;
