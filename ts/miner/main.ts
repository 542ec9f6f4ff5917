// `npm run mine -- --rpc URL --address ADDR [--blocks N]`: mines N blocks (default: forever).
import { initKernel } from '../kernel/instance.js';
import { parseAddress } from '../core/address.js';
import { mineBlocks } from './cpu_miner.js';

function usage(msg: string): never {
  process.stderr.write(`miner: ${msg}\nusage: npm run mine -- --rpc http://127.0.0.1:3000 --address <48 hex> [--blocks N]\n`);
  process.exit(2);
}

await initKernel();

const args = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const m = /^--(rpc|address|blocks)(?:=(.*))?$/.exec(argv[i]);
  if (!m) usage(`unexpected argument '${argv[i]}'`);
  const value = m[2] ?? argv[++i];
  if (value === undefined) usage(`--${m[1]} needs a value`);
  args.set(m[1], value);
}
const rpc = args.get('rpc') ?? usage('--rpc is required');
const address = args.get('address') ?? usage('--address is required');
if (!parseAddress(address)) usage(`'${address}' is not a 48-hex address`);
const blocksText = args.get('blocks');
const blocks = blocksText === undefined ? Infinity : Number(blocksText);
if (!(blocks >= 1) || (blocksText !== undefined && !/^\d+$/.test(blocksText))) usage('--blocks must be a positive integer');

try {
  const n = await mineBlocks(rpc.replace(/\/$/, ''), address, blocks, (s) => process.stdout.write(s + '\n'));
  process.stdout.write(`mined ${n} blocks\n`);
} catch (e) {
  process.stderr.write(`miner: ${(e as Error).message}\n`);
  process.exit(1);
}
