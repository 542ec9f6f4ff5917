// /loadtest/* (p2p.md §6; http-api-details.md §9.13): start or stop a header or block load test
// against one connection; unknown connection ⇒ 56.
import { setLoadTest } from '../../p2p/loadtest.js';
import { route } from '../route.js';
import { connectionParam } from './peers.js';

const modes = { header_request: 'header', block_request: 'block', disable: null } as const;

export const loadtestRoutes = Object.entries(modes).map(([name, mode]) =>
  route({
    method: 'GET',
    path: `/loadtest/${name}/:conn_id`,
    response: null,
    doc: mode ? `Starts a load test on a peer connection: repeated ${mode} requests (p2p.md §6).` : 'Stops the load test on a peer connection.',
    handler: (req) => {
      setLoadTest(connectionParam(req, 'conn_id'), mode);
      return null;
    },
  }),
);
