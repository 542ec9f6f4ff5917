// The one grammar of `HOST:PORT` the user reads and writes: the command lines (the node's --rpc,
// --bind, --connect, --publicrpc, --stratum; the miner's --stratum), the built-in seed lists and
// the log lines: an IPv4 address, an IPv6 address in brackets, or a host name, then a port 0–65535
// (0: any free port, where listening).

export interface Endpoint {
  host: string;
  port: number;
}

/** Which hosts a program takes: listening and peer addresses are IPs (localhost aside); a miner dials any name. */
export type HostKind = 'ip' | 'name';

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[[0-9a-fA-F:.]+\]$/;
const NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,62}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,62}[a-zA-Z0-9])?)*$/;

/** Parses `HOST:PORT`; null when malformed. `hosts: 'ip'` takes IPs and `localhost` only. */
export function parseEndpoint(text: string, hosts: HostKind = 'ip'): Endpoint | null {
  const m = /^(.+):(\d{1,5})$/.exec(text);
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65535) return null;
  const h = m[1];
  if (IPV4.test(h)) return h.split('.').some((o) => Number(o) > 255) ? null : { host: h, port };
  if (IPV6.test(h)) return { host: h.slice(1, -1), port };
  if (h === 'localhost' || (hosts === 'name' && NAME.test(h) && !/^[\d.]+$/.test(h))) return { host: h, port };
  return null;
}

/** `HOST:PORT`, an IPv6 host in brackets. */
export function formatEndpoint(e: Endpoint): string {
  return `${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;
}
