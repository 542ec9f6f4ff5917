// A read-only face of the database fixed at one LevelDB snapshot: every get, getSync, getMany and iterator
// reads the state as of the snapshot's moment, whatever is committed since (issue 12: reads never
// wait for block application and never see half of a change).
import type { Db } from './database.js';

export type Snapshot = ReturnType<Db['snapshot']>;

export function snapshotDb(db: Db, snapshot: Snapshot): Db {
  const at = <O extends object>(o?: O) => ({ ...(o ?? {}), snapshot }) as O;
  const reads: Record<string, unknown> = {
    get: (key: Uint8Array, o?: object) => db.get(key, at(o)),
    getSync: (key: Uint8Array, o?: object) => db.getSync(key, at(o)),
    getMany: (keys: Uint8Array[], o?: object) => db.getMany(keys, at(o)),
    iterator: (o?: object) => db.iterator(at(o)),
    keys: (o?: object) => db.keys(at(o)),
    values: (o?: object) => db.values(at(o)),
  };
  const refused = () => {
    throw new Error('a snapshot of the database is read-only');
  };
  return new Proxy(db, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in reads) return reads[prop];
      if (prop === 'put' || prop === 'del' || prop === 'batch' || prop === 'clear') return refused;
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
