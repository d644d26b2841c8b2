/**
 * The public deployment's binary pushes (issue 33): frames encoded by a different implementation
 * (protobufjs, reading the project's .proto at test time, and hand-written bytes) decode to the same
 * values through `decodePush`; a frame that is not a wrapper is a problem, never a throw.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { decodePush, MAX_PUSH_BYTES } from '../../../src/core/ws/pb';

const PROTO = join(__dirname, '../../../src/core/ws/proto/push.proto');
const Wrapper = protobuf.loadSync(PROTO).lookupType('tradereq.push.PushDataV3ApiWrapper');
const encode = (payload: Record<string, unknown>): Uint8Array => Wrapper.encode(Wrapper.fromObject(payload)).finish();

describe('decodePush (Protocol Buffers pushes)', () => {
  it('decodes aggregated deals encoded by protobufjs to the same values, decimals as text, times as numbers', () => {
    const deal = { price: '93120.10', quantity: '0.000500', tradeType: 2, time: '1764000000123', tradeId: '501' };
    const frame = encode({
      channel: 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT',
      symbol: 'BTCUSDT',
      symbolId: 'c0ffee',
      createTime: '1764000000100',
      sendTime: '1764000000130',
      publicAggreDeals: {
        deals: [deal, { ...deal, tradeType: 1 }],
        eventType: 'spot@public.aggre.deals.v3.api.pb@100ms',
      },
    });
    const r = decodePush(frame);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value, {
      channel: 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT',
      symbol: 'BTCUSDT',
      symbolId: 'c0ffee',
      createTime: 1764000000100,
      sendTime: 1764000000130,
      body: {
        name: 'publicAggreDeals',
        value: {
          deals: [
            { ...deal, time: 1764000000123 },
            { ...deal, tradeType: 1, time: 1764000000123 },
          ],
          eventType: 'spot@public.aggre.deals.v3.api.pb@100ms',
        },
      },
    });
  });

  it('keeps an int64 past 2^53 - 1 as its exact decimal text, and leaves unset optional wrapper fields out', () => {
    const frame = encode({
      channel: 'c',
      publicSpotKline: { interval: 'Min1', windowStart: '9007199254740993', openingPrice: '1.10' },
    });
    const r = decodePush(frame);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(Object.keys(r.value).sort(), ['body', 'channel']);
    assert.equal(r.value.body.name, 'publicSpotKline');
    assert.equal(r.value.body.value['windowStart'], '9007199254740993');
    assert.equal(r.value.body.value['openingPrice'], '1.10');
    assert.equal(r.value.body.value['windowEnd'], 0);
  });

  it('decodes a limit depth of 20 levels a side and a private order with its optional fields', () => {
    const levels = Array.from({ length: 20 }, (_, i) => ({ price: `100.${i}`, quantity: `${i}.5` }));
    const depth = decodePush(encode({ channel: 'd', publicLimitDepths: { asks: levels, bids: levels, version: '7' } }));
    assert.ok(depth.ok, JSON.stringify(depth));
    assert.deepEqual(depth.value.body.value['asks'], levels);
    const order = decodePush(
      encode({ channel: 'o', privateOrders: { id: 'C02', price: '1.5', status: 1, triggerPrice: '2' } }),
    );
    assert.ok(order.ok, JSON.stringify(order));
    assert.equal(order.value.body.value['triggerPrice'], '2');
    assert.equal(order.value.body.value['market'], undefined);
  });

  it('decodes hand-written bytes: channel "x", a book ticker (305) with bidPrice "1.5"', () => {
    // field 1 (len) "x"; field 305 (len): tag (305 << 3 | 2) = 2442 = varint 8a 13; inner field 1 (len) "1.5".
    const bytes = Uint8Array.from([0x0a, 0x01, 0x78, 0x8a, 0x13, 0x05, 0x0a, 0x03, 0x31, 0x2e, 0x35]);
    const r = decodePush(bytes);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value, {
      channel: 'x',
      body: { name: 'publicBookTicker', value: { bidPrice: '1.5', bidQuantity: '', askPrice: '', askQuantity: '' } },
    });
  });

  it('reports a body number the schema does not know (316) by its number', () => {
    // field 1 (len) "x"; field 316 (len, empty): tag (316 << 3 | 2) = 2530 = varint e2 13.
    const r = decodePush(Uint8Array.from([0x0a, 0x01, 0x78, 0xe2, 0x13, 0x00]));
    assert.deepEqual(r, { ok: false, error: { kind: 'unknown-body', field: 316 } });
  });

  it('reports a wrapper without any body', () => {
    assert.deepEqual(decodePush(encode({ channel: 'x' })), { ok: false, error: { kind: 'no-body' } });
  });

  it('gives a failure, not a throw, for truncated and garbage frames', () => {
    const whole = encode({ channel: 'spot@x', publicAggreDeals: { deals: [{ price: '1', quantity: '2' }] } });
    for (const cut of [1, 5, whole.length - 1]) {
      const r = decodePush(whole.subarray(0, cut));
      assert.equal(r.ok, false, `cut at ${cut}`);
    }
    for (const garbage of [
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0x0f],
      [0x0a, 0x7f, 0x41],
    ]) {
      const r = decodePush(Uint8Array.from(garbage));
      assert.ok(!r.ok && r.error.kind === 'malformed', JSON.stringify(r));
    }
  });

  it('refuses a frame above the bound before reading it', () => {
    const r = decodePush(new Uint8Array(MAX_PUSH_BYTES + 1));
    assert.deepEqual(r, { ok: false, error: { kind: 'too-large', bytes: MAX_PUSH_BYTES + 1, max: MAX_PUSH_BYTES } });
    assert.equal(decodePush(new Uint8Array(0)).ok, false);
  });
});
