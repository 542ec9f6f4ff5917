// Types of exact-json.mjs (for the TypeScript tests that import it).
export declare class Num {
  t: string;
  constructor(t: string);
}
export declare function parseJson(text: string): any;
export declare function writeJson(v: unknown): string;
export declare function sortedJson(v: unknown): string;
export declare function big(v: unknown): bigint;
export declare function numOf(v: unknown): number;
export declare function isObject(v: unknown): boolean;
export declare function sameNumberValue(a: Num, b: Num): boolean;
export interface LeafDiff {
  path: string;
  ours: string;
  ref: string;
}
export declare function leafDiffs(a: unknown, b: unknown, path: string, out: LeafDiff[], sameNumber?: (x: Num, y: Num) => boolean): LeafDiff[];
