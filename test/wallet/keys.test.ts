// The wallet file as a user meets it: create, restore, address, show; mode 0600; a key encrypted
// with a passphrase (scrypt + AES-256-GCM) is never in the file in clear and opens only with the
// right passphrase; usage errors, and a node that cannot be reached.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAddress } from '../../ts/core/address.js';
import { toHex } from '../../ts/core/hex.js';
import { addressOfPrivateKey, publicKeyOf } from '../../ts/core/keys.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir } from '../helpers/node.js';
import { TestWallet } from '../helpers/wallet.js';
import { WALLET_BIN, wallet, walletOk } from './cli.js';

await initKernel();

/** util-linux `script` gives the wallet a terminal, so its passphrase prompt can be driven. */
const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

/** Runs the wallet on a pseudo-terminal, typing each answer after the prompt that asks for it. */
function onTerminal(args: string[], dialogue: [prompt: string, answer: string][]): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, WALLET_BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const p = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, WARTNODE_WALLET_PASSPHRASE: '' } });
  let screen = '',
    next = 0,
    seen = 0;
  p.stdout.on('data', (d) => {
    screen += d;
    while (next < dialogue.length && screen.indexOf(dialogue[next][0], seen) >= 0) {
      seen = screen.indexOf(dialogue[next][0], seen) + dialogue[next][0].length;
      p.stdin.write(dialogue[next++][1] + '\r');
    }
  });
  return new Promise((resolve) =>
    p.once('close', (code) => {
      p.stdin.destroy();
      resolve({ code, screen });
    }),
  );
}

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wartnode-wallet-'));
  await writeFile(file('pass'), 'correct horse\n');
  await writeFile(file('wrong'), 'incorrect horse\n');
});
afterAll(async () => {
  await removeDir(dir);
});

describe('wallet keys', () => {
  it('create writes a 0600 file and prints the address that address and show repeat', async () => {
    const out = await walletOk(['--wallet', file('a.json'), 'create']);
    const address = out.trim();
    expect(address).toMatch(/^[0-9a-f]{48}$/);
    expect((await stat(file('a.json'))).mode & 0o777).toBe(0o600);
    expect((await walletOk(['--wallet', file('a.json'), 'address'])).trim()).toBe(address);
    const shown = await walletOk(['--wallet', file('a.json'), 'show']);
    const sk = /private key ([0-9a-f]{64})/.exec(shown)![1];
    expect(formatAddress(addressOfPrivateKey(Buffer.from(sk, 'hex')))).toBe(address);
    expect(shown).toContain(`public key  ${toHex(publicKeyOf(Buffer.from(sk, 'hex')))}`);
    // Only `show` prints the key.
    expect(out).not.toContain(sk);
  });

  it('never overwrites a wallet file', async () => {
    const before = await readFile(file('a.json'), 'utf8');
    const r = await wallet(['--wallet', file('a.json'), 'create']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('already exists');
    expect(await readFile(file('a.json'), 'utf8')).toBe(before);
  });

  it('restore stores a given key', async () => {
    const w = TestWallet.fromSeed(7);
    const out = await walletOk(['--wallet', file('r.json'), 'restore', toHex(w.sk)]);
    expect(out.trim()).toBe(w.addressText);
    expect(await walletOk(['--wallet', file('r.json'), 'show'])).toContain(`private key ${toHex(w.sk)}`);
  });

  it('restore refuses a malformed key and writes nothing', async () => {
    for (const bad of ['1234', '00'.repeat(32), 'zz'.repeat(32), 'ff'.repeat(32)]) {
      const r = await wallet(['--wallet', file('bad.json'), 'restore', bad]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('wartnode-wallet: a private key is 64 hex chars of a valid secp256k1 key\n');
      await expect(stat(file('bad.json'))).rejects.toThrow();
    }
  });

  it('encrypts with a passphrase: the key is not in the file, and only the right passphrase opens it', async () => {
    const w = TestWallet.fromSeed(8);
    const out = await walletOk(['--wallet', file('e.json'), '--passphrase-file', file('pass'), 'restore', toHex(w.sk)]);
    expect(out.trim()).toBe(w.addressText);
    const text = await readFile(file('e.json'), 'utf8');
    expect(text).not.toContain(toHex(w.sk));
    expect(JSON.parse(text).encrypted).toMatchObject({ kdf: 'scrypt', cipher: 'aes-256-gcm' });
    expect((await stat(file('e.json'))).mode & 0o777).toBe(0o600);
    // The address needs no passphrase; the key does (from the file or the environment).
    expect((await walletOk(['--wallet', file('e.json'), 'address'])).trim()).toBe(w.addressText);
    expect(await walletOk(['--wallet', file('e.json'), '--passphrase-file', file('pass'), 'show'])).toContain(toHex(w.sk));
    expect(await walletOk(['--wallet', file('e.json'), 'show'], { WARTNODE_WALLET_PASSPHRASE: 'correct horse' })).toContain(toHex(w.sk));

    const wrong = await wallet(['--wallet', file('e.json'), '--passphrase-file', file('wrong'), 'show']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('wrong passphrase');
    expect(wrong.stdout).toBe('');
    const none = await wallet(['--wallet', file('e.json'), 'show']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('is encrypted: give --passphrase-file');
  });

  it.skipIf(!HAS_SCRIPT)('in a terminal: --encrypt asks twice without echo, signing commands ask once', async () => {
    const made = await onTerminal(
      ['--wallet', file('t.json'), '--encrypt', 'create'],
      [
        ['New wallet passphrase: ', 'typed secret'],
        ['Repeat the passphrase: ', 'typed secret'],
      ],
    );
    expect(made.code, made.screen).toBe(0);
    expect(made.screen).not.toContain('typed secret');
    expect(made.screen).toContain('(the key is encrypted)');
    const address = /([0-9a-f]{48})/.exec(made.screen)![1];
    expect(await walletOk(['--wallet', file('t.json'), 'show'], { WARTNODE_WALLET_PASSPHRASE: 'typed secret' })).toContain(address);
    const shown = await onTerminal(['--wallet', file('t.json'), 'show'], [['Wallet passphrase: ', 'typed secret']]);
    expect(shown.screen).toContain(`address     ${address}`);
    expect(shown.screen).toContain('private key');
    const differ = await onTerminal(
      ['--wallet', file('t2.json'), '--encrypt', 'create'],
      [
        ['New wallet passphrase: ', 'one'],
        ['Repeat the passphrase: ', 'two'],
      ],
    );
    expect(differ.code).toBe(1);
    expect(differ.screen).toContain('the two passphrases differ');
    await expect(stat(file('t2.json'))).rejects.toThrow();
  });

  it('a damaged or foreign wallet file is a clear error', async () => {
    await writeFile(file('junk.json'), '{"hello":1}');
    const r = await wallet(['--wallet', file('junk.json'), 'address']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not a wartnode-wallet file');
    const missing = await wallet(['--wallet', file('none.json'), 'address']);
    expect(missing.stderr).toContain("run 'create' or 'restore <privkey>' first");
  });

  it('--help prints usage; a wrong command or option exits 2', async () => {
    const help = await wallet(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('liquidity deposit <asset> <base> <coin>');
    for (const args of [['frob'], ['send', 'x'], ['--bogus', 'address'], ['token', 'burn']]) {
      const r = await wallet(['--wallet', file('a.json'), ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^wartnode-wallet: [^\n]+\nTry 'wartnode-wallet --help'\.\n$/);
    }
  });

  it('an unreachable node: the URL and a hint, exit 1', async () => {
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const r = await wallet(['--wallet', file('a.json'), '--node', `http://127.0.0.1:${port}`, 'balance']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot reach the node at http://127.0.0.1:${port}`);
  });
});
