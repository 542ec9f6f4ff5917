// The Block header object (http-api.md "Block header"; http-api-details.md §5.4; consensus.md §2.1,
// §3.8) in its two forms. Inside blocks and history results `time` is a Timepoint and the PoW flag
// key is `verusV2_2`; in `/chain/block/:id/header` `time` is Unix seconds and the key is
// `verusV2.2`. The reference uses the first form everywhere (details §14.3); http-api.md wins.
import type { ChainReadState } from '../../chain/read_view.js';
import { PowVersion, powVersionAt } from '../../consensus/params.js';
import { toHex } from '../../core/hex.js';
import { Lru } from '../../core/lru.js';
import { powInfo, type PowInfo } from '../../kernel/pow.js';
import { bool, hexStr, int, named, num, obj, type Infer } from '../schema.js';
import { Timepoint, timepoint } from './time.js';

const Hash = hexStr(64);
const Word = hexStr(8); // 4 raw header bytes

const headerFields = {
  hash: Hash,
  prevHash: Hash,
  merkleroot: Hash,
  nonce: Word,
  version: Word,
  target: Word,
  raw: hexStr(160),
};
const powFields = { floatSha256t: num, floatVerus: num, hashSha256t: Hash, hashVerus: Hash };

export const Header = named(
  'Header',
  obj({
    ...headerFields,
    time: Timepoint,
    pow: obj({ ...powFields, verusV2_2: bool }),
  }),
);

export const HeaderUnixTime = named(
  'HeaderUnixTime',
  obj({
    ...headerFields,
    time: int,
    pow: obj({ ...powFields, 'verusV2.2': bool }),
  }),
);

const word = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

/**
 * The PoW values of recently viewed headers, by block hash: a VerusHash key generation per view
 * was a fifth of `/chain/block/:id`'s time (issue 12), and a hash fixes its header.
 */
const POW = new Lru<string, PowInfo>(4096);

/** What both forms share, for block `height` of `chain`. */
function facts(chain: ChainReadState, height: number) {
  const raw = chain.rawHeaderAt(height);
  const h = chain.headerAt(height);
  const v22 = powVersionAt(chain.params, height) === PowVersion.Janus8; // VerusHash v2.2 (§3.8)
  const hash = toHex(chain.hashAt(height));
  let pow = POW.get(hash);
  if (!pow) POW.set(hash, (pow = powInfo(raw, v22)));
  return {
    fields: {
      hash,
      prevHash: toHex(h.prevHash),
      merkleroot: toHex(h.merkleRoot),
      nonce: word(h.nonce),
      version: word(h.version),
      target: word(h.target),
      raw: toHex(raw),
    },
    timestamp: h.timestamp,
    pow: {
      floatSha256t: pow.floatSha256t,
      floatVerus: pow.floatVerus,
      hashSha256t: toHex(pow.hashSha256t),
      hashVerus: toHex(pow.hashVerus),
    },
    v22,
  };
}

/** The header as blocks and history results show it. */
export function headerView(chain: ChainReadState, height: number): Infer<typeof Header> {
  const f = facts(chain, height);
  return { ...f.fields, time: timepoint(f.timestamp), pow: { ...f.pow, verusV2_2: f.v22 } };
}

/** The header as `/chain/block/:id/header` shows it. */
export function headerViewUnixTime(chain: ChainReadState, height: number): Infer<typeof HeaderUnixTime> {
  const f = facts(chain, height);
  return { ...f.fields, time: f.timestamp, pow: { ...f.pow, 'verusV2.2': f.v22 } };
}
