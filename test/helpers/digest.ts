// SHA-256 over every key and value of a database: equal digests mean equal databases.
import { sha256 } from '../../ts/kernel/hash.js';
import type { Db } from '../../ts/store/database.js';

export async function digest(db: Db): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const [k, v] of db.iterator()) parts.push(k, Uint8Array.of(0xff), v, Uint8Array.of(0xfe));
  return Buffer.from(sha256(Buffer.concat(parts))).toString('hex');
}
