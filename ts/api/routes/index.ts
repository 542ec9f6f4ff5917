// Every route the node serves. A route that is not done does not appear here.
import type { Route } from '../route.js';
import { accountRoutes } from './account.js';
import { blockRoutes } from './blocks.js';
import { chainRoutes } from './chain.js';
import { chartRoutes } from './charts.js';
import { debugRoutes } from './debug.js';
import { exchangeRoutes } from './exchange.js';
import { loadtestRoutes } from './loadtest.js';
import { metricsRoutes } from './metrics.js';
import { peerRoutes } from './peers.js';
import { toolsRoutes } from './tools.js';
import { transactionRoutes } from './transactions.js';

export const ROUTES: Route<any>[] = [];
// The debug routes describe the whole table, themselves included: they get it to read when asked.
ROUTES.push(
  ...chainRoutes,
  ...blockRoutes,
  ...transactionRoutes,
  ...accountRoutes,
  ...exchangeRoutes,
  ...chartRoutes,
  ...peerRoutes,
  ...toolsRoutes,
  ...debugRoutes(ROUTES),
  ...loadtestRoutes,
  ...metricsRoutes,
);
