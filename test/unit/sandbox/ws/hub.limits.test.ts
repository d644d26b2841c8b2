/**
 * §8 on the sandbox's WebSocket side, over real sockets: at most 30 streams a connection, at most
 * 100 client messages in any second (beyond: close 1008), an IP cut 3 times within 10 minutes is
 * answered 418 with Retry-After at its next upgrades, and a consumer too slow for its pushes is
 * closed instead of growing the sandbox's memory.
 */
import assert from 'node:assert/strict';
import { request } from 'undici';
import { formatStreamName, KLINE_INTERVALS, DEPTH_LEVELS } from '../../../../src/core/catalog/streams';
import { WS_RULES } from '../../../../src/core/catalog/ws-limits';
import { startSandbox, type Sandbox } from '../../../../src/sandbox';
import { MAX_BUFFERED_BYTES } from '../../../../src/sandbox/ws/hub';
import { WsClient, control, field, limitOrder, signed, type Refused } from '../../../support/sandbox-ws';

const BAN_SCALE = 0.001;
/** Orders that trade at once against the house's best prices. */
const CROSSING: readonly ['BUY' | 'SELL', string, string][] = [
  ['BUY', '30010', 'BTCUSDT'],
  ['SELL', '29990', 'BTCUSDT'],
  ['BUY', '2001', 'ETHUSDT'],
  ['SELL', '1999', 'ETHUSDT'],
];
const OTHER_IP = '127.0.0.2';

/** 36 public streams of BTCUSDT and ETHUSDT: deals, bookTicker, 3 depths, 9 klines... each. */
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

/** Sends `n` PINGs at once; the connection is cut at the (limit + 1)-th within a second. */
function flood(c: WsClient, n: number, firstId = 1): void {
  for (let i = 0; i < n; i++) c.send({ method: 'PING', id: firstId + i });
}

async function cut(sb: Sandbox, from?: string): Promise<void> {
  const c = await WsClient.connect(sb.wsUrl, from);
  flood(c, WS_RULES.messagesPerSecond + 1);
  const closed = await c.closed;
  assert.equal(closed.code, 1008, JSON.stringify(closed));
}

describe('sandbox WebSocket: §8 limits', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  const clients: WsClient[] = [];
  const connect = async (from?: string): Promise<WsClient> => {
    const c = await WsClient.connect(sb.wsUrl, from);
    clients.push(c);
    return c;
  };

  before(async () => {
    sb = await startSandbox({ port: 0, banScale: BAN_SCALE });
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

  it('§8 streams: 30 streams on one connection are taken; the 31st is refused with a non-zero code naming the limit, and the connection stays', async () => {
    assert.equal(WS_RULES.streamsPerConnection, 30);
    const c = await connect();
    const names = publicStreams(31);
    c.send({ method: 'SUBSCRIPTION', params: names.slice(0, 30), id: 1 });
    assert.equal(field(await c.reply(1), 'code'), 0);
    c.send({ method: 'SUBSCRIPTION', params: [names[30]], id: 2 });
    const refused = await c.reply(2);
    assert.notEqual(field(refused, 'code'), 0);
    assert.match(String(field(refused, 'msg')), /At most 30 streams per connection/);
    // Subscribing again to one it holds adds nothing and is taken.
    c.send({ method: 'SUBSCRIPTION', params: [names[0]], id: 3 });
    assert.equal(field(await c.reply(3), 'code'), 0);
    await c.barrier(4);
    // After an unsubscription there is room for one more.
    c.send({ method: 'UNSUBSCRIPTION', params: [names[0]], id: 5 });
    await c.reply(5);
    c.send({ method: 'SUBSCRIPTION', params: [names[30]], id: 6 });
    assert.equal(field(await c.reply(6), 'code'), 0);
    assert.equal(field((await control(sb, '/ws')).json, 'subscriptions'), 30);
  });

  it('§8 message rate: 100 messages within a second are served; the 101st cuts the connection with close code 1008 and a reason naming the limit', async () => {
    const c = await connect();
    flood(c, 100);
    await c.reply(100);
    c.send({ method: 'PING', id: 101 });
    const closed = await c.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /100 messages in one second/);
    assert.ok(!c.has((j) => field(j, 'id') === 101), 'the 101st is not answered');
  });

  it('§8 bans: an IP cut 3 times within 10 minutes is answered 418 with Retry-After at its next upgrades, until the ban ends; other IPs are not', async () => {
    await cut(sb);
    await cut(sb);
    assert.ok((await connect()) instanceof WsClient, 'two cuts do not ban');
    await cut(sb);
    const refused = (await WsClient.open(sb.wsUrl)) as Refused;
    assert.equal(refused.status, 418);
    assert.equal(refused.headers['retry-after'], '1', 'a 2-minute ban × 0.001 is 120 ms: 1 s, rounded up');
    assert.equal(field(JSON.parse(refused.body), 'code'), 429);
    assert.ok(await connect(OTHER_IP));
    // The ban ends: poll the upgrade until it is taken again.
    const deadline = Date.now() + 5_000;
    for (;;) {
      const r = await WsClient.open(sb.wsUrl);
      if (r instanceof WsClient) {
        clients.push(r);
        break;
      }
      assert.equal(r.status, 418);
      assert.ok(Date.now() < deadline, 'the ban ends');
    }
    const log = await control(sb, '/requests');
    assert.ok(
      Array.isArray(log.json) && log.json.some((e) => field(e, 'path') === '/ws' && field(e, 'status') === 418),
    );
  });
});

describe('sandbox WebSocket: slow consumers, limits off', function () {
  this.timeout(30_000);

  it('a consumer that does not read its pushes is closed (1008) once over the buffer cap; a reading one is not', async () => {
    // Every public stream of BTCUSDT and ETHUSDT: a trade on either pushes on 14 of them.
    const names = publicStreams(28);
    const sb = await startSandbox({ port: 0, limits: false });
    try {
      await slowConsumer(sb, names);
    } finally {
      await sb.close();
    }
  });

  async function slowConsumer(sb: Sandbox, names: string[]): Promise<void> {
    const slow = await WsClient.connect(sb.wsUrl);
    const fast = await WsClient.connect(sb.wsUrl);
    for (const c of [slow, fast]) {
      c.send({ method: 'SUBSCRIPTION', params: names, id: 1 });
      await c.reply(1);
    }
    slow.ws.pause();
    const before = process.memoryUsage().rss;
    let orders = 0;
    const deadline = Date.now() + 20_000;
    while (field((await control(sb, '/ws')).json, 'connections') === 2) {
      assert.ok(Date.now() < deadline, `the slow consumer is still open after ${orders} trades`);
      // Four trades at a time (BUY and SELL on each symbol), so most land in ticks of their own.
      const batch = [];
      for (let i = 0; i < 4; i++, orders++) {
        const [side, price, symbol] = CROSSING[orders % 4]!;
        batch.push(signed(sb, 'POST', '/api/v3/order', limitOrder(side, '0.001', price, symbol)));
      }
      await Promise.all(batch);
    }
    slow.ws.resume();
    const closed = await slow.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /slow consumer/);
    await fast.barrier(2);
    assert.equal(fast.ws.readyState, fast.ws.OPEN);
    // Memory grew by at most the data the slow one could not take (rough: the process holds both sides).
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, 'memory stays bounded');
    assert.ok(MAX_BUFFERED_BYTES <= 1024 * 1024);
    fast.close();
  }

  it('with limits off there is no message-rate cut; the 30-stream limit still holds', async () => {
    const sb = await startSandbox({ port: 0, limits: false });
    try {
      const c = await WsClient.connect(sb.wsUrl);
      flood(c, 300);
      await c.reply(300);
      c.send({ method: 'SUBSCRIPTION', params: publicStreams(31), id: 1000 });
      assert.notEqual(field(await c.reply(1000), 'code'), 0);
      c.close();
    } finally {
      await sb.close();
    }
  });

  it('an upgrade to a path other than /ws is answered 404', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const r = (await WsClient.open(sb.baseUrl.replace('http', 'ws') + '/stream')) as Refused;
      assert.equal(r.status, 404);
      const plain = await request(sb.baseUrl + '/ws');
      assert.equal(plain.statusCode, 404, 'a plain GET /ws is no API endpoint');
      await plain.body.text();
    } finally {
      await sb.close();
    }
  });
});
