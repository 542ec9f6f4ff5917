// The vectors of test/vectors/ the core and consensus tests share, read from their files and typed:
// consensus-examples.json (consensus.md §11: mainnet headers, the testnet block of §11.6) and
// coin-transfers.json (recorded from the reference node).
import { readFileSync } from 'node:fs';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8'));

export interface HeaderVector {
  name: string;
  height: number;
  raw: string;
  hash: string;
  prevHash: string;
  target: number;
  targetKind: 'V1' | 'V2';
  zeros: number;
  mantissa: number;
  version: number;
  difficulty: number;
  powVersion: number;
}

export interface BlockVector {
  header: string;
  hash: string;
  body: string;
  address: string;
  displayAddress: string;
  leaves: string[];
  merkleRoot: string;
  rewardHash: string;
}

const examples = read('consensus-examples.json');
export const HEADERS: HeaderVector[] = examples.headers;
/** §11.6: testnet height 1 as published for L (header version 3, fake PoW). */
export const TESTNET_BLOCK_1: BlockVector = examples.testnetBlock1;

export interface CoinTransferCase {
  case: string;
  signedBytesHex: string;
  txHash: string;
  signature65: string;
}

const transfers = read('coin-transfers.json');
/** The hash of block 0 the transfers pinned at height 0 sign. */
export const PIN_HASH_0: string = transfers.pinHash0;
/** Coin transfers the reference node accepted. */
export const COIN_TRANSFERS: CoinTransferCase[] = transfers.cases;
/** The signing keys by name. */
export const COIN_TRANSFER_KEYS: Record<string, string> = transfers.keys;
