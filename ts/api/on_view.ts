// Runs a read route on one read view (chain/read_view.ts): its `node.db` is the database snapshot
// and its `node.chain` answers reads from the chain as of the last change, so everything the
// route reads belongs to one state — never half of a reorg — and it never waits for a change.
import { pinnedTo } from '../chain/read_view.js';
import type { Request } from './route.js';

export function onView<T>(handler: (req: Request) => T | Promise<T>): (req: Request) => Promise<T> {
  const run = (req: Request) => req.node.chain.read(async (view) =>
    handler({ ...req, node: { ...req.node, db: view.db, chain: pinnedTo(req.node.chain, view) } }));
  // `make docs` lists a route's error codes from its handler's source: the wrapped one's.
  run.toString = () => handler.toString();
  return run;
}
