// /metrics: the node's metrics for Prometheus, in the text exposition format 0.0.4 (api/metrics.ts
// says what each is and where it comes from). Served on the RPC endpoint in every API generation,
// never on the public listener (public_routes.ts).
import { PROMETHEUS_TEXT } from '../../core/metrics.js';
import { route } from '../route.js';

export const metricsRoutes = [
  route({
    method: 'GET',
    path: '/metrics',
    doc:
      'Metrics for Prometheus in its text exposition format 0.0.4: chain, sync, peers, relay, mempool, block application and HTTP latency, ' +
      'process and database size, all named `wartnode_…` (README "Metrics"). On the RPC endpoint only, never on the public listener.',
    response: null,
    raw: true,
    text: PROMETHEUS_TEXT,
    handler: ({ node }) => node.metrics.render(),
  }),
];
