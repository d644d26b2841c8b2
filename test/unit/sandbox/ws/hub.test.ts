/**
 * The sandbox's WebSocket side over real sockets: subscriptions and their replies, pushes fed by
 * REST trades, private streams with listen keys, PING, the control faults, the idle and lifetime
 * closes. The client is the `ws` package; REST calls are signed by the test's own signer.
 */
import assert from 'node:assert/strict';
import { sandboxCommand } from '../../../../src/cli/sandbox';
import type { Io } from '../../../../src/cli/usage';
import { STREAMS, classifyServerMessage, parseStreamName } from '../../../../src/core/catalog/streams';
import { startSandbox, type Sandbox } from '../../../../src/sandbox';
import {
  WsClient,
  at,
  control,
  field,
  limitOrder,
  openListenKey,
  signed,
  type Refused,
} from '../../../support/sandbox-ws';

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
const DEPTH5 = 'spot@public.limit.depth.v3.api@BTCUSDT@5';
const TICKER = 'spot@public.bookTicker.v3.api@BTCUSDT';
const KLINE = 'spot@public.kline.v3.api@BTCUSDT@Min1';
const ORDERS = 'spot@private.orders.v3.api';
const FILLS = 'spot@private.deals.v3.api';
const ACCOUNT = 'spot@private.account.v3.api';

/** Whether `json` is a valid push of its stream by the catalog's schemas. */
function validPush(json: unknown): boolean {
  return classifyServerMessage(json).type === 'push';
}

describe('sandbox WebSocket: streams', function () {
  this.timeout(20_000);
  let sb: Sandbox;
  const clients: WsClient[] = [];
  const connect = async (query = ''): Promise<WsClient> => {
    const c = await WsClient.connect(sb.wsUrl + query);
    clients.push(c);
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
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });

  it('the Sandbox object and its wsUrl name the /ws endpoint on the HTTP port', () => {
    assert.equal(sb.wsUrl, sb.baseUrl.replace('http://', 'ws://') + '/ws');
  });

  it('SUBSCRIPTION is answered {id, code 0, msg: the names}; UNSUBSCRIPTION likewise; PING is answered PONG', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [DEALS, KLINE], id: 7 });
    assert.deepEqual(await c.reply(7), { id: 7, code: 0, msg: `${DEALS},${KLINE}` });
    c.send({ method: 'UNSUBSCRIPTION', params: [KLINE], id: 8 });
    assert.deepEqual(await c.reply(8), { id: 8, code: 0, msg: KLINE });
    c.send({ method: 'PING' });
    assert.deepEqual(await c.reply(0), { id: 0, code: 0, msg: 'PONG' });
  });

  it('a refused subscription says why with a non-zero code: unknown stream, bad levels, bad interval, lower-case symbol, unlisted symbol, bad JSON', async () => {
    const c = await connect();
    const cases: [string, number, RegExp][] = [
      ['spot@public.trades.v3.api@BTCUSDT', 33333, /Unknown stream/],
      ['spot@public.limit.depth.v3.api@BTCUSDT@7', 33333, /5, 10 or 20/],
      ['spot@public.kline.v3.api@BTCUSDT@min1', 33333, /case-sensitive: Min1/],
      ['spot@public.deals.v3.api@btcusdt', 33333, /upper-case/],
      ['spot@public.deals.v3.api@DOGEUSDT', 10007, /DOGEUSDT is not one of them/],
    ];
    let id = 1;
    for (const [name, code, msg] of cases) {
      c.send({ method: 'SUBSCRIPTION', params: [DEALS, name], id });
      const r = await c.reply(id++);
      assert.equal(field(r, 'code'), code, `${name}: ${JSON.stringify(r)}`);
      assert.match(String(field(r, 'msg')), msg);
    }
    c.send('{"method": "SUBSCRIPTION", "params": [');
    assert.match(String(field(await c.reply(0), 'msg')), /not valid JSON/);
    c.send({ method: 'SUBSCRIBE', params: [DEALS], id: 99 });
    assert.equal(field(await c.reply(99), 'code'), 33333);
    // All or nothing: the good name of each refused message was not subscribed.
    c.send({ method: 'UNSUBSCRIPTION', params: [DEALS], id: 100 });
    await c.reply(100);
    assert.equal((await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30010'))).status, 200);
    await c.barrier(101);
    assert.ok(!c.has((j) => field(j, 'c') === DEALS), 'no deals push after refused subscriptions');
  });

  it('a REST trade is pushed on deals, depth, bookTicker and kline, each push valid by the catalog', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [DEALS, DEPTH5, TICKER, KLINE], id: 1 });
    await c.reply(1);
    // Depth and bookTicker send their current state on subscription.
    const first = await c.push(DEPTH5);
    assert.deepEqual(at(first, 'd.asks.0'), { p: '30010.00000000', v: '2.00000000' });
    await c.push(TICKER);

    const r = await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.5', '30010'));
    assert.equal(field(r.json, 'status'), 'FILLED', r.text);

    const deal = await c.push(DEALS);
    assert.deepEqual(at(deal, 'd.deals.0'), { p: '30010.00000000', v: '0.50000000', S: 1, t: at(deal, 'd.deals.0.t') });
    assert.equal(field(deal, 's'), 'BTCUSDT');
    const depth = await c.push(DEPTH5);
    assert.deepEqual(
      at(depth, 'd.asks.0'),
      { p: '30010.00000000', v: '1.50000000' },
      'the ask level shrank by the fill',
    );
    assert.equal((at(depth, 'd.bids') as unknown[]).length, 5);
    assert.ok(Number(at(depth, 'd.r')) > Number(at(first, 'd.r')), 'the book version grew');
    const ticker = await c.push(TICKER);
    assert.deepEqual(field(ticker, 'd'), {
      b: '29990.00000000',
      B: '2.00000000',
      a: '30010.00000000',
      A: '1.50000000',
    });
    const kline = await c.push(KLINE);
    assert.equal(at(kline, 'd.k.o'), '30010.00000000');
    assert.equal(at(kline, 'd.k.v'), '0.50000000');
    assert.equal(at(kline, 'd.k.a'), '15005.00000000');
    assert.equal((at(kline, 'd.k.T') as number) - (at(kline, 'd.k.t') as number), 60);
    for (const p of [first, deal, depth, ticker, kline]) assert.ok(validPush(p), JSON.stringify(p));
  });

  it('a candle grows with each trade of its interval: high, low, close and volume', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [KLINE], id: 1 });
    await c.reply(1);
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30010'));
    await c.push(KLINE);
    await signed(sb, 'POST', '/api/v3/order', limitOrder('SELL', '0.2', '29990'));
    const k = await c.push(KLINE, (d) => at(d, 'k.c') === '29990.00000000');
    assert.deepEqual(
      ['o', 'h', 'l', 'c', 'v'].map((x) => at(k, `d.k.${x}`)),
      ['30010.00000000', '30010.00000000', '29990.00000000', '29990.00000000', '0.30000000'],
    );
  });

  it('private streams: with a listen key, order updates, fills and balances are pushed; each push valid by the catalog', async () => {
    const listenKey = await openListenKey(sb);
    assert.match(listenKey, /^[0-9a-f]{64}$/);
    const c = await connect(`?listenKey=${listenKey}`);
    c.send({ method: 'SUBSCRIPTION', params: [ORDERS, FILLS, ACCOUNT], id: 1 });
    assert.equal(field(await c.reply(1), 'code'), 0);

    const placed = await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.5', '30010'));
    const orderId = field(placed.json, 'orderId');
    const created = await c.push(ORDERS, (d) => field(d, 's') === 1);
    assert.equal(at(created, 'd.i'), orderId);
    const filled = await c.push(ORDERS, (d) => field(d, 's') === 2);
    assert.deepEqual(
      ['i', 'S', 'v', 'cv', 'ca', 'ap', 'V'].map((x) => at(filled, `d.${x}`)),
      [orderId, 1, '0.50000000', '0.50000000', '15005.00000000', '30010.00000000', '0.00000000'],
    );
    const fill = await c.push(FILLS);
    assert.deepEqual(
      ['i', 'p', 'v', 'a', 'm', 'N'].map((x) => at(fill, `d.${x}`)),
      [orderId, '30010.00000000', '0.50000000', '15005.00000000', 0, 'USDT'],
    );
    const btc = await c.push(ACCOUNT, (d) => field(d, 'a') === 'BTC');
    assert.equal(at(btc, 'd.f'), '10.50000000');
    assert.equal(at(btc, 'd.fd'), '0.50000000');
    const usdt = await c.push(ACCOUNT, (d) => field(d, 'a') === 'USDT');
    assert.equal(at(usdt, 'd.fd'), '-15005.00000000');
    for (const p of [created, filled, fill, btc, usdt]) assert.ok(validPush(p), JSON.stringify(p));

    // A resting order that is cancelled: NEW, then CANCELED (4), its lock released.
    const rest = await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '20000'));
    const id = String(field(rest.json, 'orderId'));
    await signed(sb, 'DELETE', '/api/v3/order', `symbol=BTCUSDT&orderId=${id}`);
    await c.push(ORDERS, (d) => field(d, 'i') === id && field(d, 's') === 4);
    const released = await c.push(ACCOUNT, (d) => field(d, 'o') === 'ENTRUST_CANCEL');
    assert.equal(at(released, 'd.ld'), '-2000.00000000');

    // The account trades with itself: the resting order is the maker (m 1), the other the taker (m 0).
    const maker = String(
      field((await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '29995'))).json, 'orderId'),
    );
    const taker = String(
      field((await signed(sb, 'POST', '/api/v3/order', limitOrder('SELL', '0.1', '29995'))).json, 'orderId'),
    );
    const makerDone = await c.push(ORDERS, (d) => field(d, 'i') === maker && field(d, 's') === 2);
    const takerDone = await c.push(ORDERS, (d) => field(d, 'i') === taker && field(d, 's') === 2);
    assert.deepEqual([at(makerDone, 'd.m'), at(takerDone, 'd.m')], [1, 0]);
    const makerFill = await c.push(FILLS, (d) => field(d, 'i') === maker);
    const takerFill = await c.push(FILLS, (d) => field(d, 'i') === taker);
    assert.deepEqual([at(makerFill, 'd.m'), at(takerFill, 'd.m'), at(takerFill, 'd.S')], [1, 0, 2]);
  });

  it('another account does not see these private pushes', async () => {
    const mine = await connect(`?listenKey=${await openListenKey(sb)}`);
    const theirs = await connect(
      `?listenKey=${await openListenKey(
        sb,
        sb.keys.find((k) => k.name === 'readonly'),
      )}`,
    );
    for (const c of [mine, theirs]) {
      c.send({ method: 'SUBSCRIPTION', params: [ORDERS], id: 1 });
      await c.reply(1);
    }
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '20000'));
    await mine.push(ORDERS);
    await theirs.barrier(2);
    assert.ok(!theirs.has((j) => field(j, 'c') === ORDERS));
  });

  it('private streams are refused without a listen key (401), and an unknown or deleted key is refused at the upgrade (401)', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [ORDERS], id: 1 });
    const r = await c.reply(1);
    assert.equal(field(r, 'code'), 401);
    assert.match(String(field(r, 'msg')), /listen key/);

    const unknown = (await WsClient.open(`${sb.wsUrl}?listenKey=${'0'.repeat(64)}`)) as Refused;
    assert.equal(unknown.status, 401);

    const listenKey = await openListenKey(sb);
    const live = await connect(`?listenKey=${listenKey}`);
    const del = await signed(sb, 'DELETE', '/api/v3/userDataStream', `listenKey=${listenKey}`);
    assert.equal(del.status, 200, del.text);
    const closed = await live.closed;
    assert.match(closed.reason, /DELETE/);
    const after = (await WsClient.open(`${sb.wsUrl}?listenKey=${listenKey}`)) as Refused;
    assert.equal(after.status, 401);
    assert.equal(field(JSON.parse(after.body), 'code'), 401);
    assert.ok(!after.body.includes(listenKey), 'the refusal does not repeat the key');
    const again = await signed(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${listenKey}`);
    assert.equal(field(again.json, 'code'), 730002);
    assert.ok(!again.text.includes(listenKey));
  });

  it('a listen key is never in the request log, and a 700002 message hides it', async () => {
    const listenKey = await openListenKey(sb);
    assert.equal((await signed(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${listenKey}`)).status, 200);
    const bad = await signed(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${listenKey}`, { signedAs: 'x' });
    assert.equal(field(bad.json, 'code'), 700002);
    assert.ok(!bad.text.includes(listenKey), bad.text);
    await connect(`?listenKey=${listenKey}`);
    const log = await control(sb, '/requests');
    assert.ok(log.text.includes('"/ws"'), 'the upgrade is logged');
    assert.ok(!log.text.includes(listenKey), 'the listen key is not');
  });
});

describe('sandbox WebSocket: listen key lapse (a clock the test moves)', function () {
  this.timeout(20_000);
  let sb: Sandbox;
  let clock = Date.now();

  before(async () => {
    sb = await startSandbox({ port: 0, now: () => clock });
  });
  after(async () => {
    await sb.close();
  });

  it('a listen key lapses 60 minutes after its last keep-alive: PUT extends it, after the lapse PUT and the upgrade are refused', async () => {
    clock = Date.now();
    const listenKey = await openListenKey(sb, undefined, clock);
    clock += 59 * 60_000;
    const kept = await signed(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${listenKey}`, { timestamp: clock });
    assert.equal(kept.status, 200, kept.text);
    clock += 59 * 60_000;
    const c = await WsClient.connect(`${sb.wsUrl}?listenKey=${listenKey}`);
    c.close();
    clock += 2 * 60_000;
    const lapsed = await signed(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${listenKey}`, { timestamp: clock });
    assert.equal(field(lapsed.json, 'code'), 730002, lapsed.text);
    const refused = (await WsClient.open(`${sb.wsUrl}?listenKey=${listenKey}`)) as Refused;
    assert.equal(refused.status, 401);
  });
});

describe('sandbox WebSocket: faults and closes', function () {
  this.timeout(20_000);
  let sb: Sandbox;
  const clients: WsClient[] = [];
  const connect = async (): Promise<WsClient> => {
    const c = await WsClient.connect(sb.wsUrl);
    clients.push(c);
    return c;
  };

  before(async () => {
    sb = await startSandbox({ port: 0, wsIdleMs: 300, wsLifetimeMs: 1500 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await control(sb, '/reset');
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });

  it('POST /_sandbox/ws/drop drops every connection with no close frame (the client sees 1006)', async () => {
    const a = await connect();
    const b = await connect();
    const r = await control(sb, '/ws/drop');
    assert.equal(field(r.json, 'dropped'), 2);
    assert.equal((await a.closed).code, 1006);
    assert.equal((await b.closed).code, 1006);
  });

  it('POST /_sandbox/ws/pause stops pushes while replies still go; /resume sends them again', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [DEALS], id: 1 });
    await c.reply(1);
    assert.equal(field((await control(sb, '/ws/pause')).json, 'paused'), true);
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30010'));
    await c.barrier(2);
    assert.ok(!c.has((j) => field(j, 'c') === DEALS), 'no push while paused');
    await control(sb, '/ws/resume');
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.2', '30010'));
    const push = await c.push(DEALS);
    assert.equal(at(push, 'd.deals.0.v'), '0.20000000');
  });

  it('POST /_sandbox/ws/malformed sends one text frame that is not valid JSON to every connection', async () => {
    const a = await connect();
    const b = await connect();
    assert.equal(field((await control(sb, '/ws/malformed')).json, 'sent'), 2);
    for (const c of [a, b]) {
      const text = await c.take((json, t) => json === undefined && t.length > 0, 'a malformed frame');
      assert.equal(text, undefined);
      assert.throws(() => JSON.parse(c.texts().at(-1)!) as unknown);
    }
  });

  it('GET /_sandbox/ lists the WebSocket control routes', async () => {
    const res = await fetch(`${sb.baseUrl}/_sandbox/`, { headers: { 'Content-Type': 'application/json' } });
    const text = await res.text();
    for (const route of ['/_sandbox/ws/drop', '/_sandbox/ws/pause', '/_sandbox/ws/resume', '/_sandbox/ws/malformed'])
      assert.ok(text.includes(route), route);
  });

  it('a connection with no subscription is closed after the idle time (30 s by default; 300 ms here); one that subscribes is kept', async () => {
    const started = Date.now();
    const idle = await connect();
    const busy = await connect();
    busy.send({ method: 'SUBSCRIPTION', params: [DEALS], id: 1 });
    await busy.reply(1);
    const closed = await idle.closed;
    assert.equal(closed.code, 1000);
    assert.match(closed.reason, /no subscription/);
    assert.ok(Date.now() - started >= 290, 'not before the idle time');
    await busy.barrier(2);
    // Unsubscribing everything starts the idle time again.
    busy.send({ method: 'UNSUBSCRIPTION', params: [DEALS], id: 3 });
    await busy.reply(3);
    assert.match((await busy.closed).reason, /no subscription/);
  });

  it('every connection is closed after its lifetime (24 h by default; 1.5 s here)', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [DEALS], id: 1 });
    await c.reply(1);
    const started = Date.now();
    const closed = await c.closed;
    assert.equal(closed.code, 1000);
    assert.match(closed.reason, /closed after/);
    assert.ok(Date.now() - started >= 1000);
  });
});

describe('tradereq sandbox: the WebSocket address and routes', () => {
  it('--json prints wsUrl next to baseUrl, and a client connects there', async () => {
    const lines: string[] = [];
    const io: Io = { out: (t) => lines.push(t), err: () => undefined, env: {}, cwd: process.cwd() };
    const stop = new AbortController();
    const running = sandboxCommand(['--port', '0', '--json'], io, stop.signal);
    for (let i = 0; i < 200 && lines.length === 0; i++) await new Promise((r) => setImmediate(r));
    const info = JSON.parse(lines[0]!) as { baseUrl: string; wsUrl: string };
    assert.equal(info.wsUrl, info.baseUrl.replace('http://', 'ws://') + '/ws');
    const c = await WsClient.connect(info.wsUrl);
    await c.barrier(1);
    c.close();
    stop.abort();
    assert.equal(await running, 0);
  });

  it('the help names the WebSocket endpoint, its limits and its control routes', async () => {
    const lines: string[] = [];
    const io: Io = { out: (t) => lines.push(t), err: () => undefined, env: {}, cwd: process.cwd() };
    assert.equal(await sandboxCommand(['--help'], io), 0);
    const help = lines.join('\n');
    for (const text of [
      '/ws?listenKey=',
      '30 streams',
      '100 messages',
      '418',
      '/_sandbox/ws/drop',
      '/_sandbox/ws/pause',
      '/_sandbox/ws/resume',
      '/_sandbox/ws/malformed',
      '"wsUrl"',
    ])
      assert.ok(help.includes(text), text);
  });
});

describe('stream catalog', () => {
  it('every stream of docs/websocket.md is listed, marked assumed, with a valid example push', () => {
    assert.deepEqual(
      STREAMS.map((s) => s.channel),
      [
        'spot@public.deals.v3.api',
        'spot@public.limit.depth.v3.api',
        'spot@public.bookTicker.v3.api',
        'spot@public.kline.v3.api',
        'spot@private.orders.v3.api',
        'spot@private.deals.v3.api',
        'spot@private.account.v3.api',
      ],
    );
    for (const s of STREAMS) {
      assert.equal(s.source, 'assumed');
      const example: unknown = JSON.parse(s.example);
      const m = classifyServerMessage(example);
      assert.equal(m.type, 'push', `${s.kind}: ${JSON.stringify(m)}`);
      assert.equal(m.type === 'push' && m.info.kind, s.kind);
      // Every documented field is in the example.
      for (const f of s.fields) {
        const path = f.path.replace('[]', '.0');
        assert.notEqual(at(field(example, 'd'), path), undefined, `${s.kind}: ${f.path}`);
      }
    }
  });

  it('parseStreamName gives the kind and parameters, or a precise problem with its place in the name', () => {
    assert.deepEqual(parseStreamName('spot@public.limit.depth.v3.api@ETHUSDT@10'), {
      ok: true,
      value: { stream: { kind: 'depth', symbol: 'ETHUSDT', levels: 10 }, info: STREAMS[1] },
    });
    const ok = parseStreamName('spot@private.account.v3.api');
    assert.ok(ok.ok && ok.value.stream.kind === 'account');
    const cases: [string, string, number, number, string?][] = [
      ['spot@public.deals.v3.api@btcusdt', 'bad-symbol', 25, 32, 'spot@public.deals.v3.api@BTCUSDT'],
      ['spot@public.limit.depth.v3.api@BTCUSDT@15', 'bad-levels', 39, 41],
      ['spot@public.kline.v3.api@BTCUSDT@1m', 'bad-interval', 33, 35],
      ['spot@public.kline.v3.api@BTCUSDT@hour4', 'bad-interval', 33, 38, 'spot@public.kline.v3.api@BTCUSDT@Hour4'],
      ['spot@public.depth.v3.api@BTCUSDT', 'unknown-kind', 0, 24],
      ['spot@public.deals.v3.api', 'malformed', 0, 24],
      ['spot@private.orders.v3.api@BTCUSDT', 'malformed', 26, 34],
      ['spot@public.deals.v3.api@BTC USDT', 'malformed', 28, 29],
      ['', 'malformed', 0, 0],
    ];
    for (const [name, kind, start, end, suggestion] of cases) {
      const r = parseStreamName(name);
      assert.ok(!r.ok, name);
      assert.deepEqual([r.error.kind, r.error.start, r.error.end], [kind, start, end], `${name}: ${r.error.message}`);
      if (suggestion !== undefined) assert.equal(r.error.suggestion, suggestion);
    }
  });
});
