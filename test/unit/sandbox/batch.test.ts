/**
 * POST /api/v3/batchOrders on the sandbox over real HTTP: each order placed or refused on its own,
 * a list that cannot be read refused whole, and §5 rule 6: the list's special characters are
 * signed and sent percent-encoded with upper-case hex, anything looser refused with 700002.
 */
import assert from 'node:assert/strict';
import { BATCH_ORDERS_MAX, findEndpoint } from '../../../src/core/catalog/endpoints';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { WsClient, at, control, field, signed, strict } from '../../support/sandbox-ws';

type Order = Record<string, string | number>;

const resting: Order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '20000' };

/** The form of a batch: `batchOrders=<list>`, the list encoded with `encode`. */
function batchForm(orders: readonly unknown[], encode: (s: string) => string = strict): string {
  return `batchOrders=${encode(JSON.stringify(orders))}`;
}

describe('sandbox: POST /api/v3/batchOrders', function () {
  this.timeout(20_000);
  let sb: Sandbox;

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await control(sb, '/reset');
  });

  it('the catalog has it: signed, UID mode, assumed, at most 20 orders, each with the order parameters', () => {
    const e = findEndpoint('POST', '/api/v3/batchOrders')!;
    assert.equal(e.signed, true);
    assert.equal(e.source, 'assumed');
    const list = e.params.find((p) => p.name === 'batchOrders')!;
    assert.equal(list.type, 'orderList');
    assert.equal(list.maxItems, 20);
    assert.deepEqual(
      list.itemParams?.map((p) => p.name),
      ['symbol', 'side', 'type', 'quantity', 'price', 'quoteOrderQty', 'newClientOrderId', 'timeInForce'],
    );
  });

  it('each order is placed or refused on its own; the answer lists their results in order', async () => {
    const orders: Order[] = [
      resting,
      { ...resting, side: 'SIDEWAYS' },
      { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.000001', price: '40000' },
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.01 },
      { ...resting, newClientOrderId: 'batchTwo' },
    ];
    const r = await signed(sb, 'POST', '/api/v3/batchOrders', '', { body: batchForm(orders) });
    assert.equal(r.status, 200, r.text);
    assert.ok(Array.isArray(r.json));
    const results = r.json as unknown[];
    assert.equal(results.length, 5);
    assert.equal(field(results[0], 'status'), 'NEW');
    assert.equal(field(results[1], 'code'), 33333);
    assert.match(String(field(results[1], 'msg')), /side must be BUY or SELL/);
    assert.equal(field(results[2], 'code'), 30002);
    assert.equal(field(results[3], 'status'), 'FILLED');
    assert.equal(field(results[4], 'clientOrderId'), 'batchTwo');
    const open = await signed(sb, 'GET', '/api/v3/openOrders', 'symbol=BTCUSDT');
    assert.deepEqual(
      (open.json as unknown[]).map((o) => field(o, 'orderId')).sort(),
      [field(results[0], 'orderId'), field(results[4], 'orderId')].sort(),
    );
  });

  it('a list that cannot be read is refused whole: not JSON or not a list → 33333, empty or over 20 orders → 730002', async () => {
    const cases: [string, number, RegExp][] = [
      [`batchOrders=${strict('[{"symbol":')}`, 33333, /not valid JSON/],
      [`batchOrders=${strict(JSON.stringify(resting))}`, 33333, /not a list/],
      [batchForm([]), 730002, /1 to 20/],
      [batchForm(Array.from({ length: BATCH_ORDERS_MAX + 1 }, () => resting)), 730002, /holds 21/],
      ['', 44444, /batchOrders/],
    ];
    for (const [body, code, msg] of cases) {
      const r = await signed(sb, 'POST', '/api/v3/batchOrders', body.length > 0 ? '' : 'x=1', { body });
      assert.equal(field(r.json, 'code'), code, `${body.slice(0, 60)}: ${r.text}`);
      assert.match(String(field(r.json, 'msg')), msg);
    }
    const open = await signed(sb, 'GET', '/api/v3/openOrders', 'symbol=BTCUSDT');
    assert.deepEqual(open.json, [], 'nothing was placed');
    // An item that is no object, or holds a nested value, is refused alone.
    const r = await signed(sb, 'POST', '/api/v3/batchOrders', '', {
      body: batchForm(['BTCUSDT', { ...resting, price: { v: 1 } }, resting]),
    });
    const results = r.json as unknown[];
    assert.deepEqual(
      results.map((x) => field(x, 'code') ?? field(x, 'status')),
      [33333, 33333, 'NEW'],
    );
  });

  it('§5 rule 6: a batch signed and sent with strict upper-case percent-encoding is taken; lower-case hex, raw or encodeURIComponent-loose characters → 700002', async () => {
    const orders = [{ ...resting, newClientOrderId: 'a(1)' }];
    const loose: [string, string, RegExp][] = [
      [
        'lower-case hex',
        batchForm(orders, (s) => strict(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())),
        /lower-case hex/,
      ],
      ['unencoded', `batchOrders=${JSON.stringify(orders)}`, /sent unencoded/],
      ['encodeURIComponent', batchForm(orders, encodeURIComponent), /"\(" at offset \d+ is sent unencoded/],
    ];
    for (const [what, body, msg] of loose) {
      // Signed exactly as sent: the signature matches the bytes, the encoding does not follow §5 rule 6.
      const r = await signed(sb, 'POST', '/api/v3/batchOrders', '', { body });
      assert.equal(field(r.json, 'code'), 700002, `${what}: ${r.text}`);
      assert.match(String(field(r.json, 'msg')), msg, what);
    }
    // The same order strictly encoded: the signature is taken; the parenthesis is then refused
    // for that order alone (700008), after authentication.
    const r = await signed(sb, 'POST', '/api/v3/batchOrders', '', { body: batchForm(orders) });
    assert.equal(r.status, 200, r.text);
    assert.equal(field((r.json as unknown[])[0], 'code'), 700008);
    // Signed strictly but sent loosely: the signature does not match what arrived.
    const strictBody = batchForm([resting]);
    const sentRaw = `batchOrders=${JSON.stringify([resting])}`;
    const mismatch = await signed(sb, 'POST', '/api/v3/batchOrders', '', { body: sentRaw, signedAs: strictBody });
    assert.equal(field(mismatch.json, 'code'), 700002);
  });

  it('the list may go in the query string, or as a JSON list in a JSON body', async () => {
    const q = await signed(sb, 'POST', '/api/v3/batchOrders', batchForm([resting]));
    assert.equal(field((q.json as unknown[])[0], 'status'), 'NEW', q.text);
    const body = JSON.stringify({ batchOrders: [resting, { ...resting, price: '20001' }] });
    const j = await signed(sb, 'POST', '/api/v3/batchOrders', '', { body, json: true });
    assert.equal(j.status, 200, j.text);
    assert.deepEqual(
      (j.json as unknown[]).map((o) => field(o, 'price')),
      ['20000.00000000', '20001.00000000'],
    );
  });

  it('a JSON list in a JSON body nested 10,000 deep is refused whole (33333), not a failure of the sandbox (issue 31)', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const r = await signed(sb, 'POST', '/api/v3/batchOrders', '', { body: `{"batchOrders":[${deep}]}`, json: true });
    assert.equal(r.status, 400, r.text);
    assert.equal(field(r.json, 'code'), 33333);
    assert.match(String(field(r.json, 'msg')), /The JSON value of "batchOrders" nests deeper than a list of orders/);
    // A value nested in one order is still that order's refusal alone.
    const one = await signed(sb, 'POST', '/api/v3/batchOrders', '', {
      body: JSON.stringify({ batchOrders: [{ ...resting, price: ['1'] }, resting] }),
      json: true,
    });
    assert.deepEqual(
      (one.json as unknown[]).map((x) => field(x, 'code') ?? field(x, 'status')),
      [33333, 'NEW'],
    );
  });

  it('the orders of one batch change the book in one tick: one depth push shows them all', async () => {
    const c = await WsClient.connect(sb.wsUrl);
    const depth = 'spot@public.limit.depth.v3.api@BTCUSDT@5';
    c.send({ method: 'SUBSCRIPTION', params: [depth], id: 1 });
    await c.reply(1);
    await c.push(depth);
    const bids = ['29995', '29996', '29997'].map((price) => ({ ...resting, price }));
    await signed(sb, 'POST', '/api/v3/batchOrders', '', { body: batchForm(bids) });
    const push = await c.push(depth);
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => at(push, `d.bids.${i}.p`)),
      ['29997.00000000', '29996.00000000', '29995.00000000', '29990.00000000'],
    );
    c.close();
  });
});
