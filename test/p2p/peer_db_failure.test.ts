// The peers' records are written in the background: a failing write (a full disk) is said once, not
// once per record, until a write succeeds again; then a new failure is said again.
import { expect, it } from 'vitest';
import { PeerDb } from '../../ts/p2p/peer_db.js';
import type { Db } from '../../ts/store/database.js';

it('reports a run of failing writes once, and again after a write succeeded', async () => {
  let full = true;
  const db = {
    put: async () => {
      if (full) throw new Error('IO error: No space left on device');
    },
  } as unknown as Db;
  const errors: string[] = [];
  const peers = new PeerDb(db, (e) => errors.push((e as Error).message));
  for (let i = 0; i < 5; i++) peers.putPeer({ address: `10.0.0.${i}:9186`, verified: true, lastVerifiedS: i });
  await peers.idle();
  expect(errors).toHaveLength(1);
  full = false;
  peers.putPeer({ address: '10.0.0.9:9186', verified: true, lastVerifiedS: 9 });
  await peers.idle();
  full = true;
  peers.putPeer({ address: '10.0.0.9:9186', verified: true, lastVerifiedS: 10 });
  peers.putPeer({ address: '10.0.0.9:9186', verified: true, lastVerifiedS: 11 });
  await peers.idle();
  expect(errors).toHaveLength(2);
});
