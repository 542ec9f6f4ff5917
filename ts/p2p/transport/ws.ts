// P2P over WebSocket (`--ws-port`, clients.md §6.3): the grunt handshake and framed messages of
// p2p.md §1.4–1.5 split across binary frames, subprotocol `binary`, any path. Plain HTTP requests are
// refused; with `--ws-x-forwarded-for` the peer's IP is the X-Forwarded-For header's (an upgrade without
// it is refused); TLS when both a certificate and a key are given. Accepted sockets go to the same
// peer manager as TCP ones: the same limits, offenses and bans.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIPv4 } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PeerSocket } from './socket.js';

/** The subprotocol the reference's WebSocket server names (clients.md §6.3). */
export const WS_PROTOCOL = 'binary';
/** A frame larger than the largest framed message (p2p.md §2.2, Blockrep) plus its header is refused. */
const MAX_WS_FRAME = 1_050_120 + 10;

export interface WsListenOptions {
  host: string;
  port: number;
  /** Take the peer's IP from X-Forwarded-For (behind a reverse proxy); refuse upgrades without it. */
  xForwardedFor?: boolean;
  tls?: { cert: string; key: string };
}

/** A WebSocket seen as the byte stream of one P2P connection. */
class WsPeerSocket extends EventEmitter implements PeerSocket {
  constructor(private readonly ws: WebSocket) {
    super();
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return this.fail(new Error('text frame on a binary P2P connection'));
      this.emit('data', data);
    });
    ws.on('error', (e) => this.emit('error', e));
    ws.on('close', () => this.emit('close'));
  }
  get writableLength(): number {
    return this.ws.bufferedAmount;
  }
  write(bytes: Uint8Array): void {
    this.ws.send(bytes, { binary: true });
  }
  destroy(): void {
    this.ws.terminate();
  }
  private fail(e: Error): void {
    this.emit('error', e);
    this.ws.terminate();
  }
}

/** The client's IP, or null when it cannot be trusted (no X-Forwarded-For where one is required). */
function clientIp(req: IncomingMessage, xForwardedFor: boolean): string | null {
  if (!xForwardedFor) return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const header = req.headers['x-forwarded-for'];
  const first = (Array.isArray(header) ? header[0] : header)
    ?.split(',')[0]
    ?.trim()
    .replace(/^::ffff:/, '');
  return first && isIPv4(first) ? first : null;
}

export class WsListener {
  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly port: number,
  ) {}

  /** Listens; `accept` gets every upgraded connection with the peer's IP and port. Throws when the port cannot be bound. */
  static async start(opts: WsListenOptions, accept: (socket: PeerSocket, ip: string, port: number) => void): Promise<WsListener> {
    const refuse: Parameters<typeof createHttpServer>[1] = (_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' }).end('WebSocket P2P endpoint: upgrade required\n');
    };
    const http = opts.tls ? createHttpsServer({ cert: readFileSync(opts.tls.cert), key: readFileSync(opts.tls.key) }, refuse) : createHttpServer(refuse);
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_WS_FRAME,
      perMessageDeflate: false,
      handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
    });
    http.on('upgrade', (req, socket, head) => {
      const ip = clientIp(req, opts.xForwardedFor ?? false);
      if (ip === null) {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => accept(new WsPeerSocket(ws), ip, req.socket.remotePort ?? 0));
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(opts.port, opts.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
    const a = http.address();
    return new WsListener(http, wss, typeof a === 'object' && a ? a.port : opts.port);
  }

  close(): void {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    this.http.close();
  }
}
