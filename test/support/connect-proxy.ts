/**
 * A STAND-IN for a CONNECT proxy, in process, for unit tests that must run everywhere (macOS,
 * Windows); the real proxy (Debian's tinyproxy, test/support/proxy.ts) is the end-to-end tests'.
 * It answers CONNECT with `status` (200 opens the tunnel to the target, or to `hosts`' mapping of
 * its name), refuses without `auth` when set (407), and keeps every request line it saw. A refusal
 * can carry a body and a Retry-After, as a proxy's own page or limiter would: neither is the origin's.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface StandInProxy {
  readonly url: string;
  readonly lines: string[];
  readonly headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export interface StandInOptions {
  readonly status?: number;
  /** The Proxy-Authorization value it wants; without it: 407. */
  readonly auth?: string;
  /** Where a CONNECT's host name leads (the same port); a name not here is resolved as it is. */
  readonly hosts?: Readonly<Record<string, string>>;
  /** The body of every refusal (407 or `status`); default none. */
  readonly body?: string;
  /** A Retry-After (seconds) on a refusal by `status`. */
  readonly retryAfter?: number;
}

export async function startStandInProxy(options: StandInOptions = {}): Promise<StandInProxy> {
  const lines: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server: Server = createServer((req, res) => {
    lines.push(`${req.method} ${req.url}`);
    res.writeHead(501).end();
  });
  server.on('connection', track);
  server.on('connect', (req, client: Socket, head: Buffer) => {
    lines.push(`CONNECT ${req.url}`);
    headers.push(req.headers);
    client.on('error', () => undefined);
    const refusal = refusalOf(options, req.headers['proxy-authorization']);
    if (refusal !== undefined) return void client.end(refusal);
    const [host, port] = splitHostPort(req.url ?? '');
    const upstream = connect(Number(port), options.hosts?.[host] ?? host, () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
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

/** The whole answer refusing a CONNECT, or undefined to open the tunnel. */
function refusalOf(options: StandInOptions, authorization: string | undefined): string | undefined {
  const wantsAuth = options.auth !== undefined && authorization !== options.auth;
  const status = wantsAuth ? 407 : (options.status ?? 200);
  if (status === 200) return undefined;
  const body = options.body ?? '';
  const extra = wantsAuth
    ? 'Proxy-Authenticate: Basic realm="stand-in"\r\n'
    : options.retryAfter === undefined
      ? ''
      : `Retry-After: ${options.retryAfter}\r\n`;
  return `HTTP/1.1 ${status} No\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function splitHostPort(target: string): [string, string] {
  const i = target.lastIndexOf(':');
  return [target.slice(0, i).replace(/^\[(.*)\]$/, '$1'), target.slice(i + 1)];
}
