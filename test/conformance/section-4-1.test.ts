/**
 * Spec §4.1, general request rules, against the running sandbox. One test per rule.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import {
  dec,
  describeReply,
  fillUntil429,
  form,
  orderPairs,
  sign,
  totalParams,
  useSandbox,
  withSignature,
  type Reply,
  field,
} from './support';

/** A raw exchange over TCP, for input that no HTTP client sends; the answer parsed loosely. */
function rawHttp(baseUrl: string, text: string): Promise<Reply> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const code = field(json, 'code');
      resolve({ status, headers, text: body, json, code: typeof code === 'number' ? code : undefined });
    });
  });
}

describe('conformance §4.1 general request rules', function () {
  this.timeout(20_000);
  const c = useSandbox();

  async function openOrders(): Promise<unknown[]> {
    const r = await c.signed(c.sandbox.key('trade'), 'GET', '/api/v3/openOrders', [['symbol', 'BTCUSDT']]);
    assert.equal(r.status, 200, describeReply(r));
    assert.ok(Array.isArray(r.json), describeReply(r));
    return r.json as unknown[];
  }

  it('§4.1 rule 1: GET, POST and DELETE are accepted', async () => {
    const trade = c.sandbox.key('trade');
    const placed = await c.signed(trade, 'POST', '/api/v3/order', orderPairs());
    assert.equal(placed.status, 200, `POST: ${describeReply(placed)}`);
    const orderId = String(field(placed.json, 'orderId'));

    const got = await c.signed(trade, 'GET', '/api/v3/order', [
      ['symbol', 'BTCUSDT'],
      ['orderId', orderId],
    ]);
    assert.equal(got.status, 200, `GET: ${describeReply(got)}`);
    assert.equal(String(field(got.json, 'orderId')), orderId);

    const canceled = await c.signed(trade, 'DELETE', '/api/v3/order', [
      ['symbol', 'BTCUSDT'],
      ['orderId', orderId],
    ]);
    assert.equal(canceled.status, 200, `DELETE: ${describeReply(canceled)}`);
    assert.equal(String(field(canceled.json, 'orderId')), orderId);
    assert.deepEqual(await openOrders(), [], 'the DELETE was carried out');
  });

  it('§4.1 rule 2: GET sends all parameters in the query string', async () => {
    const trade = c.sandbox.key('trade');
    const placed = await c.signed(trade, 'POST', '/api/v3/order', orderPairs());
    assert.equal(placed.status, 200, describeReply(placed));
    // Every parameter (symbol, orderId, timestamp, signature) in the query string, no body.
    const got = await c.signed(
      trade,
      'GET',
      '/api/v3/order',
      [
        ['symbol', 'BTCUSDT'],
        ['orderId', String(field(placed.json, 'orderId'))],
      ],
      { place: 'query' },
    );
    assert.equal(got.status, 200, describeReply(got));
    assert.equal(field(got.json, 'symbol'), 'BTCUSDT');
    assert.equal(String(field(got.json, 'orderId')), String(field(placed.json, 'orderId')));
    // Unsigned GET: the query string's parameter is read (one symbol asked, one symbol answered).
    const info = await c.get('/api/v3/exchangeInfo', [['symbol', 'ETHUSDT']]);
    assert.equal(info.status, 200, describeReply(info));
    assert.deepEqual(
      (field(info.json, 'symbols') as unknown[]).map((s) => field(s, 'symbol')),
      ['ETHUSDT'],
    );
  });

  it('§4.1 rule 3: POST, PUT and DELETE parameters may go in the query string, in a JSON body (Content-Type application/json), or split between both', async () => {
    const trade = c.sandbox.key('trade');
    // POST, all in the query string (form encoding), no body.
    const inQuery = await c.signed(trade, 'POST', '/api/v3/order', orderPairs('0.001'), { place: 'query' });
    assert.equal(inQuery.status, 200, `query: ${describeReply(inQuery)}`);
    assert.equal(dec(field(inQuery.json, 'origQty')), '0.001');
    // POST, all in a JSON body with Content-Type application/json.
    const inJson = await c.signed(trade, 'POST', '/api/v3/order', orderPairs('0.002'), { place: 'json' });
    assert.equal(inJson.status, 200, `json: ${describeReply(inJson)}`);
    assert.equal(dec(field(inJson.json, 'origQty')), '0.002');
    // POST, split: symbol/side/type in the query string, the rest in a JSON body.
    const ts = Date.now();
    const query = form([
      ['symbol', 'BTCUSDT'],
      ['side', 'BUY'],
      ['type', 'LIMIT'],
    ]);
    const body = JSON.stringify({ quantity: '0.003', price: '20000', timestamp: String(ts) });
    const split = await c.send({
      method: 'POST',
      path: `/api/v3/order?${withSignature(query, sign(trade.secretKey, totalParams(query, body)))}`,
      headers: { 'Content-Type': 'application/json', 'X-SERVICE-APIKEY': trade.apiKey },
      body,
    });
    assert.equal(split.status, 200, `split: ${describeReply(split)}`);
    assert.equal(dec(field(split.json, 'origQty')), '0.003');
    assert.equal(field(split.json, 'symbol'), 'BTCUSDT');
    // DELETE with its parameters in a JSON body.
    const del = await c.signed(
      trade,
      'DELETE',
      '/api/v3/order',
      [
        ['symbol', 'BTCUSDT'],
        ['orderId', String(field(inJson.json, 'orderId'))],
      ],
      { place: 'json' },
    );
    assert.equal(del.status, 200, `DELETE json: ${describeReply(del)}`);
    assert.equal(String(field(del.json, 'orderId')), String(field(inJson.json, 'orderId')));
    // DELETE split between query string and JSON body.
    const q2 = form([['symbol', 'BTCUSDT']]);
    const b2 = JSON.stringify({ orderId: String(field(split.json, 'orderId')), timestamp: String(Date.now()) });
    const delSplit = await c.send({
      method: 'DELETE',
      path: `/api/v3/order?${withSignature(q2, sign(trade.secretKey, totalParams(q2, b2)))}`,
      headers: { 'Content-Type': 'application/json', 'X-SERVICE-APIKEY': trade.apiKey },
      body: b2,
    });
    assert.equal(delSplit.status, 200, `DELETE split: ${describeReply(delSplit)}`);
    const open = (await openOrders()).map((o) => String(field(o, 'orderId')));
    assert.deepEqual(
      open,
      [String(field(inQuery.json, 'orderId'))],
      'the two DELETEs were carried out, the first order stays',
    );
    // PUT: §4.1 mentions it for the body rules only; no PUT endpoint is shown (§4.2), so none is tried.
  });

  it('§4.1 rule 4: parameters may be in any order', async () => {
    const trade = c.sandbox.key('trade');
    const shuffled: [string, string][] = [
      ['price', '20000'],
      ['timestamp', String(Date.now())],
      ['quantity', '0.004'],
      ['type', 'LIMIT'],
      ['symbol', 'BTCUSDT'],
      ['side', 'BUY'],
    ];
    for (const place of ['query', 'body', 'json'] as const) {
      const r = await c.signed(trade, 'POST', '/api/v3/order', shuffled, { place, timestamp: null });
      assert.equal(r.status, 200, `${place}: ${describeReply(r)}`);
      assert.equal(dec(field(r.json, 'origQty')), '0.004');
      assert.equal(dec(field(r.json, 'price')), '20000');
      assert.equal(field(r.json, 'side'), 'BUY');
    }
    const reversed = [...orderPairs('0.005'), ['timestamp', String(Date.now())] as [string, string]].reverse();
    const r = await c.signed(trade, 'POST', '/api/v3/order', reversed, { place: 'query', timestamp: null });
    assert.equal(r.status, 200, `reversed: ${describeReply(r)}`);
    assert.equal(dec(field(r.json, 'origQty')), '0.005');
    assert.equal((await openOrders()).length, 4);
  });

  it('§4.1 rule 5: when a parameter is in both the query string and the body, the query string value is used', async () => {
    const trade = c.sandbox.key('trade');
    // Form body: quantity 0.002 in the query string, 0.001 in the body.
    {
      const query = form([['quantity', '0.002']]);
      const body = form([...orderPairs('0.001'), ['timestamp', String(Date.now())]]);
      const r = await c.send({
        method: 'POST',
        path: `/api/v3/order?${withSignature(query, sign(trade.secretKey, totalParams(query, body)))}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-SERVICE-APIKEY': trade.apiKey },
        body,
      });
      assert.equal(r.status, 200, `form: ${describeReply(r)}`);
      assert.equal(dec(field(r.json, 'origQty')), '0.002', 'origQty is the query string quantity');
    }
    // JSON body: price 21000 in the query string, 20000 in the body.
    {
      const query = form([['price', '21000']]);
      const body = JSON.stringify(
        Object.fromEntries([...orderPairs('0.003', '20000'), ['timestamp', String(Date.now())]]),
      );
      const r = await c.send({
        method: 'POST',
        path: `/api/v3/order?${withSignature(query, sign(trade.secretKey, totalParams(query, body)))}`,
        headers: { 'Content-Type': 'application/json', 'X-SERVICE-APIKEY': trade.apiKey },
        body,
      });
      assert.equal(r.status, 200, `json: ${describeReply(r)}`);
      assert.equal(dec(field(r.json, 'origQty')), '0.003');
      assert.equal(Number(field(r.json, 'price')), 21000, 'price is the query string price');
    }
    const open = await openOrders();
    assert.deepEqual(open.map((o) => dec(field(o, 'origQty'))).sort(), ['0.002', '0.003']);
  });

  it('§4.1 rule 6: all responses are JSON', async () => {
    const trade = c.sandbox.key('trade');
    const replies: [string, Reply][] = [];
    replies.push(['ping', await c.get('/api/v3/ping')]);
    replies.push(['time', await c.get('/api/v3/time')]);
    replies.push(['order', await c.signed(trade, 'POST', '/api/v3/order', orderPairs())]);
    replies.push(['unknown path', await c.get('/api/v3/nothingHere')]);
    replies.push(['wrong method', await c.send({ method: 'PUT', path: '/api/v3/ping' })]);
    replies.push(['malformed', await c.signed(trade, 'POST', '/api/v3/order', orderPairs('abc'))]);
    replies.push([
      'bad JSON',
      await c.send({
        method: 'POST',
        path: '/api/v3/order',
        headers: { 'Content-Type': 'application/json', 'X-SERVICE-APIKEY': trade.apiKey },
        body: '{"symbol": ',
      }),
    ]);
    replies.push(['auth', await c.signed(trade, 'GET', '/api/v3/account', [], { signature: '0'.repeat(64) })]);
    assert.equal((await c.control('/_sandbox/fault', { status: 503, count: 1, path: '/api/v3/ping' })).status, 200);
    replies.push(['5XX', await c.get('/api/v3/ping')]);
    const fill = await fillUntil429(() => c.get('/api/v3/exchangeInfo'), 60);
    replies.push(['429', fill[fill.length - 1]!]);
    replies.push(['418', await c.get('/api/v3/ping')]);
    await c.control('/_sandbox/reset');
    replies.push([
      'body too large',
      await c.send({
        method: 'POST',
        path: '/api/v3/order/test',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'a='.padEnd(1024 * 1024 + 10, 'x'),
      }),
    ]);
    replies.push(['not HTTP', await rawHttp(c.sandbox.baseUrl, 'THIS IS NOT HTTP\r\n\r\n')]);
    const statuses = replies.map(([, r]) => r.status);
    assert.deepEqual(
      statuses,
      [200, 200, 200, 404, 405, 400, 400, 401, 503, 429, 418, 413, 400],
      JSON.stringify(replies.map(([n, r]) => [n, r.status])),
    );
    for (const [name, r] of replies) {
      assert.match(r.headers['content-type'] ?? '', /^application\/json\b/, `${name}: Content-Type`);
      assert.doesNotThrow(() => JSON.parse(r.text), `${name}: body is JSON: ${r.text.slice(0, 200)}`);
      assert.equal(typeof r.json, 'object', `${name}: body is a JSON object or array`);
    }
  });

  it('§4.1 rule 7: header X-SERVICE-APIKEY carries the access key; Content-Type is application/json', async () => {
    const trade = c.sandbox.key('trade');
    const ok = await c.signed(trade, 'GET', '/api/v3/account', []);
    assert.equal(ok.status, 200, describeReply(ok));
    // Header names are case-insensitive in HTTP.
    const lower = await c.signed(trade, 'GET', '/api/v3/account', [], { apiKeyHeader: 'x-service-apikey' });
    assert.equal(lower.status, 200, describeReply(lower));
    // The key in another header (the family's X-MBX-APIKEY) is not the key: refused as "API key required".
    const other = await c.signed(trade, 'GET', '/api/v3/account', [], { apiKeyHeader: 'X-MBX-APIKEY' });
    assert.equal(other.code, 400, describeReply(other));
    // Content-Type application/json: a request sent with it is read, and responses carry it.
    const json = await c.signed(trade, 'POST', '/api/v3/order/test', orderPairs(), { place: 'json' });
    assert.equal(json.status, 200, describeReply(json));
    const queryOnly = await c.send({
      method: 'POST',
      path: (() => {
        const q = form([...orderPairs(), ['timestamp', String(Date.now())]]);
        return `/api/v3/order/test?${withSignature(q, sign(trade.secretKey, q))}`;
      })(),
      headers: { 'Content-Type': 'application/json', 'X-SERVICE-APIKEY': trade.apiKey },
    });
    assert.equal(
      queryOnly.status,
      200,
      `Content-Type application/json with the parameters in the query string: ${describeReply(queryOnly)}`,
    );
    for (const r of [ok, lower, other, json, queryOnly])
      assert.match(r.headers['content-type'] ?? '', /^application\/json\b/);
  });
});
