// What the side-by-side scripts (ibd.mjs, apiperf.mjs) share: free loopback ports of a range, and
// child processes killed when the script exits however it ends.
import { readFileSync } from 'node:fs';

/** Local ports held by any socket, also in TIME-WAIT (a reference cannot bind those; loopback
 *  connections take ephemeral ports in our range). */
export function busyPorts() {
  return new Set(
    ['/proc/net/tcp', '/proc/net/tcp6']
      .flatMap((f) => {
        try {
          return readFileSync(f, 'utf8').split('\n').slice(1);
        } catch {
          return [];
        }
      })
      .map((l) => l.trim().split(/\s+/)[1])
      .filter(Boolean)
      .map((a) => parseInt(a.split(':').pop(), 16)),
  );
}

/** A function giving the next port of [from, to] no socket holds, round the range. */
export function portAllocator(from, to) {
  let next = from;
  return () => {
    const busy = busyPorts();
    for (let i = 0; i <= to - from; i++) {
      const p = next++;
      if (next > to) next = from;
      if (!busy.has(p)) return p;
    }
    throw new Error('no free port');
  };
}

/** Children started by the script, killed when it exits. */
export const kids = [];
process.on('exit', () => {
  for (const c of kids) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
