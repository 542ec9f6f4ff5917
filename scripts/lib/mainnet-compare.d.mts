// Types of mainnet-compare.mjs (for test/api/reference_mainnet_chain.test.ts).
export interface Answer {
  status: number;
  text: string;
}
export interface KnownDefect {
  id: string;
  tag: string;
  line?: string;
  match(c: Record<string, unknown>): boolean;
}
export declare const DOC: string;
export declare const KNOWN: KnownDefect[];
export declare const SHAPE_ONLY: RegExp[];
export declare const LIVE_ONLY: RegExp[];
export declare function liveOnly(route: string): boolean;
export declare function locateKnown(docText: string, known?: KnownDefect[], doc?: string): string[];
export declare function shapeOf(v: unknown): unknown;
export declare function answerText(a: Answer): string;
export declare function compareAnswers(
  route: string,
  ours: Answer,
  ref: Answer,
  context?: { height?: number },
): { diffs: { path: string; ours: string; ref: string }[]; known: { id: string; line?: string; path: string }[] };
export declare function sortedJson(v: unknown): string;
