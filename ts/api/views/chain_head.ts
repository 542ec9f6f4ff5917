// The chain head object (http-api.md "Chain"; http-api-details.md §5.1): `/chain/head` wraps it
// as `chainHead`, chain stream events carry it as `head` (clients.md §6.1).
import type { ChainReadState } from '../../chain/read_view.js';
import { hashrateAt } from '../../chain/hashrate.js';
import { expectedTarget, targetAt } from '../../consensus/header_check.js';
import { targetKindAt } from '../../consensus/params.js';
import { targetDifficulty, worksumDouble, worksumHex } from '../../consensus/target.js';
import { toHex } from '../../core/hex.js';
import { PIN_STEP } from '../../core/pin.js';
import { bool, hexStr, int, named, num, obj, strMatching, u64, type Infer } from '../schema.js';

const HEAD_HASHRATE_WINDOW = 100;
const Hash = hexStr(64);

export const ChainHead = named(
  'ChainHead',
  obj({
    difficulty: num,
    hash: Hash,
    hashrate: u64,
    height: int,
    is_janushash: bool,
    pinHash: Hash,
    pinHeight: int,
    worksum: num,
    worksumHex: strMatching('^0x[0-9a-f]{64}$'),
  }),
);

/** The last head built: a function of the chain alone, asked for far more often than the tip moves. */
let last: { key: string; view: Infer<typeof ChainHead> } | null = null;

export function chainHeadView(c: ChainReadState): Infer<typeof ChainHead> {
  const key = `${c.params.name} ${c.length} ${toHex(c.tipHash)}`;
  if (last?.key !== key) last = { key, view: buildChainHead(c) };
  return { ...last.view };
}

function buildChainHead(c: ChainReadState): Infer<typeof ChainHead> {
  const next = c.length + 1;
  const target = targetAt(c.params, next, expectedTarget(c.params, c));
  const pinHeight = Math.floor(c.length / PIN_STEP) * PIN_STEP;
  return {
    difficulty: targetDifficulty(target),
    hash: toHex(c.tipHash),
    hashrate: hashrateAt(c, c.length, HEAD_HASHRATE_WINDOW),
    height: c.length,
    is_janushash: targetKindAt(c.params, next) === 'V2',
    pinHash: toHex(c.hashAt(pinHeight)),
    pinHeight,
    worksum: worksumDouble(c.worksum),
    worksumHex: worksumHex(c.worksum),
  };
}
