// Runs the built wallet (dist/wallet.mjs) as a user does: a process with arguments, an environment
// without a terminal, its output and exit code.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const WALLET_BIN = join(import.meta.dirname, '../../dist/wallet.mjs');
export const MINER_BIN = join(import.meta.dirname, '../../dist/miner.mjs');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the process; `done` resolves when it exits. */
export function start(bin: string, args: string[], env: Record<string, string> = {}) {
  const proc = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WARTNODE_WALLET_PASSPHRASE: '', ...env },
  });
  let stdout = '',
    stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise<Run>((resolve) => proc.once('close', (code) => resolve({ code, stdout, stderr })));
  return { proc, done, stdout: () => stdout };
}

export const wallet = (args: string[], env?: Record<string, string>): Promise<Run> => start(WALLET_BIN, args, env).done;

/** The wallet's stdout; fails with its stderr unless it exits 0. */
export async function walletOk(args: string[], env?: Record<string, string>): Promise<string> {
  const r = await wallet(args, env);
  if (r.code !== 0) throw new Error(`wallet ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}
