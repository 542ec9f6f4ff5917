// Header validity (consensus.md §9.2 items 1–6): real mainnet headers on top of constructed chain
// views, the §11.6 testnet block, and a regtest chain mined here with real proof of work.
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { blockHash, parseHeader, serializeHeader, type Header } from '../../ts/core/header.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { GENESIS_HASH, MAINNET, REGTEST, TESTNET, requiredHeaderVersion, type NetworkParams } from '../../ts/consensus/params.js';
import { checkHeader, checkPow, expectedTarget, timestampContext, type HeaderChainView } from '../../ts/consensus/header_check.js';
import { agreesWithCheckpoint, gridHeights, MAINNET_CHECKPOINT } from '../../ts/consensus/checkpoint.js';
import { minimumTimestamp } from '../../ts/consensus/timestamp.js';
import { HEADERS, TESTNET_BLOCK_1 } from '../core/vectors.js';
import { errorOf } from '../helpers/error_of.js';

beforeAll(async () => {
  await initKernel();
});

/** An in-memory header chain. */
class MemoryChain implements HeaderChainView {
  readonly headers: Header[] = [];
  readonly hashes: Uint8Array[] = [];
  get length(): number {
    return this.headers.length;
  }
  get tipHash(): Uint8Array {
    return this.length ? this.hashes[this.length - 1] : GENESIS_HASH;
  }
  timestampAt(h: number): number {
    return this.headers[h - 1].timestamp;
  }
  targetAt(h: number): number {
    return this.headers[h - 1].target;
  }
  append(h: Header): void {
    this.headers.push(h);
    this.hashes.push(blockHash(h));
  }
}

/** A view ending at block `length` whose only real data is the tip's hash and target. */
function syntheticView(length: number, tipHash: Uint8Array, tipTarget: number, tipTimestamp: number): HeaderChainView {
  return {
    length,
    tipHash,
    timestampAt: (h) => tipTimestamp - 20 * (length - h),
    targetAt: (h) => (h === length ? tipTarget : tipTarget),
  };
}

/** The next header of `chain`, mined with real proof of work. */
function mine(p: NetworkParams, chain: HeaderChainView, timestamp: number, pred = (ok: boolean) => ok): Header {
  const h: Header = {
    prevHash: chain.tipHash,
    target: expectedTarget(p, chain),
    merkleRoot: new Uint8Array(32).fill(chain.length),
    version: requiredHeaderVersion(p, chain.length + 1) ?? 1,
    timestamp,
    nonce: 0,
  };
  while (!pred(checkPow(p, chain.length + 1, serializeHeader(h)))) h.nonce++;
  return h;
}

describe('real mainnet headers', () => {
  for (const v of HEADERS) {
    it(`${v.name}: accepted as block ${v.height}`, () => {
      const raw = fromHex(v.raw)!;
      const header = parseHeader(raw);
      const view = syntheticView(v.height - 1, fromHex(v.prevHash)!, v.target, header.timestamp - 20);
      const got = checkHeader(MAINNET, view, raw, { now: header.timestamp });
      expect(toHex(got.hash)).toBe(v.hash);
      expect(got.height).toBe(v.height);
      // each check in turn
      expect(errorOf(() => checkHeader(MAINNET, { ...view, tipHash: new Uint8Array(32) }, raw))).toBe('EHEADERLINK');
      expect(errorOf(() => checkHeader(MAINNET, { ...view, targetAt: () => v.target + 1 }, raw))).toBe('EDIFFICULTY');
      const bad = raw.slice();
      bad[79] ^= 1;
      expect(errorOf(() => checkHeader(MAINNET, view, bad))).toBe('EPOW');
      // without the PoW check the header is fine, except where it contradicts the checkpoint
      expect(errorOf(() => checkHeader(MAINNET, view, bad, { skipPow: true }))).toBe(v.height === 2_246_400 ? 'EGRIDMISMATCH' : 'none');
      expect(errorOf(() => checkHeader(MAINNET, view, raw, { now: header.timestamp - 601 }))).toBe('ECLOCKTOLERANCE');
      expect(errorOf(() => checkHeader(MAINNET, { ...view, timestampAt: () => header.timestamp }, raw))).toBe('ETIMESTAMP');
      if (v.version > 1) {
        const wrongVersion = { ...header, version: v.version + 1 };
        expect(errorOf(() => checkHeader(MAINNET, view, wrongVersion))).toBe('EBLOCKVERSION');
      }
    });
  }

  it('the checkpoint (§5.5)', () => {
    expect(toHex(blockHash(MAINNET_CHECKPOINT.header))).toBe(toHex(MAINNET_CHECKPOINT.hash));
    expect(agreesWithCheckpoint(MAINNET, 2_246_400, MAINNET_CHECKPOINT.hash)).toBe(true);
    expect(agreesWithCheckpoint(MAINNET, 2_246_400, new Uint8Array(32))).toBe(false);
    expect(agreesWithCheckpoint(MAINNET, 2_246_401, new Uint8Array(32))).toBe(true);
    expect(agreesWithCheckpoint(TESTNET, 2_246_400, new Uint8Array(32))).toBe(true);
    expect(gridHeights(17_281)).toEqual([8_640, 17_280]);
    expect(gridHeights(2_246_400)[259]).toBe(2_246_400); // grid slot 259 (0-based)
  });
});

describe('§11.6 testnet block 1 (L: version 3, fake PoW)', () => {
  const empty = new MemoryChain();
  it('passes every rule but the proof of work', () => {
    const raw = fromHex(TESTNET_BLOCK_1.header)!;
    expect(errorOf(() => checkHeader(TESTNET, empty, raw, { skipPow: true }))).toBe('none');
    expect(errorOf(() => checkHeader(TESTNET, empty, raw))).toBe('EPOW');
    expect(errorOf(() => checkHeader(TESTNET, empty, { ...parseHeader(raw), version: 4 }, { skipPow: true }))).toBe('EBLOCKVERSION');
    expect(errorOf(() => checkHeader(REGTEST, empty, raw, { skipPow: true }))).toBe('EDIFFICULTY');
  });
});

describe('a regtest chain mined with real proof of work', () => {
  const chain = new MemoryChain();
  const t0 = 1_800_000_000;

  it('accepts mined blocks and links them', () => {
    for (let i = 0; i < 5; i++) {
      const h = mine(REGTEST, chain, t0 + 20 * i);
      const checked = checkHeader(REGTEST, chain, h, { now: t0 + 20 * i });
      chain.append(h);
      expect(toHex(checked.hash)).toBe(toHex(chain.tipHash));
    }
    expect(chain.headers.map((h) => h.version)).toEqual([3, 3, 4, 4, 4]);
    expect(chain.headers.every((h) => h.target === 0x003fffff)).toBe(true);
  });

  it('rejects each broken rule with its code', () => {
    const next = mine(REGTEST, chain, t0 + 200);
    expect(errorOf(() => checkHeader(REGTEST, chain, next))).toBe('none');
    expect(errorOf(() => checkHeader(REGTEST, chain, { ...next, prevHash: chain.hashes[0] }))).toBe('EHEADERLINK');
    expect(errorOf(() => checkHeader(REGTEST, chain, { ...next, version: 3 }))).toBe('EBLOCKVERSION');
    expect(errorOf(() => checkHeader(REGTEST, chain, { ...next, target: 0x007fffff }))).toBe('EDIFFICULTY');
    const unlucky = mine(REGTEST, chain, t0 + 200, (ok) => !ok); // one of the ~0.5% failing nonces
    expect(errorOf(() => checkHeader(REGTEST, chain, unlucky))).toBe('EPOW');
    const early = mine(REGTEST, chain, chain.timestampAt(1)); // not after the retarget block (1)
    expect(errorOf(() => checkHeader(REGTEST, chain, early))).toBe('ETIMESTAMP');
    const future = mine(REGTEST, chain, t0 + 10_000);
    expect(errorOf(() => checkHeader(REGTEST, chain, future, { now: t0 + 9_399 }))).toBe('ECLOCKTOLERANCE');
    expect(errorOf(() => checkHeader(REGTEST, chain, future, { now: t0 + 9_400 }))).toBe('none');
  });

  it('timestampContext gathers the last 50 timestamps and the retarget block', () => {
    const ctx = timestampContext(chain, 5);
    expect(ctx.previous).toEqual(chain.headers.map((h) => h.timestamp));
    expect(ctx.retargetFloorTimestamp).toBe(chain.timestampAt(1));
    expect(ctx.now).toBe(5);
    expect(minimumTimestamp(ctx.previous, ctx.retargetFloorTimestamp)).toBe(t0 + 1);
    expect(timestampContext(new MemoryChain())).toEqual({ previous: [], retargetFloorTimestamp: 0, now: undefined });
  });
});
