// Pure sync rules: a peer's chain description and its checks (p2p.md §2.4, §3.1), fork ranges and
// the balanced probing rule (§3.2), offenses and bans (§4.4), and header verification of a staged
// chain (§3.3) with a bad proof of work on testnet rules.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { serializeHeader } from '../../ts/core/header.js';
import { Chain } from '../../ts/chain/chain.js';
import { TESTNET } from '../../ts/consensus/params.js';
import { openDatabase } from '../../ts/store/database.js';
import { PeerChain } from '../../ts/p2p/peer_chain.js';
import { applyProbe, gridForkRange, probeHeight } from '../../ts/p2p/fork_range.js';
import { BanList, banKey, triggersBan } from '../../ts/p2p/bans.js';
import { HeaderStage } from '../../ts/p2p/header_stage.js';
import { NO_PRIORITY } from '../../ts/p2p/elements.js';
import type { InitMsg } from '../../ts/p2p/messages.js';
import { removeDir } from '../helpers/node.js';
import { errorOf } from '../helpers/error_of.js';

await initKernel();

const B = 8640;
const hdr = (fill: number) => new Uint8Array(80).fill(fill);
const init = (length: number, worksum: bigint, grid: Uint8Array[] = []): InitMsg => ({
  kind: 'Init',
  v3: true,
  descriptor: 4,
  priority: NO_PRIORITY,
  length,
  worksum,
  grid,
  flags: 0,
});

describe("a peer's chain description", () => {
  it('checks Init: length 0 ⇔ work 0, one grid entry per complete batch', () => {
    expect(errorOf(() => PeerChain.fromInit(init(0, 1n)))).toBe('EFAKEWORK');
    expect(errorOf(() => PeerChain.fromInit(init(5, 0n)))).toBe('EFAKEHEIGHT');
    expect(errorOf(() => PeerChain.fromInit(init(B, 10n)))).toBe('EINV_INITGRID');
    expect(PeerChain.fromInit(init(B, 10n, [hdr(1)])).grid.length).toBe(1);
  });

  it('applies Append (growing, grid complete) and Fork (descriptor + 1, grid kept below F)', () => {
    const c = PeerChain.fromInit(init(B - 1, 10n));
    expect(errorOf(() => c.append({ kind: 'Append', length: B - 1, worksum: 11n, grid: [] }))).toBe('EAPPEND');
    expect(errorOf(() => c.append({ kind: 'Append', length: B, worksum: 11n, grid: [] }))).toBe('EAPPEND');
    c.append({ kind: 'Append', length: 2 * B + 5, worksum: 30n, grid: [hdr(1), hdr(2)] });
    expect(c.grid).toEqual([hdr(1), hdr(2)]);
    expect(errorOf(() => c.fork({ kind: 'Fork', descriptor: 6, length: 9, worksum: 40n, forkHeight: 3, grid: [] }, 0))).toBe('EDESCRIPTOR');
    expect(errorOf(() => c.fork({ kind: 'Fork', descriptor: 5, length: 2 * B, worksum: 40n, forkHeight: B + 1, grid: [] }, 0))).toBe('EINVDSC');
    c.fork({ kind: 'Fork', descriptor: 5, length: 2 * B, worksum: 40n, forkHeight: B + 1, grid: [hdr(3)] }, 1000);
    expect({ d: c.descriptor, grid: c.grid }).toEqual({ d: 5, grid: [hdr(1), hdr(3)] });
    // The replaced descriptor must still be answered for 8 minutes.
    expect(c.expectsAnswers(4, 1000 + 8 * 60_000 - 1)).toBe(true);
    expect(c.expectsAnswers(4, 1000 + 8 * 60_000)).toBe(false);
    expect(
      errorOf(() =>
        c.rollback(
          {
            kind: 'SignedPinRollback',
            snapshot: { height: 1, hash: new Uint8Array(32), signature: new Uint8Array(65) },
            length: 2 * B,
            worksum: 1n,
            descriptor: 6,
          },
          0,
        ),
      ),
    ).toBe('EBADROLLBACKLEN');
    c.rollback(
      {
        kind: 'SignedPinRollback',
        snapshot: { height: 1, hash: new Uint8Array(32), signature: new Uint8Array(65) },
        length: B - 1,
        worksum: 1n,
        descriptor: 6,
      },
      0,
    );
    expect({ length: c.length, grid: c.grid.length }).toEqual({ length: B - 1, grid: 0 });
  });
});

describe('fork ranges', () => {
  const ours = [hdr(1), hdr(2), hdr(3), hdr(4)];
  it('start from the first differing grid slot, or after the common slots', () => {
    expect(gridForkRange((i) => ours[i], 4 * B + 7, [hdr(1), hdr(2), hdr(9)], 3 * B + 1)).toEqual({ lower: 2 * B + 1, upper: 3 * B });
    expect(gridForkRange((i) => ours[i], 4 * B + 7, [hdr(9)], B + 1)).toEqual({ lower: 1, upper: B });
    expect(gridForkRange((i) => ours[i], 4 * B + 7, ours.slice(0, 2), 2 * B + 50)).toEqual({ lower: 2 * B + 1, upper: 2 * B + 51 });
    expect(gridForkRange(() => hdr(0), 0, [], 50)).toEqual({ lower: 1, upper: 1 });
  });

  it('narrow with probes and stop by the balanced rule', () => {
    let r = { lower: 1, upper: 41 };
    expect(probeHeight(r, 60)).toBe(21);
    r = applyProbe(r, 21, false);
    expect(r).toEqual({ lower: 1, upper: 21 });
    expect(probeHeight(r, 60)).toBeNull(); // 2·20 < 60: download from 1
    expect(probeHeight({ lower: 1, upper: 11 }, 15)).toBeNull(); // fewer than 20 to download
    expect(applyProbe({ lower: 1, upper: 41 }, 30, true)).toEqual({ lower: 31, upper: 41 });
    expect(errorOf(() => applyProbe({ lower: 10, upper: 41 }, 41, true))).toBe('EBADMATCH');
    expect(errorOf(() => applyProbe({ lower: 10, upper: 41 }, 9, false))).toBe('EBADMISMATCH');
  });
});

describe('offenses and bans', () => {
  it('ban for codes 1–199 except ECHECKSUM, EEMPTY, EPROBEDESCRIPTOR', () => {
    expect([1, 2, 13, 24, 59, 199].every(triggersBan)).toBe(true);
    expect([0, -1, 4, 57, 63, 200, 202, 1005].some(triggersBan)).toBe(false);
  });

  it('record every offense, ban for 20 minutes, never ban loopback', () => {
    const b = new BanList();
    expect(b.record('127.0.0.1', 2, 'EMSGLEN', 0)).toBe(false);
    expect(b.isBanned('127.0.0.1', 1)).toBe(false);
    expect(b.record('10.1.2.3', 13, 'EHANDSHAKE', 0)).toBe(true);
    expect(b.isBanned('10.1.2.3', 20 * 60_000 - 1)).toBe(true);
    expect(b.isBanned('10.1.2.4', 1)).toBe(false);
    expect(b.isBanned('10.1.2.3', 20 * 60_000)).toBe(false);
    expect(b.offenses(1).map((o) => o.code)).toEqual([2, 13]);
    expect(banKey('2001:db8:1:2::5')).toBe('2001:db8:1::/48');
    expect(banKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
  });
});

describe('a staged header chain', () => {
  it('verifies each header with the consensus checks (bad proof of work on testnet: EPOW)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-p2p-'));
    const { db } = await openDatabase(dir);
    try {
      const chain = await Chain.open(db, TESTNET);
      const stage = new HeaderStage(chain, 0);
      const h = (target: number) =>
        serializeHeader({
          prevHash: TESTNET.genesisHash,
          target,
          merkleRoot: new Uint8Array(32),
          version: 3,
          timestamp: Math.floor(Date.now() / 1000),
          nonce: 1,
        });
      expect(errorOf(() => stage.add(h(0x0affffff), Math.floor(Date.now() / 1000)))).toBe('EDIFFICULTY');
      expect(errorOf(() => stage.add(h(TESTNET.genesisTarget), Math.floor(Date.now() / 1000)))).toBe('EPOW');
      expect(stage.length).toBe(0);
    } finally {
      await db.close();
      await removeDir(dir);
    }
  });
});
