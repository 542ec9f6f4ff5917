// `make docs`: writes docs/api.md from scripts/docs/api.md.in and the declared routes, schemas and
// error table (scripts/docs/api_doc.ts, bundled with esbuild as the node is), and
// docs/architecture.md from its template and the key layout of ts/store/keys.ts.
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

const outfile = 'dist/docs.mjs';
await build({
  entryPoints: ['scripts/docs/index.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  define: { __COMMIT__: '"docs"' },
});
const { apiDoc, architectureDoc } = await import(pathToFileURL(outfile).href);
await mkdir('docs', { recursive: true });
await writeFile('docs/api.md', await apiDoc(await readFile('scripts/docs/api.md.in', 'utf8')));
await writeFile('docs/architecture.md', architectureDoc(await readFile('scripts/docs/architecture.md.in', 'utf8'), await readFile('ts/store/keys.ts', 'utf8')));
console.log('wrote docs/api.md, docs/architecture.md');
