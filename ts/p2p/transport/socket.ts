// What a P2P connection needs of its byte stream (p2p.md §1.1): a TCP socket, or a WebSocket whose
// binary frames carry the same bytes (clients.md §6.3). Everything above it is transport-blind.
export type TransportKind = 'tcp' | 'ws';

export interface PeerSocket {
  /** Bytes queued for sending and not yet handed to the network (the EBUFFERFULL rule, §1.5). */
  readonly writableLength: number;
  write(bytes: Uint8Array): unknown;
  destroy(): void;
  setNoDelay?(noDelay?: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}
