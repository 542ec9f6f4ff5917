// Where the passphrase comes from, first match wins: --passphrase-file FILE (its first line), the
// environment variable WARTNODE_WALLET_PASSPHRASE, else a prompt without echo when stdin is a
// terminal. Non-interactive use (scripts, tests) gives a file or the variable.
import { readFile } from 'node:fs/promises';
import { WalletError } from './wallet_error.js';

export const PASSPHRASE_ENV = 'WARTNODE_WALLET_PASSPHRASE';

/** Reads one line from the terminal without echoing it. */
function prompt(question: string): Promise<string> {
  const { stdin, stderr } = process;
  return new Promise((resolve, reject) => {
    let line = '';
    // Echo off before the question, so an answer typed at once is never shown.
    stdin.setRawMode!(true);
    stderr.write(question);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (result: () => void) => {
      stdin.setRawMode!(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      result();
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(() => resolve(line));
        if (ch === '\u0003' || ch === '\u0004') return done(() => reject(new WalletError('no passphrase given')));
        if (ch === '\u007f' || ch === '\b') line = line.slice(0, -1);
        else line += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export interface PassphraseSource {
  file?: string;
}

/** The passphrase from the file or the environment; null when neither gives one. */
async function given(src: PassphraseSource): Promise<string | null> {
  if (src.file !== undefined) {
    let text: string;
    try {
      text = await readFile(src.file, 'utf8');
    } catch (e) {
      throw new WalletError(`cannot read the passphrase file ${src.file}: ${(e as Error).message}`);
    }
    const line = text.split(/\r?\n/)[0];
    if (line === '') throw new WalletError(`the passphrase file ${src.file} starts with an empty line`);
    return line;
  }
  const env = process.env[PASSPHRASE_ENV];
  return env === undefined || env === '' ? null : env;
}

/** The passphrase that unlocks an encrypted wallet; null when none is given and no terminal can ask. */
export async function unlockPassphrase(src: PassphraseSource): Promise<string | null> {
  return (await given(src)) ?? (process.stdin.isTTY ? prompt('Wallet passphrase: ') : null);
}

/**
 * The passphrase for a new wallet file: given, or asked twice in a terminal when `ask` (--encrypt);
 * null means the key is stored unencrypted.
 */
export async function newPassphrase(src: PassphraseSource, ask: boolean): Promise<string | null> {
  const g = await given(src);
  if (g !== null || !ask) return g;
  if (!process.stdin.isTTY) throw new WalletError(`--encrypt needs a terminal to ask, or --passphrase-file FILE, or ${PASSPHRASE_ENV}`);
  const a = await prompt('New wallet passphrase: ');
  if (a === '') throw new WalletError('the passphrase must not be empty');
  if (a !== (await prompt('Repeat the passphrase: '))) throw new WalletError('the two passphrases differ');
  return a;
}
