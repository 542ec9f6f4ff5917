// The wallet file: one private key, written once with mode 0600. The address is kept in clear (so
// balance and history need no passphrase); the key is either plain hex or encrypted with a key
// derived from a passphrase by scrypt and sealed with AES-256-GCM, the address bound in as
// additional data. A wrong passphrase fails the GCM tag check, never yields a wrong key.
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatAddress } from '../core/address.js';
import { WalletError } from './wallet_error.js';
import { fromHexExact, toHex } from '../core/hex.js';
import { addressOfPrivateKey, isValidPrivateKey } from '../core/keys.js';

const FORMAT = 'wartnode-wallet';
const VERSION = 1;
/** scrypt cost: 2^15 × 8 × 128 bytes = 32 MiB, about 0.1 s. */
const SCRYPT = { N: 1 << 15, r: 8, p: 1 };
/** Refuse parameters a crafted file could use to exhaust memory or time. */
const SCRYPT_MAX = { N: 1 << 20, r: 16, p: 4 };

interface Sealed {
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  cipher: 'aes-256-gcm';
  iv: string;
  tag: string;
  ciphertext: string;
}

interface FileJson {
  format: string;
  version: number;
  address: string;
  privateKey?: string;
  encrypted?: Sealed;
}

export interface WalletFile {
  path: string;
  address: string;
  encrypted: boolean;
  /** The private key; the passphrase is required when the file is encrypted. */
  unlock(passphrase: string | null): Promise<Uint8Array>;
}

const bad = (path: string, why: string): never => {
  throw new WalletError(`wallet file ${path}: ${why}`);
};

function deriveKey(passphrase: string, salt: Uint8Array, s: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, 32, { N: s.N, r: s.r, p: s.p, maxmem: 256 * s.N * s.r }, (e, k) => (e ? reject(e) : resolve(k))),
  );
}

const aad = (address: string) => Buffer.from(`${FORMAT}:${VERSION}:${address}`);

async function seal(sk: Uint8Array, address: string, passphrase: string): Promise<Sealed> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', await deriveKey(passphrase, salt, SCRYPT), iv);
  c.setAAD(aad(address));
  const ciphertext = Buffer.concat([c.update(sk), c.final()]);
  return { kdf: 'scrypt', ...SCRYPT, salt: toHex(salt), cipher: 'aes-256-gcm', iv: toHex(iv), tag: toHex(c.getAuthTag()), ciphertext: toHex(ciphertext) };
}

async function open(path: string, s: Sealed, address: string, passphrase: string): Promise<Uint8Array> {
  const ok =
    s.kdf === 'scrypt' &&
    s.cipher === 'aes-256-gcm' &&
    [s.N, s.r, s.p].every(Number.isSafeInteger) &&
    s.N > 1 &&
    (s.N & (s.N - 1)) === 0 &&
    s.N <= SCRYPT_MAX.N &&
    s.r >= 1 &&
    s.r <= SCRYPT_MAX.r &&
    s.p >= 1 &&
    s.p <= SCRYPT_MAX.p;
  const salt = fromHexExact(String(s.salt), 16),
    iv = fromHexExact(String(s.iv), 12);
  const tag = fromHexExact(String(s.tag), 16),
    ct = fromHexExact(String(s.ciphertext), 32);
  if (!ok || !salt || !iv || !tag || !ct) bad(path, 'unsupported or damaged encryption parameters');
  const d = createDecipheriv('aes-256-gcm', await deriveKey(passphrase, salt!, s), iv!);
  d.setAAD(aad(address));
  d.setAuthTag(tag!);
  try {
    return new Uint8Array(Buffer.concat([d.update(ct!), d.final()]));
  } catch {
    throw new WalletError(`wrong passphrase: the key in ${path} cannot be decrypted with it`);
  }
}

/** Writes a new wallet file (refusing to replace one) and returns its address. */
export async function createWalletFile(path: string, sk: Uint8Array, passphrase: string | null): Promise<string> {
  if (!isValidPrivateKey(sk)) throw new WalletError('not a valid secp256k1 private key');
  const address = formatAddress(addressOfPrivateKey(sk));
  const json: FileJson =
    passphrase === null
      ? { format: FORMAT, version: VERSION, address, privateKey: toHex(sk) }
      : { format: FORMAT, version: VERSION, address, encrypted: await seal(sk, address, passphrase) };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  try {
    await writeFile(path, JSON.stringify(json, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new WalletError(`${path} already exists; a wallet file is never overwritten (give another --wallet FILE)`);
    }
    throw new WalletError(`cannot write ${path}: ${(e as Error).message}`);
  }
  return address;
}

export async function readWalletFile(path: string): Promise<WalletFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new WalletError(`no wallet file at ${path}: run 'create' or 'restore <privkey>' first, or give --wallet FILE`);
    throw new WalletError(`cannot read ${path}: ${(e as Error).message}`);
  }
  let j: FileJson;
  try {
    j = JSON.parse(text);
  } catch {
    return bad(path, 'not JSON');
  }
  if (typeof j !== 'object' || j === null || j.format !== FORMAT) bad(path, `not a ${FORMAT} file`);
  if (j.version !== VERSION) bad(path, `version ${j.version} is not supported (this wallet reads version ${VERSION})`);
  if (typeof j.address !== 'string' || !/^[0-9a-f]{48}$/.test(j.address)) bad(path, 'no valid address');
  const check = (sk: Uint8Array): Uint8Array => {
    if (!isValidPrivateKey(sk) || formatAddress(addressOfPrivateKey(sk)) !== j.address) bad(path, 'the key does not match the address');
    return sk;
  };
  if (j.encrypted !== undefined) {
    if (typeof j.encrypted !== 'object' || j.encrypted === null) bad(path, 'damaged encryption parameters');
    return {
      path,
      address: j.address,
      encrypted: true,
      unlock: async (passphrase) => {
        if (passphrase === null) {
          throw new WalletError(`${path} is encrypted: give --passphrase-file FILE or set WARTNODE_WALLET_PASSPHRASE (in a terminal the wallet asks)`);
        }
        return check(await open(path, j.encrypted!, j.address, passphrase));
      },
    };
  }
  const sk = typeof j.privateKey === 'string' ? fromHexExact(j.privateKey, 32) : null;
  if (!sk) bad(path, 'no valid private key');
  return { path, address: j.address, encrypted: false, unlock: async () => check(sk!) };
}
