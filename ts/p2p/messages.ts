// Message payload codecs (p2p.md §2.4). Pure: `encodeMessage` gives the type code and payload for
// framing.ts, `decodeMessage` parses a checked frame and must consume all of it. Running out of
// bytes or leftover bytes is EMSGINTEGRITY (no ban); field-level errors carry their own codes.
import { Reader, Writer } from '../core/bytes.js';
import { NodeError, fail } from '../core/errors.js';
import { HEADER_SIZE } from '../core/header.js';
import type { TransactionId } from '../core/transaction.js';
import {
  readGrid,
  readPeerAddress,
  readPriority,
  readSnapshot,
  readTxId,
  readTxidWithFee,
  readVector16,
  readWorksum,
  writeGrid,
  writePeerAddress,
  writePriority,
  writeSnapshot,
  writeTxId,
  writeTxidWithFee,
  writeVector16,
  writeWorksum,
  type PeerAddress,
  type Priority,
  type SignedSnapshot,
  type TxidWithFee,
} from './elements.js';
import { BATCH_SIZE, LIMIT, MSG, RTC_FIRST, RTC_LAST } from './protocol.js';
import { readTransaction, readTransactionBody, writeTransaction, writeTransactionBody, type WireTransaction } from './tx_message.js';

export interface InitMsg {
  kind: 'Init';
  /** Sent as InitV3 (30, with flags) or InitV1 (0). */
  v3: boolean;
  descriptor: number;
  priority: Priority;
  length: number;
  worksum: bigint;
  grid: Uint8Array[];
  /** InitV3 flags (bit 0: WebRTC); null for an InitV1 without the trailing byte (§8 item 1). */
  flags: number | null;
}
export interface ForkMsg {
  kind: 'Fork';
  descriptor: number;
  length: number;
  worksum: bigint;
  forkHeight: number;
  grid: Uint8Array[];
}
export interface AppendMsg {
  kind: 'Append';
  length: number;
  worksum: bigint;
  grid: Uint8Array[];
}
export interface RollbackMsg {
  kind: 'SignedPinRollback';
  snapshot: SignedSnapshot;
  length: number;
  worksum: bigint;
  descriptor: number;
}
export interface PingMsg {
  kind: 'Ping';
  v2: boolean;
  nonce: number;
  priority: Priority;
  maxAddresses: number;
  maxTransactions: number;
  ndiscard: number;
}
export interface PongMsg {
  kind: 'Pong';
  v2: boolean;
  nonce: number;
  addresses: PeerAddress[];
  txids: TxidWithFee[];
}
export interface BatchreqMsg {
  kind: 'Batchreq';
  nonce: number;
  descriptor: number;
  start: number;
  count: number;
}
export interface BatchrepMsg {
  kind: 'Batchrep';
  nonce: number;
  headers: Uint8Array[];
}
export interface ProbereqMsg {
  kind: 'Probereq';
  nonce: number;
  descriptor: number;
  height: number;
}
export interface ProberepMsg {
  kind: 'Proberep';
  nonce: number;
  descriptor: number;
  requested: Uint8Array | null;
  current: Uint8Array | null;
}
export interface BlockreqMsg {
  kind: 'Blockreq';
  nonce: number;
  first: number;
  last: number;
  descriptor: number;
}
/**
 * `bodies`: the length-prefixed bodies (§2.4), null when the payload is not in that form; `raw`: the
 * payload after the nonce, for a reply whose bodies lack their prefixes (§8 item 2, blockrep_bodies.ts).
 */
export interface BlockrepMsg {
  kind: 'Blockrep';
  nonce: number;
  bodies: Uint8Array[] | null;
  raw?: Uint8Array;
}
export interface TxnotifyMsg {
  kind: 'Txnotify';
  nonce: number;
  txids: TxidWithFee[];
}
export interface TxreqMsg {
  kind: 'Txreq';
  nonce: number;
  ids: TransactionId[];
}
export interface TxrepMsg {
  kind: 'Txrep';
  legacy: boolean;
  nonce: number;
  txs: (WireTransaction | null)[];
}
export interface LeaderMsg {
  kind: 'Leader';
  snapshot: SignedSnapshot;
}

export type Message =
  | InitMsg
  | ForkMsg
  | AppendMsg
  | RollbackMsg
  | PingMsg
  | PongMsg
  | BatchreqMsg
  | BatchrepMsg
  | ProbereqMsg
  | ProberepMsg
  | BlockreqMsg
  | BlockrepMsg
  | TxnotifyMsg
  | TxreqMsg
  | TxrepMsg
  | LeaderMsg;

export type Request = BatchreqMsg | ProbereqMsg | BlockreqMsg;
export type Reply = BatchrepMsg | ProberepMsg | BlockrepMsg;

function grid(w: Writer, g: Uint8Array[]): Writer {
  writeGrid(w, g);
  return w;
}

export function encodeMessage(m: Message): { type: number; payload: Uint8Array } {
  const w = new Writer(64);
  let type: number;
  switch (m.kind) {
    case 'Init': {
      type = m.v3 ? MSG.InitV3 : MSG.InitV1;
      w.u32(m.descriptor);
      writePriority(w, m.priority);
      w.u32(m.length);
      writeWorksum(w, m.worksum);
      w.u32(m.grid.length * HEADER_SIZE);
      writeGrid(w, m.grid);
      if (m.v3 || m.flags !== null) w.u8(m.flags ?? 0);
      break;
    }
    case 'Fork':
      type = MSG.Fork;
      w.u32(m.descriptor).u32(m.length);
      writeWorksum(w, m.worksum);
      grid(w.u32(m.forkHeight), m.grid);
      break;
    case 'Append':
      type = MSG.Append;
      w.u32(m.length);
      writeWorksum(w, m.worksum);
      grid(w, m.grid);
      break;
    case 'SignedPinRollback':
      type = MSG.SignedPinRollback;
      writeSnapshot(w, m.snapshot);
      w.u32(m.length);
      writeWorksum(w, m.worksum);
      w.u32(m.descriptor);
      break;
    case 'Ping':
      type = m.v2 ? MSG.PingV2 : MSG.Ping;
      w.u32(m.nonce);
      writePriority(w, m.priority);
      w.u16(m.maxAddresses).u16(m.maxTransactions);
      if (m.v2) w.u32(m.ndiscard);
      break;
    case 'Pong':
      type = m.v2 ? MSG.PongV2 : MSG.Pong;
      w.u32(m.nonce);
      writeVector16(w, m.addresses, writePeerAddress);
      writeVector16(w, m.txids, writeTxidWithFee);
      break;
    case 'Batchreq':
      type = MSG.Batchreq;
      w.u32(m.nonce).u32(m.descriptor).u32(m.start).u16(m.count);
      break;
    case 'Batchrep':
      type = MSG.Batchrep;
      grid(w.u32(m.nonce), m.headers);
      break;
    case 'Probereq':
      type = MSG.Probereq;
      w.u32(m.nonce).u32(m.descriptor).u32(m.height);
      break;
    case 'Proberep':
      type = MSG.Proberep;
      w.u32(m.nonce)
        .u32(m.descriptor)
        .u8((m.requested ? 1 : 0) | (m.current ? 2 : 0));
      if (m.requested) w.bytes(m.requested, HEADER_SIZE);
      if (m.current) w.bytes(m.current, HEADER_SIZE);
      break;
    case 'Blockreq':
      type = MSG.Blockreq;
      w.u32(m.nonce).u32(m.first).u32(m.last).u32(m.descriptor);
      break;
    case 'Blockrep':
      type = MSG.Blockrep;
      w.u32(m.nonce);
      if (!m.bodies) fail('EBUG', 'a Blockrep without bodies');
      for (const b of m.bodies!) w.u32(b.length).bytes(b); // with the length prefix (§8 item 2)
      break;
    case 'Txnotify':
      type = MSG.Txnotify;
      w.u32(m.nonce);
      writeVector16(w, m.txids, writeTxidWithFee);
      break;
    case 'Txreq':
      type = MSG.Txreq;
      w.u32(m.nonce);
      for (const id of m.ids) writeTxId(w, id);
      break;
    case 'Txrep':
      // LegacyTxrep (15) carries coin transfers without the type indicator (mainnet.md §5.2, §8 #1).
      type = m.legacy ? MSG.LegacyTxrep : MSG.Txrep;
      w.u32(m.nonce);
      for (const t of m.txs) {
        w.u8(t ? 1 : 0);
        if (t && m.legacy && t.payload.type !== 'coinTransfer') fail('EBUG', `${t.payload.type} in a LegacyTxrep`);
        if (t) (m.legacy ? writeTransactionBody : writeTransaction)(w, t);
      }
      break;
    case 'Leader':
      type = MSG.Leader;
      writeSnapshot(w, m.snapshot);
      break;
  }
  return { type, payload: w.finish() };
}

function decode(type: number, r: Reader): Message {
  switch (type) {
    case MSG.InitV1:
    case MSG.InitV3: {
      const descriptor = r.u32();
      const priority = readPriority(r);
      const length = r.u32();
      const worksum = readWorksum(r);
      const g = readGrid(r, r.u32());
      const v3 = type === MSG.InitV3;
      // InitV3 carries the flags byte; an InitV1 may carry it too (the reference's InitV3 bug, §8 item 1).
      const flags = v3 || r.remaining === 1 ? r.u8() : null;
      return { kind: 'Init', v3, descriptor, priority, length, worksum, grid: g, flags };
    }
    case MSG.Fork: {
      const descriptor = r.u32(),
        length = r.u32(),
        worksum = readWorksum(r),
        forkHeight = r.u32();
      return { kind: 'Fork', descriptor, length, worksum, forkHeight, grid: readGrid(r, r.remaining) };
    }
    case MSG.Append: {
      const length = r.u32(),
        worksum = readWorksum(r);
      return { kind: 'Append', length, worksum, grid: readGrid(r, r.remaining) };
    }
    case MSG.SignedPinRollback:
      return { kind: 'SignedPinRollback', snapshot: readSnapshot(r), length: r.u32(), worksum: readWorksum(r), descriptor: r.u32() };
    case MSG.Ping:
    case MSG.PingV2: {
      const v2 = type === MSG.PingV2;
      const nonce = r.u32(),
        priority = readPriority(r),
        maxAddresses = r.u16(),
        maxTransactions = r.u16();
      return { kind: 'Ping', v2, nonce, priority, maxAddresses, maxTransactions, ndiscard: v2 ? r.u32() : 0 };
    }
    case MSG.Pong:
    case MSG.PongV2: {
      const nonce = r.u32();
      const addresses = readVector16(r, 6, readPeerAddress);
      return { kind: 'Pong', v2: type === MSG.PongV2, nonce, addresses, txids: readVector16(r, 18, readTxidWithFee) };
    }
    case MSG.Batchreq: {
      const nonce = r.u32(),
        descriptor = r.u32(),
        start = r.u32(),
        count = r.u16();
      if (start === 0) fail('EBATCHHEIGHT');
      if (count === 0 || count > BATCH_SIZE) fail('EBLOCKRANGE', `batch count ${count}`);
      return { kind: 'Batchreq', nonce, descriptor, start, count };
    }
    case MSG.Batchrep: {
      const nonce = r.u32();
      if (r.remaining % HEADER_SIZE !== 0) fail('EINV_HEADERVEC', `${r.remaining} header bytes`);
      if (r.remaining / HEADER_SIZE > BATCH_SIZE) fail('EBATCHSIZE', `${r.remaining / HEADER_SIZE} headers`);
      return { kind: 'Batchrep', nonce, headers: readGrid(r, r.remaining) };
    }
    case MSG.Probereq: {
      const nonce = r.u32(),
        descriptor = r.u32(),
        height = r.u32();
      if (height === 0) fail('EPROBEHEIGHT');
      return { kind: 'Probereq', nonce, descriptor, height };
    }
    case MSG.Proberep: {
      const nonce = r.u32(),
        descriptor = r.u32(),
        flags = r.u8();
      if (flags > 3) fail('EINV_PROBE', `flags ${flags}`);
      const requested = flags & 1 ? r.bytes(HEADER_SIZE) : null;
      const current = flags & 2 ? r.bytes(HEADER_SIZE) : null;
      return { kind: 'Proberep', nonce, descriptor, requested, current };
    }
    case MSG.Blockreq: {
      const nonce = r.u32(),
        first = r.u32(),
        last = r.u32(),
        descriptor = r.u32();
      if (first === 0 || last < first || last - first + 1 > LIMIT.maxBlockRange) fail('EBLOCKRANGE', `blocks ${first}..${last}`);
      return { kind: 'Blockreq', nonce, first, last, descriptor };
    }
    case MSG.Blockrep: {
      const nonce = r.u32();
      const raw = r.bytes(r.remaining);
      return { kind: 'Blockrep', nonce, bodies: prefixedBodies(raw), raw };
    }
    case MSG.Txnotify:
      return { kind: 'Txnotify', nonce: r.u32(), txids: readVector16(r, 18, readTxidWithFee) };
    case MSG.Txreq: {
      const nonce = r.u32();
      if (r.remaining % 16 !== 0) fail('EMSGINTEGRITY0', 'Txreq ids');
      if (r.remaining / 16 > LIMIT.maxTxIds) fail('EINV_TXREQ', `${r.remaining / 16} ids`);
      const ids: TransactionId[] = [];
      while (r.remaining > 0) ids.push(readTxId(r));
      return { kind: 'Txreq', nonce, ids };
    }
    case MSG.Txrep:
    case MSG.LegacyTxrep: {
      const legacy = type === MSG.LegacyTxrep;
      const nonce = r.u32();
      const txs: (WireTransaction | null)[] = [];
      while (r.remaining > 0) {
        if (txs.length === LIMIT.maxTxIds) fail('EINV_TXREP', 'more than 5000 entries');
        txs.push(r.u8() === 0 ? null : legacy ? readTransactionBody(r, 'coinTransfer') : readTransaction(r));
      }
      return { kind: 'Txrep', legacy, nonce, txs };
    }
    case MSG.Leader:
      return { kind: 'Leader', snapshot: readSnapshot(r) };
  }
  if (type >= RTC_FIRST && type <= RTC_LAST) fail('ERTCDISABLED', `message type ${type}`);
  return fail('EMSGTYPE', `type ${type}`);
}

/** Length-prefixed bodies whose lengths add up exactly to `raw`; null otherwise. */
function prefixedBodies(raw: Uint8Array): Uint8Array[] | null {
  const bodies: Uint8Array[] = [];
  for (let o = 0; o < raw.length; ) {
    if (raw.length - o < 4) return null;
    const n = new DataView(raw.buffer, raw.byteOffset + o, 4).getUint32(0);
    if (n > raw.length - o - 4) return null;
    bodies.push(raw.subarray(o + 4, o + 4 + n));
    o += 4 + n;
  }
  return bodies;
}

/** Parses the payload of a frame of `type`; throws NodeError. */
export function decodeMessage(type: number, payload: Uint8Array): Message {
  const r = new Reader(payload);
  try {
    const m = decode(type, r);
    r.end();
    return m;
  } catch (e) {
    if (e instanceof NodeError && (e.errorName === 'EINV_BODY' || e.errorName === 'EEXCESSBYTES')) fail('EMSGINTEGRITY0', e.message);
    throw e;
  }
}

export function isRequest(m: Message): m is Request {
  return m.kind === 'Batchreq' || m.kind === 'Probereq' || m.kind === 'Blockreq';
}

export function isReply(m: Message): m is Reply {
  return m.kind === 'Batchrep' || m.kind === 'Proberep' || m.kind === 'Blockrep';
}

/** The reply kind a request is answered with. */
export function replyKind(r: Request['kind']): Reply['kind'] {
  return r === 'Batchreq' ? 'Batchrep' : r === 'Probereq' ? 'Proberep' : 'Blockrep';
}
