// Rules by height (consensus.md §2.3, §2.4, §3.1, §6.1, §6.7) on each network.
import { describe, expect, it } from 'vitest';
import {
  MAINNET,
  REGTEST,
  TESTNET,
  bodyLayoutAt,
  merkleNewTypeAt,
  networkParams,
  powVersionAt,
  requiredHeaderVersion,
  targetKindAt,
} from '../../ts/consensus/params.js';

describe('mainnet', () => {
  it('PoW versions at the boundaries of §3.1', () => {
    const at = (h: number) => powVersionAt(MAINNET, h);
    expect([1, 745_200].map(at)).toEqual([0, 0]);
    expect([745_201, 769_680].map(at)).toEqual([1, 1]);
    expect([769_681, 776_880].map(at)).toEqual([2, 2]);
    expect([776_881, 809_280].map(at)).toEqual([3, 3]);
    expect([809_281, 855_000].map(at)).toEqual([4, 4]);
    expect([855_001, 879_500].map(at)).toEqual([5, 5]);
    expect([879_501, 987_000].map(at)).toEqual([6, 6]);
    expect([987_001, 1_658_880].map(at)).toEqual([7, 7]);
    expect([1_658_881, 20_000_000].map(at)).toEqual([8, 8]);
  });
  it('header versions (§2.3)', () => {
    const at = (h: number) => requiredHeaderVersion(MAINNET, h);
    expect([1, 745_200, 745_201, 1_658_880, 1_658_881, 9_814_999, 9_815_000].map(at)).toEqual([null, null, 2, 2, 3, 3, 4]);
  });
  it('target kinds (§2.4)', () => {
    expect(targetKindAt(MAINNET, 745_200)).toBe('V1');
    expect(targetKindAt(MAINNET, 745_201)).toBe('V2');
  });
  it('body layouts and merkle types (§6.1)', () => {
    expect(bodyLayoutAt(MAINNET, 981_499, 2)).toBe('V1');
    expect(bodyLayoutAt(MAINNET, 981_500, 2)).toBe('V2');
    expect(bodyLayoutAt(MAINNET, 2_000_000, 3)).toBe('V2');
    expect(bodyLayoutAt(MAINNET, 9_815_000, 4)).toBe('V4');
    expect(merkleNewTypeAt(MAINNET, 899_999)).toBe(false);
    expect(merkleNewTypeAt(MAINNET, 900_000)).toBe(true);
  });
});

describe('testnet (L) and regtest', () => {
  for (const p of [TESTNET, REGTEST]) {
    it(`${p.name}: TargetV2, Janus7 then Janus8, version 3 then 4, V4 bodies, new merkle root`, () => {
      expect(targetKindAt(p, 1)).toBe('V2');
      expect([1, 2, 3, 100].map((h) => powVersionAt(p, h))).toEqual([7, 7, 8, 8]);
      expect([1, 2, 3, 100].map((h) => requiredHeaderVersion(p, h))).toEqual([3, 3, 4, 4]);
      expect(bodyLayoutAt(p, 1, 3)).toBe('V4');
      expect(merkleNewTypeAt(p, 1)).toBe(true);
      expect(p.frozenAccount).toBeNull();
    });
  }
  it('genesis targets and minimum targets', () => {
    expect(TESTNET.genesisTarget).toBe(0x077fffff);
    expect(REGTEST.genesisTarget).toBe(0x003fffff);
    expect(MAINNET.genesisTarget).toBe(0x20ffffff);
    expect(MAINNET.minTargetV2(769_680)).toBe(0x0affffff);
    expect(MAINNET.minTargetV2(770_400)).toBe(0x0a3fffff);
    expect(networkParams('regtest')).toBe(REGTEST);
  });
});
