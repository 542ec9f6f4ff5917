// Transactions as the live scripts write them: keys derived from a seed, the project's own signing
// code (ts/core, bundled by project.mjs), the JSON body of `POST /transaction/add` in the
// reference's names (create_transaction.hpp; ours accepts every generation's names), and the
// limit-price grid of limit swaps. Shared by the exchange differential (scripts/defi-diff.mjs) and
// the network harness (scripts/network.mjs).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeJson } from './exact-json.mjs';
import { loadProject } from './project.mjs';

/** The signing code of the checkout `ourDir`, bundled into `dir/sign.mjs`. */
export const loadSigner = (ourDir, dir) =>
  loadProject(
    ourDir,
    [
      "export { txHash, assetNameBytes } from './ts/core/transaction.ts';",
      "export { signDigest, addressOfPrivateKey, isValidPrivateKey } from './ts/core/keys.ts';",
      "export { formatAddress } from './ts/core/address.ts';",
      "export { toHex, fromHexExact } from './ts/core/hex.ts';",
      "export { initKernel } from './ts/kernel/instance.ts';",
      "export { fee16Decode, fee16Encode } from './ts/kernel/fee16.ts';",
      "export { solve } from './ts/miner/cpu_miner.ts';",
    ],
    join(dir, 'sign.mjs'),
  );

/** The `i`-th private key of the key family `label` (SHA-256 of the label, the index and a counter until valid). */
export function keyOf(S, label, i) {
  for (let j = 0; ; j++) {
    const sk = createHash('sha256').update(`${label} ${i} ${j}`).digest();
    if (S.isValidPrivateKey(sk)) return new Uint8Array(sk);
  }
}

/** An account of the key family `label`: {sk, raw (20 bytes), address (48 hex)}. */
export function accountOf(S, label, i) {
  const sk = keyOf(S, label, i);
  const raw = S.addressOfPrivateKey(sk);
  return { sk, raw, address: S.formatAddress(raw) };
}

/** The reference's request JSON (create_transaction.hpp names) of `payload` with common fields `c` and its 65-byte signature. */
export function requestBody(S, payload, c, signature) {
  const common = { type: payload.type === 'coinTransfer' ? 'wartTransfer' : payload.type, pinHeight: c.pinHeight, nonceId: c.nonceId, feeE8: c.feeE8 };
  const p = payload,
    hex = S.toHex,
    addr = (a) => S.formatAddress(a);
  const body = {
    coinTransfer: () => ({ toAddr: addr(p.toAddress), wartE8: p.amount }),
    tokenTransfer: () => ({ assetHash: hex(p.assetHash), isLiquidity: p.isLiquidity, toAddr: addr(p.toAddress), amountU64: p.amount }),
    limitSwap: () => ({ assetHash: hex(p.assetHash), isBuy: p.isBuy, amountU64: p.amount, limit: hex(p.limit) }),
    liquidityDeposit: () => ({ assetHash: hex(p.assetHash), amountU64: p.base, wartE8: p.quote }),
    liquidityWithdrawal: () => ({ assetHash: hex(p.assetHash), amountE8: p.shares }),
    cancelation: () => ({ cancelHeight: p.cancelHeight, cancelNonceId: p.cancelNonceId }),
    assetCreation: () => ({ name: String.fromCharCode(...p.name.filter((b) => b !== 0)), supplyU64: p.supply, decimals: p.precision }),
  }[p.type]();
  return writeJson({ ...common, ...body, signature65: hex(signature) });
}

/**
 * Signs `payload` by the private key `sk` with pin {pinHeight, pinHash (hex)}, `nonceId` and fee
 * `feeE8` (a fee16 value): {hash (hex txHash), body (the request JSON text)}.
 */
export function signedRequest(S, payload, { pinHeight, pinHash, nonceId, feeE8 }, sk) {
  const c = { pinHash: Buffer.from(pinHash, 'hex'), pinHeight, nonceId, feeE8 };
  const digest = S.txHash(c, payload);
  return { hash: S.toHex(digest), body: requestBody(S, payload, c, S.signDigest(digest, sk)) };
}

/** The 3-byte limit price nearest below `raw` (coin E8 per smallest asset unit), clamped to the grid. */
export function priceBytes(raw) {
  let e2 = Math.floor(Math.log2(raw)) - 15;
  let m = Math.floor(raw / 2 ** e2);
  while (m > 0xffff) {
    m = Math.floor(m / 2);
    e2++;
  }
  while (m < 0x8000) {
    m *= 2;
    e2--;
  }
  let e = e2 + 79;
  if (e < 0) {
    m = 0x8000;
    e = 0;
  }
  if (e > 127) {
    m = 0xffff;
    e = 127;
  }
  return Uint8Array.of(m >> 8, m & 0xff, e);
}

/** The raw price (coin E8 per smallest asset unit) of 3 limit bytes. */
export const rawOfPrice = (b) => ((b[0] << 8) | b[1]) * 2 ** (b[2] - 79);

/** ⌊√v⌋ of a bigint. */
export function isqrt(v) {
  if (v < 2n) return v;
  let x = BigInt(Math.floor(Math.sqrt(Number(v))));
  while (x * x > v) x--;
  while ((x + 1n) * (x + 1n) <= v) x++;
  return x;
}
