// The project's own code for plain Node scripts: a small entry over ts/ bundled with the checkout's
// esbuild and imported, the kernel initialized. A script thereby signs, mines, encodes bodies and
// speaks the wire protocol with exactly the code the node runs (scripts/mainnet-interop.mjs).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Bundles `lines` (export statements with paths relative to the checkout, `./ts/...`) of the
 * checkout `ourDir` into `outFile`, imports it and runs its `initKernel` (which `lines` must export).
 */
export async function loadProject(ourDir, lines, outFile) {
  const esbuild = createRequire(join(ourDir, 'package.json'))('esbuild');
  await esbuild.build({
    stdin: { contents: lines.join('\n'), resolveDir: ourDir, loader: 'ts', sourcefile: 'script-entry.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: outFile,
    logLevel: 'error',
  });
  const m = await import(pathToFileURL(outFile).href);
  await m.initKernel();
  return m;
}
