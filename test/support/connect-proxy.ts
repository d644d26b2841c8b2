/**
 * A stand-in for a CONNECT proxy, in process, for unit tests that must run everywhere (macOS,
 * Windows); the real proxy (Debian's tinyproxy, test/support/proxy.ts) is the end-to-end tests'.
 * It answers CONNECT with `status` (200 opens the tunnel to the target, or to `hosts`' mapping of
 * its name), refuses without `auth` when set (407), and keeps every request line it saw.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface StandInProxy {
  readonly url: string;
  readonly lines: string[];
  readonly headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

export interface StandInOptions {
  readonly status?: number;
  /** The Proxy-Authorization value it wants; without it: 407. */
  readonly auth?: string;
  readonly hosts?: Readonly<Record<string, string>>;
}

export async function startStandInProxy(options: StandInOptions = {}): Promise<StandInProxy> {
  const lines: string[] = [];
  const headers: StandInProxy['headers'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    lines.push(`${req.method} ${req.url}`);
    res.writeHead(501).end();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    lines.push(`CONNECT ${req.url}`);
    headers.push(req.headers);
    const status =
      options.auth !== undefined && req.headers['proxy-authorization'] !== options.auth ? 407 : (options.status ?? 200);
    if (status !== 200) {
      client.end(`HTTP/1.1 ${status} No\r\nContent-Length: 0\r\nProxy-Authenticate: Basic realm="x"\r\n\r\n`);
      return;
    }
    const [host, port] = splitHostPort(req.url ?? '');
    const upstream = connect(Number(port), options.hosts?.[host] ?? host, () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    headers,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function splitHostPort(target: string): [string, string] {
  const i = target.lastIndexOf(':');
  return [target.slice(0, i).replace(/^\[(.*)\]$/, '$1'), target.slice(i + 1)];
}
