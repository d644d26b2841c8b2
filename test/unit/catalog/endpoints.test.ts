import assert from 'node:assert/strict';
import {
  BATCH_ORDERS_MAX,
  ENDPOINTS,
  describeSource,
  findEndpoint,
  findParam,
  isBatchEndpoint,
} from '../../../src/core/catalog/endpoints';
import { LIMITS } from '../../../src/core/catalog/limits';
import { numberedSection, serviceDoc, tableRows } from '../../support/docs';

describe('catalog: endpoints and limits', () => {
  it('the order endpoint of §4.2 is documented, signed, UID-limited, with every parameter of §2.1 marked documented', () => {
    const order = findEndpoint('POST', '/api/v3/order')!;
    assert.equal(order.source, 'spec');
    assert.equal(order.signed, true);
    assert.equal(order.mode, 'uid');
    const names = tableRows(numberedSection(serviceDoc(), '2.1')).map((cells) => cells[0]!);
    assert.deepEqual(names, ['symbol', 'side', 'type', 'quantity', 'price', 'recvWindow', 'timestamp', 'signature']);
    for (const n of names) assert.equal(findParam(order, n)?.source, 'spec', `${n} is documented by the service`);
  });

  it('parameter rules follow §2.1 and §5: recvWindow default 5000, maximum 60000; timestamp and signature added by the signer', () => {
    const order = findEndpoint('POST', '/api/v3/order')!;
    assert.equal(findParam(order, 'recvWindow')?.defaultValue, '5000');
    assert.match(findParam(order, 'recvWindow')!.rule!, /60000/);
    assert.equal(findParam(order, 'timestamp')?.addedBySigner, true);
    assert.equal(findParam(order, 'signature')?.addedBySigner, true);
    assert.equal(findParam(order, 'quantity')?.type, 'decimal');
    assert.equal(findParam(order, 'symbol')?.rule, 'upper-case letters');
  });

  it('enum values say which the spec documents (BUY, LIMIT) and which are assumed', () => {
    const order = findEndpoint('POST', '/api/v3/order')!;
    const side = findParam(order, 'side')!.enumValues!;
    assert.deepEqual(
      side.map((v) => [v.value, v.source]),
      [
        ['BUY', 'spec'],
        ['SELL', 'assumed'],
      ],
    );
    const type = findParam(order, 'type')!.enumValues!;
    assert.equal(type.find((v) => v.value === 'LIMIT')?.source, 'spec');
    assert.ok(type.filter((v) => v.value !== 'LIMIT').every((v) => v.source === 'assumed'));
  });

  it('every endpoint beyond the order endpoint is marked assumed, with a weight and a mode', () => {
    const paths = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    for (const p of [
      'GET /api/v3/ping',
      'GET /api/v3/time',
      'GET /api/v3/exchangeInfo',
      'POST /api/v3/order/test',
      'GET /api/v3/order',
      'DELETE /api/v3/order',
      'GET /api/v3/openOrders',
      'GET /api/v3/account',
      'POST /api/v3/batchOrders',
      'POST /api/v3/userDataStream',
      'PUT /api/v3/userDataStream',
      'DELETE /api/v3/userDataStream',
    ]) {
      assert.ok(paths.includes(p), p);
    }
    for (const e of ENDPOINTS) {
      if (!(e.method === 'POST' && e.path === '/api/v3/order'))
        assert.equal(e.source, 'assumed', `${e.method} ${e.path}`);
      assert.ok(e.weight >= 1);
      assert.equal(e.mode, e.signed ? 'uid' : 'ip', 'signed endpoints count per account, others per IP (§1)');
    }
    assert.equal(findEndpoint('GET', '/api/v3/exchangeInfo')?.weight, 10);
    assert.equal(describeSource('spec'), 'documented by the service');
  });

  it('the batch and listen-key endpoints (assumed): batchOrders takes a list of up to 20 orders and is the one §5 rule 6 endpoint; the listen key is a parameter of PUT and DELETE', () => {
    const batch = findEndpoint('POST', '/api/v3/batchOrders')!;
    assert.equal(batch.weight, 1);
    assert.equal(batch.permission, 'trade');
    const list = findParam(batch, 'batchOrders')!;
    assert.deepEqual([list.type, list.maxItems, list.required], ['orderList', BATCH_ORDERS_MAX, true]);
    assert.equal(BATCH_ORDERS_MAX, 20);
    const order = findEndpoint('POST', '/api/v3/order')!;
    for (const p of list.itemParams!)
      assert.equal(findParam(order, p.name), p, `${p.name} is the order's own parameter`);
    assert.ok(
      list.itemParams!.every((p) => !p.addedBySigner),
      'no timestamp or signature inside an order',
    );
    assert.deepEqual(
      ENDPOINTS.filter(isBatchEndpoint).map((e) => e.path),
      ['/api/v3/batchOrders'],
    );
    assert.equal(findParam(findEndpoint('POST', '/api/v3/userDataStream')!, 'listenKey'), undefined);
    for (const method of ['PUT', 'DELETE']) {
      const e = findEndpoint(method, '/api/v3/userDataStream')!;
      assert.equal(e.signed, true);
      assert.equal(findParam(e, 'listenKey')?.type, 'listenKey');
    }
  });

  it('the limits of §8 are data: 500 per 10 s in each mode, recvWindow 5000/60000, 1000 ms ahead, bans from 2 minutes to 3 days', () => {
    assert.deepEqual(
      [LIMITS.rate.ip.limit, LIMITS.rate.ip.intervalMs, LIMITS.rate.uid.limit, LIMITS.rate.uid.intervalMs],
      [500, 10_000, 500, 10_000],
    );
    assert.equal(LIMITS.recvWindow.defaultMs, 5000);
    assert.equal(LIMITS.recvWindow.maxMs, 60_000);
    assert.equal(LIMITS.timestampAheadMs, 1000);
    assert.equal(LIMITS.ban.minMs, 120_000);
    assert.equal(LIMITS.ban.maxMs, 259_200_000);
    assert.equal(LIMITS.webSocket.streamsPerConnection, 30);
    assert.equal(LIMITS.webSocket.messagesPerSecond, 100);
    assert.equal(LIMITS.ipsPerKey, 10);
  });
});
