/**
 * The sandbox's answers about an order, byte for byte (docs/service.md, Assumptions: the new
 * order's answer, the order record of a query and of open orders, the cancel answer, a batch's
 * list), and its §8 limiter's admission of a request. The clock is fixed, so every byte is known.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { RateLimiter } from '../../src/sandbox/limits';
import { field, limitOrder, signed, strict } from './sandbox-ws-support';

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
    const root = path.resolve(__dirname, '../../src/sandbox');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 10, files.join(', '));
    const found = files.filter((f) => /\bgat(e|es|ed|ing)\b/i.test(readFileSync(path.join(root, f), 'utf8')));
    assert.deepEqual(found, []);
  });
});
