/**
 * The stream view's line and book for a decoded Protocol Buffers push: frames encoded by protobufjs
 * (test/support/pb-stream.ts), decoded by the client (core/ws/frames.ts), summarised as the JSON
 * pushes of the same kinds are; a body that does not fit (a price that is no decimal, a book past
 * 20 levels) gets no line and no book.
 */
import assert from 'node:assert/strict';
import { bookOfDecoded, summariseDecoded } from '../../../src/core/panel/decoded-summary';
import { readFrame } from '../../../src/core/ws/frames';
import { encodePush } from '../../support/pb-stream';

/** The decoded push as the client hands it on: its body's name and its JSON. */
function decoded(payload: Record<string, unknown>): { body: string; json: unknown } {
  const f = readFrame(encodePush({ channel: 'c', ...payload }), undefined, 'protobuf');
  assert.ok(f.type === 'push' && f.encoding === 'protobuf', JSON.stringify(f));
  return { body: f.body, json: f.json };
}

const line = (payload: Record<string, unknown>): string | undefined => {
  const d = decoded(payload);
  return summariseDecoded(d.body, d.json);
};

describe('the stream view: decoded Protocol Buffers pushes in one line and as a book', () => {
  it('deals, book tickers, a candle, a fill and a balance read as their JSON kinds do', () => {
    const deal = { price: '93120.10', quantity: '0.000500', tradeType: 2, time: '1' };
    assert.equal(line({ publicAggreDeals: { deals: [deal, deal] } }), 'SELL 0.0005 @ 93120.1 (+1 more)');
    assert.equal(line({ publicDeals: { deals: [{ ...deal, tradeType: 1 }] } }), 'BUY 0.0005 @ 93120.1');
    const ticker = { bidPrice: '29990.00', bidQuantity: '2.0', askPrice: '30010.00', askQuantity: '1.50' };
    assert.equal(line({ publicAggreBookTicker: ticker }), 'bid 29990 × 2 · ask 30010 × 1.5');
    assert.equal(line({ publicBookTicker: ticker }), 'bid 29990 × 2 · ask 30010 × 1.5');
    const candle = {
      interval: 'Min1',
      openingPrice: '1.10',
      highestPrice: '1.30',
      lowestPrice: '1.00',
      closingPrice: '1.20',
      volume: '5.000',
    };
    assert.equal(line({ publicSpotKline: candle }), 'Min1 open 1.1 · high 1.3 · low 1 · close 1.2 · volume 5');
    const fill = { price: '30010.00', quantity: '0.50', tradeType: 1, feeAmount: '0.0010', feeCurrency: 'USDT' };
    assert.equal(line({ privateDeals: fill }), 'fill BUY 0.5 @ 30010 · taker · fee 0.001 USDT');
    const balance = { vcoinName: 'BTC', balanceAmount: '10.50000000', frozenAmount: '0' };
    assert.equal(line({ privateAccount: balance }), 'BTC balance 10.5 · frozen 0');
  });

  it('a price that is no decimal, or a body with no line, gives none', () => {
    const deal = { price: '1e9<b>', quantity: '1', tradeType: 1 };
    assert.equal(line({ publicAggreDeals: { deals: [deal] } }), undefined);
    assert.equal(line({ publicAggreDeals: { deals: [] } }), undefined);
    assert.equal(line({ publicIncreaseDepths: { version: '1' } }), undefined);
  });

  it('a limit depth is a book of [price, quantity], with its version; past 20 levels, or with text that is no decimal, none', () => {
    const levels = (n: number) => Array.from({ length: n }, (_, i) => ({ price: `100.${i}`, quantity: `${i}.5` }));
    const d = decoded({ publicLimitDepths: { asks: levels(5), bids: levels(5), version: '42' } });
    assert.deepEqual(bookOfDecoded('s', d.body, d.json, 7), {
      stream: 's',
      at: 7,
      version: '42',
      bids: levels(5).map((l) => [l.price, l.quantity]),
      asks: levels(5).map((l) => [l.price, l.quantity]),
    });
    const deep = decoded({ publicLimitDepths: { asks: levels(21), bids: levels(1) } });
    assert.equal(bookOfDecoded('s', deep.body, deep.json, 7), undefined);
    const odd = decoded({ publicLimitDepths: { asks: [{ price: 'x'.repeat(50), quantity: '1' }], bids: [] } });
    assert.equal(bookOfDecoded('s', odd.body, odd.json, 7), undefined);
    const deals = decoded({ publicAggreDeals: { deals: [] } });
    assert.equal(bookOfDecoded('s', deals.body, deals.json, 7), undefined);
  });
});
