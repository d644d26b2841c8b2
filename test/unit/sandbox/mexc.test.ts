/**
 * The sandbox playing the mexc deployment, over real sockets: REST with its key header and the
 * 501 of an endpoint of its catalog it does not play, listen keys in its format and rules, and its
 * WebSocket side: `.pb` names, JSON replies and PONG, binary pushes decoded here by protobufjs (an
 * implementation apart from the @bufbuild/protobuf the sandbox encodes with) from the project's
 * .proto, private pushes after an order, and the idle and lifetime closes brought on by moving
 * the sandbox's clock (POST /_sandbox/clock), never by waiting.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { request } from 'undici';
import { WebSocket } from 'ws';
import { MEXC_DEPLOYMENT } from '../../../src/core/catalog/deployment-mexc';
import { DEPLOYMENTS, deploymentById } from '../../../src/core/catalog/deployment';
import { endpointCatalogOf } from '../../../src/core/catalog/endpoint-catalogs';
import type { EndpointInfo } from '../../../src/core/catalog/types';
import { sandboxCommand } from '../../../src/cli/sandbox';
import { UsageError, type Io } from '../../../src/cli/usage';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { NOT_PLAYED_CODE, NOT_PLAYED_STATUS } from '../../../src/sandbox/routes';
import { control, controlOk, field, limitOrder } from '../../support/sandbox-ws';

const PROTO = join(__dirname, '..', '..', '..', 'src', 'core', 'ws', 'proto', 'push.proto');
const Wrapper = protobuf.loadSync(PROTO).lookupType('tradereq.push.PushDataV3ApiWrapper');

const DEALS = 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT';
const DEPTH5 = 'spot@public.limit.depth.v3.api.pb@BTCUSDT@5';
const TICKER = 'spot@public.aggre.bookTicker.v3.api.pb@100ms@BTCUSDT';
const TICKER_BATCH = 'spot@public.bookTicker.batch.v3.api.pb@BTCUSDT';
const KLINE = 'spot@public.kline.v3.api.pb@BTCUSDT@Min1';
const ORDERS = 'spot@private.orders.v3.api.pb';
const FILLS = 'spot@private.deals.v3.api.pb';
const ACCOUNT = 'spot@private.account.v3.api.pb';

type Decoded = Record<string, unknown> & { channel: string; body: string };

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

/** A signed call as the deployment takes it: the key in `header` (X-MEXC-APIKEY unless told), signed here with node:crypto. */
async function call(
  sb: Sandbox,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  query = '',
  header = 'X-MEXC-APIKEY',
  key = sb.keys[0]!,
): Promise<Answer> {
  const offset = field((await control(sb, '/clock', { offsetMs: clockOffset })).json, 'offsetMs') as number;
  const q = (query.length > 0 ? query + '&' : '') + `timestamp=${Date.now() + offset}`;
  const signature = createHmac('sha256', key.secretKey).update(q, 'utf8').digest('hex');
  const res = await request(`${sb.baseUrl}${path}?${q}&signature=${signature}`, {
    method,
    headers: { [header]: key.apiKey },
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: JSON.parse(text) as unknown };
}

/** The clock offset the tests have set (call() sets it again, so that each call is signed on the server's time). */
let clockOffset = 0;

async function moveClock(sb: Sandbox, byMs: number): Promise<void> {
  clockOffset += byMs;
  await controlOk(sb, '/clock', { offsetMs: clockOffset });
}

/** A client that keeps JSON text frames and binary frames (decoded by protobufjs) apart, and waits for one that matches. */
class PbClient {
  readonly texts: unknown[] = [];
  readonly pushes: Decoded[] = [];
  readonly undecodable: Buffer[] = [];
  private wake: (() => void) | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.texts.push(JSON.parse(data.toString('utf8')));
      else {
        try {
          const message = Wrapper.decode(data);
          this.pushes.push(Wrapper.toObject(message, { longs: Number, oneofs: true }) as Decoded);
        } catch {
          this.undecodable.push(data);
        }
      }
      this.wake?.();
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  static open(url: string): Promise<PbClient | { status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new PbClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res: IncomingMessage) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.once('error', reject);
    });
  }

  static async connect(url: string): Promise<PbClient> {
    const c = await PbClient.open(url);
    assert.ok(c instanceof PbClient, `refused: ${JSON.stringify(c)}`);
    return c;
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Waits (up to a generous deadline, for a busy machine) until `found` returns something. */
  async until<T>(found: () => T | undefined, what: string): Promise<T> {
    const end = Date.now() + 10_000;
    for (;;) {
      const v = found();
      if (v !== undefined) return v;
      const left = end - Date.now();
      if (left <= 0)
        assert.fail(
          `no ${what}; texts ${JSON.stringify(this.texts)}; channels ${this.pushes.map((p) => p.channel).join(' ')}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  reply(id: number): Promise<unknown> {
    return this.until(
      () => this.texts.find((j) => field(j, 'id') === id && field(j, 'code') !== undefined),
      `reply ${id}`,
    );
  }

  /** The first push of `channel` that `match` accepts, taken off the list. */
  async push(channel: string, match: (p: Decoded) => boolean = () => true): Promise<Decoded> {
    return this.until(() => {
      const i = this.pushes.findIndex((p) => p.channel === channel && match(p));
      return i === -1 ? undefined : this.pushes.splice(i, 1)[0];
    }, `push of ${channel}`);
  }

  close(): void {
    this.ws.terminate();
  }
}

function body(p: Decoded): Record<string, unknown> {
  return p[p.body] as Record<string, unknown>;
}

describe('sandbox playing mexc: REST', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, deployment: 'mexc' });
  });
  after(() => sb.close());
  beforeEach(async () => {
    clockOffset = 0;
    await controlOk(sb, '/reset');
  });

  it('names the deployment and its key header; a signed call goes with X-MEXC-APIKEY', async () => {
    assert.equal(sb.deployment, 'mexc');
    assert.equal(sb.apiKeyHeader, 'X-MEXC-APIKEY');
    const r = await call(sb, 'GET', '/api/v3/account');
    assert.equal(r.status, 200, r.text);
    assert.equal(field(r.json, 'canTrade'), true);
  });

  it("the spec's X-SERVICE-APIKEY is refused as a missing key (§5 rule 1: 400), the message naming X-MEXC-APIKEY", async () => {
    const r = await call(sb, 'GET', '/api/v3/account', '', 'X-SERVICE-APIKEY');
    assert.equal(r.status, 401, r.text);
    assert.equal(field(r.json, 'code'), 400);
    assert.match(String(field(r.json, 'msg')), /X-MEXC-APIKEY header/);
    assert.match(String(field(r.json, 'msg')), /sent X-SERVICE-APIKEY/);
  });

  it("listen keys are 64 lower-case letters and digits, of the deployment's format", async () => {
    const keys: string[] = [];
    for (let i = 0; i < 3; i++)
      keys.push(String(field((await call(sb, 'POST', '/api/v3/userDataStream')).json, 'listenKey')));
    for (const k of keys) {
      assert.match(k, /^[a-z0-9]{64}$/);
      assert.match(k, MEXC_DEPLOYMENT.listenKey.format);
    }
    // Drawn from 36 characters: keys of hex only would be the spec's form, not this one's.
    assert.ok(
      keys.some((k) => /[g-z]/.test(k)),
      keys.join(' '),
    );
    assert.equal(new Set(keys).size, 3);
  });

  it('an account holds at most 60 listen keys; the 61st is refused', async () => {
    for (let i = 0; i < MEXC_DEPLOYMENT.listenKey.maxPerAccount; i++)
      assert.equal((await call(sb, 'POST', '/api/v3/userDataStream')).status, 200);
    const r = await call(sb, 'POST', '/api/v3/userDataStream');
    assert.equal(field(r.json, 'code'), 730002);
    assert.match(String(field(r.json, 'msg')), /holds 60 listen keys/);
  });

  it('a listen key lapses 60 minutes after its last keep-alive, on the clock POST /_sandbox/clock moves', async () => {
    const key = String(field((await call(sb, 'POST', '/api/v3/userDataStream')).json, 'listenKey'));
    await moveClock(sb, 59 * 60_000);
    assert.equal((await call(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${key}`)).status, 200);
    await moveClock(sb, 59 * 60_000);
    assert.equal((await call(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${key}`)).status, 200);
    await moveClock(sb, 61 * 60_000);
    const lapsed = await call(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${key}`);
    assert.equal(field(lapsed.json, 'code'), 730002);
    assert.ok(!lapsed.text.includes(key), 'the refusal does not repeat the key');
  });

  it('every endpoint of the deployment\'s catalog is played or answered "not played", never as an unknown path', async () => {
    for (const e of endpointCatalogOf(deploymentById('mexc')!).endpoints) {
      const r = await call(sb, e.method, e.path);
      assert.notEqual(r.status, 404, `${e.method} ${e.path}: ${r.text}`);
      if (r.status === NOT_PLAYED_STATUS) assert.equal(field(r.json, 'code'), NOT_PLAYED_CODE);
    }
  });
});

describe('sandbox playing mexc: an endpoint of its catalog it does not play', function () {
  this.timeout(30_000);
  const getAll: EndpointInfo = {
    method: 'GET',
    path: '/api/v3/capital/config/getall',
    title: 'All coins',
    description: 'Coins and their networks.',
    signed: true,
    mode: 'uid',
    weight: 10,
    weightSource: 'spec',
    params: [],
    source: 'spec',
  };
  // The deployment documents GET /api/v3/userDataStream (the spec does not): the sandbox plays it where the catalog has it.
  // Written with a permission the deployment names otherwise than the spec: the sandbox checks its path's (read).
  const listKeys: EndpointInfo = {
    ...getAll,
    path: '/api/v3/userDataStream',
    title: 'Live listen keys',
    weight: 1,
    permission: 'trade',
  };
  const withWallet = [...endpointCatalogOf(MEXC_DEPLOYMENT).endpoints, getAll, listKeys];
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, deployment: MEXC_DEPLOYMENT, endpoints: withWallet });
  });
  after(() => sb.close());

  it('answers 501 with code 20001 "not played by the sandbox", apart from an unknown path (404, 730003)', async () => {
    const r = await call(sb, 'GET', getAll.path);
    assert.equal(r.status, 501, r.text);
    assert.equal(field(r.json, 'code'), 20001);
    assert.match(
      String(field(r.json, 'msg')),
      /GET \/api\/v3\/capital\/config\/getall, an endpoint of MEXC Spot v3, is not played by the sandbox; it plays GET \/api\/v3\/ping/,
    );
    const unknown = await call(sb, 'GET', '/api/v3/capital/config/nothing');
    assert.equal(unknown.status, 404);
    assert.equal(field(unknown.json, 'code'), 730003);
    const wrongMethod = await call(sb, 'PUT', getAll.path);
    assert.equal(
      wrongMethod.status,
      404,
      'a method the catalog does not name at a path the sandbox does not play is unknown',
    );
    const log = await control(sb, '/requests');
    assert.ok(log.text.includes('"status":501'), 'the 501 is in the request log');
  });

  it('GET /api/v3/userDataStream, where the catalog has it, lists the live listen keys of the account', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++)
      keys.push(String(field((await call(sb, 'POST', '/api/v3/userDataStream')).json, 'listenKey')));
    const listed = await call(sb, 'GET', '/api/v3/userDataStream');
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual([...(field(listed.json, 'listenKey') as string[])].sort(), [...keys].sort());
    const readonly = sb.keys.find((k) => k.name === 'readonly')!;
    const theirs = await call(sb, 'GET', '/api/v3/userDataStream', '', 'X-MEXC-APIKEY', readonly);
    assert.equal(theirs.status, 200, `a key that reads may list its keys: ${theirs.text}`);
    assert.deepEqual(field(theirs.json, 'listenKey'), [], "another account's keys are not listed");
  });
});

describe('sandbox playing the spec: the key header', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());

  it('X-MEXC-APIKEY is refused as a missing key, naming X-SERVICE-APIKEY; the spec plays every endpoint of its catalog', async () => {
    clockOffset = 0;
    const r = await call(sb, 'GET', '/api/v3/account', '', 'X-MEXC-APIKEY');
    assert.equal(field(r.json, 'code'), 400);
    assert.match(String(field(r.json, 'msg')), /X-SERVICE-APIKEY header/);
    assert.equal((await call(sb, 'GET', '/api/v3/account', '', 'X-SERVICE-APIKEY')).status, 200);
    assert.equal(sb.deployment, DEPLOYMENTS[0].id);
  });
});

describe('sandbox playing mexc: WebSocket', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  const clients: PbClient[] = [];
  const connect = async (query = ''): Promise<PbClient> => {
    const c = await PbClient.connect(sb.wsUrl + query);
    clients.push(c);
    return c;
  };
  const order = (side: 'BUY' | 'SELL', qty: string, price: string): Promise<Answer> =>
    call(sb, 'POST', '/api/v3/order', limitOrder(side, qty, price));

  before(async () => {
    sb = await startSandbox({ port: 0, deployment: 'mexc' });
  });
  after(() => sb.close());
  beforeEach(async () => {
    clockOffset = 0;
    await controlOk(sb, '/reset');
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });

  it('a .pb SUBSCRIPTION is answered {"id":0,"code":0,"msg":CHANNEL} in JSON, and PING {"id":0,"code":0,"msg":"PONG"}', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [DEALS] });
    assert.deepEqual(await c.reply(0), { id: 0, code: 0, msg: DEALS });
    c.texts.length = 0;
    c.send({ method: 'PING' });
    assert.deepEqual(await c.reply(0), { id: 0, code: 0, msg: 'PONG' });
  });

  it('a JSON-convention name, an unknown channel, a bad rate or interval is refused, saying why', async () => {
    const c = await connect();
    const cases: [string, RegExp][] = [
      ['spot@public.deals.v3.api@BTCUSDT', /write spot@public\.aggre\.deals\.v3\.api\.pb@100ms@BTCUSDT/],
      ['spot@public.trades.v3.api.pb@BTCUSDT', /Unknown stream/],
      ['spot@public.aggre.deals.v3.api.pb@5ms@BTCUSDT', /100ms, 10ms, not "5ms"/],
      ['spot@public.kline.v3.api.pb@BTCUSDT@Month', /Month1/],
    ];
    let id = 1;
    for (const [name, why] of cases) {
      c.send({ method: 'SUBSCRIPTION', params: [name], id });
      const r = await c.reply(id++);
      assert.equal(field(r, 'code'), 33333, name);
      assert.match(String(field(r, 'msg')), why);
    }
  });

  it('a REST trade is pushed as binary wrappers that protobufjs decodes: aggregated deals, limit depth, book tickers, kline', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [DEALS, DEPTH5, TICKER, TICKER_BATCH, KLINE], id: 1 });
    await c.reply(1);
    // Depth and the book tickers send their current state on subscription.
    const first = await c.push(DEPTH5);
    assert.deepEqual((body(first)['asks'] as unknown[])[0], { price: '30010.00000000', quantity: '2.00000000' });
    await c.push(TICKER);
    await c.push(TICKER_BATCH);

    const placed = await order('BUY', '0.5', '30010');
    assert.equal(field(placed.json, 'status'), 'FILLED', placed.text);
    const deal = await c.push(DEALS);
    assert.equal(deal.body, 'publicAggreDeals');
    assert.equal(deal.symbol, 'BTCUSDT');
    const item = (body(deal)['deals'] as Record<string, unknown>[])[0]!;
    assert.deepEqual(
      [item['price'], item['quantity'], item['tradeType'], typeof item['time'], body(deal)['eventType']],
      ['30010.00000000', '0.50000000', 1, 'number', 'spot@public.aggre.deals.v3.api.pb@100ms'],
    );
    assert.ok(Math.abs((deal['sendTime'] as number) - Date.now()) < 60_000, 'sendTime is int64 milliseconds');
    const depth = await c.push(DEPTH5);
    assert.equal(depth.body, 'publicLimitDepths');
    assert.deepEqual((body(depth)['asks'] as unknown[])[0], { price: '30010.00000000', quantity: '1.50000000' });
    assert.equal((body(depth)['bids'] as unknown[]).length, 5);
    assert.ok(Number(body(depth)['version']) > Number(body(first)['version']), 'the book version grew');
    const ticker = await c.push(TICKER, (p) => body(p)['askQuantity'] === '1.50000000');
    assert.deepEqual(
      ['bidPrice', 'bidQuantity', 'askPrice', 'askQuantity'].map((k) => body(ticker)[k]),
      ['29990.00000000', '2.00000000', '30010.00000000', '1.50000000'],
    );
    const batch = await c.push(TICKER_BATCH, (p) => (body(p)['items'] as unknown[]).length === 1);
    assert.equal(batch.body, 'publicBookTickerBatch');
    const kline = await c.push(KLINE);
    assert.equal(kline.body, 'publicSpotKline');
    const k = body(kline);
    assert.deepEqual(
      [
        k['interval'],
        k['openingPrice'],
        k['volume'],
        k['amount'],
        (k['windowEnd'] as number) - (k['windowStart'] as number),
      ],
      ['Min1', '30010.00000000', '0.50000000', '15005.00000000', 60],
    );
  });

  it('book increments: the whole book first, then what changed (0 for a level gone), versions in order, on aggre.depth and increase.depth.batch', async () => {
    const AGGRE = 'spot@public.aggre.depth.v3.api.pb@10ms@BTCUSDT';
    const BATCH = 'spot@public.increase.depth.batch.v3.api.pb@BTCUSDT';
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [AGGRE, BATCH], id: 1 });
    await c.reply(1);
    const whole = await c.push(AGGRE);
    assert.equal(whole.body, 'publicAggreDepths');
    const asks = body(whole)['asks'] as { price: string; quantity: string }[];
    assert.deepEqual(asks[0], { price: '30010.00000000', quantity: '2.00000000' });
    assert.equal(body(whole)['fromVersion'], body(whole)['toVersion']);
    await c.push(BATCH);
    // The whole best ask taken: that level is gone (0); a resting bid at a new price appears.
    await order('BUY', '2', '30010');
    const gone = await c.push(AGGRE);
    assert.deepEqual(body(gone)['asks'], [{ price: '30010.00000000', quantity: '0.00000000' }]);
    assert.equal(Number(body(gone)['fromVersion']), Number(body(whole)['toVersion']) + 1);
    await order('BUY', '0.1', '29995');
    const added = await c.push(AGGRE, (p) => (body(p)['bids'] as unknown[] | undefined)?.length === 1);
    assert.deepEqual(body(added)['bids'], [{ price: '29995.00000000', quantity: '0.10000000' }]);
    assert.equal(body(added)['asks'], undefined, 'no ask changed');
    assert.equal(Number(body(added)['fromVersion']), Number(body(gone)['toVersion']) + 1);
    const batch = await c.push(BATCH, (p) => JSON.stringify(body(p)).includes('29995.00000000'));
    assert.equal(batch.body, 'publicIncreaseDepthsBatch');
    const item = (body(batch)['items'] as Record<string, unknown>[])[0]!;
    assert.deepEqual(item['bids'], [{ price: '29995.00000000', quantity: '0.10000000' }]);
  });

  it('private pushes on a listen-key connection after an order: the order (304), its fill (306), the balances (307)', async () => {
    const listenKey = String(field((await call(sb, 'POST', '/api/v3/userDataStream')).json, 'listenKey'));
    const c = await connect(`?listenKey=${listenKey}`);
    c.send({ method: 'SUBSCRIPTION', params: [ORDERS, FILLS, ACCOUNT], id: 1 });
    assert.equal(field(await c.reply(1), 'code'), 0);
    const placed = await order('BUY', '0.5', '30010');
    const orderId = String(field(placed.json, 'orderId'));
    const filled = await c.push(ORDERS, (p) => body(p)['status'] === 2);
    assert.equal(filled.body, 'privateOrders');
    assert.deepEqual(
      ['id', 'tradeType', 'quantity', 'cumulativeQuantity', 'cumulativeAmount', 'avgPrice', 'remainQuantity'].map(
        (x) => body(filled)[x],
      ),
      [orderId, 1, '0.50000000', '0.50000000', '15005.00000000', '30010.00000000', '0.00000000'],
    );
    const fill = await c.push(FILLS);
    assert.deepEqual(
      ['orderId', 'price', 'quantity', 'amount', 'feeCurrency'].map((x) => body(fill)[x]),
      [orderId, '30010.00000000', '0.50000000', '15005.00000000', 'USDT'],
    );
    assert.equal(body(fill)['isMaker'], undefined, 'a taker: isMaker false, which proto3 leaves off the wire');
    const btc = await c.push(ACCOUNT, (p) => body(p)['vcoinName'] === 'BTC');
    assert.deepEqual([body(btc)['balanceAmount'], body(btc)['balanceAmountChange']], ['10.50000000', '0.50000000']);
    assert.equal(btc.symbol, undefined, 'an account push names no symbol');
  });

  it('private channels need a listen-key connection; a key carries at most 5 connections', async () => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [ORDERS], id: 1 });
    assert.equal(field(await c.reply(1), 'code'), 401);
    const listenKey = String(field((await call(sb, 'POST', '/api/v3/userDataStream')).json, 'listenKey'));
    for (let i = 0; i < MEXC_DEPLOYMENT.listenKey.maxConnections; i++) await connect(`?listenKey=${listenKey}`);
    const sixth = await PbClient.open(`${sb.wsUrl}?listenKey=${listenKey}`);
    assert.ok(!(sixth instanceof PbClient));
    assert.equal(sixth.status, 409);
    assert.match(sixth.body, /at most 5 connections/);
    assert.ok(!sixth.body.includes(listenKey), 'the refusal does not repeat the key');
  });

  it('POST /_sandbox/ws/malformed sends a binary frame that is no wrapper', async () => {
    const c = await connect();
    assert.equal(field((await control(sb, '/ws/malformed')).json, 'sent'), 1);
    await c.until(() => c.undecodable[0], 'an undecodable frame');
  });
});

describe('sandbox playing mexc: idle and lifetime closes, by moving the clock', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  const clients: PbClient[] = [];
  const connect = async (): Promise<PbClient> => {
    const c = await PbClient.connect(sb.wsUrl);
    clients.push(c);
    return c;
  };
  const subscribed = async (): Promise<PbClient> => {
    const c = await connect();
    c.send({ method: 'SUBSCRIPTION', params: [DEALS], id: 1 });
    await c.reply(1);
    return c;
  };
  const open = async (): Promise<number> => field((await control(sb, '/ws')).json, 'connections') as number;

  before(async () => {
    sb = await startSandbox({ port: 0, deployment: 'mexc' });
  });
  after(() => sb.close());
  beforeEach(async () => {
    clockOffset = 0;
    await controlOk(sb, '/reset');
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });

  it('30 s without a valid subscription closes a connection; 29 s does not', async () => {
    const c = await connect();
    await moveClock(sb, 29_000);
    assert.equal(await open(), 1);
    await moveClock(sb, 1_000);
    const closed = await c.closed;
    assert.equal(closed.code, 1000);
    assert.match(closed.reason, /no subscription for 30 s/);
  });

  it('once subscribed, 60 s without data closes it; a PING keeps it open another 60 s', async () => {
    const c = await subscribed();
    await moveClock(sb, 50_000);
    c.send({ method: 'PING', id: 2 });
    await c.reply(2);
    await moveClock(sb, 50_000);
    assert.equal(await open(), 1, '100 s after subscribing, 50 s after the PING, it is open');
    await moveClock(sb, 10_000);
    const closed = await c.closed;
    assert.match(closed.reason, /no data for 60 s \(a PING keeps it\)/);
  });

  it('a push counts as data: a subscribed connection that gets pushes is kept', async () => {
    const c = await subscribed();
    await moveClock(sb, 50_000);
    await call(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30010'));
    await c.push(DEALS);
    await moveClock(sb, 50_000);
    assert.equal(await open(), 1);
  });

  it('a connection is closed 24 hours after it opened, whatever it does', async () => {
    const c = await subscribed();
    await moveClock(sb, 24 * 60 * 60_000);
    const closed = await c.closed;
    assert.equal(closed.code, 1000);
    assert.match(closed.reason, /closed after 24 hours/);
  });

  it('a connection on a listen key is closed when the key lapses (60 minutes with no keep-alive)', async () => {
    const listenKey = String(field((await call(sb, 'POST', '/api/v3/userDataStream')).json, 'listenKey'));
    const c = await PbClient.connect(`${sb.wsUrl}?listenKey=${listenKey}`);
    clients.push(c);
    c.send({ method: 'SUBSCRIPTION', params: [ORDERS], id: 1 });
    await c.reply(1);
    await moveClock(sb, 61 * 60_000);
    const closed = await c.closed;
    assert.match(closed.reason, /listenKey lapsed/);
  });
});

describe('sandbox playing the spec: the lifetime on the clock, no close for a quiet subscribed connection', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());

  it('a subscribed connection with no data stays open for hours, and is closed at 24 hours', async () => {
    clockOffset = 0;
    const c = await PbClient.connect(sb.wsUrl);
    c.send({ method: 'SUBSCRIPTION', params: ['spot@public.deals.v3.api@BTCUSDT'], id: 1 });
    await c.reply(1);
    await moveClock(sb, 23 * 60 * 60_000);
    assert.equal(field((await control(sb, '/ws')).json, 'connections'), 1);
    await moveClock(sb, 60 * 60_000);
    assert.match((await c.closed).reason, /closed after 24 hours/);
    c.close();
  });
});

describe('sandbox playing mexc: connectionScale multiplies its connection rules', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, deployment: 'mexc', connectionScale: 0.5 });
  });
  after(() => sb.close());

  it('at 0.5: no subscription closes at 15 s, no data at 30 s (still on the clock the control surface moves)', async () => {
    clockOffset = 0;
    const idle = await PbClient.connect(sb.wsUrl);
    const quiet = await PbClient.connect(sb.wsUrl);
    quiet.send({ method: 'SUBSCRIPTION', params: [DEALS], id: 1 });
    await quiet.reply(1);
    await moveClock(sb, 15_000);
    assert.match((await idle.closed).reason, /no subscription for 15 s/);
    assert.equal(field((await control(sb, '/ws')).json, 'connections'), 1);
    await moveClock(sb, 15_000);
    assert.match((await quiet.closed).reason, /no data for 30 s/);
  });

  it('startSandbox refuses an unknown deployment and a scale that is not above 0', async () => {
    await assert.rejects(startSandbox({ port: 0, deployment: 'nope' }), /deployment must be one of spec, mexc/);
    await assert.rejects(startSandbox({ port: 0, connectionScale: 0 }), /connectionScale must be a number above 0/);
  });
});

describe('tradereq sandbox --deployment', function () {
  this.timeout(30_000);
  const io = () => {
    const lines: string[] = [];
    const value: Io = { out: (t) => lines.push(t), err: () => undefined, env: {}, cwd: process.cwd() };
    return { lines, io: value };
  };
  const run = async (args: string[]): Promise<string> => {
    const { lines, io: value } = io();
    const stop = new AbortController();
    const running = sandboxCommand(['--port', '0', ...args], value, stop.signal);
    for (let i = 0; i < 500 && lines.length === 0; i++) await new Promise((r) => setImmediate(r));
    stop.abort();
    assert.equal(await running, 0);
    return lines[0]!;
  };

  it('--json names the deployment and its key header; the text names them too', async () => {
    const json = JSON.parse(await run(['--deployment', 'mexc', '--json'])) as Record<string, unknown>;
    assert.deepEqual([json['deployment'], json['apiKeyHeader']], ['mexc', 'X-MEXC-APIKEY']);
    const text = await run(['--deployment', 'mexc']);
    assert.match(text, /\nPlaying MEXC Spot v3 \(--deployment to choose another\)\n/);
    assert.match(text, /header X-MEXC-APIKEY/);
    const spec = JSON.parse(await run(['--json'])) as Record<string, unknown>;
    assert.deepEqual([spec['deployment'], spec['apiKeyHeader']], ['spec', 'X-SERVICE-APIKEY']);
  });

  it('an unknown deployment or a bad --connection-scale is a usage error; the help names both flags', async () => {
    for (const args of [
      ['--deployment', 'binance'],
      ['--deployment', ''],
      ['--connection-scale', '0'],
      ['--connection-scale', 'x'],
    ])
      await assert.rejects(sandboxCommand(args, io().io), UsageError, args.join(' '));
    const help = io();
    assert.equal(await sandboxCommand(['--help'], help.io), 0);
    assert.match(help.lines.join('\n'), /--deployment ID play this deployment \(spec, mexc; default spec\)/);
    assert.match(help.lines.join('\n'), /--connection-scale F/);
  });
});
