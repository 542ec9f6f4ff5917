// Command line → config → open store → kernel → RPC server → peers (unless --isolated).
// SIGINT/SIGTERM shut down cleanly.
import { mkdir } from 'node:fs/promises';
import { p2pBind, parseArgs } from './config.js';
import { formatUnits, COIN_DECIMALS } from './core/amount.js';
import { initKernel } from './kernel/instance.js';
import { MinFeePolicy } from './mempool/fee_policy.js';
import { MempoolService } from './mempool/service.js';
import { createApp, listen } from './api/server.js';
import { ROUTES } from './api/routes/index.js';
import type { NodeServices } from './api/services.js';
import { databaseSize, openDatabase } from './store/database.js';
import { log } from './log.js';
import { Chain } from './chain/chain.js';
import { networkParams } from './consensus/params.js';
import { toHex } from './core/hex.js';
import { NODE_VERSION, COMMIT } from './version.js';
import { P2PNode } from './p2p/service.js';

// Installed first, so a signal that arrives during start-up still shuts down cleanly.
const shutdownRequested = new Promise<string>((resolve) => {
  process.once('SIGINT', () => resolve('SIGINT'));
  process.once('SIGTERM', () => resolve('SIGTERM'));
});

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  switch (parsed.kind) {
    case 'help': process.stdout.write(parsed.text); return 0;
    case 'version': process.stdout.write(parsed.text + '\n'); return 0;
    case 'error': process.stderr.write(`wartnode: ${parsed.message}\nTry 'wartnode --help'.\n`); return 2;
  }
  const config = parsed.config;
  log.info(`Warthog-compatible node ${NODE_VERSION} (${COMMIT}), network ${config.network}`);

  await initKernel();
  await mkdir(config.dataDir, { recursive: true });
  const { db, path: dbPath } = await openDatabase(config.dataDir);
  log.info(`Database: ${dbPath}`);

  const minFee = config.minFeeE8 === null ? new MinFeePolicy() : new MinFeePolicy(config.minFeeE8);
  log.info(`Minimal transaction fee: ${formatUnits(minFee.minE8, COIN_DECIMALS)} coin`);

  const chain = await Chain.open(db, networkParams(config.network));
  log.info(`Chain: ${chain.length} blocks, tip ${toHex(chain.tipHash)}`);

  let p2p: P2PNode | null = null;
  const node: NodeServices = {
    config,
    startedAt: Math.floor(Date.now() / 1000),
    mempool: new MempoolService(chain, db, minFee),
    store: { chainDBPath: dbPath, peersDBPath: dbPath, rxtxDBPath: dbPath, chainDBSize: () => databaseSize(dbPath) },
    db,
    chain,
    // Isolated or without peers, the node's own chain is the network's.
    synced: () => p2p?.synced() ?? true,
    p2p: () => p2p,
    now: () => Math.floor(Date.now() / 1000),
    log,
  };

  const app = createApp(ROUTES, node, log.error);
  const endpoint = `${config.rpc.host.includes(':') ? `[${config.rpc.host}]` : config.rpc.host}:${config.rpc.port}`;
  let server;
  try {
    server = await listen(app, config.rpc.host, config.rpc.port);
  } catch (e) {
    log.error(`Cannot listen on ${endpoint}: ${(e as Error).message}`);
    await db.close();
    return 1;
  }
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : config.rpc.port;
  log.info(`RPC endpoint is ${endpoint.replace(/:\d+$/, `:${port}`)}.`);

  if (config.isolated) {
    log.info('Isolated: no peer-to-peer connections');
  } else {
    const bind = p2pBind(config);
    const p2pText = `${bind.host}:${bind.port}`;
    try {
      p2p = await P2PNode.start({
        network: config.network, bind, connect: config.connect ?? [], chain, mempool: node.mempool, log,
        db, banLoopback: config.banLoopback,
      });
    } catch (e) {
      log.error(`Cannot listen on ${p2pText}: ${(e as Error).message}`);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      return 1;
    }
    log.info(`P2P endpoint is ${bind.host}:${p2p.endpoint!.port}.`);
  }

  log.info(`Received ${await shutdownRequested}, shutting down`);
  await p2p?.stop();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await chain.idle();
  await db.close();
  log.info('Shutdown complete');
  return 0;
}

main().then((code) => process.exit(code), (e) => {
  log.error(`fatal: ${(e as Error)?.stack ?? e}`);
  process.exit(1);
});
