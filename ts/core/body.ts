// Block bodies (consensus.md §6.1–§6.5, §6.7–§6.9) in the three layouts:
//   V1  (mainnet heights < 981,500): 4-byte extra nonce, u32 address count, 2 reserved bytes,
//       u32 transfer count always present;
//   V2  (≥ 981,500, header version 2/3): 10-byte extra nonce, u16 address count, the u32 transfer
//       count may be omitted when the body ends after the reward;
//   V4  (header version 4, and every testnet height): V2 plus cancelations, token sections and
//       asset creations; each count may be omitted only when the body ends before it.
// Strictness (§6.9): V1/V2 follow P (no trailing bytes; amounts and fees above MAX_COIN_SUPPLY
// rejected at parse). V4 follows R/L except that we also refuse bytes after the last section and
// nonzero padding bits of the 10-bit counts: neither is covered by the merkle root, so accepting them
// would let one block have several serializations (our choice, so that serialize(parse(b)) = b).
import { merklePrefix, merkleRootOfPieces } from '../kernel/merkle.js';
import { sha256 } from '../kernel/hash.js';
import { MAX_COIN_SUPPLY } from './amount.js';
import { ADDRESS_BYTES } from './address.js';
import { Annotator, type ParseAnnotation } from './annotation.js';
import { Reader, Writer } from './bytes.js';
import { NodeError, fail } from './errors.js';
import {
  ENTRY_SIZE,
  entryBytes,
  readEntry,
  writeEntry,
  type AssetCreationEntry,
  type AssetTransferEntry,
  type CancelationEntry,
  type CoinTransferEntry,
  type EntryKind,
  type LimitSwapEntry,
  type LiquidityDepositEntry,
  type LiquidityWithdrawalEntry,
  type ShareTransferEntry,
  type SignedEntry,
  type EntryOf,
} from './entry.js';
import { feeE8OfCode } from './transaction.js';

export const MAX_BODY_SIZE = 35_000;

export type BodyLayout = 'V1' | 'V2' | 'V4';

export interface Reward {
  toId: bigint; // u64 account id
  amount: bigint; // E8
}

/** One asset's token section (§6.4): the asset id and five entry vectors, in wire order. */
export interface TokenSection {
  assetId: bigint;
  assetTransfers: AssetTransferEntry[];
  shareTransfers: ShareTransferEntry[];
  limitSwaps: LimitSwapEntry[];
  liquidityDeposits: LiquidityDepositEntry[];
  liquidityWithdrawals: LiquidityWithdrawalEntry[];
}

export interface Body {
  layout: BodyLayout;
  extraNonce: Uint8Array; // 4 bytes (V1) or 10 bytes
  newAddresses: Uint8Array[]; // 20 bytes each
  reserved?: Uint8Array; // V1 only: the 2 reserved bytes (unchecked, outside the merkle root); zeros if omitted
  reward: Reward;
  coinTransfers: CoinTransferEntry[];
  cancelations: CancelationEntry[]; // V4 only
  tokenSections: TokenSection[]; // V4 only
  assetCreations: AssetCreationEntry[]; // V4 only
  /**
   * How many of the optional trailing count fields are present: V2 0–1 (transfers), V4 0–4
   * (transfers, cancelations, token sections, asset creations); V1 always 1. Parsing records it;
   * when omitted, serialization writes the reference generator's choice: V2 omits the transfer
   * count of a body without transfers, V4 writes all four.
   */
  countFields?: number;
}

const EXTRA_NONCE_SIZE: Record<BodyLayout, number> = { V1: 4, V2: 10, V4: 10 };
const MAX_COUNT_FIELDS: Record<BodyLayout, number> = { V1: 1, V2: 1, V4: 4 };
const TEN_BIT_MAX = 1023;
const TEN_BIT_BYTES = 7;

export function extraNonceSize(layout: BodyLayout): number {
  return EXTRA_NONCE_SIZE[layout];
}

export function emptyTokenSection(assetId: bigint): TokenSection {
  return { assetId, assetTransfers: [], shareTransfers: [], limitSwaps: [], liquidityDeposits: [], liquidityWithdrawals: [] };
}

/** The five vectors of a section in wire order with their entry kinds. */
function sectionVectors(s: TokenSection): [EntryKind, SignedEntry[]][] {
  return [
    ['assetTransfer', s.assetTransfers],
    ['shareTransfer', s.shareTransfers],
    ['limitSwap', s.limitSwaps],
    ['liquidityDeposit', s.liquidityDeposits],
    ['liquidityWithdrawal', s.liquidityWithdrawals],
  ];
}

/** How many count fields a body needs at least: up to its last non-empty section. */
function neededCountFields(b: Body): number {
  if (b.layout === 'V1') return 1;
  if (b.assetCreations.length) return 4;
  if (b.tokenSections.length) return 3;
  if (b.cancelations.length) return 2;
  return b.coinTransfers.length ? 1 : 0;
}

function countFieldsOf(b: Body): number {
  if (b.countFields !== undefined) return b.countFields;
  return b.layout === 'V4' ? 4 : b.layout === 'V1' ? 1 : neededCountFields(b);
}

// ---------------------------------------------------------------------------------------------
// Parsing

interface ParsedBody {
  body: Body;
  structure: ParseAnnotation[]; // empty unless annotations were asked for
}

/**
 * Parses a body of the given layout. Malformed or truncated data fails with EINV_BODY (or the
 * field's own code), bytes left over with EEXCESSBYTES. The 35,000-byte limit is the caller's
 * (block_check) since it is checked before parsing.
 */
export function parseBody(bytes: Uint8Array, layout: BodyLayout): Body {
  return parse(bytes, layout, false).body;
}

/** The structure tree of `GET /chain/block/:id/binary`; throws like parseBody. */
export function bodyStructure(bytes: Uint8Array, layout: BodyLayout): ParseAnnotation[] {
  return parse(bytes, layout, true).structure;
}

function parse(bytes: Uint8Array, layout: BodyLayout, annotate: boolean): ParsedBody {
  const r = new Reader(bytes);
  const a = new Annotator(r, annotate);
  const v1 = layout === 'V1';

  const extraNonce = a.mark('extraNonce', () => r.bytes(EXTRA_NONCE_SIZE[layout]));
  const newAddresses = a.mark('newAddresses', () => {
    const n = a.mark('length', () => (v1 ? r.u32() : r.u16()));
    r.need(n * ADDRESS_BYTES);
    return Array.from({ length: n }, () => r.bytes(ADDRESS_BYTES));
  });
  const reserved = v1 ? a.mark('reserved', () => r.bytes(2)) : undefined;
  const reward = a.mark('reward', () => ({
    toId: a.mark('toAccountId', () => r.u64()),
    amount: a.mark('coin', () => r.u64()),
  }));

  // The sections after the reward, each behind a count field; V1 requires its count (P).
  let countFields = 0;
  const section = <T>(tag: string, countBytes: 2 | 4, read: (n: number) => T[]): T[] =>
    a.mark(tag, () => {
      if (!v1 && r.remaining === 0) return [];
      countFields++;
      const n = a.mark('length', () => (countBytes === 4 ? r.u32() : r.u16()));
      return read(n);
    });
  const entries = <K extends EntryKind>(kind: K, n: number): EntryOf<K>[] => {
    r.need(n * ENTRY_SIZE[kind]);
    return Array.from({ length: n }, () => readEntry(kind, r, a));
  };

  const coinTransfers = section('coinTransfer', 4, (n) => entries('coinTransfer', n));
  let cancelations: CancelationEntry[] = [];
  let tokenSections: TokenSection[] = [];
  let assetCreations: AssetCreationEntry[] = [];
  if (layout === 'V4') {
    cancelations = section('cancelation', 2, (n) => entries('cancelation', n));
    tokenSections = section('tokenSections', 2, (n) => {
      r.need(n * (8 + TEN_BIT_BYTES));
      return Array.from({ length: n }, () => a.mark('tokenSection', () => readTokenSection(r, a, entries)));
    });
    assetCreations = section('assetCreation', 2, (n) => entries('assetCreation', n));
  }
  r.end();

  const body: Body = {
    layout,
    extraNonce,
    newAddresses,
    reward,
    coinTransfers,
    cancelations,
    tokenSections,
    assetCreations,
    countFields,
  };
  if (reserved) body.reserved = reserved;
  if (layout !== 'V4') checkCoinAmounts(body);
  return { body, structure: a.roots };
}

/**
 * Where a body of `layout` starting at `offset` of `bytes` may end: after the reward and after each
 * optional count section (§6.1), in increasing order; stops at the first section that does not fit.
 * For splitting bodies concatenated without their length prefixes (p2p.md §8 item 2); each candidate
 * still has to be parsed and checked against its header.
 */
export function bodyEnds(bytes: Uint8Array, offset: number, layout: BodyLayout): number[] {
  const r = new Reader(bytes, offset);
  const ends: number[] = [];
  try {
    r.bytes(EXTRA_NONCE_SIZE[layout]);
    r.bytes((layout === 'V1' ? r.u32() : r.u16()) * ADDRESS_BYTES);
    if (layout === 'V1') r.bytes(2);
    r.bytes(16);
    if (layout !== 'V1') ends.push(r.offset);
    r.bytes(r.u32() * ENTRY_SIZE.coinTransfer);
    ends.push(r.offset);
    if (layout !== 'V4') return ends;
    r.bytes(r.u16() * ENTRY_SIZE.cancelation);
    ends.push(r.offset);
    for (let n = r.u16(); n > 0; n--) {
      r.bytes(8);
      const counts = readTenBitCounts(r);
      const kinds: EntryKind[] = ['assetTransfer', 'shareTransfer', 'limitSwap', 'liquidityDeposit', 'liquidityWithdrawal'];
      kinds.forEach((k, i) => r.bytes(counts[i] * ENTRY_SIZE[k]));
    }
    ends.push(r.offset);
    r.bytes(r.u16() * ENTRY_SIZE.assetCreation);
    ends.push(r.offset);
  } catch (e) {
    if (!(e instanceof NodeError)) throw e; // the rest does not fit: the ends found so far are the candidates
  }
  return ends;
}

function readTokenSection(r: Reader, a: Annotator, entries: <K extends EntryKind>(kind: K, n: number) => EntryOf<K>[]): TokenSection {
  const assetId = a.mark('assetId', () => r.u64());
  const counts = a.mark('tenBitsLengths', () => readTenBitCounts(r));
  return {
    assetId,
    assetTransfers: entries('assetTransfer', counts[0]),
    shareTransfers: entries('shareTransfer', counts[1]),
    limitSwaps: entries('limitSwap', counts[2]),
    liquidityDeposits: entries('liquidityDeposit', counts[3]),
    liquidityWithdrawals: entries('liquidityWithdrawal', counts[4]),
  };
}

/** Five 10-bit counts packed most-significant bit first into 7 bytes; the last 6 bits must be 0. */
function readTenBitCounts(r: Reader): number[] {
  let acc = 0n;
  for (const b of r.bytes(TEN_BIT_BYTES)) acc = (acc << 8n) | BigInt(b);
  if (acc & 0x3fn) fail('EINV_BODY', 'nonzero padding bits after the token-section counts');
  return [0, 1, 2, 3, 4].map((i) => Number((acc >> BigInt(46 - 10 * i)) & 0x3ffn));
}

function writeTenBitCounts(w: Writer, counts: number[]): void {
  let acc = 0n;
  for (const c of counts) {
    if (c > TEN_BIT_MAX) fail('EINV_BODY', `token-section vector of ${c} entries (at most ${TEN_BIT_MAX})`);
    acc = (acc << 10n) | BigInt(c);
  }
  acc <<= 6n;
  for (let i = TEN_BIT_BYTES - 1; i >= 0; i--) w.u8(Number((acc >> BigInt(8 * i)) & 0xffn));
}

/** P's parse-time rule for V1–V3 (§6.9): no amount or decoded fee above MAX_COIN_SUPPLY. */
function checkCoinAmounts(b: Body): void {
  if (b.reward.amount > MAX_COIN_SUPPLY) fail('EINV_FUNDS', 'reward above the maximum supply');
  for (const t of b.coinTransfers) {
    if (t.amount > MAX_COIN_SUPPLY || feeE8OfCode(t.feeCode) > MAX_COIN_SUPPLY) fail('EINV_FUNDS', 'amount or fee above the maximum supply');
  }
}

// ---------------------------------------------------------------------------------------------
// Serialization

export function serializeBody(b: Body): Uint8Array {
  if (b.layout !== 'V4' && (b.cancelations.length || b.tokenSections.length || b.assetCreations.length)) {
    fail('EBLOCKV4', `${b.layout} bodies have no token-era sections`);
  }
  const counts = countFieldsOf(b);
  if (counts > MAX_COUNT_FIELDS[b.layout] || counts < neededCountFields(b)) {
    fail('EINV_BODY', `${counts} count fields cannot hold this ${b.layout} body`);
  }
  const w = new Writer(1024);
  w.bytes(b.extraNonce, EXTRA_NONCE_SIZE[b.layout]);
  if (b.layout === 'V1') w.u32(b.newAddresses.length);
  else w.u16(checkedCount(b.newAddresses.length, 0xffff));
  for (const addr of b.newAddresses) w.bytes(addr, ADDRESS_BYTES);
  if (b.layout === 'V1') w.bytes(b.reserved ?? new Uint8Array(2), 2);
  w.u64(b.reward.toId).u64(b.reward.amount);

  const vectors: [number, SignedEntry[] | TokenSection[]][] = [
    [4, b.coinTransfers],
    [2, b.cancelations],
    [2, b.tokenSections],
    [2, b.assetCreations],
  ];
  for (const [countBytes, list] of vectors.slice(0, counts)) {
    if (countBytes === 4) w.u32(list.length);
    else w.u16(checkedCount(list.length, 0xffff));
    for (const item of list) {
      if ('kind' in item) writeEntry(w, item);
      else writeTokenSection(w, item);
    }
  }
  return w.finish();
}

function checkedCount(n: number, max: number): number {
  if (n > max) fail('EINV_BODY', `${n} entries do not fit a count of at most ${max}`);
  return n;
}

function writeTokenSection(w: Writer, s: TokenSection): void {
  w.u64(s.assetId);
  const vectors = sectionVectors(s);
  writeTenBitCounts(
    w,
    vectors.map(([, list]) => list.length),
  );
  for (const [, list] of vectors) for (const e of list) writeEntry(w, e);
}

// ---------------------------------------------------------------------------------------------
// Entries in body order and the merkle tree (§6.7)

export interface EntryInBody {
  entry: SignedEntry;
  assetId: bigint | null; // the token section's asset id, null outside token sections
}

/** Every signed entry in body order: coin transfers, cancelations, token sections, asset creations. */
export function signedEntries(b: Body): EntryInBody[] {
  const out: EntryInBody[] = [];
  for (const entry of b.coinTransfers) out.push({ entry, assetId: null });
  for (const entry of b.cancelations) out.push({ entry, assetId: null });
  for (const s of b.tokenSections) {
    for (const [, list] of sectionVectors(s)) for (const entry of list) out.push({ entry, assetId: s.assetId });
  }
  for (const entry of b.assetCreations) out.push({ entry, assetId: null });
  return out;
}

/**
 * Merkle leaves: SHA256 of each new address, of the 16 reward bytes (without V1's reserved bytes,
 * as P) and of each signed entry in body order. Token sections contribute one leaf per entry and
 * nothing else (the §6.7 recommendation, per L's writer).
 */
export function bodyMerkleLeaves(b: Body): Uint8Array[] {
  const leaves = b.newAddresses.map((addr) => sha256(addr));
  leaves.push(sha256(new Writer(16).u64(b.reward.toId).u64(b.reward.amount).finish()));
  for (const { entry } of signedEntries(b)) leaves.push(sha256(entryBytes(entry)));
  return leaves;
}

/**
 * The merkle root; `newType` per height (§6.7), the extra nonce is the body's first 4 or 10 bytes.
 * The leaves' preimages (bodyMerkleLeaves) go to the kernel in one piece, hashed there.
 */
export function bodyMerkleRoot(b: Body, newType: boolean): Uint8Array {
  const pieces: Uint8Array[] = [...b.newAddresses, new Writer(16).u64(b.reward.toId).u64(b.reward.amount).finish()];
  for (const { entry } of signedEntries(b)) pieces.push(entryBytes(entry));
  let size = 0;
  for (const p of pieces) size += p.length;
  const data = new Uint8Array(size);
  const lengths: number[] = [];
  let at = 0;
  for (const p of pieces) {
    data.set(p, at);
    at += p.length;
    lengths.push(p.length);
  }
  return merkleRootOfPieces(data, lengths, b.extraNonce, newType);
}

/** `/chain/mine`'s merklePrefix: root = SHA256(merklePrefix ‖ extra nonce) (new type only). */
export function bodyMerklePrefix(b: Body): Uint8Array {
  return merklePrefix(bodyMerkleLeaves(b));
}
