/**
 * The WebSocket client through a proxy (issue 32, point 7): the upgrade takes its connection from
 * net/network.ts, by the rule of net/proxy.ts, the same as REST. The proxy here is a STAND-IN, a
 * small CONNECT proxy written on node:http (`server.on('connect')`) that logs every request line it
 * gets and tunnels every host to the in-process sandbox, so the origin is a name that does not
 * resolve on this machine and only the proxy reaches it. The real rig (Debian's tinyproxy, started
 * by the tests) is being built apart; these tests do not need it. The wss:// case makes a
 * certificate with the openssl command and is pending where there is none.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as tlsServer, type Server as TlsServer } from 'node:tls';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { Network } from '../../../src/core/net/network';
import type { NetworkSettings } from '../../../src/core/net/proxy';
import { WsConnection, type ListenKeyApi, type WsFailure } from '../../../src/core/ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';

const BOOK = 'spot@public.bookTicker.v3.api@BTCUSDT';
/** A host no resolver knows (RFC 6761 .invalid): only the stand-in proxy reaches it. */
const HOST = 'stream.tradereq.invalid';
const USER = 'desk';
const PASSWORD = 'proxy-Pa55-word';

const portOf = (server: { address(): unknown }): number => (server.address() as AddressInfo).port;

/** What the stand-in proxy does with a CONNECT. */
interface StandInOptions {
  /** The Proxy-Authorization it wants; without it, 407. */
  readonly authorization?: string;
  /** Answer every CONNECT with this status (and a Retry-After, as a proxy's own limiter might). */
  readonly refuse?: number;
}

/** A STAND-IN for a forward proxy: logs request lines, tunnels CONNECT to `port` on loopback. */
class StandInProxy {
  readonly lines: string[] = [];
  readonly headers: http.IncomingHttpHeaders[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: http.Server;

  constructor(
    private readonly port: () => number,
    private readonly options: StandInOptions = {},
  ) {
    this.server = http.createServer((req, res) => {
      this.lines.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.writeHead(405).end();
    });
    this.server.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) =>
      this.onConnect(req, socket, head),
    );
  }

  private onConnect(req: http.IncomingMessage, socket: Socket, head: Buffer): void {
    this.lines.push(`CONNECT ${req.url ?? ''}`);
    this.headers.push(req.headers);
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    const { authorization, refuse } = this.options;
    const body = '{"code":-1,"msg":"the proxy says no"}';
    const answer = (status: string, extra: string): void =>
      void socket.end(`HTTP/1.1 ${status}\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`);
    if (authorization !== undefined && req.headers['proxy-authorization'] !== authorization)
      return answer('407 Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="stand-in"\r\n');
    if (refuse !== undefined) return answer(`${refuse} Refused`, 'Retry-After: 60\r\n');
    const upstream = tcpConnect(this.port(), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    this.sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${portOf(this.server)}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

/** A self-signed certificate for HOST, made by the openssl command; undefined where there is none. */
function certificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'tradereq-ws-proxy-'));
  try {
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${HOST}`,
        '-addext',
        `subjectAltName=DNS:${HOST}`,
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    if (made.error !== undefined || made.status !== 0) return undefined;
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Everything a connection showed: its failure, its state and every event, as text. */
function everything(c: WsConnection, events: readonly unknown[]): string {
  return JSON.stringify([c.state, c.snapshot(), events]);
}

function failureOf(r: Awaited<ReturnType<WsConnection['connect']>>): WsFailure {
  assert.ok(!r.ok, 'the connection opened');
  return r.error;
}

describe('WebSocket client through a proxy (a stand-in CONNECT proxy on node:http)', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  const cleanup: (() => Promise<void> | void)[] = [];

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  async function proxy(
    options: StandInOptions = {},
    port = (): number => sb.port,
  ): Promise<StandInProxy & { url: string }> {
    const p = new StandInProxy(port, options);
    const url = await p.listen();
    cleanup.push(() => p.close());
    return Object.assign(p, { url });
  }

  function connection(settings: NetworkSettings, budget = new Budget(new MemoryStateStore())): WsConnection {
    const network = new Network(settings);
    const c = new WsConnection({ budget, network, pingAfterMs: 0, connectTimeoutMs: 5_000 });
    cleanup.push(async () => {
      await c.close();
      network.close();
    });
    return c;
  }

  /** Connect, subscribe, the first push: the connection works end to end. */
  async function pushArrives(c: WsConnection, url: string): Promise<void> {
    const r = await c.connect(url);
    assert.ok(r.ok, JSON.stringify(r));
    const pushed = c.waitFor('push', (e) => e.stream === BOOK);
    assert.deepEqual(await c.subscribe([BOOK]), [{ stream: BOOK, ok: true }]);
    await pushed;
  }

  it('ws:// through the proxy: it sees one CONNECT to the host and port and nothing else; subscribe and a push arrive', async () => {
    const p = await proxy();
    await pushArrives(connection({ httpProxy: p.url }), `ws://${HOST}:${sb.port}/ws`);
    assert.deepEqual(p.lines, [`CONNECT ${HOST}:${sb.port}`]);
  });

  /** A TLS origin only the proxy reaches (TLS in front of the sandbox), and a proxy that leads to it. */
  async function tlsOrigin(pair: { key: string; cert: string }): Promise<StandInProxy & { url: string }> {
    const front: TlsServer = tlsServer(pair, (s) => {
      const inner = tcpConnect(sb.port, '127.0.0.1');
      s.on('error', () => inner.destroy());
      inner.on('error', () => s.destroy());
      s.pipe(inner).pipe(s);
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    cleanup.push(() => void front.close());
    return proxy({}, () => portOf(front));
  }

  it("wss:// through the proxy: the TLS handshake is the origin's, inside the one CONNECT; its certificate untrusted, the message says how to trust it", async function () {
    const pair = certificate();
    if (pair === undefined) return this.skip(); // needs the openssl command
    const p = await tlsOrigin(pair);
    const f = failureOf(await connection({ httpsProxy: p.url }).connect(`wss://${HOST}:${sb.port}/ws`));
    assert.deepEqual([f.kind, (f as { code?: string }).code], ['network', 'DEPTH_ZERO_SELF_SIGNED_CERT']);
    assert.match(f.message, new RegExp(`^The certificate of https://${HOST}:${sb.port} is not trusted \\(`));
    assert.match(f.message, /NODE_EXTRA_CA_CERTS/);
    assert.deepEqual(p.lines, [`CONNECT ${HOST}:${sb.port}`]);
  });

  it("wss:// through the proxy with the origin's CA trusted (--cacert): subscribe and a push arrive", async function () {
    const pair = certificate();
    if (pair === undefined) return this.skip(); // needs the openssl command
    const p = await tlsOrigin(pair);
    await pushArrives(connection({ httpsProxy: p.url, ca: [pair.cert] }), `wss://${HOST}:${sb.port}/ws`);
    assert.deepEqual(p.lines, [`CONNECT ${HOST}:${sb.port}`]);
  });

  it('with its credentials the proxy tunnels; they go in the CONNECT only and show nowhere', async () => {
    const authorization = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    const p = await proxy({ authorization });
    const c = connection({ httpProxy: `http://${USER}:${PASSWORD}@127.0.0.1:${new URL(p.url).port}` });
    const events: unknown[] = [];
    c.onEvent((e) => events.push(e));
    await pushArrives(c, `ws://${HOST}:${sb.port}/ws`);
    assert.equal(p.headers[0]?.['proxy-authorization'], authorization);
    const shown = everything(c, events);
    assert.ok(!shown.includes(PASSWORD) && !shown.includes(authorization.slice(6)), shown);
  });

  it('a 407 from the proxy is the proxy wanting credentials: not the origin refusing the upgrade, nothing recorded, no credential shown', async () => {
    const p = await proxy({ authorization: 'Basic c29tZW9uZTplbHNl' });
    const store = new MemoryStateStore();
    const c = connection(
      { httpProxy: `http://${USER}:${PASSWORD}@127.0.0.1:${new URL(p.url).port}` },
      new Budget(store),
    );
    const events: unknown[] = [];
    c.onEvent((e) => events.push(e));
    const f = failureOf(await c.connect(`ws://${HOST}:${sb.port}/ws`));
    assert.equal(f.kind, 'network');
    assert.equal((f as { code?: string }).code, 'PROXY_407');
    assert.match(
      f.message,
      new RegExp(`^The proxy http://127\\.0\\.0\\.1:\\d+ wants credentials, or other ones \\(407\\)`),
    );
    assert.doesNotMatch(f.message, /instead of opening the WebSocket|the proxy says no/);
    assert.deepEqual(store.read().origins, {}, 'nothing in the rate-limit state');
    const shown = everything(c, events);
    assert.ok(!shown.includes(PASSWORD) && !shown.includes(USER + ':'), shown);
    assert.deepEqual(p.lines, [`CONNECT ${HOST}:${sb.port}`]);
  });

  for (const status of [403, 429, 418]) {
    it(`a ${status} from the proxy to CONNECT is the proxy's: never the origin's ${status}, and no ban or wait recorded`, async () => {
      const p = await proxy({ refuse: status });
      const store = new MemoryStateStore();
      const f = failureOf(
        await connection({ httpProxy: p.url }, new Budget(store)).connect(`ws://${HOST}:${sb.port}/ws`),
      );
      assert.deepEqual([f.kind, (f as { code?: string }).code], ['network', `PROXY_${status}`]);
      assert.match(f.message, /^The proxy http:\/\/127\.0\.0\.1:\d+ (refused the tunnel|could not open a tunnel)/);
      assert.doesNotMatch(f.message, /banned|back off|Retry-After/);
      assert.deepEqual(store.read().origins, {});
    });
  }

  it('nothing answers at the proxy: named as the proxy, not the origin (PROXY_ECONNREFUSED)', async () => {
    const p = await proxy();
    await p.close();
    const f = failureOf(await connection({ httpProxy: p.url }).connect(`ws://${HOST}:${sb.port}/ws`));
    assert.deepEqual([f.kind, (f as { code?: string }).code], ['network', 'PROXY_ECONNREFUSED']);
    assert.match(f.message, /^Nothing answers at the proxy http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('a listen key to a ws:// URL off loopback that a proxy would carry is refused: no key obtained, nothing reaches the proxy', async () => {
    const p = await proxy();
    const calls: string[] = [];
    const api: ListenKeyApi = {
      create: () => Promise.resolve(void calls.push('POST')).then(() => 'k'.repeat(64)),
      keepAlive: () => Promise.resolve(void calls.push('PUT')),
      close: () => Promise.resolve(void calls.push('DELETE')),
    };
    const url = `ws://${HOST}:${sb.port}/ws`;
    const leased = failureOf(await connection({ httpProxy: p.url }).connect(url, { listenKey: api, envWsUrl: url }));
    assert.equal(leased.kind, 'network');
    assert.match(leased.message, new RegExp(`^Not sent: ws://${HOST}:${sb.port} is plain ws and the proxy`));
    const key = 'AbCdEfGh0123456789'.repeat(3);
    const written = failureOf(await connection({ httpProxy: p.url }).connect(`${url}?listenKey=${key}`));
    assert.match(written.message, /^Not sent: .* is plain ws and the proxy/);
    assert.ok(!written.message.includes(key));
    assert.deepEqual(calls, [], 'no listen key was asked for');
    assert.deepEqual(p.lines, [], 'nothing reached the proxy');
  });

  it('loopback goes direct whatever the proxy settings: the sandbox on 127.0.0.1 is reached and the proxy sees nothing', async () => {
    const p = await proxy();
    await pushArrives(connection({ httpProxy: p.url, httpsProxy: p.url }), sb.wsUrl);
    assert.deepEqual(p.lines, []);
  });
});
