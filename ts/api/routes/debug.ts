// /debug/json_schemas (http-api-details.md §9.12): the JSON Schemas of every declared response
// type, by name, as the chosen generation (`--api`) writes it, sent without the envelope.
// /debug/header_download (§9.9): the state of header download. Our sync client (p2p/sync.ts) follows one leader with one batch outstanding, so
// leaderListSize and verifierMapSize are 0 or 1 and queuedBatches holds at most the one batch.
import { worksumHex } from '../../consensus/target.js';
import { SYNC_CONFIG } from '../../p2p/sync.js';
import { route, type Route } from '../route.js';
import { GENERATIONS, generationDocument } from '../generations/index.js';
import { int, named, obj, record, str } from '../schema.js';

const QueuedBatch = named('QueuedBatch', obj({ batchSize: int, leaderRefsSize: int, originId: int, probeRefsSize: int }));

/** The debug routes; `/debug/json_schemas` describes `table`, the node's whole table (routes/index.ts fills it). */
export const debugRoutes = (table: readonly Route<any>[]) => [
  route({
    method: 'GET',
    path: '/debug/json_schemas',
    doc: 'The JSON Schema of every named response type (the [Types](#types) below).',
    response: null,
    raw: true,
    handler: ({ api }) => generationDocument(GENERATIONS[api], [...table]),
  }),
  route({
    method: 'GET',
    path: '/debug/header_download',
    doc: 'The state of the header download of the sync client.',
    response: named(
      'HeaderDownload',
      obj({
        config: obj({ maxLeaders: int, pendingDepth: int }),
        leaderListSize: int,
        minWork: str,
        queuedBatches: record(QueuedBatch),
        verifierMapSize: int,
      }),
    ),
    handler: ({ node, view }) => {
      const s = node.p2p()?.sync.status;
      const leader = s?.leader ?? null;
      const queuedBatches: Record<string, { batchSize: number; leaderRefsSize: number; originId: number; probeRefsSize: number }> = {};
      if (leader && s?.batch) queuedBatches[leader.address] = { batchSize: s.batch.count, leaderRefsSize: 1, originId: leader.id, probeRefsSize: 0 };
      return {
        config: { ...SYNC_CONFIG },
        leaderListSize: leader ? 1 : 0,
        // A leader must announce more work than the local chain (p2p.md §3.3).
        minWork: worksumHex(view.worksum),
        queuedBatches,
        verifierMapSize: s && s.stagedHeaders > 0 ? 1 : 0,
      };
    },
  }),
];
