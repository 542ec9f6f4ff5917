// docs/api.md is generated from the declared routes, schemas and error table (scripts/docs);
// the committed file must be what the generator makes of the code as it is now.
import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { apiDoc } from '../../scripts/docs/api_doc.js';
import { architectureDoc } from '../../scripts/docs/architecture_doc.js';

async function expectCurrent(file: string, fresh: string): Promise<void> {
  const committed = await readFile(file, 'utf8').catch(() => '');
  if (committed !== fresh) {
    const a = committed.split('\n'),
      b = fresh.split('\n');
    const line = Math.max(
      0,
      a.findIndex((l, i) => l !== b[i]),
    );
    expect.fail(`${file} is stale: run \`make docs\` and commit ${file} (first difference at line ${line + 1}: ${JSON.stringify(b[line] ?? '')})`);
  }
}

test('docs/api.md is up to date (else run `make docs` and commit docs/api.md)', async () => {
  await expectCurrent('docs/api.md', await apiDoc(await readFile('scripts/docs/api.md.in', 'utf8')));
});

test('docs/architecture.md is up to date, with the key layout of ts/store/keys.ts', async () => {
  const keys = await readFile('ts/store/keys.ts', 'utf8');
  const fresh = architectureDoc(await readFile('scripts/docs/architecture.md.in', 'utf8'), keys);
  await expectCurrent('docs/architecture.md', fresh);
  // Every key prefix the schema declares in code is in the document's layout.
  for (const m of keys.matchAll(/(?:key|withBytes|meta)\('(.)'/g)) expect(fresh, `prefix '${m[1]}'`).toContain(`'${m[1]}'`);
});

test('the README links both documents and names no file outside the repository', async () => {
  const readme = await readFile('README.md', 'utf8');
  expect(readme).toContain('](docs/api.md)');
  expect(readme).toContain('](docs/architecture.md)');
  expect(readme).not.toMatch(/\.\.\/shared|\/work\/|\]\(\.\.\//);
});

test('the document covers every route, every transaction type and every error code', async () => {
  const { ROUTES } = await import('../../ts/api/routes/index.js');
  const { ERRORS } = await import('../../ts/core/errors.js');
  const doc = await apiDoc(await readFile('scripts/docs/api.md.in', 'utf8'));
  for (const r of ROUTES) expect(doc).toContain(`### \`${r.method} ${r.path}\``);
  for (const t of ['coinTransfer', 'tokenTransfer', 'limitSwap', 'liquidityDeposit', 'liquidityWithdrawal', 'cancelation', 'assetCreation']) {
    expect(doc).toContain(`### ${t}\n`);
  }
  for (const [name, [code]] of Object.entries(ERRORS)) if (code !== 0) expect(doc).toContain(`| ${code} | \`${name}\` |`);
  expect(doc).not.toMatch(/\{\{\w+\}\}/);
});

test('POST /transaction/add declares every code its parser and the mempool can answer', async () => {
  const { ROUTES } = await import('../../ts/api/routes/index.js');
  const add = ROUTES.find((r) => r.method === 'POST' && r.path === '/transaction/add')!;
  for (const file of ['ts/api/tx_request.ts', 'ts/mempool/admission.ts', 'ts/mempool/mempool.ts']) {
    for (const m of (await readFile(file, 'utf8')).matchAll(/'(E[A-Z0-9_]+)'/g)) expect(add.errors, `${file}: ${m[1]}`).toContain(m[1]);
  }
});
