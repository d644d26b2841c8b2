/**
 * The WebSocket client through a proxy (issue 32, point 7): the upgrade takes its connection from
 * net/network.ts, by the rule of net/proxy.ts, the same as REST. The proxy here is a STAND-IN
 * (test/support/connect-proxy.ts), a small CONNECT proxy on node:http that logs every request line
 * it gets and leads the origin's name to the in-process sandbox, so the origin is a name that does
 * not resolve on this machine and only the proxy reaches it; the real proxy (tinyproxy,
 * test/support/proxy.ts) is the end-to-end tests'. The wss:// cases reach the sandbox over TLS, its
 * certificate signed by a CA of its own, so they run on every system.
 */
import assert from 'node:assert/strict';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { Network } from '../../../src/core/net/network';
import type { NetworkSettings } from '../../../src/core/net/proxy';
import { WsConnection, type ListenKeyApi, type WsFailure } from '../../../src/core/ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { startStandInProxy, type StandInOptions, type StandInProxy } from '../../support/connect-proxy';

const BOOK = 'spot@public.bookTicker.v3.api@BTCUSDT';
/** A host no resolver knows (RFC 6761 .invalid): only the stand-in proxy reaches it. */
const HOST = 'stream.tradereq.invalid';
const USER = 'desk';
const PASSWORD = 'proxy-Pa55-word';
/** What a refusing stand-in says in its body: a proxy's page, never the origin's answer. */
const PROXY_BODY = '{"code":-1,"msg":"the proxy says no"}';

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
  /** The sandbox over TLS, its certificate naming HOST, signed by `caPem`. */
  let tls: Sandbox;
  let caPem: string;
  const cleanup: (() => Promise<void> | void)[] = [];

  before(async () => {
    sb = await startSandbox({ port: 0 });
    tls = await startSandbox({ port: 0, tls: { names: [HOST] } });
    assert.ok(tls.caPem !== undefined, 'the TLS sandbox gives its CA');
    caPem = tls.caPem;
  });
  after(async () => {
    await tls?.close();
    await sb?.close();
  });
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  /** A stand-in that leads HOST to loopback (the port the CONNECT names) and refuses with PROXY_BODY. */
  async function proxy(options: StandInOptions = {}): Promise<StandInProxy> {
    const p = await startStandInProxy({ hosts: { [HOST]: '127.0.0.1' }, body: PROXY_BODY, ...options });
    cleanup.push(() => p.close());
    return p;
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

  it("wss:// through the proxy: the TLS handshake is the origin's, inside the one CONNECT; its certificate untrusted, the message says how to trust it", async () => {
    const p = await proxy();
    const f = failureOf(await connection({ httpsProxy: p.url }).connect(`wss://${HOST}:${tls.port}/ws`));
    assert.deepEqual([f.kind, (f as { code?: string }).code], ['network', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);
    assert.match(f.message, new RegExp(`^The certificate of https://${HOST}:${tls.port} is not trusted \\(`));
    assert.match(f.message, /NODE_EXTRA_CA_CERTS/);
    assert.deepEqual(p.lines, [`CONNECT ${HOST}:${tls.port}`]);
  });

  it("wss:// through the proxy with the origin's CA trusted (--cacert): subscribe and a push arrive", async () => {
    const p = await proxy();
    await pushArrives(connection({ httpsProxy: p.url, ca: [caPem] }), `wss://${HOST}:${tls.port}/ws`);
    assert.deepEqual(p.lines, [`CONNECT ${HOST}:${tls.port}`]);
  });

  it('with its credentials the proxy tunnels; they go in the CONNECT only and show nowhere', async () => {
    const authorization = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    const p = await proxy({ auth: authorization });
    const c = connection({ httpProxy: `http://${USER}:${PASSWORD}@127.0.0.1:${new URL(p.url).port}` });
    const events: unknown[] = [];
    c.onEvent((e) => events.push(e));
    await pushArrives(c, `ws://${HOST}:${sb.port}/ws`);
    assert.equal(p.headers[0]?.['proxy-authorization'], authorization);
    const shown = everything(c, events);
    assert.ok(!shown.includes(PASSWORD) && !shown.includes(authorization.slice(6)), shown);
  });

  it('a 407 from the proxy is the proxy wanting credentials: not the origin refusing the upgrade, nothing recorded, no credential shown', async () => {
    const p = await proxy({ auth: 'Basic c29tZW9uZTplbHNl' });
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
      const p = await proxy({ status, retryAfter: 60 });
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
