// Chain throughput: headers verified per second (proof of work included) and full blocks applied
// per second (353 signed coin transfers each, the 35,000-byte body limit; signature recovery,
// ledger and one database batch per block included).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initKernel } from '../ts/kernel/instance.js';
import { Chain } from '../ts/chain/chain.js';
import { buildTemplate } from '../ts/mining/template.js';
import type { PendingTx } from '../ts/mempool/pending.js';
import { REGTEST, powVersionAt } from '../ts/consensus/params.js';
import { checkHeader, type HeaderChainView } from '../ts/consensus/header_check.js';
import { blockHash, parseHeader } from '../ts/core/header.js';
import { addressOfPrivateKey, signDigest } from '../ts/core/keys.js';
import { txHash } from '../ts/core/transaction.js';
import { fee16Decode } from '../ts/kernel/fee16.js';
import { powCheck } from '../ts/kernel/pow.js';
import { openDatabase } from '../ts/store/database.js';

const T0 = 1_700_000_000;
const TRANSFERS_PER_BLOCK = 353;

/** A header chain view over plain arrays. */
class Headers implements HeaderChainView {
  readonly raws: Uint8Array[] = [];
  readonly hashes: Uint8Array[] = [REGTEST.genesisHash];
  get length() {
    return this.raws.length;
  }
  get tipHash() {
    return this.hashes[this.raws.length];
  }
  timestampAt(h: number) {
    return parseHeader(this.raws[h - 1]).timestamp;
  }
  targetAt(h: number) {
    return parseHeader(this.raws[h - 1]).target;
  }
  push(raw: Uint8Array) {
    this.raws.push(raw);
    this.hashes.push(blockHash(raw));
  }
}

async function tempDb() {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-'));
  return { ...(await openDatabase(dir)), dir };
}

async function benchHeaders(): Promise<void> {
  // Mine a regtest chain with real PoW, then verify every header again from scratch.
  const { db, dir } = await tempDb();
  const chain = await Chain.open(db, REGTEST);
  const miner = addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
  const N = 2000;
  for (let h = 1; h <= N; h++) {
    const t = await buildTemplate(chain, db, miner, T0 + 20 * h);
    const v = new DataView(t.header.buffer);
    for (let n = 0; !powCheck(t.header, powVersionAt(REGTEST, h)); n++) v.setUint32(76, n);
    await chain.append(t.header, t.body, { now: T0 + 20 * h });
  }
  const view = new Headers();
  const start = performance.now();
  for (let h = 1; h <= N; h++) {
    const raw = chain.rawHeaderAt(h);
    checkHeader(REGTEST, view, raw);
    view.push(raw);
  }
  const s = (performance.now() - start) / 1000;
  console.log(`headers verified/s (PoW included): ${Math.round(N / s)}`);
  await db.close();
  await rm(dir, { recursive: true, force: true });
}

async function benchBlocks(): Promise<void> {
  const sk = Uint8Array.from({ length: 32 }, (_, i) => 7 + i);
  const sender = addressOfPrivateKey(sk);
  const receiver = addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => 99 - i));
  const BLOCKS = 12;

  // Produce the blocks once: block 1 pays the sender (account 1), block 2 the receiver
  // (account 2), then full blocks of transfers from 1 to 2.
  const src = await tempDb();
  const chain = await Chain.open(src.db, REGTEST);
  const blocks: { header: Uint8Array; body: Uint8Array; bytes: number }[] = [];
  let nonceId = 0;
  for (let h = 1; h <= 2 + BLOCKS; h++) {
    const transfers: PendingTx[] = [];
    if (h > 2) {
      for (let i = 0; i < TRANSFERS_PER_BLOCK; i++, nonceId++) {
        const payload = { type: 'coinTransfer' as const, toAddress: receiver, amount: 1n };
        const pinHash = chain.hashAt(0);
        const hash = txHash({ pinHash, pinHeight: 0, nonceId, feeE8: fee16Decode(0) }, payload);
        transfers.push({
          hash,
          payload,
          originId: 1n,
          originAddress: sender,
          pinHeight: 0,
          pinHash,
          nonceId,
          feeCode: 0,
          feeE8: 1n,
          signature: signDigest(hash, sk),
        });
      }
    }
    const t = await buildTemplate(chain, src.db, h === 2 ? receiver : sender, T0 + 20 * h, transfers);
    await chain.append(t.header, t.body, { now: T0 + 20 * h, skipPow: true });
    blocks.push({ header: t.header, body: t.body, bytes: t.body.length });
  }
  await src.db.close();
  await rm(src.dir, { recursive: true, force: true });

  const dst = await tempDb();
  const replay = await Chain.open(dst.db, REGTEST);
  for (const b of blocks.slice(0, 2)) await replay.append(b.header, b.body, { now: T0 + 10_000, skipPow: true });
  const start = performance.now();
  for (const b of blocks.slice(2)) await replay.append(b.header, b.body, { now: T0 + 10_000, skipPow: true });
  const s = (performance.now() - start) / 1000;
  console.log(`full blocks applied/s (${TRANSFERS_PER_BLOCK} coin transfers, ${blocks[2].bytes} bytes each): ${(BLOCKS / s).toFixed(2)}`);
  console.log(`coin transfers applied/s (signature recovery included): ${Math.round((BLOCKS * TRANSFERS_PER_BLOCK) / s)}`);
  await dst.db.close();
  await rm(dst.dir, { recursive: true, force: true });
}

export async function benchChain(): Promise<void> {
  await initKernel();
  await benchHeaders();
  await benchBlocks();
}
