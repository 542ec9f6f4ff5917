// Network parameters and the rules that depend only on height (consensus.md §1, §2.3, §2.4, §3.1,
// §5.1, §5.7, §6.1). Testnet follows L where R and L differ (version 3 at heights 1–2, then 4;
// Janus8 at every height). Regtest (ours) is testnet with a trivial minimum target. Regtest-mainnet
// (ours) is mainnet as it runs today (mainnet.md: 0.8.20 above height 1,658,880) from height 1 with
// a trivial minimum target: mainnet's activation heights are data (`eras`), moved to 1 there.
import type { BodyLayout } from '../core/body.js';
import { fromHex } from '../core/hex.js';
import { PowVersion } from '../kernel/pow.js';
import { MAINNET_LEADER_KEYS, type SnapshotRules } from './signed_snapshot.js';

export { PowVersion };

export type NetworkName = 'mainnet' | 'testnet' | 'regtest' | 'regtest-mainnet';

export const BLOCK_TIME = 20;
export const MEDIAN_N = 50;
export const FUTURE_TOLERANCE = 600;

// Mainnet activation heights (§1).
export const JANUS_V1 = 745_200; // last Original-PoW and TargetV1 height
export const JANUS_V2 = 769_680;
export const JANUS_V3 = 776_880;
export const JANUS_V4 = 809_280;
export const JANUS_V5 = 855_000;
export const JANUS_V6 = 879_500;
export const JANUS_V7 = 987_000;
export const JANUS_V8 = 1_658_880; // also the last height of header version 2
export const NEW_MERKLE_ROOT = 900_000;
export const NEW_BLOCK_STRUCTURE = 981_500;
export const TOKEN_START = 9_815_000;
export const ZERO_AMOUNT_FORBIDDEN_AFTER = 719_118;

// Named compact targets (§2.4).
export const TARGET_V1_GENESIS = 0x20ffffff;
export const TARGET_V1_HARDEST = 0xff800000;
export const TARGET_V2_INITIAL = 0x0affffff;
export const TARGET_V2_INITIAL_V2 = 0x0a3fffff;
export const TARGET_V2_TESTNET_GENESIS = 0x077fffff;
export const TARGET_V2_MAX = 0xc03fffff;
/** Regtest (ours): z 0, b 0x3FFFFF, threshold ≈ 1, so nearly every nonce is a valid block. */
export const TARGET_V2_REGTEST_GENESIS = 0x003fffff;

/** SHA256 of GENESIS_SEED, the virtual block 0 on every network (§2.2, §11.1). */
export const GENESIS_SEED = "The New York Times International Edition 29/06/2023: 'Water troubles: A preview'";
export const GENESIS_HASH = fromHex('b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537')!;

/** P's block-level freeze of one account (§6.9, §9.2 item 22). */
export interface FrozenAccount {
  accountId: bigint;
  fromHeight: number;
  toHeight: number;
}

/** Mainnet's activation heights (§1), read where `testnetRules` is false. */
export interface Eras {
  /** Last height of TargetV1 and the original proof of work. */
  lastTargetV1: number;
  /** The PoW version up to each last height; Janus8 after the last. */
  pow: readonly (readonly [lastHeight: number, version: PowVersion])[];
  /** Last height of header version 2 (version 3 after it, 4 from tokenStart). */
  lastHeaderV2: number;
  newMerkleRoot: number;
  newBlockStructure: number;
  tokenStart: number;
  /** Retargets that jump to a fixed target instead of scaling (§5.2: the TargetV2 switch). */
  targetResets: readonly (readonly [height: number, target: number])[];
}

export interface NetworkParams extends SnapshotRules {
  name: NetworkName;
  /** The handshake magic's word (p2p.md §1.4): `WORD GRUNT?` / `WORD GRUNT!`. */
  magic: string;
  /** A network of ours on one machine: no seeds, never "alone", fakemine does real cheap PoW. */
  local: boolean;
  /** Testnet rule set (TargetV2 from height 1, V4 bodies and new merkle root everywhere, no snapshots). */
  testnetRules: boolean;
  eras: Eras;
  genesisHash: Uint8Array;
  /** Target of block 1 (§5.1). */
  genesisTarget: number;
  /** Minimum TargetV2 as a function of the retarget height (§5.2 step 5). */
  minTargetV2(retargetHeight: number): number;
  zeroAmountForbiddenAfter: number;
  frozenAccount: FrozenAccount | null;
}

const MAINNET_POW: [lastHeight: number, version: PowVersion][] = [
  [JANUS_V1, PowVersion.Original],
  [JANUS_V2, PowVersion.Janus1],
  [JANUS_V3, PowVersion.Janus2],
  [JANUS_V4, PowVersion.Janus3],
  [JANUS_V5, PowVersion.Janus4],
  [JANUS_V6, PowVersion.Janus5],
  [JANUS_V7, PowVersion.Janus6],
  [JANUS_V8, PowVersion.Janus7],
];

const MAINNET_ERAS: Eras = {
  lastTargetV1: JANUS_V1,
  pow: MAINNET_POW,
  lastHeaderV2: JANUS_V8,
  newMerkleRoot: NEW_MERKLE_ROOT,
  newBlockStructure: NEW_BLOCK_STRUCTURE,
  tokenStart: TOKEN_START,
  targetResets: [
    [JANUS_V1, TARGET_V2_INITIAL],
    [JANUS_V2, TARGET_V2_INITIAL_V2],
  ],
};

export const MAINNET: NetworkParams = {
  name: 'mainnet',
  magic: 'WARTHOG',
  local: false,
  testnetRules: false,
  eras: MAINNET_ERAS,
  genesisHash: GENESIS_HASH,
  genesisTarget: TARGET_V1_GENESIS,
  minTargetV2: (r) => (r <= JANUS_V2 ? TARGET_V2_INITIAL : TARGET_V2_INITIAL_V2),
  zeroAmountForbiddenAfter: ZERO_AMOUNT_FORBIDDEN_AFTER,
  frozenAccount: { accountId: 1910n, fromHeight: 2_534_438, toHeight: 2_598_041 },
  leaderKeys: MAINNET_LEADER_KEYS,
  enforceSnapshots: true,
};

export const TESTNET: NetworkParams = {
  name: 'testnet',
  magic: 'TESTNET',
  local: false,
  testnetRules: true,
  eras: MAINNET_ERAS, // not read under testnet rules
  genesisHash: GENESIS_HASH,
  genesisTarget: TARGET_V2_TESTNET_GENESIS,
  minTargetV2: () => TARGET_V2_TESTNET_GENESIS,
  zeroAmountForbiddenAfter: ZERO_AMOUNT_FORBIDDEN_AFTER, // §5.7 names no testnet difference
  frozenAccount: null,
  leaderKeys: MAINNET_LEADER_KEYS, // snapshots are still verified, but bind nothing (§5.7)
  enforceSnapshots: false,
};

export const REGTEST: NetworkParams = {
  ...TESTNET,
  name: 'regtest',
  magic: 'REGTEST',
  local: true,
  genesisTarget: TARGET_V2_REGTEST_GENESIS,
  minTargetV2: () => TARGET_V2_REGTEST_GENESIS,
};

/**
 * Mainnet's rules of today from height 1: header version 3, Janus8, V2 bodies with the new merkle
 * root, TargetV2 (mainnet's retarget grid), mainnet's rewards, zero-amount and freeze heights and
 * snapshot keys (the harness patch of 0.8.20 leaves those heights as they are, so do we); its own
 * magic and a trivial minimum target, no checkpoint (checkpoint.ts names mainnet's only).
 */
export const REGTEST_MAINNET: NetworkParams = {
  ...MAINNET,
  name: 'regtest-mainnet',
  magic: 'REGMAIN',
  local: true,
  eras: { lastTargetV1: 0, pow: [], lastHeaderV2: 0, newMerkleRoot: 1, newBlockStructure: 1, tokenStart: TOKEN_START, targetResets: [] },
  genesisTarget: TARGET_V2_REGTEST_GENESIS,
  minTargetV2: () => TARGET_V2_REGTEST_GENESIS,
};

const NETWORKS: Record<NetworkName, NetworkParams> = {
  mainnet: MAINNET,
  testnet: TESTNET,
  regtest: REGTEST,
  'regtest-mainnet': REGTEST_MAINNET,
};

export function networkParams(name: NetworkName): NetworkParams {
  return NETWORKS[name];
}

// ---------------------------------------------------------------------------------------------
// Rules by height

export type TargetKind = 'V1' | 'V2';

/** TargetV1 for mainnet heights ≤ 745,200, TargetV2 after and on testnet (§2.4). */
export function targetKindAt(p: NetworkParams, h: number): TargetKind {
  return !p.testnetRules && h <= p.eras.lastTargetV1 ? 'V1' : 'V2';
}

/**
 * The PoW version of block h (§3.1 table). Testnet and regtest: Janus7 at heights 1–2, Janus8
 * after, as the recorded L build does (consensus.md note at the top: it confirms §5.7's testnet
 * rules, with header version 3 at those heights, see requiredHeaderVersion).
 */
export function powVersionAt(p: NetworkParams, h: number): PowVersion {
  if (p.testnetRules) return h <= 2 ? PowVersion.Janus7 : PowVersion.Janus8;
  for (const [last, v] of p.eras.pow) if (h <= last) return v;
  return PowVersion.Janus8;
}

/** The header version block h must carry, or null where it is not checked (§2.3; testnet per L). */
export function requiredHeaderVersion(p: NetworkParams, h: number): number | null {
  if (p.testnetRules) return h <= 2 ? 3 : 4;
  if (h <= p.eras.lastTargetV1) return null;
  if (h <= p.eras.lastHeaderV2) return 2;
  return h < p.eras.tokenStart ? 3 : 4;
}

/**
 * The body layout of block h with header version `version` (§6.1). Testnet bodies always use the
 * V4 layout (L's heights 1–2 carry version 3 with all four count fields, §11.6); a version below 4
 * then only forbids the token-era sections (block_check).
 */
export function bodyLayoutAt(p: NetworkParams, h: number, version: number): BodyLayout {
  if (p.testnetRules) return 'V4';
  if (h < p.eras.newBlockStructure) return 'V1';
  return version >= 4 ? 'V4' : 'V2';
}

/** New merkle root type for mainnet heights ≥ 900,000 and on testnet (§6.7). */
export function merkleNewTypeAt(p: NetworkParams, h: number): boolean {
  return p.testnetRules || h >= p.eras.newMerkleRoot;
}

/** Whether block h may carry token-era sections (header version ≥ 4). */
export function tokenFeaturesAllowed(version: number): boolean {
  return version >= 4;
}
