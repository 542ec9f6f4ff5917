// `npm run mine -- --rpc URL | --stratum HOST:PORT --address ADDR [--blocks N]`: mines N blocks
// (default: forever) over HTTP or through a stratum server.
// Exit codes: 0 done, 1 the node failed or could not be reached, 2 bad command line.
import { initKernel } from '../kernel/instance.js';
import { parseAddress } from '../core/address.js';
import { NodeUnreachable, mineBlocks } from './cpu_miner.js';
import { mineStratum } from './stratum_client.js';
import { COMMIT, NODE_VERSION } from '../version.js';
import { parseEndpoint } from '../core/endpoint.js';
import { optionsHelp, parseOptions, type OptionSpec } from '../cli/options.js';

const OPTIONS: OptionSpec[] = [
  { name: 'rpc', value: 'URL', help: "the node's RPC endpoint, e.g. http://127.0.0.1:3200 (a --regtest node)" },
  { name: 'stratum', value: 'HOST:PORT', help: "the node's stratum endpoint instead, e.g. 127.0.0.1:3457" },
  { name: 'address', value: 'ADDRESS', help: '48-hex address the block rewards go to (GET /tools/wallet/new makes one)' },
  { name: 'blocks', value: 'N', help: 'stop after N blocks (default: mine until stopped)' },
  { name: 'version', short: 'V', help: 'print the version and exit' },
  { name: 'help', short: 'h', help: 'print this help and exit' },
];

const USAGE = `Usage: npm run mine -- (--rpc URL | --stratum HOST:PORT) --address ADDRESS [--blocks N]
       node dist/miner.mjs (--rpc URL | --stratum HOST:PORT) --address ADDRESS [--blocks N]

A CPU miner for a wartnode or reference node: it asks the node for a block template
(GET /chain/mine/ADDRESS), searches for proof of work and submits blocks (POST /chain/append);
or it mines through the node's stratum server (a node started with --stratum=IP:PORT).

${optionsHelp(OPTIONS)}

On --regtest a block takes milliseconds; mainnet and testnet need far more work than a CPU does.
`;

function usage(msg: string): never {
  process.stderr.write(`miner: ${msg}\nTry 'npm run mine -- --help'.\n`);
  process.exit(2);
}

let args: Map<string, string | true>;
try {
  args = parseOptions(process.argv.slice(2), OPTIONS, { words: false }).values;
} catch (e) {
  usage((e as Error).message);
}
if (args.has('help')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (args.has('version')) {
  process.stdout.write(`wartnode-miner ${NODE_VERSION} (commit ${COMMIT})\n`);
  process.exit(0);
}

await initKernel(); // address checksums use the kernel's SHA-256

const text = (name: string) => args.get(name) as string | undefined;
const stratumText = text('stratum');
if (stratumText !== undefined && args.has('rpc')) usage('give --rpc or --stratum, not both');
const stratum = stratumText === undefined ? null : parseEndpoint(stratumText, 'name');
if (stratumText !== undefined && !stratum) usage(`--stratum must be HOST:PORT such as 127.0.0.1:3457, got '${stratumText}'`);
let rpc = '';
if (!stratum) {
  const rpcText = text('rpc') ?? usage('--rpc or --stratum is required');
  const rpcUrl = URL.canParse(rpcText) ? new URL(rpcText) : null;
  if (!rpcUrl || !/^https?:$/.test(rpcUrl.protocol)) usage(`--rpc must be an http:// URL such as http://127.0.0.1:3200, got '${rpcText}'`);
  rpc = rpcText.replace(/\/+$/, '');
}
const address = text('address') ?? usage('--address is required');
if (!parseAddress(address)) usage(`'${address}' is not a 48-hex address`);
const blocksText = text('blocks');
const blocks = blocksText === undefined ? Infinity : Number(blocksText);
if (!(blocks >= 1) || (blocksText !== undefined && !/^\d+$/.test(blocksText))) usage('--blocks must be a positive integer');

try {
  const say = (s: string) => process.stdout.write(s + '\n');
  const n = stratum ? await mineStratum(stratum.host, stratum.port, address, blocks, say) : await mineBlocks(rpc, address, blocks, say);
  process.stdout.write(`mined ${n} blocks\n`);
} catch (e) {
  process.stderr.write(`miner: ${(e as Error).message}\n`);
  if (e instanceof NodeUnreachable) {
    process.stderr.write(
      `Is the node running, and is ${rpc} its RPC endpoint? Start one with 'node dist/node.mjs --regtest' ` +
        `(RPC on http://127.0.0.1:3200) or pass the endpoint it logged ('RPC endpoint is IP:PORT') with --rpc.\n`,
    );
  }
  process.exit(1);
}
