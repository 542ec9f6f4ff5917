import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every node a test spawns inherits an empty seed list (config.ts WARTNODE_SEEDS): mainnet and
    // testnet nodes dial their built-in seeds by default, and tests never dial a public address.
    env: { WARTNODE_SEEDS: '' },
  },
});
