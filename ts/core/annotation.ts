// Byte-range annotations of a parse, served by `GET /chain/block/:id/binary` (http-api.md:
// `{tag, beginOffset, endOffset, children}`, offsets into the body, children always an array).
import type { Reader } from './bytes.js';

export interface ParseAnnotation {
  tag: string;
  beginOffset: number;
  endOffset: number;
  children: ParseAnnotation[];
}

/** Records a tree of tagged ranges while a parser reads; disabled, it only runs the parser. */
export class Annotator {
  readonly roots: ParseAnnotation[] = [];
  private current: ParseAnnotation[] = this.roots;

  constructor(
    private readonly r: Reader,
    private readonly enabled = true,
  ) {}

  /** Runs `read`, tagging the bytes it consumed; tags opened inside become children. */
  mark<T>(tag: string, read: () => T): T {
    if (!this.enabled) return read();
    const node: ParseAnnotation = { tag, beginOffset: this.r.offset, endOffset: this.r.offset, children: [] };
    this.current.push(node);
    const parent = this.current;
    this.current = node.children;
    try {
      return read();
    } finally {
      this.current = parent;
      node.endOffset = this.r.offset;
    }
  }
}
