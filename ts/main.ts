// Command line → config → open store → kernel → RPC server → peers (unless --isolated).
// SIGINT/SIGTERM shut down cleanly.
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { p2pBind, parseArgs, type Config } from './config.js';
import { formatEndpoint, type Endpoint } from './core/endpoint.js';
import { formatUnits, COIN_DECIMALS } from './core/amount.js';
import { initKernel } from './kernel/instance.js';
import { MinFeePolicy } from './mempool/fee_policy.js';
import { MempoolService } from './mempool/service.js';
import { answerCachesOf, createApp, listen } from './api/server.js';
import { startPublicRpc } from './api/public_rpc.js';
import { StreamHub } from './api/streams/hub.js';
import { attachStreams } from './api/streams/endpoint.js';
import { StratumServer } from './stratum/server.js';
import { ROUTES } from './api/routes/index.js';
import { pageConfig, webPage } from './api/web_page.js';
import { NodeMetrics } from './api/metrics.js';
import type { NodeServices } from './api/services.js';
import { databaseMemory, databasePath, databaseSizeEvery, openDatabase, type Db } from './store/database.js';
import { StoreFailure, classifyOpenError } from './store/failure.js';
import { reindex } from './chain/reindex.js';
import { enableDebug, log } from './log.js';
import { Chain } from './chain/chain.js';
import { networkParams } from './consensus/params.js';
import { toHex } from './core/hex.js';
import { NODE_VERSION, COMMIT } from './version.js';
import { P2PNode } from './p2p/service.js';
import { SEEDS, dialPlanLine, pinnedPeers } from './p2p/seeds.js';

// Installed first, so a signal that arrives during start-up still shuts down cleanly.
const shutdownRequested = new Promise<string>((resolve) => {
  process.once('SIGINT', () => resolve('SIGINT'));
  process.once('SIGTERM', () => resolve('SIGTERM'));
});

/** `IP:PORT` of a listening server (the port taken when 0 was asked). */
function boundText(host: string, server: Server): string {
  const a = server.address();
  return formatEndpoint({ host, port: typeof a === 'object' && a ? a.port : 0 });
}

/** Closes `server` and every connection on it. */
async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * What start-up has opened, undone in reverse order: at shutdown, or when a later step fails
 * (a port taken), so each step says once how it is undone.
 */
class Teardown {
  private readonly steps: (() => Promise<void> | void)[] = [];

  push(step: () => Promise<void> | void): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (let step = this.steps.pop(); step; step = this.steps.pop()) await step();
  }
}

/**
 * Data directory → checked database and chain (rebuilt first with --reindex). Every problem the
 * user must act on is a StoreFailure with the one line to print.
 */
async function openStore(config: Config): Promise<{ db: Db; dbPath: string; chain: Chain }> {
  const params = networkParams(config.network);
  try {
    await mkdir(config.dataDir, { recursive: true });
  } catch (e) {
    throw classifyOpenError(e, config.dataDir, databasePath(config.dataDir));
  }
  if (config.reindex) await reindex(config.dataDir, params, log.info);
  let t = performance.now();
  const { db, path: dbPath } = await openDatabase(config.dataDir, { checkFiles: true });
  log.info(`Database: ${dbPath} (opened in ${seconds(t)} s)`);
  try {
    t = performance.now();
    const chain = await Chain.open(db, params);
    log.info(`Chain: ${chain.length} blocks (headers loaded in ${seconds(t)} s), tip ${toHex(chain.tipHash)}`);
    return { db, dbPath, chain };
  } catch (e) {
    await db.close();
    throw e;
  }
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(parsed.text);
      return 0;
    case 'version':
      process.stdout.write(parsed.text + '\n');
      return 0;
    case 'error':
      process.stderr.write(`wartnode: ${parsed.message}\nTry 'wartnode --help'.\n`);
      return 2;
  }
  const config = parsed.config;
  if (config.debug) enableDebug();
  log.info(`Warthog-compatible node ${NODE_VERSION} (${COMMIT}), network ${config.network}`);

  await initKernel();
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore(config);
  } catch (e) {
    if (!(e instanceof StoreFailure)) throw e;
    log.error(e.message);
    return 1;
  }
  const { db, dbPath, chain } = store;
  const teardown = new Teardown();
  teardown.push(async () => {
    await chain.idle();
    await db.close();
  });
  /** A listener could not start: undo what did, and exit 1. */
  const cannotListen = async (e: Endpoint, err: unknown) => {
    log.error(`Cannot listen on ${formatEndpoint(e)}: ${(err as Error).message}`);
    await teardown.run();
    return 1;
  };

  const minFee = config.minFeeE8 === null ? new MinFeePolicy() : new MinFeePolicy(config.minFeeE8);
  log.info(`Minimal transaction fee: ${formatUnits(minFee.minE8, COIN_DECIMALS)} coin`);

  let p2p: P2PNode | null = null;
  const startedAt = Math.floor(Date.now() / 1000);
  const mempool = new MempoolService(chain, minFee);
  const chainDBSize = databaseSizeEvery(dbPath);
  // Isolated, the node's own chain is the network's (P2PNode.synced otherwise).
  const synced = () => p2p?.synced() ?? true;
  const metrics = new NodeMetrics({
    chain,
    mempool,
    info: { version: NODE_VERSION, network: config.network, api: config.api },
    startedAt,
    synced,
    p2p: () => p2p,
    databaseSize: chainDBSize,
    databaseMemory: () => databaseMemory(db),
  });
  const node: NodeServices = {
    config,
    startedAt,
    mempool,
    store: { chainDBPath: dbPath, peersDBPath: dbPath, rxtxDBPath: dbPath, chainDBSize },
    chain,
    signedSnapshot: () => chain.snapshot,
    synced,
    p2p: () => p2p,
    now: () => Math.floor(Date.now() / 1000),
    log,
    metrics,
  };
  const routePaths = ROUTES.map((r) => r.path);

  const app = createApp(ROUTES, node, log.error);
  app.use(
    webPage(new URL('./web/', import.meta.url), () =>
      pageConfig(config.network, config.api, p2p?.ws ? { port: p2p.ws.port, tls: !!config.ws?.tls } : null, ROUTES),
    ),
  );
  const streams = new StreamHub(node, log);
  try {
    const server = await listen(app, config.rpc.host, config.rpc.port);
    metrics.observeHttp(server, 'rpc', routePaths);
    metrics.observeAnswers('rpc', answerCachesOf.get(app)!);
    const closeStreams = attachStreams(server, streams, log.warn);
    teardown.push(() => {
      closeStreams();
      return closeServer(server);
    });
    log.info(`RPC endpoint is ${boundText(config.rpc.host, server)}.`);
  } catch (e) {
    return cannotListen(config.rpc, e);
  }
  if (config.publicRpc) {
    const { host, port } = config.publicRpc;
    try {
      const pub = await startPublicRpc(ROUTES, node, host, port, log.error, streams);
      metrics.observeHttp(pub.server, 'public', routePaths);
      metrics.observeAnswers('public', answerCachesOf.get(pub.app)!);
      teardown.push(() => {
        pub.closeStreams();
        return closeServer(pub.server);
      });
      log.info(`Public RPC endpoint is ${boundText(host, pub.server)}.`);
    } catch (e) {
      return cannotListen(config.publicRpc, e);
    }
  }

  if (config.stratum) {
    const { host, port } = config.stratum;
    try {
      const stratum = await StratumServer.start(
        {
          chain,
          pending: () => node.mempool.pool.all(),
          mempoolVersion: () => node.mempool.version,
          now: node.now,
          log,
        },
        host,
        port,
      );
      teardown.push(() => stratum.stop());
      log.info(`Stratum endpoint is ${formatEndpoint({ host, port: stratum.port })}.`);
    } catch (e) {
      return cannotListen(config.stratum, e);
    }
  }

  if (config.isolated) {
    log.info('Isolated: no peer-to-peer connections');
  } else {
    const bind = p2pBind(config);
    // The network's seeds unless --connect replaces them or --no-seeds turns them off; tests give their own table.
    const seeds = !config.noSeeds;
    const table = config.seedTable ?? SEEDS;
    try {
      const started = await P2PNode.start({
        network: config.network,
        bind,
        connect: pinnedPeers(config.network, config.connect, seeds, table),
        chain,
        mempool: node.mempool,
        log,
        db,
        banLoopback: config.banLoopback,
        ws: config.ws,
      });
      p2p = started;
      teardown.push(() => started.stop());
    } catch (e) {
      return cannotListen(bind, e);
    }
    streams.attachPeers(p2p.manager);
    metrics.attachPeers(p2p.manager);
    log.info(`P2P endpoint is ${formatEndpoint({ host: bind.host, port: p2p.endpoint!.port })}.`);
    log.info(dialPlanLine(config.network, config.connect, seeds, table, config.seedTable ? 'WARTNODE_SEEDS' : 'built-in'));
    if (p2p.ws) log.info(`WebSocket P2P endpoint is ${config.ws!.tls ? 'wss' : 'ws'}://${config.ws!.host}:${p2p.ws.port}.`);
  }

  log.info(`Received ${await shutdownRequested}, shutting down`);
  await teardown.run();
  log.info('Shutdown complete');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    log.error(`fatal: ${(e as Error)?.stack ?? e}`);
    process.exit(1);
  },
);

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2);
