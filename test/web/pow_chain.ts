// A regtest chain with real proof of work, built in-process (template → nonce search → Chain.append
// with every check), in a temporary data directory a started node can then serve. Returns the raw
// headers too, for peers scripted by the tests.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chain } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { checkPow } from '../../ts/consensus/header_check.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { openDatabase } from '../../ts/store/database.js';

const NONCE_OFFSET = 76;

export async function powChain(n: number, miner: Uint8Array): Promise<{ dir: string; headers: Uint8Array[]; worksum: bigint }> {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-powchain-'));
  const { db } = await openDatabase(dir);
  const chain = await Chain.open(db, REGTEST);
  const headers: Uint8Array[] = [];
  const t0 = Math.floor(Date.now() / 1000) - 20 * n;
  for (let h = 1; h <= n; h++) {
    const t = await buildTemplate(chain, db, miner, t0 + 20 * h);
    const view = new DataView(t.header.buffer, t.header.byteOffset);
    for (let nonce = 0; !checkPow(REGTEST, h, t.header); nonce++) view.setUint32(NONCE_OFFSET, nonce);
    await chain.append(t.header, t.body, { now: t0 + 20 * h });
    headers.push(t.header.slice());
  }
  const worksum = chain.worksum;
  await chain.idle();
  await db.close();
  return { dir, headers, worksum };
}
