// POSTs many JSON bodies to one route over a few keep-alive connections, with requests written as
// bytes ahead of time and answers cut by Content-Length: a client some ten times cheaper per request
// than fetch, so that an admission benchmark measures the node, not the client (with fetch both
// nodes topped out near the same 950 requests/s on 2 cores). One request in flight per connection.
import net from 'node:net';

/**
 * POSTs each body once to `url` + `path` over `connections` sockets; resolves with the seconds from
 * the first write to the last answer and the answers' JSON texts in body order.
 */
export function postMany(url, path, bodies, connections = 16) {
  const { hostname, port } = new URL(url);
  const requests = bodies.map((b) => {
    const body = Buffer.from(typeof b === 'string' ? b : JSON.stringify(b));
    const head = `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head), body]);
  });
  const answers = new Array(bodies.length);
  let next = 0;
  const t0 = performance.now();
  const one = () =>
    new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname);
      socket.setNoDelay(true);
      let buf = Buffer.alloc(0);
      let current = -1;
      const send = () => {
        if (next >= requests.length) return void socket.end(resolve);
        current = next++;
        socket.write(requests[current]);
      };
      socket.on('connect', send);
      socket.on('data', (d) => {
        buf = buf.length ? Buffer.concat([buf, d]) : d;
        for (;;) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = buf.subarray(0, end).toString('latin1');
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (!m) return reject(new Error(`an answer without Content-Length: ${head.split('\r\n')[0]}`));
          const total = end + 4 + Number(m[1]);
          if (buf.length < total) return;
          answers[current] = buf.subarray(end + 4, total).toString('utf8');
          buf = buf.subarray(total);
          send();
        }
      });
      socket.on('error', reject);
      socket.on('close', () => (next >= requests.length ? resolve() : reject(new Error('connection closed early'))));
    });
  return Promise.all(Array.from({ length: Math.min(connections, bodies.length) }, one)).then(() => ({
    seconds: (performance.now() - t0) / 1000,
    answers,
  }));
}
