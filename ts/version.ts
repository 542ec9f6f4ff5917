// The node's version (http-api.md "Versioning": the node reports 0.10.3). The commit is stamped
// in by the bundler (scripts/build.mjs); unbundled runs (tests of modules) report "unknown".
declare const __COMMIT__: string | undefined;

export const VERSION = { major: 0, minor: 10, patch: 3 } as const;
export const COMMIT: string = typeof __COMMIT__ === 'string' ? __COMMIT__ : 'unknown';
export const NODE_VERSION = `v${VERSION.major}.${VERSION.minor}.${VERSION.patch}`;
