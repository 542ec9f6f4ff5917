// Regtest-mainnet: mainnet's rules of today (the heights above 1,658,880 that 0.8.20 runs) from
// height 1, with a trivial minimum target and its own magic. Each rule is held against mainnet's at
// a height of today and against the DeFi regtest where the two differ.
import { describe, expect, it } from 'vitest';
import {
  MAINNET,
  PowVersion,
  REGTEST,
  REGTEST_MAINNET,
  TARGET_V2_REGTEST_GENESIS,
  bodyLayoutAt,
  merkleNewTypeAt,
  networkParams,
  powVersionAt,
  requiredHeaderVersion,
  targetKindAt,
} from '../../ts/consensus/params.js';
import { checkpointOf } from '../../ts/consensus/checkpoint.js';
import { nextTarget, retargetFloor } from '../../ts/consensus/retarget.js';
import { blockReward } from '../../ts/consensus/reward.js';
import { handshakeMagic } from '../../ts/p2p/network.js';

const TODAY = 2_500_000; // a mainnet height of today's rules
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('regtest-mainnet', () => {
  it('has mainnet-of-today rules at every height from 1', () => {
    const p = networkParams('regtest-mainnet');
    expect(p).toBe(REGTEST_MAINNET);
    for (const h of [1, 2, 3, 719, 720, 721, 10_000, TODAY]) {
      expect(requiredHeaderVersion(p, h)).toBe(requiredHeaderVersion(MAINNET, TODAY));
      expect(requiredHeaderVersion(p, h)).toBe(3);
      expect(powVersionAt(p, h)).toBe(PowVersion.Janus8);
      expect(targetKindAt(p, h)).toBe('V2');
      expect(bodyLayoutAt(p, h, 3)).toBe(bodyLayoutAt(MAINNET, TODAY, 3));
      expect(bodyLayoutAt(p, h, 3)).toBe('V2');
      expect(merkleNewTypeAt(p, h)).toBe(true);
      expect(blockReward(h)).toBe(300_000_000n);
    }
    // The DeFi regtest differs exactly there: Janus7 at heights 1–2, V4 bodies, version 4 from 3.
    expect(powVersionAt(REGTEST, 1)).toBe(PowVersion.Janus7);
    expect(bodyLayoutAt(REGTEST, 5, 4)).toBe('V4');
    expect(requiredHeaderVersion(REGTEST, 5)).toBe(4);
  });

  it('starts at the trivial target, retargets on mainnet grid and never below the trivial minimum', () => {
    const p = REGTEST_MAINNET;
    expect(nextTarget(p, 0, 0, () => 0)).toBe(TARGET_V2_REGTEST_GENESIS);
    expect(retargetFloor(1_000)).toBe(720);
    // Blocks every 20 s keep the target; blocks 4× too slow ask for an easier one, clamped to the minimum.
    const t0 = 1_700_000_000;
    expect(nextTarget(p, 720, TARGET_V2_REGTEST_GENESIS, (k) => t0 + 20 * k)).toBe(TARGET_V2_REGTEST_GENESIS);
    expect(nextTarget(p, 720, TARGET_V2_REGTEST_GENESIS, (k) => t0 + 80 * k)).toBe(TARGET_V2_REGTEST_GENESIS);
    // Blocks far too fast: harder (more zeros), as on mainnet.
    const harder = nextTarget(p, 720, TARGET_V2_REGTEST_GENESIS, (k) => t0 + k);
    expect(harder).not.toBe(TARGET_V2_REGTEST_GENESIS);
    expect(harder >>> 22).toBe(1);
    // Mainnet's switch to TargetV2 at 745,200 is not a reset on regtest-mainnet.
    expect(nextTarget(p, 745_200, harder, (k) => t0 + 20 * k)).toBe(harder);
  });

  it('speaks its own magic and has no checkpoint; snapshots and rewards as mainnet', () => {
    expect(text(handshakeMagic('regtest-mainnet', true))).toBe('REGMAIN GRUNT?');
    expect(text(handshakeMagic('regtest-mainnet', false))).toBe('REGMAIN GRUNT!');
    expect(text(handshakeMagic('mainnet', true))).toBe('WARTHOG GRUNT?');
    expect(checkpointOf(REGTEST_MAINNET)).toBeNull();
    expect(checkpointOf(MAINNET)).not.toBeNull();
    expect(REGTEST_MAINNET.enforceSnapshots).toBe(MAINNET.enforceSnapshots);
    expect(REGTEST_MAINNET.leaderKeys).toBe(MAINNET.leaderKeys);
    expect(REGTEST_MAINNET.zeroAmountForbiddenAfter).toBe(MAINNET.zeroAmountForbiddenAfter);
    expect(REGTEST_MAINNET.local && REGTEST.local && !MAINNET.local).toBe(true);
  });
});
