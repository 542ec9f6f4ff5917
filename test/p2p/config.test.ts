// The P2P command-line options (http-api-details.md §12.1; ports of p2p.md §1.2, regtest ours).
import { describe, expect, it } from 'vitest';
import { HELP, p2pBind, parseArgs, type Config } from '../../ts/config.js';

const env = { HOME: '/home/u' };
const config = (args: string[]): Config => {
  const r = parseArgs(args, env);
  if (r.kind !== 'run') throw new Error(`not a run: ${JSON.stringify(r)}`);
  return r.config;
};

describe('--bind, --connect, --isolated', () => {
  it("default to 0.0.0.0 on the network's port, the seed list and peers on", () => {
    expect(p2pBind(config([]))).toEqual({ host: '0.0.0.0', port: 9186 });
    expect(p2pBind(config(['--testnet']))).toEqual({ host: '0.0.0.0', port: 9286 });
    expect(p2pBind(config(['--regtest']))).toEqual({ host: '0.0.0.0', port: 9386 });
    const c = config([]);
    expect(c.connect).toBeUndefined();
    expect(c.isolated).toBeUndefined();
  });

  it('parse long and short forms', () => {
    const c = config(['--regtest', '-b', '127.0.0.1:0', '-C', '10.0.0.1:9186,10.0.0.2:1']);
    expect(p2pBind(c)).toEqual({ host: '127.0.0.1', port: 0 });
    expect(c.connect).toEqual([
      { host: '10.0.0.1', port: 9186 },
      { host: '10.0.0.2', port: 1 },
    ]);
    expect(config(['--bind=0.0.0.0:9000', '--connect=127.0.0.1:9186', '--isolated'])).toMatchObject({
      bind: { host: '0.0.0.0', port: 9000 },
      connect: [{ host: '127.0.0.1', port: 9186 }],
      isolated: true,
    });
    expect(HELP).toContain('--bind=IP:PORT');
    expect(HELP).toContain('--connect=IP:PORT');
    expect(HELP).toContain('--isolated');
  });

  it('refuse malformed values', () => {
    for (const a of [['--bind=x'], ['--bind=1.2.3.4'], ['--connect='], ['--connect=1.2.3.4'], ['--connect=1.2.3.4:1,,x'], ['--isolated=1'], ['-b']]) {
      expect(parseArgs(a, env).kind, a.join(' ')).toBe('error');
    }
  });
});
