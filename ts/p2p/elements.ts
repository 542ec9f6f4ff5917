// Common wire elements (p2p.md §2.1): worksum, grid, priority, signed snapshot, TCP address,
// transaction id with fee. Pure codecs over the big-endian Reader/Writer.
import { Reader, Writer } from '../core/bytes.js';
import { fail } from '../core/errors.js';
import { HEADER_SIZE } from '../core/header.js';
import type { TransactionId } from '../core/transaction.js';

/** Worksum: a 256-bit value as eight u32 words, least-significant word first, each big-endian. */
export function writeWorksum(w: Writer, v: bigint): void {
  for (let i = 0; i < 8; i++) w.u32(Number((v >> BigInt(32 * i)) & 0xffffffffn));
}

export function readWorksum(r: Reader): bigint {
  let v = 0n;
  for (let i = 0; i < 8; i++) v |= BigInt(r.u32()) << BigInt(32 * i);
  return v;
}

/** Grid: n·80 bytes, the last header of each complete batch slot. */
export function writeGrid(w: Writer, grid: Uint8Array[]): void {
  for (const h of grid) w.bytes(h, HEADER_SIZE);
}

/** Reads `bytes` bytes of grid; EINV_GRID unless a multiple of 80. */
export function readGrid(r: Reader, bytes: number): Uint8Array[] {
  if (bytes % HEADER_SIZE !== 0) fail('EINV_GRID', `${bytes} grid bytes`);
  r.need(bytes);
  return Array.from({ length: bytes / HEADER_SIZE }, () => r.bytes(HEADER_SIZE));
}

// Signed snapshot and its priority: the wire form lives with the consensus rules (consensus.md §5.6).
export { NO_PRIORITY, readSnapshot, writeSnapshot, type Priority, type SignedSnapshot } from '../consensus/signed_snapshot.js';
import type { Priority } from '../consensus/signed_snapshot.js';

export function writePriority(w: Writer, p: Priority): void {
  w.u16(p.importance).u32(p.height);
}
export function readPriority(r: Reader): Priority {
  return { importance: r.u16(), height: r.u32() };
}

/** TCPPeeraddr: IPv4 as u32, port u16. */
export interface PeerAddress {
  ip: string;
  port: number;
}

export function writePeerAddress(w: Writer, a: PeerAddress): void {
  const parts = a.ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) fail('EBUG', `not an IPv4 address: ${a.ip}`);
  w.u8(parts[0]).u8(parts[1]).u8(parts[2]).u8(parts[3]).u16(a.port);
}

export function readPeerAddress(r: Reader): PeerAddress {
  return { ip: [r.u8(), r.u8(), r.u8(), r.u8()].join('.'), port: r.u16() };
}

/** TransactionId (16): accountId u64, pinHeight u32, nonceId u32. */
export function writeTxId(w: Writer, id: TransactionId): void {
  w.u64(id.accountId).u32(id.pinHeight).u32(id.nonceId);
}
export function readTxId(r: Reader): TransactionId {
  return { accountId: r.u64(), pinHeight: r.u32(), nonceId: r.u32() };
}

/** TxidWithFee (18): TransactionId, then the 16-bit compact fee code. */
export interface TxidWithFee {
  id: TransactionId;
  feeCode: number;
}

export function writeTxidWithFee(w: Writer, t: TxidWithFee): void {
  writeTxId(w, t.id);
  w.u16(t.feeCode);
}
export function readTxidWithFee(r: Reader): TxidWithFee {
  return { id: readTxId(r), feeCode: r.u16() };
}

/** Vector16⟨T⟩: u16 count, then the elements. */
export function writeVector16<T>(w: Writer, items: T[], write: (w: Writer, t: T) => void): void {
  w.u16(items.length);
  for (const t of items) write(w, t);
}

export function readVector16<T>(r: Reader, elementSize: number, read: (r: Reader) => T): T[] {
  const n = r.u16();
  r.need(n * elementSize);
  return Array.from({ length: n }, () => read(r));
}
