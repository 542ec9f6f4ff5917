// The sync client reads time only through its injected clock (P2POptions.nowMs): a peer set aside
// after a timed-out request comes back when the clock is moved on, without the test waiting 30 s.
import { expect, test } from 'vitest';
import type { Chain } from '../../ts/chain/chain.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { RequestExpired, type Peer } from '../../ts/p2p/peer.js';
import { SyncClient } from '../../ts/p2p/sync.js';

/** A peer ahead of us whose every request times out; the kinds asked are kept in `requests`. */
function timingOutPeer(address: string, requests: string[]): Peer {
  return {
    address,
    initialized: true,
    stalled: false,
    busy: false,
    caps: { mayLeadSync: true },
    chain: { descriptor: 1, length: 5, worksum: 1n << 40n, grid: [] },
    request: (m: { kind: string }) => {
      requests.push(m.kind);
      return Promise.reject(new RequestExpired());
    },
    close: () => {},
  } as unknown as Peer;
}

test('a peer that timed out is set aside until the injected clock passes the set-aside time', async () => {
  let nowMs = 1_700_000_000_000;
  const requests: string[] = [];
  const slow = timingOutPeer('10.0.0.1:9186', requests);
  const chain = { params: REGTEST, length: 0, worksum: 0n } as unknown as Chain;
  const warnings: string[] = [];
  const sync = new SyncClient(
    chain,
    () => [slow],
    { info: () => {}, warn: (l) => warnings.push(l) },
    () => nowMs,
  );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  try {
    sync.kick();
    await settle();
    expect(requests).toHaveLength(1);
    expect(warnings).toEqual(['Sync from 10.0.0.1:9186: request timed out']);
    nowMs += 29_999;
    sync.kick();
    await settle();
    expect(requests).toHaveLength(1);
    nowMs += 1;
    sync.kick();
    await settle();
    expect(requests).toHaveLength(2);
  } finally {
    sync.stop();
  }
});

test('after a failed write no block is asked for while the disk is full, nor before the pause is over', async () => {
  let nowMs = 1_700_000_000_000;
  const requests: string[] = [];
  const peer = timingOutPeer('10.0.0.2:9186', requests);
  let probes = 0;
  let diskFull = true;
  const chain = {
    params: REGTEST,
    length: 0,
    worksum: 0n,
    writeFailed: true,
    writable: async () => {
      probes++;
      return !diskFull;
    },
  } as unknown as Chain;
  const sync = new SyncClient(
    chain,
    () => [peer],
    { info: () => {}, warn: () => {} },
    () => nowMs,
  );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  try {
    sync.kick();
    await settle();
    expect([probes, requests.length]).toEqual([1, 0]);
    // Announcements meanwhile: neither a probe nor a request until the pause is over.
    diskFull = false;
    sync.kick();
    await settle();
    expect([probes, requests.length]).toEqual([1, 0]);
    nowMs += 2_000;
    sync.kick();
    await settle();
    expect(requests).toEqual(['Batchreq']);
  } finally {
    sync.stop();
  }
});
