/**
 * The sandbox exchange over real HTTP: every request goes through a socket to startSandbox on a
 * free loopback port. Requests are signed by a small signer written here (node:crypto), not by
 * the project's signer, so a shared mistake cannot hide.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { request } from 'undici';

import { sandboxCommand } from '../../../src/cli/sandbox';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import { UsageError, type Io } from '../../../src/cli/usage';
import { isLoopbackAddress, startSandbox, type Sandbox, type SandboxKey } from '../../../src/sandbox';
import { banDurationMs } from '../../../src/sandbox/limits';

const ROOT = path.resolve(__dirname, '..', '../..');

type Json = Record<string, unknown>;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly json: Json;
  readonly list: Json[];
}

interface CallOptions {
  readonly query?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

async function call(sb: Sandbox, method: string, p: string, options: CallOptions = {}): Promise<Answer> {
  const url = sb.baseUrl + p + (options.query ? '?' + options.query : '');
  // The control surface takes JSON POSTs only (a web page cannot send those without a preflight).
  const json = method === 'POST' && p.startsWith('/_sandbox') ? { 'content-type': 'application/json' } : {};
  const res = await request(url, {
    method: method as 'GET',
    body: options.body,
    headers: { ...json, ...options.headers },
  });
  const text = await res.body.text();
  const parsed: unknown = JSON.parse(text);
  return {
    status: res.statusCode,
    headers: res.headers,
    json: (Array.isArray(parsed) ? {} : parsed) as Json,
    list: (Array.isArray(parsed) ? parsed : []) as Json[],
  };
}

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

function join(a: string, b: string): string {
  return a.length > 0 ? a + '&' + b : b;
}

interface SignedOptions {
  readonly key?: SandboxKey;
  readonly query?: string;
  readonly body?: string;
  /** The body is JSON (Content-Type application/json); else a form body. */
  readonly json?: boolean;
  readonly signatureIn?: 'query' | 'body';
  /** Added to the query string unless null (then the caller wrote it). */
  readonly timestamp?: number | null;
  readonly secret?: string;
  /** Replaces the computed signature. */
  readonly signature?: (computed: string) => string;
  readonly apiKey?: string | null;
}

/** A signed request: timestamp appended to the query string, signature over query + body (§5 rule 4). */
function signedCall(sb: Sandbox, method: string, p: string, options: SignedOptions = {}): Promise<Answer> {
  const key = options.key ?? sb.keys[0]!;
  let query = options.query ?? '';
  let body = options.body ?? '';
  if (options.timestamp !== null) query = join(query, 'timestamp=' + (options.timestamp ?? Date.now()));
  const computed = hmac(options.secret ?? key.secretKey, query + body);
  const signature = options.signature ? options.signature(computed) : computed;
  if (options.signatureIn === 'body') body = join(body, 'signature=' + signature);
  else query = join(query, 'signature=' + signature);
  const headers: Record<string, string> = {
    'Content-Type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
  };
  if (options.apiKey !== null) headers['X-SERVICE-APIKEY'] = options.apiKey ?? key.apiKey;
  return call(sb, method, p, { query, body: body.length > 0 ? body : undefined, headers });
}

function keyNamed(sb: Sandbox, name: string): SandboxKey {
  const k = sb.keys.find((x) => x.name === name);
  assert.ok(k, `demo key ${name}`);
  return k;
}

function assertError(a: Answer, status: number, code: number): void {
  assert.equal(a.status, status, JSON.stringify(a.json));
  assert.equal(a.json['code'], code, JSON.stringify(a.json));
  assert.equal(typeof a.json['msg'], 'string');
}

const LIMIT_BUY = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000';

async function balance(sb: Sandbox, asset: string, key?: SandboxKey): Promise<{ free: string; locked: string }> {
  const a = await signedCall(sb, 'GET', '/api/v3/account', key ? { key } : {});
  assert.equal(a.status, 200);
  const b = (a.json['balances'] as { asset: string; free: string; locked: string }[]).find((x) => x.asset === asset);
  assert.ok(b);
  return b;
}

describe('sandbox exchange', () => {
  let sb: Sandbox;

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    const r = await call(sb, 'POST', '/_sandbox/reset');
    assert.equal(r.status, 200);
  });

  describe('market data endpoints', () => {
    it('GET /api/v3/ping answers {}', async () => {
      const a = await call(sb, 'GET', '/api/v3/ping');
      assert.equal(a.status, 200);
      assert.deepEqual(a.json, {});
      assert.match(String(a.headers['content-type']), /application\/json/);
    });

    it('GET /api/v3/time answers the server time in milliseconds', async () => {
      const before = Date.now();
      const a = await call(sb, 'GET', '/api/v3/time');
      assert.equal(a.status, 200);
      const t = a.json['serverTime'] as number;
      assert.ok(t >= before && t <= Date.now(), String(t));
    });

    it('GET /api/v3/exchangeInfo lists the symbols with assets, status and order types', async () => {
      const a = await call(sb, 'GET', '/api/v3/exchangeInfo');
      assert.equal(a.status, 200);
      assert.equal(typeof a.json['serverTime'], 'number');
      const symbols = a.json['symbols'] as Json[];
      const names = symbols.map((s) => s['symbol']);
      for (const n of ['BTCUSDT', 'ETHUSDT', 'LTCBTC']) assert.ok(names.includes(n), n);
      const btc = symbols.find((s) => s['symbol'] === 'BTCUSDT')!;
      assert.equal(btc['baseAsset'], 'BTC');
      assert.equal(btc['quoteAsset'], 'USDT');
      assert.equal(btc['status'], 'TRADING');
      assert.deepEqual(btc['orderTypes'], ['LIMIT', 'MARKET']);
    });

    it('exchangeInfo takes symbol or symbols=A,B (comma percent-encoded)', async () => {
      const one = await call(sb, 'GET', '/api/v3/exchangeInfo', { query: 'symbol=LTCBTC' });
      assert.deepEqual(
        (one.json['symbols'] as Json[]).map((s) => s['symbol']),
        ['LTCBTC'],
      );
      const two = await call(sb, 'GET', '/api/v3/exchangeInfo', { query: 'symbols=ETHUSDT%2CBTCUSDT' });
      assert.deepEqual(
        (two.json['symbols'] as Json[]).map((s) => s['symbol']),
        ['ETHUSDT', 'BTCUSDT'],
      );
    });

    it('an unknown symbol is 10007, a malformed one 30014 (HTTP 400)', async () => {
      assertError(await call(sb, 'GET', '/api/v3/exchangeInfo', { query: 'symbol=BTCEUR' }), 400, 10007);
      assertError(await call(sb, 'GET', '/api/v3/exchangeInfo', { query: 'symbol=btc-usdt' }), 400, 30014);
    });
  });

  describe('orders', () => {
    it('a LIMIT BUY below the asks rests: NEW, orderId a string, newClientOrderId kept, quote locked', async () => {
      const a = await signedCall(sb, 'POST', '/api/v3/order', { query: LIMIT_BUY + '&newClientOrderId=myOrder1' });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.equal(typeof a.json['orderId'], 'string');
      assert.equal(a.json['orderListId'], -1);
      assert.equal(a.json['clientOrderId'], 'myOrder1');
      assert.equal(a.json['status'], 'NEW');
      assert.equal(a.json['symbol'], 'BTCUSDT');
      assert.equal(a.json['side'], 'BUY');
      assert.equal(a.json['type'], 'LIMIT');
      assert.equal(Number(a.json['price']), 29000);
      assert.equal(Number(a.json['origQty']), 0.01);
      assert.equal(Number(a.json['executedQty']), 0);
      assert.equal(typeof a.json['transactTime'], 'number');
      const usdt = await balance(sb, 'USDT');
      assert.equal(Number(usdt.locked), 290);
      assert.equal(Number(usdt.free), 1_000_000 - 290);
    });

    it('GET /api/v3/order finds the order by orderId and by origClientOrderId; openOrders lists it', async () => {
      const placed = await signedCall(sb, 'POST', '/api/v3/order', { query: LIMIT_BUY + '&newClientOrderId=findMe' });
      const id = placed.json['orderId'] as string;
      const byId = await signedCall(sb, 'GET', '/api/v3/order', { query: `symbol=BTCUSDT&orderId=${id}` });
      assert.equal(byId.status, 200);
      assert.equal(byId.json['clientOrderId'], 'findMe');
      assert.equal(byId.json['status'], 'NEW');
      const byClient = await signedCall(sb, 'GET', '/api/v3/order', {
        query: 'symbol=BTCUSDT&origClientOrderId=findMe',
      });
      assert.equal(byClient.json['orderId'], id);
      const open = await signedCall(sb, 'GET', '/api/v3/openOrders', { query: 'symbol=BTCUSDT' });
      assert.equal(open.status, 200);
      assert.deepEqual(
        open.list.map((o) => o['orderId']),
        [id],
      );
    });

    it('DELETE /api/v3/order cancels and frees the lock; cancelling again is -2011', async () => {
      const placed = await signedCall(sb, 'POST', '/api/v3/order', { query: LIMIT_BUY });
      const id = placed.json['orderId'] as string;
      const del = await signedCall(sb, 'DELETE', '/api/v3/order', { query: `symbol=BTCUSDT&orderId=${id}` });
      assert.equal(del.status, 200, JSON.stringify(del.json));
      assert.equal(del.json['status'], 'CANCELED');
      assert.equal(Number((await balance(sb, 'USDT')).locked), 0);
      assertError(
        await signedCall(sb, 'DELETE', '/api/v3/order', { query: `symbol=BTCUSDT&orderId=${id}` }),
        400,
        -2011,
      );
      const open = await signedCall(sb, 'GET', '/api/v3/openOrders', { query: 'symbol=BTCUSDT' });
      assert.deepEqual(open.list, []);
    });

    it('a MARKET BUY fills against the seeded asks and moves the balances', async () => {
      const a = await signedCall(sb, 'POST', '/api/v3/order', {
        query: 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.5',
      });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.equal(a.json['status'], 'FILLED');
      assert.equal(Number(a.json['executedQty']), 0.5);
      assert.equal(Number((await balance(sb, 'BTC')).free), 10.5);
      assert.ok(Number((await balance(sb, 'USDT')).free) < 1_000_000 - 0.5 * 30_000);
    });

    it('a crossing LIMIT SELL fills at once; a MARKET SELL by quoteOrderQty fills', async () => {
      const a = await signedCall(sb, 'POST', '/api/v3/order', {
        query: 'symbol=ETHUSDT&side=SELL&type=LIMIT&quantity=1&price=1900',
      });
      assert.equal(a.json['status'], 'FILLED', JSON.stringify(a.json));
      const b = await signedCall(sb, 'POST', '/api/v3/order', {
        query: 'symbol=ETHUSDT&side=SELL&type=MARKET&quoteOrderQty=100',
      });
      assert.equal(b.json['status'], 'FILLED', JSON.stringify(b.json));
      assert.ok(Number((await balance(sb, 'ETH')).free) < 99);
    });

    it('POST /api/v3/order/test validates without placing: {} and no open order', async () => {
      const a = await signedCall(sb, 'POST', '/api/v3/order/test', { query: LIMIT_BUY });
      assert.equal(a.status, 200);
      assert.deepEqual(a.json, {});
      const open = await signedCall(sb, 'GET', '/api/v3/openOrders', { query: 'symbol=BTCUSDT' });
      assert.deepEqual(open.list, []);
      assertError(
        await signedCall(sb, 'POST', '/api/v3/order/test', {
          query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.000001&price=29000',
        }),
        400,
        30002,
      );
    });

    it('GET /api/v3/account gives balances with free and locked, permissions and canTrade', async () => {
      const a = await signedCall(sb, 'GET', '/api/v3/account');
      assert.equal(a.status, 200);
      assert.equal(a.json['canTrade'], true);
      assert.deepEqual(a.json['permissions'], ['read', 'trade']);
      const usdt = (a.json['balances'] as Json[]).find((b) => b['asset'] === 'USDT');
      assert.deepEqual(usdt, { asset: 'USDT', free: '1000000.00000000', locked: '0.00000000' });
      const ro = await signedCall(sb, 'GET', '/api/v3/account', { key: keyNamed(sb, 'readonly') });
      assert.equal(ro.status, 200);
      assert.equal(ro.json['canTrade'], false);
    });

    const cases: [string, string, number][] = [
      ['an unknown symbol → 10007', 'symbol=BTCEUR&side=BUY&type=LIMIT&quantity=1&price=1', 10007],
      ['a malformed symbol → 30014', 'symbol=btcusdt&side=BUY&type=LIMIT&quantity=1&price=1', 30014],
      [
        'a quantity below the minimum → 30002',
        'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.000001&price=29000',
        30002,
      ],
      ['a quantity above the maximum → 30003', 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1000&price=29000', 30003],
      ['a BUY above the free quote → 10101', 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=90&price=29000', 10101],
      ['a SELL above the free base → 30004', 'symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=50&price=40000', 30004],
      ['a LIMIT order without price → 44444', 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01', 44444],
      [
        'an empty parameter → 44444',
        'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000&newClientOrderId=',
        44444,
      ],
      ['a side other than BUY or SELL → 33333', 'symbol=BTCUSDT&side=HOLD&type=LIMIT&quantity=0.01&price=29000', 33333],
      [
        'a quantity that is not a decimal → 33333',
        'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1e-3&price=29000',
        33333,
      ],
      [
        'a value with a space → 700008',
        'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000&newClientOrderId=a%20b',
        700008,
      ],
      ['a MARKET order on an empty book → 30025', 'symbol=ETHBTC&side=BUY&type=MARKET&quantity=1', 30025],
      [
        'an order type the sandbox does not offer → 30041',
        'symbol=BTCUSDT&side=BUY&type=LIMIT_MAKER&quantity=0.01&price=29000',
        30041,
      ],
    ];
    for (const [title, query, code] of cases) {
      it(`${title} (HTTP 400)`, async () => {
        assertError(await signedCall(sb, 'POST', '/api/v3/order', { query }), 400, code);
      });
    }

    it('query or cancel without orderId and origClientOrderId → 700004; an unknown order → -2011', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/order', { query: 'symbol=BTCUSDT' }), 400, 700004);
      assertError(
        await signedCall(sb, 'DELETE', '/api/v3/order', { query: 'symbol=BTCUSDT&orderId=&origClientOrderId=' }),
        400,
        700004,
      );
      assertError(
        await signedCall(sb, 'GET', '/api/v3/order', { query: 'symbol=BTCUSDT&orderId=999999999' }),
        400,
        -2011,
      );
      assertError(
        await signedCall(sb, 'DELETE', '/api/v3/order', { query: 'symbol=BTCUSDT&origClientOrderId=nope' }),
        400,
        -2011,
      );
    });

    it('a second open order with the same newClientOrderId is refused (33333)', async () => {
      assert.equal(
        (await signedCall(sb, 'POST', '/api/v3/order', { query: LIMIT_BUY + '&newClientOrderId=once' })).status,
        200,
      );
      assertError(
        await signedCall(sb, 'POST', '/api/v3/order', { query: LIMIT_BUY + '&newClientOrderId=once' }),
        400,
        33333,
      );
    });
  });

  describe('authentication (§5)', () => {
    it('a missing API key header → code 400, HTTP 401', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { apiKey: null }), 401, 400);
    });

    it('a malformed API key → 700001', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { apiKey: 'short' }), 401, 700001);
    });

    it('an unknown API key → 10072', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { apiKey: 'A'.repeat(32) }), 401, 10072);
    });

    it('a signature made with the wrong secret → 700002', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { secret: 'not-the-secret' }), 401, 700002);
    });

    it('a signature that is not lower-case hex is refused (602)', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { signature: (s) => s.toUpperCase() }), 401, 602);
    });

    it('a missing signature → 44444', async () => {
      const q = 'timestamp=' + Date.now();
      assertError(
        await call(sb, 'GET', '/api/v3/account', { query: q, headers: { 'X-SERVICE-APIKEY': sb.keys[0]!.apiKey } }),
        400,
        44444,
      );
    });

    it('timestamp older than recvWindow, or 1000 ms ahead → 700003; inside the window passes', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { timestamp: Date.now() - 6000 }), 400, 700003);
      assertError(
        await signedCall(sb, 'GET', '/api/v3/account', { query: 'recvWindow=1000', timestamp: Date.now() - 2000 }),
        400,
        700003,
      );
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { timestamp: Date.now() + 1500 }), 400, 700003);
      assert.equal(
        (await signedCall(sb, 'GET', '/api/v3/account', { query: 'recvWindow=10000', timestamp: Date.now() - 6000 }))
          .status,
        200,
      );
    });

    it('recvWindow above 60000 → 700005; 60000 itself is accepted', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { query: 'recvWindow=60001' }), 400, 700005);
      assert.equal((await signedCall(sb, 'GET', '/api/v3/account', { query: 'recvWindow=60000' })).status, 200);
    });

    it('the ipbound key from loopback → 700006', async () => {
      assertError(await signedCall(sb, 'GET', '/api/v3/account', { key: keyNamed(sb, 'ipbound') }), 401, 700006);
    });

    it('the readonly key placing an order → 700007', async () => {
      assertError(
        await signedCall(sb, 'POST', '/api/v3/order', { key: keyNamed(sb, 'readonly'), query: LIMIT_BUY }),
        401,
        700007,
      );
    });
  });

  describe('parameter placement (§4.1, §5 rules 4 and 11)', () => {
    it('split between query string and body: totalParams is query + body with no "&"', async () => {
      const a = await signedCall(sb, 'POST', '/api/v3/order', {
        query: 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC',
        body: `quantity=1&price=0.1&recvWindow=5000&timestamp=${Date.now()}`,
        timestamp: null,
      });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.equal(a.json['symbol'], 'LTCBTC');
    });

    it('split signed with an "&" between query and body → 700002', async () => {
      const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT';
      const body = `quantity=0.01&price=29000&timestamp=${Date.now()}`;
      const signature = hmac(sb.keys[0]!.secretKey, query + '&' + body);
      const a = await call(sb, 'POST', '/api/v3/order', {
        query: `${query}&signature=${signature}`,
        body,
        headers: { 'X-SERVICE-APIKEY': sb.keys[0]!.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      assertError(a, 401, 700002);
    });

    it('everything in the form body, signature included', async () => {
      const a = await signedCall(sb, 'POST', '/api/v3/order', {
        body: `${LIMIT_BUY}&timestamp=${Date.now()}`,
        timestamp: null,
        signatureIn: 'body',
      });
      assert.equal(a.status, 200, JSON.stringify(a.json));
    });

    it('a JSON body with Content-Type application/json, signature in the query string', async () => {
      const body = '{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "quantity": "0.01", "price": "41000"}';
      const a = await signedCall(sb, 'POST', '/api/v3/order', { body, json: true });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.equal(a.json['side'], 'SELL');
      assert.equal(Number((await balance(sb, 'BTC')).locked), 0.01);
    });

    it('a signature written in a JSON body is taken out of totalParams with the comma that joined it', async () => {
      const key = sb.keys[0]!;
      const json = `{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"0.01","price":"29000","timestamp":${Date.now()}}`;
      const body = json.slice(0, -1) + `,"signature":"${hmac(key.secretKey, json)}"}`;
      const a = await call(sb, 'POST', '/api/v3/order', {
        body,
        headers: { 'X-SERVICE-APIKEY': key.apiKey, 'Content-Type': 'application/json' },
      });
      assert.equal(a.status, 200, JSON.stringify(a.json));
    });

    it('a JSON body that is not valid JSON → 33333', async () => {
      assertError(await signedCall(sb, 'POST', '/api/v3/order', { body: '{"symbol": ', json: true }), 400, 33333);
    });

    it('the query string value wins over the body value (§4.1 rule 5)', async () => {
      const a = await signedCall(sb, 'POST', '/api/v3/order', {
        query: 'symbol=BTCUSDT&side=BUY&type=LIMIT',
        body: 'symbol=ETHUSDT&quantity=0.01&price=29000',
      });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.equal(a.json['symbol'], 'BTCUSDT');
    });
  });

  describe('control surface (/_sandbox/)', () => {
    it('reset brings balances back and forgets orders', async () => {
      const placed = await signedCall(sb, 'POST', '/api/v3/order', { query: LIMIT_BUY });
      assert.equal(Number((await balance(sb, 'USDT')).locked), 290);
      assert.equal((await call(sb, 'POST', '/_sandbox/reset')).status, 200);
      assert.deepEqual(await balance(sb, 'USDT'), { asset: 'USDT', free: '1000000.00000000', locked: '0.00000000' });
      assertError(
        await signedCall(sb, 'GET', '/api/v3/order', {
          query: `symbol=BTCUSDT&orderId=${placed.json['orderId'] as string}`,
        }),
        400,
        -2011,
      );
    });

    it('fault: the order is carried out, answered 503, and found afterwards (§7.1)', async () => {
      const f = await call(sb, 'POST', '/_sandbox/fault', {
        body: '{"status": 503, "count": 1, "path": "/api/v3/order"}',
      });
      assert.equal(f.status, 200);
      assert.equal((await call(sb, 'GET', '/api/v3/ping')).status, 200, 'another path is not affected');
      const a = await signedCall(sb, 'POST', '/api/v3/order', { query: LIMIT_BUY + '&newClientOrderId=afterFault' });
      assertError(a, 503, 503);
      const found = await signedCall(sb, 'GET', '/api/v3/order', {
        query: 'symbol=BTCUSDT&origClientOrderId=afterFault',
      });
      assert.equal(found.status, 200, 'count 1: the next request is answered normally');
      assert.equal(found.json['status'], 'NEW');
    });

    it('a fault with a 5xx the catalog has no code for carries code 500', async () => {
      await call(sb, 'POST', '/_sandbox/fault', { body: '{"status": 502}' });
      assertError(await call(sb, 'GET', '/api/v3/time'), 502, 500);
    });

    it('clock: a skewed server clock makes a correct local timestamp fail with 700003', async () => {
      const c = await call(sb, 'POST', '/_sandbox/clock', { body: '{"offsetMs": -5000}' });
      assert.equal(c.status, 200);
      const t = (await call(sb, 'GET', '/api/v3/time')).json['serverTime'] as number;
      assert.ok(Date.now() - t >= 4900, `server time ${t} is behind by the offset`);
      assertError(await signedCall(sb, 'GET', '/api/v3/account'), 400, 700003);
      assert.equal((await signedCall(sb, 'GET', '/api/v3/account', { timestamp: t })).status, 200);
    });

    it('latency delays every API answer by at least N ms', async () => {
      await call(sb, 'POST', '/_sandbox/latency', { body: '{"ms": 120}' });
      const start = Date.now();
      assert.equal((await call(sb, 'GET', '/api/v3/ping')).status, 200);
      assert.ok(Date.now() - start >= 115, `took ${Date.now() - start} ms`);
    });

    it('requests lists what reached the API (no query string), not the control calls', async () => {
      await call(sb, 'GET', '/api/v3/ping', { query: 'a=1' });
      await signedCall(sb, 'GET', '/api/v3/account', { apiKey: 'A'.repeat(32) });
      await call(sb, 'POST', '/_sandbox/latency', { body: '{"ms": 0}' });
      const r = await call(sb, 'GET', '/_sandbox/requests');
      assert.equal(r.status, 200);
      assert.equal(r.list.length, 2, JSON.stringify(r.list));
      assert.deepEqual(
        { ...r.list[0], time: 0 },
        { method: 'GET', path: '/api/v3/ping', status: 200, code: null, time: 0 },
      );
      assert.deepEqual(
        { ...r.list[1], time: 0 },
        { method: 'GET', path: '/api/v3/account', status: 401, code: 10072, time: 0 },
      );
      assert.equal(typeof r.list[0]!['time'], 'number');
    });

    it('a bad control body → 400 with a clear msg; unknown control path → 404; wrong method → 405', async () => {
      const bad = await call(sb, 'POST', '/_sandbox/fault', { body: '{"status": 404}' });
      assert.equal(bad.status, 400);
      assert.match(bad.json['msg'] as string, /status/);
      assert.equal((await call(sb, 'POST', '/_sandbox/latency', { body: 'not json' })).status, 400);
      assert.equal((await call(sb, 'POST', '/_sandbox/clock', { body: '{"offsetMs": "5"}' })).status, 400);
      assert.equal((await call(sb, 'POST', '/_sandbox/nothing')).status, 404);
      assert.equal((await call(sb, 'GET', '/_sandbox/reset')).status, 405);
    });

    it('the control surface is for loopback clients only (the check)', () => {
      for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
        assert.equal(isLoopbackAddress(a), true, a);
      for (const a of ['10.0.0.1', '::ffff:10.0.0.1', '203.0.113.7', '0.0.0.0', '::', '', undefined])
        assert.equal(isLoopbackAddress(a), false, String(a));
    });
  });

  describe('hostile and mistaken input', () => {
    it('an unknown path → 404 with code 730003; a known path with the wrong method → 405 with Allow', async () => {
      assertError(await call(sb, 'GET', '/api/v3/nothing'), 404, 730003);
      const a = await call(sb, 'PUT', '/api/v3/order');
      assert.equal(a.status, 405);
      assert.equal(a.headers['allow'], 'POST, GET, DELETE');
    });

    it('a body above 1 MiB → 413, and the server keeps answering', async () => {
      const a = await call(sb, 'POST', '/api/v3/order', {
        body: 'a=' + 'x'.repeat(2 * 1024 * 1024),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(a.status, 413);
      assert.equal((await call(sb, 'GET', '/api/v3/ping')).status, 200);
    });

    it('a broken percent escape is an illegal character (700008)', async () => {
      assertError(await call(sb, 'GET', '/api/v3/ping', { query: 'x=%ZZ' }), 400, 700008);
    });
  });
});

describe('sandbox rate limits and bans (§8)', () => {
  let sb: Sandbox;
  let clock = 1_700_000_000_000;

  before(async () => {
    sb = await startSandbox({ port: 0, banScale: 0.01, now: () => clock });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await call(sb, 'POST', '/_sandbox/reset');
  });

  async function exchangeInfo(times: number): Promise<Answer[]> {
    const out: Answer[] = [];
    for (let i = 0; i < times; i++) out.push(await call(sb, 'GET', '/api/v3/exchangeInfo'));
    return out;
  }

  it('500 weight per 10 s, then 429 with Retry-After; a request during the wait → 418; bans grow with repeat offences', async () => {
    const ok = await exchangeInfo(50);
    assert.ok(ok.every((a) => a.status === 200));
    assert.equal(ok[49]!.headers['x-service-used-weight-10s'], '500');
    const limited = await call(sb, 'GET', '/api/v3/exchangeInfo');
    assertError(limited, 429, 429);
    assert.equal(limited.headers['retry-after'], '10');

    const banned = await call(sb, 'GET', '/api/v3/ping');
    assert.equal(banned.status, 418);
    // 2 minutes × 0.01 = 1.2 s → 2 whole seconds.
    assert.equal(banned.headers['retry-after'], '2');
    clock += 1000;
    const still = await call(sb, 'GET', '/api/v3/ping');
    assert.equal(still.status, 418);
    assert.equal(still.headers['retry-after'], '1');

    clock += 10_000;
    assert.equal((await call(sb, 'GET', '/api/v3/ping')).status, 200, 'ban over, window moved on');
    await exchangeInfo(49);
    assert.equal((await call(sb, 'GET', '/api/v3/exchangeInfo')).status, 429);
    const second = await call(sb, 'GET', '/api/v3/ping');
    assert.equal(second.status, 418);
    // Second offence: 8 minutes × 0.01 = 4.8 s → 5.
    assert.equal(second.headers['retry-after'], '5');
  });

  it('Retry-After is the whole seconds until the counter has room, and refused requests consume no weight', async () => {
    await exchangeInfo(40);
    clock += 5000;
    await exchangeInfo(10);
    const limited = await call(sb, 'GET', '/api/v3/exchangeInfo');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '5');
    clock += 5000;
    // The first 400 have left the window; 100 remain, so 40 more fit only if the 429 took nothing.
    const again = await exchangeInfo(40);
    assert.ok(
      again.every((a) => a.status === 200),
      again.map((a) => a.status).join(','),
    );
  });

  it('IP and account (UID) modes are counted independently', async () => {
    await exchangeInfo(49);
    // account has weight 10: 50 calls use the account's 500 while the IP has used 490.
    for (let i = 0; i < 50; i++) {
      const a = await signedCall(sb, 'GET', '/api/v3/account', { timestamp: clock });
      assert.equal(a.status, 200, JSON.stringify(a.json));
    }
    const acc = await signedCall(sb, 'GET', '/api/v3/account', { timestamp: clock });
    assertError(acc, 429, 429);
    assert.equal((await call(sb, 'GET', '/api/v3/ping')).status, 418, 'after a 429 the IP is on notice');
  });

  it('ban durations: 2 min, ×4 per repeat offence, capped at 3 days', () => {
    assert.equal(banDurationMs(1), 2 * 60_000);
    assert.equal(banDurationMs(2), 8 * 60_000);
    assert.equal(banDurationMs(3), 32 * 60_000);
    assert.equal(banDurationMs(7), 3 * 24 * 3600_000);
    assert.equal(banDurationMs(30), 3 * 24 * 3600_000);
  });

  it('limits: false switches them off', async () => {
    const open = await startSandbox({ port: 0, limits: false, now: () => clock });
    try {
      for (let i = 0; i < 60; i++) assert.equal((await call(open, 'GET', '/api/v3/exchangeInfo')).status, 200);
    } finally {
      await open.close();
    }
  });
});

describe('tradereq sandbox (command line)', () => {
  function captureIo(): Io & { lines: string[]; errors: string[] } {
    const lines: string[] = [];
    const errors: string[] = [];
    return { lines, errors, out: (t) => lines.push(t), err: (t) => errors.push(t), env: {}, cwd: ROOT };
  }

  async function firstLine(io: { lines: string[] }): Promise<string> {
    for (let i = 0; i < 200 && io.lines.length === 0; i++) await new Promise((r) => setImmediate(r));
    assert.ok(io.lines.length > 0, 'printed something');
    return io.lines[0]!.split('\n')[0]!;
  }

  it('--json prints the base URL and the three demo keys first, serves, and stops cleanly with exit 0', async () => {
    const io = captureIo();
    const stop = new AbortController();
    const running = sandboxCommand(['--port', '0', '--json'], io, stop.signal);
    const info = JSON.parse(await firstLine(io)) as { baseUrl: string; keys: SandboxKey[] };
    assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(
      info.keys.map((k) => k.name),
      ['trade', 'readonly', 'ipbound'],
    );
    assert.deepEqual(Object.keys(info.keys[0]!), ['name', 'apiKey', 'secretKey', 'permissions']);
    const res = await request(info.baseUrl + '/api/v3/ping');
    assert.equal(res.statusCode, 200);
    await res.body.text();
    stop.abort();
    assert.equal(await running, 0);
  });

  it('without --json it prints the base URL and every demo key', async () => {
    const io = captureIo();
    const stop = new AbortController();
    const running = sandboxCommand(['--port', '0'], io, stop.signal);
    await firstLine(io);
    const text = io.lines.join('\n');
    assert.match(text, /http:\/\/127\.0\.0\.1:\d+/);
    for (const k of ['trade', 'readonly', 'ipbound']) assert.match(text, new RegExp(k));
    for (const k of DEMO_ACCOUNTS) {
      assert.ok(text.includes(k.apiKey) && text.includes(k.secretKey), k.name);
    }
    stop.abort();
    assert.equal(await running, 0);
  });

  it('bad flags are usage errors', async () => {
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--ban-scale', '0'],
      ['--ban-scale', 'x'],
      ['--bogus'],
      ['extra'],
    ]) {
      await assert.rejects(sandboxCommand(args, captureIo()), UsageError, args.join(' '));
    }
  });

  it('a port in use is one clear line naming the port and suggesting --port 0', async () => {
    const busy = await startSandbox({ port: 0 });
    try {
      const io = captureIo();
      assert.equal(await sandboxCommand(['--port', String(busy.port)], io), 1);
      assert.equal(io.errors.length, 1);
      assert.match(io.errors[0]!, new RegExp(`port ${busy.port}`));
      assert.match(io.errors[0]!, /--port 0/);
    } finally {
      await busy.close();
    }
  });
});
