// One node for all the tests of a file, as most API tests want it: started (startNode) before them,
// stopped and its data directory removed after them. Apart from node.ts, which the benchmarks
// bundle: these are vitest hooks.
import { afterAll, beforeAll } from 'vitest';
import { removeDir, startNode, type TestNode } from './node.js';

/**
 * Registers the file's hooks; the function returned gives the node in tests and later hooks.
 * `dataDir`, when given, runs first and returns the data directory the node starts on (a chain
 * built by the test); the node's removal removes it.
 */
export function sharedNode(args: string[] = ['--regtest'], dataDir?: () => Promise<string>): () => TestNode {
  let node: TestNode | undefined;
  beforeAll(async () => {
    node = await startNode(args, await dataDir?.());
  });
  afterAll(async () => {
    await node!.stop();
    await removeDir(node!.dataDir);
  });
  return () => node!;
}
