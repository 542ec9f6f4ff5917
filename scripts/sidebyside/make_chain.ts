// Bundled by scripts/sidebyside/chain.mjs: writes a regtest data directory with real proof of work
// using the project's own chain builder (bench/sync.ts buildChain).
// Usage (bundled): node make_chain.mjs N KIND   KIND: 0 empty, 1 full (353 transfers a block from
// height 3), mainnet (shaped like mainnet's: buildMainnetLikeChain), dex (full, then an exchange: see buildDexChain)  -> prints the data directory
// (dex: it also holds chain-info.json, naming the chain's accounts and asset). N is the number of
// full blocks; dex takes the number of trade blocks as a third argument.
import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { createRequire } from 'node:module';
import { buildChain } from '../../bench/sync.js';
import { Chain } from '../../ts/chain/chain.js';
import { REGTEST, powVersionAt } from '../../ts/consensus/params.js';
import { addressOfPrivateKey, signDigest } from '../../ts/core/keys.js';
import { formatAddress } from '../../ts/core/address.js';
import { toHex } from '../../ts/core/hex.js';
import { pinFloor } from '../../ts/core/pin.js';
import { signRequest } from '../../ts/core/signed_request.js';
import { assetNameBytes, txHash, type TransactionPayload } from '../../ts/core/transaction.js';
import { fee16Decode } from '../../ts/kernel/fee16.js';
import type { PendingTx } from '../../ts/mempool/pending.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { powCheck } from '../../ts/kernel/pow.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import { buildTemplate, prepareTemplate } from '../../ts/mining/template.js';
import { dbReader } from '../../ts/state/ledger.js';
import { assetByHash } from '../../ts/state/assets.js';
import { poolOf } from '../../ts/state/pools.js';
import { openDatabase } from '../../ts/store/database.js';

const T0 = 1_700_000_000;
/** The npm binding of libsecp256k1 (a devDependency, for test/kernel/secp256k1_crosscheck.test.ts). */
const secp256k1 = createRequire(import.meta.url)('secp256k1') as {
  ecdsaSign(digest: Uint8Array, sk: Uint8Array): { signature: Uint8Array; recid: number };
};
/** bench/sync.ts: the full blocks' miner (and sender) and recipient keys. */
const MINER_SK = Uint8Array.from({ length: 32 }, (_, i) => 7 + i);
const RECEIVER_SK = Uint8Array.from({ length: 32 }, (_, i) => 99 - i);
/** Accounts funded last, for the mempool apiperf.mjs fills, and the coin each gets (1 coin: 99 transfers at the minimum fee). */
const SENDERS = 200,
  SENDER_COINS = 100_000_000n;
const keyOf = (seed: number) => {
  const sk = new Uint8Array(32);
  sk[0] = 0x5a;
  new DataView(sk.buffer).setUint32(28, seed + 1);
  return sk;
};

/**
 * `full` blocks (bench/sync.ts, blocks 1–full), then an exchange on top, every transaction admitted
 * by the project's mempool (MempoolService: its balance rules and its refusal of what the reference
 * aborts on) and every block built by its block template (which leaves out any transaction that
 * would make the block invalid), one block every 20 s as in bench/sync.ts (with 300 s the reference
 * refuses the headers at the retarget of height 720, EDIFFICULTY: the regtest harness gives the
 * minimum target exponent 0, and an easier retarget's `zeros -= 1` in TargetV2::scale,
 * difficulty_scale.hpp, wraps around to the hardest target):
 *   1. the miner creates asset "DEX" (2 decimals) and funds 8 buyers, 8 sellers, 10 bid makers and
 *      10 ask makers with coin and the asset; then deposits a pool of 5,000 units and 50 coins
 *      (price 0.01 coin per unit);
 *   2. a deep book: each maker places 30 orders, bids at 150 levels from 0.9 down to 0.45 of the
 *      pool's price, asks at 150 levels from 1.1 up to 2.2 of it (the makers of one side never trade
 *      on the other: the reference aborts on a buy and a sell of one asset by one account in a block);
 *   3. `trades` blocks alternating: all buyers buy 0.01 coin worth at up to 1.04× the pool's price, or
 *      all sellers sell 1 unit at down to 0.96×; each block is one trade with the pool,
 *      none reaching the book; every buyer and seller gathers one history entry per block of its side;
 *   4. 200 new accounts get 1 coin each (senders of apiperf.mjs's mempool).
 */
export async function buildDexChain(full: number, trades: number): Promise<{ dir: string; info: Record<string, unknown> }> {
  const dir = await buildChain(full, true);
  const { db } = await openDatabase(dir);
  const chain = await Chain.open(db, REGTEST);
  const mempool = new MempoolService(chain, new MinFeePolicy(0n));
  const feeCode = mempool.minFeeCode;
  const miner = { sk: MINER_SK, address: addressOfPrivateKey(MINER_SK) };
  const wallets = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const sk = keyOf(from + i);
      return { sk, address: addressOfPrivateKey(sk) };
    });
  const buyers = wallets(100, 8),
    sellers = wallets(200, 8),
    bidMakers = wallets(300, 10),
    askMakers = wallets(400, 10);
  let nonceId = 1_000_000,
    refused = 0;
  const refusals = new Map<string, number>();
  const submit = async (w: { sk: Uint8Array }, payload: TransactionPayload) => {
    const pinHeight = pinFloor(chain.length + 1);
    try {
      return await mempool.add(signRequest(w.sk, payload, { pinHeight, pinHash: chain.hashAt(pinHeight), nonceId: nonceId++, feeCode }));
    } catch (e) {
      refused++;
      const k = `${payload.type}: ${(e as Error).message.slice(0, 80)}`;
      refusals.set(k, (refusals.get(k) ?? 0) + 1);
      return null;
    }
  };
  let t = T0 + 20 * full;
  const mine = async () => {
    const h = chain.length + 1;
    t += 20;
    const tpl = await buildTemplate(chain, db, miner.address, t, mempool.pool.highest(400));
    const v = new DataView(tpl.header.buffer, tpl.header.byteOffset);
    for (let nonce = 0; !powCheck(tpl.header, powVersionAt(REGTEST, h)); nonce++) v.setUint32(76, nonce);
    await chain.append(tpl.header, tpl.body, { now: t });
    await chain.idle();
  };
  const traders = [...buyers, ...sellers, ...bidMakers, ...askMakers];
  // 1. asset, funding, pool
  const creation = await submit(miner, { type: 'assetCreation', supply: 100_000_000_00n, precision: 2, name: assetNameBytes('DEX') });
  if (!creation) throw new Error(`asset creation refused: ${[...refusals.keys()]}`);
  for (const w of traders)
    await submit(miner, {
      type: 'coinTransfer',
      toAddress: w.address,
      amount: bidMakers.includes(w) ? 300_000_000n : buyers.includes(w) ? 600_000_000n : 10_000_000n,
    });
  await mine();
  const assetHash = creation.hash;
  for (const w of traders)
    await submit(miner, {
      type: 'tokenTransfer',
      assetHash,
      isLiquidity: false,
      toAddress: w.address,
      amount: askMakers.includes(w) ? 200_000n : sellers.includes(w) ? 100_000n : 100n,
    });
  await submit(miner, { type: 'liquidityDeposit', assetHash, base: 500_000n, quote: 5_000_000_000n });
  await mine();
  const asset = (await assetByHash(dbReader(db), assetHash))!;
  /** The pool's price in coins per whole unit (decimals 2). */
  const poolPrice = async () => {
    const p = await poolOf(dbReader(db), asset.id);
    return Number(p.quote) / 1e8 / (Number(p.base) / 100);
  };
  const limit = (price: number, up: boolean) => {
    const p = parsePrice(price.toPrecision(6), 2)!;
    return priceToBytes(up ? p.ceil : p.floor);
  };
  // 2. the deep book
  const p0 = await poolPrice();
  if (!(p0 > 0)) throw new Error(`no pool: ${JSON.stringify([...refusals])}`);
  let restingOrder: Uint8Array | undefined;
  for (let i = 0; i < 300; i++) {
    const level = Math.floor(i / 2);
    const bid = await submit(bidMakers[i % 10], {
      type: 'limitSwap',
      assetHash,
      isBuy: true,
      amount: 5_000_000n,
      limit: limit(p0 * (0.9 - 0.003 * level), false),
    });
    await submit(askMakers[i % 10], { type: 'limitSwap', assetHash, isBuy: false, amount: 500n, limit: limit(p0 * (1.1 + 0.0073 * level), true) });
    if (i === 0) restingOrder = bid?.hash;
  }
  const bookHeight = chain.length + 1;
  for (let i = 0; i < 10 && mempool.pool.size > 0; i++) await mine();
  // 3. trades
  let filledOrder: Uint8Array | undefined;
  const tradeHeight = chain.length + 1;
  for (let b = 0; b < trades; b++) {
    const p = await poolPrice();
    if (b % 2 === 0) {
      for (const w of buyers) {
        const tx = await submit(w, { type: 'limitSwap', assetHash, isBuy: true, amount: 1_000_000n, limit: limit(p * 1.04, false) });
        filledOrder ??= tx?.hash;
      }
    } else for (const w of sellers) await submit(w, { type: 'limitSwap', assetHash, isBuy: false, amount: 100n, limit: limit(p * 0.96, true) });
    await mine();
  }
  // 4. coin for the mempool's senders (apiperf.mjs: admission from many accounts)
  const senders = wallets(1000, SENDERS);
  for (const w of senders) await submit(miner, { type: 'coinTransfer', toAddress: w.address, amount: SENDER_COINS });
  for (let i = 0; i < 10 && mempool.pool.size > 0; i++) await mine();
  const info = {
    asset: toHex(assetHash),
    assetId: String(asset.id),
    height: chain.length,
    refused,
    refusals: Object.fromEntries(refusals),
    pending: mempool.pool.size,
    receiver: formatAddress(addressOfPrivateKey(RECEIVER_SK)),
    miner: formatAddress(miner.address),
    buyer: formatAddress(buyers[0].address),
    seller: formatAddress(sellers[0].address),
    bidMaker: formatAddress(bidMakers[0].address),
    askMaker: formatAddress(askMakers[0].address),
    bidMakerKey: toHex(bidMakers[0].sk),
    poolPrice: await poolPrice(),
    bookHeight,
    tradeHeight,
    restingOrder: toHex(restingOrder!),
    filledOrder: toHex(filledOrder!),
    /** Regtest throw-away keys, each holding SENDER_COINS. */
    senderKeys: senders.map((w) => toHex(w.sk)),
  };
  await chain.idle();
  await db.close();
  return { dir, info };
}

/**
 * `n` blocks shaped like mainnet's (issue 29's million-block table): most blocks empty, some with a
 * few transfers, a few with up to 20, one in a thousand full (353), about 1.2 transfers a block on
 * average, from the miner (who holds the rewards) to 100,000 distinct addresses, so the account
 * table and the histories grow as on a real chain. Each transfer pins the newest pin height
 * (pinFloor), so every one stays valid at any length. One block every 20 s (see buildDexChain).
 * Deterministic: the same `n` gives the same chain.
 */
export async function buildMainnetLikeChain(n: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'chain-mainnet-'));
  const { db } = await openDatabase(dir);
  const chain = await Chain.open(db, REGTEST);
  const miner = addressOfPrivateKey(MINER_SK);
  const receivers = Array.from({ length: 100_000 }, (_, i) => sha256(Uint8Array.of(i >>> 16, i >>> 8, i)).subarray(0, 20));
  let seed = 0x2545f491;
  const rnd = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  // libsecp256k1 (the devDependency of the signature cross-check) signs ~5× faster than noble; both
  // give the same RFC 6979 low-s signature, checked on the first one.
  const signNative = (hash: Uint8Array) => {
    const { signature, recid } = secp256k1.ecdsaSign(hash, MINER_SK);
    const out = new Uint8Array(65);
    out.set(signature);
    out[64] = recid;
    if (nonceId === 0 && toHex(out) !== toHex(signDigest(hash, MINER_SK))) throw new Error('libsecp256k1 and noble sign differently');
    return out;
  };
  const transfersAt = (h: number) => {
    if (h <= 2) return 0;
    const r = rnd();
    if (r < 0.8) return 0;
    if (r < 0.97) return 1 + Math.floor(rnd() * 5);
    if (r < 0.999) return 6 + Math.floor(rnd() * 15);
    return 353;
  };
  let nonceId = 0,
    transfers = 0;
  for (let h = 1; h <= n; h++) {
    const pinHeight = pinFloor(h);
    const pinHash = chain.hashAt(pinHeight);
    const txs: PendingTx[] = [];
    for (let i = transfersAt(h); i > 0; i--, nonceId++) {
      const payload = {
        type: 'coinTransfer' as const,
        toAddress: receivers[Math.floor(rnd() * receivers.length)],
        amount: 1n + BigInt(Math.floor(rnd() * 1e6)),
      };
      const hash = txHash({ pinHash, pinHeight, nonceId, feeE8: fee16Decode(0) }, payload);
      txs.push({ hash, payload, originId: 1n, originAddress: miner, pinHeight, pinHash, nonceId, feeCode: 0, feeE8: 1n, signature: signNative(hash) });
    }
    transfers += txs.length;
    const now = T0 + 20 * h;
    const prepared = await prepareTemplate(chain, db, miner, now, txs);
    if (prepared.transactions.length !== txs.length) throw new Error(`block ${h} left transfers out`);
    const t = await prepared.forMiner(miner, now, db);
    const v = new DataView(t.header.buffer, t.header.byteOffset);
    for (let nonce = 0; !powCheck(t.header, powVersionAt(REGTEST, h)); nonce++) v.setUint32(76, nonce);
    await chain.append(t.header, t.body, { now });
    if (h % 100_000 === 0) process.stderr.write(`${h} blocks, ${transfers} transfers\n`);
  }
  await chain.idle();
  await db.close();
  return dir;
}

await initKernel();
const n = Number(process.argv[2]),
  kind = process.argv[3];
if (kind === 'mainnet') console.log(await buildMainnetLikeChain(n));
else if (kind === 'dex') {
  const { dir, info } = await buildDexChain(n, Number(process.argv[4] ?? 1000));
  writeFileSync(join(dir, 'chain-info.json'), JSON.stringify(info));
  console.log(dir);
} else console.log(await buildChain(n, kind === '1'));
