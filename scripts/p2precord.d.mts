// Types of p2precord.mjs (for the TypeScript tests that import it).
export interface Chunk {
  from: 'c' | 'a';
  t: number;
  data: Buffer;
}
export interface ConnectionRecord {
  connector: string;
  acceptor: string;
  chunks: Chunk[];
  events: { dir: string; t_ms: number; event: string }[];
}
export interface TranscriptUnit {
  dir: string;
  t_ms: number;
  type: { code: number | null; name: string };
  hex: string;
  decoded: any;
}
export declare const NAMES: Record<number, string>;
export declare function decode(type: number, payload: Buffer): any;
export declare function transcript(rec: ConnectionRecord): {
  connector: string;
  acceptor: string;
  messages: TranscriptUnit[];
  closeEvents: ConnectionRecord['events'];
};
export declare function startProxy(opts: {
  listenPort: number;
  targetPort: number;
  connector: string;
  acceptor?: string;
  admit?: (socket: import('node:net').Socket) => boolean;
  host?: string;
  targetHost?: string;
  localAddress?: string;
}): {
  server: import('node:net').Server;
  conns: ConnectionRecord[];
  ready: Promise<void>;
  cut(): void;
  liveCount(): number;
  close(): Promise<void>;
};
