// /tools/* and /transaction/minfee (http-api.md "Tools"; http-api-details.md §4.5, §6.5, §9.4–§9.8).
import { COIN_DECIMALS, parseUnits } from '../../core/amount.js';
import { fail, quoted } from '../../core/errors.js';
import { addressFromPublicKey, formatAddress } from '../../core/address.js';
import { fromHexExact, toHex } from '../../core/hex.js';
import { randomFillSync } from 'node:crypto';
import { publicKeyKernel } from '../../kernel/secp256k1.js';
import { fee16Decode } from '../../kernel/fee16.js';
import { parsePrice, priceView } from '../../kernel/price.js';
import { janushashNumber } from '../../kernel/pow.js';
import { COMMIT, NODE_VERSION, VERSION } from '../../version.js';
import { route } from '../route.js';
import { oddHex, u32Param, u64Param } from '../params.js';
import { arr, hexStr, int, named, num, obj, str, u64 } from '../schema.js';
import { CompactFee, compactFee } from '../views/amount.js';
import { Encode16bit, encode16bit } from '../views/fee16.js';
import { Price } from '../views/price.js';

const Wallet = named('Wallet', obj({ address: hexStr(48), privKey: hexStr(64), pubKey: hexStr(66) }));

/** Random bytes drawn from the system's generator in blocks: one call per 128 keys, not one per key. */
const RANDOM_BLOCK = 32 * 128;
let randomBlock = new Uint8Array(0);
let randomAt = 0;

/** A new secret key and its public key: 32 fresh random bytes (each used once), drawn again in the rare case they are 0 or ≥ n. */
function newKeyPair(): { sk: Uint8Array; pub: Uint8Array } {
  for (;;) {
    if (randomAt + 32 > randomBlock.length) {
      randomBlock = randomFillSync(new Uint8Array(RANDOM_BLOCK));
      randomAt = 0;
    }
    const sk = randomBlock.slice(randomAt, randomAt + 32);
    randomBlock.fill(0, randomAt, randomAt + 32);
    randomAt += 32;
    const pub = publicKeyKernel(sk);
    if (pub) return { sk, pub };
  }
}

/**
 * The answer for a key pair. The public key comes from the kernel's sk·G (its fixed-base tables:
 * an order of magnitude faster than the JS one), which also refuses keys outside 1 ≤ key < n.
 */
function wallet(sk: Uint8Array, pub: Uint8Array) {
  return { address: formatAddress(addressFromPublicKey(pub)), privKey: toHex(sk), pubKey: toHex(pub) };
}

const MAX_ASSET_DECIMALS = 18;

function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400),
    h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60),
    s = seconds % 60;
  return `${d}d ${h}h ${m}m ${s}s`;
}

export const toolsRoutes = [
  route({
    method: 'GET',
    path: '/tools/encode16bit/from_e8/:feeE8',
    dependsOn: 'chain',
    doc: 'Rounds a fee in E8 to the nearest value of the 16-bit fee code (fees must be exactly representable).',
    response: Encode16bit,
    handler: ({ params }) => encode16bit(u64Param(params.feeE8, 'feeE8')),
  }),
  route({
    method: 'GET',
    path: '/tools/encode16bit/from_string/:string',
    dependsOn: 'chain',
    doc: 'Rounds a decimal coin fee to the nearest value of the 16-bit fee code.',
    response: Encode16bit,
    handler: ({ params }) => {
      const e8 = parseUnits(params.string, COIN_DECIMALS);
      if (e8 === null) fail('EINV_FUNDS', `${quoted(params.string)} is not a coin amount (digits, at most one '.', at most 8 decimals)`);
      return encode16bit(e8!);
    },
  }),
  route({
    method: 'GET',
    path: '/tools/parse_price/:price/:decimals',
    dependsOn: 'chain',
    doc: 'The 3-byte price codes nearest below (floor) and above (ceil) a decimal price, for an asset of `:decimals` decimals; `hex` is what `limitSwap` takes as `limit`. A leading `+`, spaces, hex and inf/nan are refused (129).',
    response: named('ParsedPrice', obj({ decimals: int, floor: Price, ceil: Price })),
    handler: ({ params }) => {
      const decimals = u32Param(params.decimals, 'decimals');
      if (decimals > MAX_ASSET_DECIMALS) fail('ETOKENDECIMALS', `decimals must be 0 to ${MAX_ASSET_DECIMALS}, got ${decimals}`);
      const parsed = parsePrice(params.price, decimals);
      if (!parsed) fail('EBADPRICE', `${quoted(params.price)} is not a positive price representable with ${decimals} decimals`);
      return { decimals, floor: priceView(parsed!.floor, decimals), ceil: priceView(parsed!.ceil, decimals) };
    },
  }),
  route({
    method: 'GET',
    path: '/tools/info',
    doc: "The node's version, uptime and database paths and size.",
    response: named(
      'NodeInfo',
      obj({
        chainDBPath: str,
        dbSize: u64,
        peersDBPath: str,
        rxtxDBPath: str,
        uptime: obj({ formatted: str, seconds: int, since: int }),
        version: obj({ commit: str, major: int, minor: int, patch: int, name: str }),
      }),
    ),
    handler: async ({ node }) => {
      const seconds = Math.max(0, Math.floor(Date.now() / 1000) - node.startedAt);
      return {
        chainDBPath: node.store.chainDBPath,
        dbSize: await node.store.chainDBSize(),
        peersDBPath: node.store.peersDBPath,
        rxtxDBPath: node.store.rxtxDBPath,
        uptime: { formatted: formatUptime(seconds), seconds, since: node.startedAt },
        version: { commit: COMMIT, ...VERSION, name: `${NODE_VERSION} "${COMMIT}"` },
      };
    },
  }),
  route({
    method: 'GET',
    path: '/tools/wallet/new',
    doc: 'A new random key pair and its address. The private key travels over HTTP: use it on a trusted connection only.',
    response: Wallet,
    handler: () => {
      const { sk, pub } = newKeyPair();
      return wallet(sk, pub);
    },
  }),
  route({
    method: 'GET',
    path: '/tools/wallet/from_privkey/:privkey',
    doc: 'The public key and address of a private key.',
    response: Wallet,
    handler: ({ params }) => {
      const sk = fromHexExact(params.privkey, 32);
      const pub = sk && publicKeyKernel(sk); // null unless 1 ≤ key < n
      if (!pub) fail('EBADPRIVKEY', 'expected 64 hex chars of a secp256k1 secret key (1 ≤ key < n)', oddHex(params.privkey));
      return wallet(sk!, pub!);
    },
  }),
  route({
    method: 'GET',
    path: '/tools/janushash_number/:headerhex',
    dependsOn: 'chain',
    doc: 'The janushash proof-of-work value of an 80-byte header.',
    response: named('JanushashNumber', obj({ janushashNumber: num })),
    handler: ({ params }) => {
      const header = fromHexExact(params.headerhex, 80);
      if (!header) fail('EBADHEADER', 'expected 160 hex chars (an 80-byte header)', oddHex(params.headerhex));
      return { janushashNumber: janushashNumber(header!) };
    },
  }),
  route({
    // Up to :number verified peer addresses, sampled as for pongs (p2p.md §4.1, §4.7; details §9.8).
    method: 'GET',
    path: '/tools/sample_verified_peers/:number',
    doc: 'Up to `:number` verified peer addresses, sampled at random.',
    response: arr(str),
    handler: ({ node, params }) => {
      const n = u32Param(params.number, 'number');
      return (node.p2p()?.manager.sampleVerified(n) ?? []).map((a) => `${a.ip}:${a.port}`);
    },
  }),
  route({
    method: 'GET',
    path: '/transaction/minfee',
    dependsOn: 'chain+mempool',
    doc: 'The minimum fee the mempool accepts now.',
    response: named('MinFee', obj({ minFee: CompactFee })),
    handler: ({ node }) => {
      const code = node.mempool.minFeeCode;
      return { minFee: compactFee(fee16Decode(code), code) };
    },
  }),
];
