/**
 * The WebSocket client core (src/core/ws) against the real sandbox, started in-process: pushes
 * after REST trades, the §8 pace and limits, the upgrade gate and bans, listen keys, hostile frames,
 * and `# @expect message`. REST calls are made with the sandbox tests' own signer.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { WebSocketServer } from 'ws';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { DEPTH_LEVELS, KLINE_INTERVALS, formatStreamName } from '../../../src/core/catalog/streams';
import {
  MessageExpectations,
  WsConnection,
  listenKeyOf,
  type ListenKeyApi,
  type WsConnectionOptions,
  type WsEvent,
} from '../../../src/core/ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { WsClient, control, field, limitOrder, signed } from '../../support/sandbox-ws';

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
const KLINE = 'spot@public.kline.v3.api@BTCUSDT@Min1';
const DEPTH5 = 'spot@public.limit.depth.v3.api@BTCUSDT@5';
const DEPTH20 = 'spot@public.limit.depth.v3.api@BTCUSDT@20';
const ORDERS = 'spot@private.orders.v3.api';
const ACCOUNT = 'spot@private.account.v3.api';

/** `count` public stream names of three symbols (14 a symbol). */
/** Why a message was not sent; fails the test when it was. */
function failure(sent: { ok: true } | { ok: false; error: string }): string {
  assert.ok(!sent.ok, 'the message was sent');
  return sent.error;
}

function publicStreams(count: number): string[] {
  const names: string[] = [];
  for (const symbol of ['BTCUSDT', 'ETHUSDT', 'LTCBTC']) {
    names.push(formatStreamName({ kind: 'deals', symbol }), formatStreamName({ kind: 'bookTicker', symbol }));
    for (const levels of DEPTH_LEVELS) names.push(formatStreamName({ kind: 'depth', symbol, levels }));
    for (const interval of KLINE_INTERVALS) names.push(formatStreamName({ kind: 'kline', symbol, interval }));
  }
  assert.ok(names.length >= count);
  return names.slice(0, count);
}

/** Polls `check` until it holds, failing after `deadlineMs` with `what`. */
async function until(check: () => boolean, what: string, deadlineMs = 5_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    assert.ok(Date.now() < end, `not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Upgrade requests to /ws in the sandbox's request log. */
async function upgradesLogged(sb: Sandbox): Promise<number> {
  const log = (await control(sb, '/requests')).json;
  assert.ok(Array.isArray(log));
  return log.filter((e) => field(e, 'path') === '/ws').length;
}

/** The listen key calls, made with the test's own signer; `calls` records them, `keys` the keys given. */
function listenKeyApi(sb: Sandbox, calls: string[], keys: string[]): ListenKeyApi {
  const call = async (method: 'PUT' | 'DELETE', key: string): Promise<void> => {
    calls.push(method);
    const r = await signed(sb, method, '/api/v3/userDataStream', `listenKey=${key}`);
    if (r.status !== 200) throw new Error(`${method} answered ${r.status}: ${r.text}`);
  };
  return {
    create: async () => {
      calls.push('POST');
      const r = await signed(sb, 'POST', '/api/v3/userDataStream', '');
      const key = listenKeyOf(r.json);
      if (key === undefined) throw new Error(`POST answered ${r.status}: ${r.text}`);
      keys.push(key);
      return key;
    },
    keepAlive: (key) => call('PUT', key),
    close: (key) => call('DELETE', key),
  };
}

describe('WebSocket client core against the sandbox', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  const open: WsConnection[] = [];
  const budget = (): Budget => new Budget(new MemoryStateStore());
  const connection = (options: Partial<WsConnectionOptions> = {}): WsConnection => {
    const c = new WsConnection({ budget: budget(), restBaseUrl: sb.baseUrl, ...options });
    open.push(c);
    return c;
  };
  const connected = async (options: Partial<WsConnectionOptions> = {}): Promise<WsConnection> => {
    const c = connection(options);
    const r = await c.connect(sb.wsUrl);
    assert.ok(r.ok, JSON.stringify(r));
    return c;
  };

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    assert.equal((await control(sb, '/reset')).status, 200);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  it('subscribes on open and receives a deals push after a REST order; the stream counts its pushes', async () => {
    const c = await connected();
    const outcomes = await c.subscribe([DEALS]);
    assert.deepEqual(outcomes, [{ stream: DEALS, ok: true }]);
    const push = c.waitFor('push', (e) => e.stream === DEALS);
    const r = await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.5', '30010'));
    assert.equal(field(r.json, 'status'), 'FILLED', r.text);
    const e = await push;
    assert.ok(e.encoding === 'json');
    assert.equal(e.kind, 'deals');
    const deal = (e.push.d['deals'] as unknown[])[0];
    assert.deepEqual(deal, { p: '30010.00000000', v: '0.50000000', S: 1, t: field(deal, 't') });
    const view = c.snapshot().streams.find((s) => s.stream === DEALS)!;
    assert.equal(view.status, 'subscribed');
    assert.equal(view.pushes, 1);
    assert.equal(view.lastPushAt, e.at);
    assert.equal(view.ratePerSecond, 0.1, 'one push over the last 10 s');
    assert.equal(c.snapshot().meters.streams.used, 1);
  });

  it('several connections at once each hold their own streams and figures', async () => {
    const a = await connected();
    const b = await connected();
    await a.subscribe([DEALS]);
    await b.subscribe([KLINE]);
    const pa = a.waitFor('push', (e) => e.stream === DEALS);
    const pb = b.waitFor('push', (e) => e.stream === KLINE);
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30010'));
    await Promise.all([pa, pb]);
    assert.deepEqual(
      a.snapshot().streams.map((s) => s.stream),
      [DEALS],
    );
    assert.deepEqual(
      b.snapshot().streams.map((s) => s.stream),
      [KLINE],
    );
    assert.equal(field((await control(sb, '/ws')).json, 'connections'), 2);
  });

  it('§8 pace: a burst of 300 user messages is paced (at most 80 in any second): all answered, the connection never cut', async () => {
    const c = await connected();
    await c.subscribe([DEALS]);
    let most = 0;
    const answered = new Set<number>();
    const closes: number[] = [];
    c.on('sent', () => (most = Math.max(most, c.snapshot().meters.messages.lastSecond)));
    c.on('reply', (e) => answered.add(e.reply.id));
    c.on('state', (e) => e.state.code !== undefined && closes.push(e.state.code));
    const start = Date.now();
    const sent = await Promise.all(
      Array.from({ length: 300 }, (_, i) => c.send(JSON.stringify({ method: 'PING', id: i + 1 }))),
    );
    assert.ok(
      sent.every((s) => s.ok),
      'every send is taken',
    );
    await until(() => answered.size === 300, `300 replies (have ${answered.size})`, 10_000);
    const elapsed = Date.now() - start;
    assert.ok(most <= 80, `at most 80 client messages in any second, saw ${most}`);
    assert.ok(elapsed >= 3 * 1250 - 50, `300 messages take 4 windows of 1250 ms, took ${elapsed} ms`);
    assert.deepEqual(closes, [], 'no close, 1008 or other');
    assert.equal(c.state.status, 'open');
  });

  it("§8 streams: of 31 streams subscribed at once, 30 are taken and the 31st refusal is surfaced with the server's code and msg", async () => {
    const c = await connected();
    const names = publicStreams(31);
    const events: WsEvent[] = [];
    c.on('subscription', (e) => events.push(e));
    const outcomes = await c.subscribe(names);
    assert.deepEqual(
      outcomes.slice(0, 30).map((o) => o.ok),
      Array(30).fill(true),
    );
    const refused = outcomes[30]!;
    assert.equal(refused.stream, names[30]);
    assert.equal(refused.ok, false);
    assert.equal(refused.code, 33333);
    assert.match(refused.msg ?? '', /At most 30 streams per connection/);
    const view = c.snapshot();
    assert.equal(view.meters.streams.used, 30);
    assert.deepEqual(
      view.streams.filter((s) => s.status === 'refused').map((s) => [s.stream, s.code]),
      [[names[30], 33333]],
    );
    assert.equal(events.length, 31, 'one subscription event a stream');
    assert.equal(c.state.status, 'open', 'the connection stays');
  });

  it('unsubscribes one stream: its pushes stop, the others go on', async () => {
    const c = await connected();
    await c.subscribe([DEALS, KLINE]);
    const out = await c.unsubscribe(DEALS);
    assert.deepEqual(out, { stream: DEALS, ok: true });
    let deals = 0;
    c.on('push', (e) => e.stream === DEALS && deals++);
    const kline = c.waitFor('push', (e) => e.stream === KLINE);
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30010'));
    await kline;
    // A PING answered after the trade: every push of it has arrived before the PONG.
    const pong = c.waitFor('reply', (e) => e.reply.id === 77);
    assert.ok((await c.send('{"method":"PING","id":77}')).ok);
    await pong;
    assert.equal(deals, 0, 'no deals push after the unsubscription');
    assert.deepEqual(
      c.snapshot().streams.map((s) => s.stream),
      [KLINE],
    );
    assert.equal((await c.unsubscribe(DEALS)).ok, false, 'a stream not held is not unsubscribed');
  });

  it('[message]: a JSON message is sent as written, its reply matched by id; non-JSON, non-objects and oversized messages are refused unsent', async () => {
    const c = await connected({ maxMessageBytes: 256 });
    const text = `{"method": "SUBSCRIPTION", "params": ["${DEALS}"], "id": 5}`;
    const reply = c.waitFor('reply', (e) => e.reply.id === 5);
    const sent = c.waitFor('sent', (e) => e.origin === 'user');
    assert.deepEqual(await c.send(text), { ok: true, value: { id: 5 } });
    assert.equal((await sent).text, text, 'sent as written');
    const r = await reply;
    assert.equal(r.reply.code, 0);
    assert.equal(r.request?.method, 'SUBSCRIPTION');
    assert.equal(r.request?.origin, 'user');
    assert.equal(c.snapshot().streams[0]?.status, 'subscribed', "a user SUBSCRIPTION is tracked like the client's");
    const before = c.snapshot().counts.sent;
    assert.match(failure(await c.send('{"method": ')), /not valid JSON/);
    assert.match(failure(await c.send('[1, 2]')), /JSON object/);
    assert.match(failure(await c.send(`{"x": "${'y'.repeat(300)}"}`)), /over the client's cap/);
    assert.equal(c.snapshot().counts.sent, before, 'nothing refused went out');
  });

  it('keeps a quiet connection alive with PING (through the pacer) and counts the PONGs', async () => {
    const c = await connected({ pingAfterMs: 150 });
    await c.subscribe([DEALS]);
    const pong = await c.waitFor('reply', (e) => e.request?.origin === 'ping', 3_000);
    assert.equal(pong.reply.msg, 'PONG');
    assert.ok(c.snapshot().counts.pongs >= 1);
  });

  it('a malformed frame (POST /_sandbox/ws/malformed) is surfaced and counted; the connection goes on; a drop (POST /_sandbox/ws/drop) is surfaced as closed with 1006, with no reconnect', async () => {
    const c = await connected();
    await c.subscribe([DEALS]);
    const frame = c.waitFor('frame');
    assert.equal(field((await control(sb, '/ws/malformed')).json, 'sent'), 1);
    const f = await frame;
    assert.equal(f.problem, 'not-json');
    assert.equal(f.count, 1);
    assert.match(f.sample ?? '', /^\{"c":"spot@public\.deals/);
    assert.equal(c.snapshot().counts.notJson, 1);
    const pong = c.waitFor('reply', (e) => e.reply.id === 9);
    await c.send('{"method":"PING","id":9}');
    await pong;

    const closed = c.waitFor('state', (e) => e.state.status === 'closed');
    assert.equal(field((await control(sb, '/ws/drop')).json, 'dropped'), 1);
    const s = (await closed).state;
    assert.equal(s.code, 1006);
    assert.match(s.message ?? '', /^The connection dropped with no close frame: the network or the server went away/);
    await c.finished;
    assert.equal(field((await control(sb, '/ws')).json, 'connections'), 0, 'no connection came back');
    const again = await c.connect(sb.wsUrl);
    assert.equal(again.ok, false, 'a reconnect is a new connection, through the gate');
  });

  it("a frame over the client's cap is dropped with a count; past 4 times the cap undici stops reading and fails the connection", async () => {
    const c = await connected({ maxFrameBytes: 300 });
    const dropped = c.waitFor('frame', (e) => e.problem === 'too-large');
    // The depth snapshot of 5 levels is some 600 bytes; its subscription reply is smaller than 300.
    assert.equal((await c.subscribe([DEPTH5]))[0]?.ok, true);
    assert.match((await dropped).why, /over the client's cap of 300 bytes: dropped/);
    assert.equal(c.snapshot().counts.tooLarge, 1);
    assert.equal(c.snapshot().counts.pushes, 0);
    assert.equal(c.state.status, 'open');
    const closed = c.waitFor('state', (e) => e.state.status === 'closed');
    await c.subscribe([DEPTH20]);
    // undici sends 1009 to the server but reports the failed connection as 1006 (WHATWG): the message says both.
    const s = (await closed).state;
    assert.equal(s.code, 1006);
    assert.match(s.message ?? '', /or a frame over 1200 bytes came/);
  });

  it('@expect message PATH == VALUE passes when one push matches, and says what was seen when none does', async () => {
    const c = await connected();
    const checks = new MessageExpectations([
      { path: 'd.deals[0].S', value: '2' },
      { path: 's', value: '"BTCUSDT"' },
      { path: 'd.deals.0.p', value: '1.0' },
      { path: 'd.nothing', value: '1' },
    ]);
    c.on('push', (e) => checks.observe(e.json));
    await c.subscribe([DEALS]);
    const second = c.waitFor(
      'push',
      (e) => e.encoding === 'json' && (e.push.d['deals'] as { S: number }[])[0]?.S === 2,
    );
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30010'));
    await signed(sb, 'POST', '/api/v3/order', limitOrder('SELL', '0.1', '29990'));
    await second;
    const [side, symbol, price, missing] = checks.results();
    assert.deepEqual(side, { text: '@expect message d.deals[0].S == 2', passed: true, actual: 'd.deals[0].S = 2' });
    assert.equal(symbol?.passed, true);
    assert.equal(price?.passed, false);
    assert.match(price?.actual ?? '', /^d\.deals\.0\.p = 29990\.00000000 \(the last of \d+ pushes\)$/);
    assert.equal(missing?.passed, false);
    assert.match(missing?.actual ?? '', /^no push of \d+ had d\.nothing$/);
    assert.equal(checks.allPassed, false);
  });

  it('close() is idempotent: one close, one closed state, later sends refused unsent', async () => {
    const c = await connected();
    const states: string[] = [];
    c.on('state', (e) => states.push(e.state.status));
    const first = c.close();
    assert.equal(c.close(), first);
    await first;
    assert.deepEqual(states, ['closing', 'closed']);
    assert.equal(c.state.code, 1000);
    assert.deepEqual(await c.send('{"method":"PING"}'), {
      ok: false,
      error: 'Not sent: the connection is not open.',
    });
  });

  it('close() does not wait for ever on a server that never answers the close: after the grace the socket is let go (1006)', async () => {
    // The sandbox always answers a close frame; a `ws` server that stops reading stands in for one that does not.
    const stuck = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    stuck.on('connection', (_ws, req) => req.socket.pause());
    await new Promise<void>((r) => stuck.once('listening', r));
    try {
      const c = connection({ closeGraceMs: 300 });
      const r = await c.connect(`ws://127.0.0.1:${(stuck.address() as { port: number }).port}/ws`);
      assert.ok(r.ok, JSON.stringify(r));
      const started = Date.now();
      await c.close();
      assert.ok(Date.now() - started >= 290, 'the grace was waited for');
      assert.equal(c.state.code, 1006);
      assert.match(c.state.message ?? '', /^Closed by the client: no close frame from the server within 0\.3 s\.$/);
    } finally {
      for (const ws of stuck.clients) ws.terminate();
      await new Promise((r) => stuck.close(r));
    }
  });

  it('the upgrade refused with 404 (wrong path) says to check wsUrl; nothing listening says so', async () => {
    const c = connection();
    const r = await c.connect(sb.baseUrl.replace('http', 'ws') + '/stream');
    assert.ok(!r.ok);
    assert.equal(r.error.kind, 'upgrade');
    assert.match(r.error.message, /404.*wsUrl/);
    const port = await freePort();
    const n = await connection().connect(`ws://127.0.0.1:${port}/ws`);
    assert.ok(!n.ok);
    assert.deepEqual([n.error.kind, (n.error as { code?: string }).code], ['network', 'ECONNREFUSED']);
    assert.match(n.error.message, /Nothing answers/);
  });

  it('a server that never answers the upgrade fails the connect after the connect timeout', async () => {
    // The sandbox always answers an upgrade, so a bare TCP server that never writes stands in for a stuck one.
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const c = connection({ connectTimeoutMs: 300 });
      const r = await c.connect(`ws://127.0.0.1:${port(silent)}/ws`);
      assert.ok(!r.ok);
      assert.equal(r.error.kind, 'timeout');
      assert.equal(c.state.status, 'closed');
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('# @listenKey: a key is obtained, connected with, kept alive, closed at the end; private pushes arrive; the key is masked in everything observable', async () => {
    const calls: string[] = [];
    const keys: string[] = [];
    const c = connection();
    const seen: string[] = [];
    c.onEvent((e) => seen.push(JSON.stringify(e)));
    const r = await c.connect(sb.wsUrl, {
      listenKey: listenKeyApi(sb, calls, keys),
      envWsUrl: sb.wsUrl,
      keepAliveMs: 200,
    });
    assert.ok(r.ok, JSON.stringify(r));
    const key = keys[0]!;
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.deepEqual(await c.subscribe([ORDERS, ACCOUNT]), [
      { stream: ORDERS, ok: true },
      { stream: ACCOUNT, ok: true },
    ]);
    const pushed = c.waitFor('push', (e) => e.stream === ORDERS);
    const placed = await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '20000'));
    const order = await pushed;
    assert.ok(order.encoding === 'json');
    assert.equal(order.push.d['i'], field(placed.json, 'orderId'));
    await until(() => calls.includes('PUT'), 'a keep-alive');
    const shown = [
      ...seen,
      JSON.stringify(c.snapshot()),
      JSON.stringify(c),
      String(c),
      inspect(c, { depth: 10, showHidden: true }),
    ];
    assert.equal(c.snapshot().listenKey, '****' + key.slice(-4));
    await c.close();
    shown.push(...seen);
    for (const text of shown) assert.ok(!text.includes(key), `the key shows in: ${text.slice(0, 200)}`);
    assert.deepEqual(calls.slice(0, 2), ['POST', 'PUT']);
    assert.equal(calls.at(-1), 'DELETE', 'closed at the end');
    const after = await signed(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${key}`);
    assert.notEqual(after.status, 200, 'the key is closed');
  });

  it('close() while connecting aborts the connect: nothing opens, and a listen key already obtained is closed', async () => {
    const calls: string[] = [];
    const c = connection();
    const connecting = c.connect(sb.wsUrl, { listenKey: listenKeyApi(sb, calls, []), envWsUrl: sb.wsUrl });
    const closed = c.close();
    const r = await connecting;
    assert.ok(!r.ok);
    assert.equal(r.error.kind, 'aborted');
    await closed;
    assert.deepEqual(calls, ['POST', 'DELETE']);
    assert.equal(field((await control(sb, '/ws')).json, 'connections'), 0);
  });

  it('# @listenKey: a failed keep-alive is reported with the key masked, even when the failure names it', async () => {
    const calls: string[] = [];
    const keys: string[] = [];
    const api = listenKeyApi(sb, calls, keys);
    const c = connection();
    const r = await c.connect(sb.wsUrl, {
      listenKey: { ...api, keepAlive: (k) => Promise.reject(new Error(`refused key ${k}`)) },
      envWsUrl: sb.wsUrl,
      keepAliveMs: 100,
    });
    assert.ok(r.ok);
    const e = await c.waitFor('error', (x) => x.failure.kind === 'listen-key');
    assert.ok(!e.failure.message.includes(keys[0]!), e.failure.message);
    assert.match(e.failure.message, new RegExp(`refused key \\*\\*\\*\\*${keys[0]!.slice(-4)}`));
  });

  it("# @listenKey: none is obtained for a URL outside the environment's WebSocket origin; a refused key (401) is reported", async () => {
    const calls: string[] = [];
    const c = connection();
    const other = sb.wsUrl.replace('127.0.0.1', 'localhost');
    const r = await c.connect(other, { listenKey: listenKeyApi(sb, calls, []), envWsUrl: sb.wsUrl });
    assert.ok(!r.ok);
    assert.equal(r.error.kind, 'listen-key');
    assert.match(r.error.message, /only to the environment's WebSocket origin/);
    assert.deepEqual(calls, [], 'no key was asked for');

    const made = 'ab'.repeat(32);
    const closed: string[] = [];
    const fake: ListenKeyApi = {
      create: () => Promise.resolve(made),
      keepAlive: () => Promise.resolve(),
      close: (k) => Promise.resolve(void closed.push(k)),
    };
    const u = connection();
    const refused = await u.connect(sb.wsUrl, { listenKey: fake, envWsUrl: sb.wsUrl });
    assert.ok(!refused.ok);
    assert.equal((refused.error as { status?: number }).status, 401);
    assert.match(refused.error.message, /refused the listen key \(401\)/);
    assert.ok(!JSON.stringify(refused).includes(made));
    await u.finished;
    assert.deepEqual(closed, [made], 'the key is closed even though the connection never opened');
  });
});

describe('WebSocket client core: the upgrade gate and bans', function () {
  this.timeout(30_000);
  let sb: Sandbox;

  before(async () => {
    // A 2-minute ban × 0.01: 1.2 s, answered with Retry-After 2.
    sb = await startSandbox({ port: 0, banScale: 0.01 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await control(sb, '/reset');
  });

  /** Gets the sandbox's connection cut for the §8 message rate, with a raw `ws` client sending too fast. */
  async function cut(): Promise<void> {
    const raw = await WsClient.connect(sb.wsUrl);
    for (let i = 0; i <= 100; i++) raw.send({ method: 'PING', id: i + 1 });
    assert.equal((await raw.closed).code, 1008);
  }

  it('after the sandbox bans the IP, the 418 and its Retry-After are recorded; the client refuses to connect until it has passed, without touching the network', async () => {
    const b = new Budget(new MemoryStateStore());
    for (let i = 0; i < 3; i++) await cut();
    const first = new WsConnection({ budget: b, restBaseUrl: sb.baseUrl });
    const r = await first.connect(sb.wsUrl);
    assert.ok(!r.ok);
    assert.deepEqual([r.error.kind, (r.error as { status?: number }).status], ['upgrade', 418]);
    assert.match(r.error.message, /banned this IP.*for 2 s \(Retry-After\)/);
    const blocked = b.view(sb.baseUrl).blocked;
    assert.equal(blocked?.status, 418, 'the ban is in the rate-limit state, under the HTTP form of the origin');

    const logged = await upgradesLogged(sb);
    const second = new WsConnection({ budget: b, restBaseUrl: sb.baseUrl });
    const g = await second.connect(sb.wsUrl);
    assert.ok(!g.ok);
    assert.equal(g.error.kind, 'gate');
    assert.equal((g.error as { reason?: string }).reason, 'ban');
    assert.equal((g.error as { retryAtMs?: number }).retryAtMs, blocked.untilMs);
    assert.equal(await upgradesLogged(sb), logged, 'the refused connect sent no upgrade');

    await until(() => b.gate({ origin: sb.baseUrl, mode: 'ip', weight: 0 }).ok, 'the Retry-After passes', 5_000);
    const third = new WsConnection({ budget: b, restBaseUrl: sb.baseUrl });
    assert.deepEqual(await third.connect(sb.wsUrl), { ok: true, value: undefined });
    await third.close();
  });

  it('a 418 recorded by REST for the environment keeps the WebSocket closed too, without touching the network', async () => {
    const b = new Budget(new MemoryStateStore());
    await b.record({ origin: sb.baseUrl, mode: 'ip', weight: 1 }, { status: 418, retryAfterSeconds: 60 });
    const logged = await upgradesLogged(sb);
    // A WebSocket host of its own (never reached): the REST origin's ban still holds it back (§8 bans the IP).
    const c = new WsConnection({ budget: b, restBaseUrl: sb.baseUrl });
    const r = await c.connect('wss://stream.sandbox.invalid/ws');
    assert.ok(!r.ok);
    assert.equal(r.error.kind, 'gate');
    assert.match(r.error.message, /banned this IP.*\(418\)/);
    assert.equal(c.state.status, 'closed');
    assert.equal(await upgradesLogged(sb), logged);
  });
});

function port(server: Server): number {
  const a = server.address();
  assert.ok(a !== null && typeof a === 'object');
  return a.port;
}

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = port(s);
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}
