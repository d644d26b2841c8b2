/**
 * The sandbox's answers about an order, byte for byte (docs/service.md, Assumptions: the new
 * order's answer, the order record of a query and of open orders, the cancel answer, a batch's
 * list), its §8 limiter's admission of a request, and the answers it writes on a bare socket.
 * The clock is fixed, so every byte is known.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { RateLimiter } from '../../../src/sandbox/limits';
import { field, limitOrder, signed, strict } from '../../support/sandbox-ws';

const T = 1_700_000_000_000;

describe('sandbox: the answers about an order, byte for byte', () => {
  let sb: Sandbox;

  before(async () => {
    sb = await startSandbox({ port: 0, limits: false, now: () => T });
  });
  after(async () => {
    await sb.close();
  });

  async function call(method: 'GET' | 'POST' | 'DELETE', p: string, query: string): Promise<string> {
    const r = await signed(sb, method, p, query, { timestamp: T });
    assert.equal(r.status, 200, r.text);
    return r.text;
  }

  it('a new order, its query, the open orders, its cancel and a MARKET order by quoteOrderQty', async () => {
    const placed = await call('POST', '/api/v3/order', limitOrder('BUY', '0.01', '29000') + '&newClientOrderId=pin1');
    const id = String(field(JSON.parse(placed), 'orderId'));
    const common = `"symbol":"BTCUSDT","orderId":"${id}","orderListId":-1,"clientOrderId":"pin1","price":"29000.00000000","origQty":"0.01000000","executedQty":"0.00000000"`;
    assert.equal(placed, `{${common},"status":"NEW","type":"LIMIT","side":"BUY","transactTime":${T}}`);
    const record = `{${common},"cummulativeQuoteQty":"0.00000000","status":"NEW","timeInForce":"GTC","type":"LIMIT","side":"BUY","time":${T},"updateTime":${T},"isWorking":true,"origQuoteOrderQty":"0.00000000"}`;
    assert.equal(await call('GET', '/api/v3/order', `symbol=BTCUSDT&orderId=${id}`), record);
    assert.equal(await call('GET', '/api/v3/order', 'symbol=BTCUSDT&origClientOrderId=pin1'), record);

    const second = await call('POST', '/api/v3/order', limitOrder('BUY', '0.02', '28000'));
    const id2 = String(field(JSON.parse(second), 'orderId'));
    const record2 = `{"symbol":"BTCUSDT","orderId":"${id2}","orderListId":-1,"clientOrderId":"sbx${id2}","price":"28000.00000000","origQty":"0.02000000","executedQty":"0.00000000","cummulativeQuoteQty":"0.00000000","status":"NEW","timeInForce":"GTC","type":"LIMIT","side":"BUY","time":${T},"updateTime":${T},"isWorking":true,"origQuoteOrderQty":"0.00000000"}`;
    assert.equal(await call('GET', '/api/v3/openOrders', 'symbol=BTCUSDT'), `[${record},${record2}]`);

    assert.equal(
      await call('DELETE', '/api/v3/order', `symbol=BTCUSDT&orderId=${id}`),
      `{"symbol":"BTCUSDT","origClientOrderId":"pin1",${common.slice('"symbol":"BTCUSDT",'.length)},"cummulativeQuoteQty":"0.00000000","status":"CANCELED","timeInForce":"GTC","type":"LIMIT","side":"BUY"}`,
    );
    assert.equal(await call('GET', '/api/v3/openOrders', 'symbol=BTCUSDT'), `[${record2}]`);
    assert.equal(await call('GET', '/api/v3/openOrders', 'symbol=ETHUSDT'), '[]');

    const market = await call('POST', '/api/v3/order', 'symbol=BTCUSDT&side=BUY&type=MARKET&quoteOrderQty=100');
    const id3 = String(field(JSON.parse(market), 'orderId'));
    const filled = `"symbol":"BTCUSDT","orderId":"${id3}","orderListId":-1,"clientOrderId":"sbx${id3}","price":"0.00000000","origQty":"0.00333222","executedQty":"0.00333222"`;
    assert.equal(market, `{${filled},"status":"FILLED","type":"MARKET","side":"BUY","transactTime":${T}}`);
    assert.equal(
      await call('GET', '/api/v3/order', `symbol=BTCUSDT&orderId=${id3}`),
      `{${filled},"cummulativeQuoteQty":"99.99992220","status":"FILLED","timeInForce":"GTC","type":"MARKET","side":"BUY","time":${T},"updateTime":${T},"isWorking":false,"origQuoteOrderQty":"100.00000000"}`,
    );
  });

  it("a batch's list: each order's new-order answer or its error body, in order", async () => {
    const orders = [
      { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '2500', newClientOrderId: 'b1' },
      { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1' },
    ];
    const text = await call('POST', '/api/v3/batchOrders', `batchOrders=${strict(JSON.stringify(orders))}`);
    const id = String(field((JSON.parse(text) as unknown[])[0], 'orderId'));
    const alone = await signed(sb, 'POST', '/api/v3/order', 'symbol=ETHUSDT&side=SELL&type=LIMIT&quantity=1', {
      timestamp: T,
    });
    assert.equal(alone.status, 400, alone.text);
    assert.equal(
      text,
      `[{"symbol":"ETHUSDT","orderId":"${id}","orderListId":-1,"clientOrderId":"b1","price":"2500.00000000","origQty":"1.00000000","executedQty":"0.00000000","status":"NEW","type":"LIMIT","side":"SELL","transactTime":${T}},${alone.text}]`,
    );
  });
});

describe('sandbox: the §8 limiter admits a request or says why not', () => {
  it('admit: admitted with the weight used, then limited with Retry-After, then banned (started once)', () => {
    const limiter = new RateLimiter(1);
    for (let i = 1; i <= 50; i++)
      assert.deepEqual(limiter.admit('10.0.0.1', 'ip:10.0.0.1', 10, T), { kind: 'admitted', used: i * 10 });
    assert.deepEqual(limiter.admit('10.0.0.1', 'ip:10.0.0.1', 10, T), { kind: 'limited', retryAfterS: 10 });
    assert.deepEqual(limiter.admit('10.0.0.1', 'ip:10.0.0.1', 1, T + 1000), {
      kind: 'banned',
      retryAfterS: 120,
      started: true,
    });
    assert.deepEqual(limiter.admit('10.0.0.1', 'uid:trade', 1, T + 2000), {
      kind: 'banned',
      retryAfterS: 119,
      started: false,
    });
    assert.deepEqual(limiter.admit('10.0.0.2', 'uid:trade', 1, T + 2000), { kind: 'admitted', used: 1 });
  });

  it('"gate" is the client\'s rate-limit budget word (src/core/budget/budget.ts): src/sandbox/ does not use it', () => {
    const root = path.resolve(__dirname, '..', '../../src/sandbox');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 10, files.join(', '));
    const found = files.filter((f) => /\bgat(e|es|ed|ing)\b/i.test(readFileSync(path.join(root, f), 'utf8')));
    assert.deepEqual(found, []);
  });
});

/** Sends `bytes` on a new connection and resolves with all the sandbox writes before it closes. */
function rawExchange(sb: Sandbox, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(sb.port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The status line and the JSON body of a whole HTTP answer. */
function statusAndBody(answer: string): { status: string; body: { code: number; msg: string } } {
  const split = answer.indexOf('\r\n\r\n');
  assert.ok(split > 0, answer);
  return {
    status: answer.slice(0, answer.indexOf('\r\n')),
    body: JSON.parse(answer.slice(split + 4)) as { code: number; msg: string },
  };
}

describe('sandbox: answers written on a bare socket', () => {
  let sb: Sandbox;

  before(async () => {
    sb = await startSandbox({ port: 0, now: () => T });
  });
  after(async () => {
    await sb.close();
  });

  it('a request that is not HTTP → 400, headers over the limit → 431: JSON 33333 saying which, then the close', async () => {
    const bad = statusAndBody(await rawExchange(sb, 'NOT HTTP AT ALL\r\n\r\n'));
    assert.equal(bad.status, 'HTTP/1.1 400 Bad Request');
    assert.equal(bad.body.code, 33333);
    assert.match(bad.body.msg, / The request is not valid HTTP\.$/);
    const big = await rawExchange(
      sb,
      `GET /api/v3/ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.match(big, /\r\nConnection: close\r\n/i);
    assert.match(big, /\r\nContent-Type: application\/json\r\n/i);
    const parsed = statusAndBody(big);
    assert.equal(parsed.status, 'HTTP/1.1 431 Request Header Fields Too Large');
    assert.equal(parsed.body.code, 33333);
    assert.match(parsed.body.msg, / The request headers are too large\.$/);
  });

  it('an unknown listen key: REST (730002) and the WebSocket upgrade (401) say the same why', async () => {
    const listenKey = 'ab'.repeat(32);
    const rest = await signed(sb, 'PUT', '/api/v3/userDataStream', `listenKey=${listenKey}`, { timestamp: T });
    assert.equal(field(rest.json, 'code'), 730002, rest.text);
    const upgrade = statusAndBody(
      await rawExchange(
        sb,
        `GET /ws?listenKey=${listenKey} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    );
    assert.equal(upgrade.status, 'HTTP/1.1 401 Unauthorized');
    assert.equal(upgrade.body.code, 401);
    const why =
      'The listenKey is unknown, closed or lapsed (60 minutes after its last keep-alive); get one with POST /api/v3/userDataStream.';
    assert.ok(String(field(rest.json, 'msg')).endsWith(' ' + why), rest.text);
    assert.ok(upgrade.body.msg.endsWith(' ' + why), upgrade.body.msg);
    assert.ok(!upgrade.body.msg.includes(listenKey) && !rest.text.includes(listenKey), 'the key is not repeated');
  });
});
