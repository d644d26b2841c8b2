/**
 * The spec deployment's streams: the names of the API family's JSON convention
 * (docs/websocket.md), each push `{"c", "s", "t", "d"}`, described by the fields of its `d`.
 * The spec shows none of it (§6, §8 only limits), so all of it is `source: 'assumed'`.
 */
import { KLINE_INTERVALS, intervalParam, levelsParam, symbolParam, type StreamDescription } from './stream-types';

const klineIntervalParam = intervalParam(KLINE_INTERVALS);

export const ORDER_STATUS_TEXT =
  '1 NEW, 2 FILLED, 3 PARTIALLY_FILLED, 4 CANCELED, 5 PARTIALLY_CANCELED (cancelled or expired after partial fills)';
const ORDER_TYPE_TEXT = '1 LIMIT, 3 IMMEDIATE_OR_CANCEL, 4 FILL_OR_KILL, 5 MARKET';

export const STREAM_DESCRIPTIONS: readonly StreamDescription[] = [
  {
    kind: 'deals',
    channel: 'spot@public.deals.v3.api',
    visibility: 'public',
    title: 'Trades',
    description: "The symbol's trades as they happen, several to a push.",
    template: 'spot@public.deals.v3.api@<symbol>',
    params: [symbolParam],
    fields: [
      { path: 'e', type: 'string', description: 'The channel, spot@public.deals.v3.api.' },
      { path: 'deals', type: 'list', description: 'The trades since the last push, oldest first.' },
      { path: 'deals[].p', type: 'decimal', description: 'Price.' },
      { path: 'deals[].v', type: 'decimal', description: 'Quantity, in the base asset.' },
      { path: 'deals[].S', type: 'code', description: "The taker's side: 1 buy, 2 sell." },
      { path: 'deals[].t', type: 'timestampMs', description: 'Trade time.' },
    ],
    example:
      '{"c":"spot@public.deals.v3.api@BTCUSDT","s":"BTCUSDT","t":1700000000000,"d":{"e":"spot@public.deals.v3.api","deals":[{"p":"30010.00000000","v":"0.00100000","S":1,"t":1700000000000}]}}',
    source: 'assumed',
  },
  {
    kind: 'depth',
    channel: 'spot@public.limit.depth.v3.api',
    visibility: 'public',
    title: 'Order book, best levels',
    description: 'The best LEVELS bids and asks, the whole snapshot on every change of the book.',
    template: 'spot@public.limit.depth.v3.api@<symbol>@<levels>',
    params: [symbolParam, levelsParam],
    fields: [
      { path: 'e', type: 'string', description: 'The channel, spot@public.limit.depth.v3.api.' },
      { path: 'r', type: 'string', description: "The book's version; it grows with every change." },
      { path: 'bids', type: 'list', description: 'Bids, best (highest) first.' },
      { path: 'bids[].p', type: 'decimal', description: 'Price of the level.' },
      { path: 'bids[].v', type: 'decimal', description: 'Quantity resting at the level.' },
      { path: 'asks', type: 'list', description: 'Asks, best (lowest) first.' },
      { path: 'asks[].p', type: 'decimal', description: 'Price of the level.' },
      { path: 'asks[].v', type: 'decimal', description: 'Quantity resting at the level.' },
    ],
    example:
      '{"c":"spot@public.limit.depth.v3.api@BTCUSDT@5","s":"BTCUSDT","t":1700000000000,"d":{"e":"spot@public.limit.depth.v3.api","r":"42","bids":[{"p":"29990.00000000","v":"2.00000000"}],"asks":[{"p":"30010.00000000","v":"1.99900000"}]}}',
    source: 'assumed',
  },
  {
    kind: 'bookTicker',
    channel: 'spot@public.bookTicker.v3.api',
    visibility: 'public',
    title: 'Best bid and ask',
    description: 'The best bid and the best ask, on every change of either.',
    template: 'spot@public.bookTicker.v3.api@<symbol>',
    params: [symbolParam],
    fields: [
      { path: 'b', type: 'decimal', description: 'Best bid price (null when there is no bid).' },
      { path: 'B', type: 'decimal', description: 'Quantity at the best bid.' },
      { path: 'a', type: 'decimal', description: 'Best ask price (null when there is no ask).' },
      { path: 'A', type: 'decimal', description: 'Quantity at the best ask.' },
    ],
    example:
      '{"c":"spot@public.bookTicker.v3.api@BTCUSDT","s":"BTCUSDT","t":1700000000000,"d":{"b":"29990.00000000","B":"2.00000000","a":"30010.00000000","A":"1.99900000"}}',
    source: 'assumed',
  },
  {
    kind: 'kline',
    channel: 'spot@public.kline.v3.api',
    visibility: 'public',
    title: 'Candles',
    description: 'The current candle of the interval, built from the trades, on every trade.',
    template: 'spot@public.kline.v3.api@<symbol>@<interval>',
    params: [symbolParam, klineIntervalParam],
    fields: [
      { path: 'e', type: 'string', description: 'The channel, spot@public.kline.v3.api.' },
      { path: 'k.t', type: 'timestampS', description: 'Start of the candle, Unix seconds.' },
      { path: 'k.T', type: 'timestampS', description: 'End of the candle, Unix seconds.' },
      { path: 'k.i', type: 'string', description: 'The interval.' },
      { path: 'k.o', type: 'decimal', description: 'Open: the first trade price of the candle.' },
      { path: 'k.c', type: 'decimal', description: 'Close: the latest trade price.' },
      { path: 'k.h', type: 'decimal', description: 'High.' },
      { path: 'k.l', type: 'decimal', description: 'Low.' },
      { path: 'k.v', type: 'decimal', description: 'Volume, in the base asset.' },
      { path: 'k.a', type: 'decimal', description: 'Amount, in the quote asset.' },
    ],
    example:
      '{"c":"spot@public.kline.v3.api@BTCUSDT@Min1","s":"BTCUSDT","t":1700000000000,"d":{"e":"spot@public.kline.v3.api","k":{"t":1699999980,"T":1700000040,"i":"Min1","o":"30010.00000000","c":"30010.00000000","h":"30010.00000000","l":"30010.00000000","v":"0.00100000","a":"30.01000000"}}}',
    source: 'assumed',
  },
  {
    kind: 'orders',
    channel: 'spot@private.orders.v3.api',
    visibility: 'private',
    title: 'My orders',
    description:
      "The account's orders on every change: placed, filled in part or whole, cancelled. Needs a listen key.",
    template: 'spot@private.orders.v3.api',
    params: [],
    fields: [
      { path: 'i', type: 'string', description: 'orderId.' },
      { path: 'c', type: 'string', description: 'The client order id.' },
      { path: 'o', type: 'code', description: `Order type: ${ORDER_TYPE_TEXT}.` },
      { path: 'S', type: 'code', description: 'Side: 1 buy, 2 sell.' },
      { path: 'p', type: 'decimal', description: 'Price (0 for MARKET).' },
      { path: 'v', type: 'decimal', description: 'Quantity ordered.' },
      { path: 'a', type: 'decimal', description: 'Amount ordered, in the quote asset (price × quantity).' },
      { path: 'V', type: 'decimal', description: 'Quantity not yet filled.' },
      { path: 'A', type: 'decimal', description: 'Amount not yet filled.' },
      { path: 'cv', type: 'decimal', description: 'Quantity filled.' },
      { path: 'ca', type: 'decimal', description: 'Amount filled, in the quote asset.' },
      { path: 'ap', type: 'decimal', description: 'Average fill price.' },
      { path: 's', type: 'code', description: `Status: ${ORDER_STATUS_TEXT}.` },
      { path: 'm', type: 'code', description: '1 once the order has rested in the book (a maker), 0 otherwise.' },
      { path: 'O', type: 'timestampMs', description: 'When the order was placed.' },
    ],
    example:
      '{"c":"spot@private.orders.v3.api","s":"BTCUSDT","t":1700000000000,"d":{"i":"1000001","c":"sbx1000001","o":1,"S":1,"p":"20000.00000000","v":"0.00100000","a":"20.00000000","V":"0.00100000","A":"20.00000000","cv":"0.00000000","ca":"0.00000000","ap":"0.00000000","s":1,"m":1,"O":1700000000000}}',
    source: 'assumed',
  },
  {
    kind: 'privateDeals',
    channel: 'spot@private.deals.v3.api',
    visibility: 'private',
    title: 'My fills',
    description: "The account's fills, one push each. Needs a listen key.",
    template: 'spot@private.deals.v3.api',
    params: [],
    fields: [
      { path: 'p', type: 'decimal', description: 'Price.' },
      { path: 'v', type: 'decimal', description: 'Quantity.' },
      { path: 'a', type: 'decimal', description: 'Amount, in the quote asset.' },
      { path: 'S', type: 'code', description: "The order's side: 1 buy, 2 sell." },
      { path: 'T', type: 'timestampMs', description: 'Trade time.' },
      { path: 't', type: 'string', description: 'Trade id.' },
      { path: 'c', type: 'string', description: 'The client order id.' },
      { path: 'i', type: 'string', description: 'orderId.' },
      { path: 'm', type: 'code', description: '1 when the order was the maker, 0 the taker.' },
      { path: 'n', type: 'decimal', description: 'Fee.' },
      { path: 'N', type: 'string', description: 'Fee asset.' },
    ],
    example:
      '{"c":"spot@private.deals.v3.api","s":"BTCUSDT","t":1700000000000,"d":{"p":"30010.00000000","v":"0.00100000","a":"30.01000000","S":1,"T":1700000000000,"t":"1","c":"sbx1000001","i":"1000001","m":0,"n":"0.00000000","N":"USDT"}}',
    source: 'assumed',
  },
  {
    kind: 'account',
    channel: 'spot@private.account.v3.api',
    visibility: 'private',
    title: 'My balances',
    description: "The account's balance of an asset, on every change. Needs a listen key.",
    template: 'spot@private.account.v3.api',
    params: [],
    fields: [
      { path: 'a', type: 'string', description: 'Asset.' },
      { path: 'c', type: 'timestampMs', description: 'Time of the change.' },
      { path: 'f', type: 'decimal', description: 'Free amount.' },
      { path: 'fd', type: 'decimal', description: 'Change of the free amount.' },
      { path: 'l', type: 'decimal', description: 'Locked amount (held by open orders).' },
      { path: 'ld', type: 'decimal', description: 'Change of the locked amount.' },
      {
        path: 'o',
        type: 'string',
        description: 'Why: ENTRUST_PLACE (an order locked it), ENTRUST_CANCEL (released), DEAL (a fill).',
      },
    ],
    example:
      '{"c":"spot@private.account.v3.api","t":1700000000000,"d":{"a":"USDT","c":1700000000000,"f":"999980.00000000","fd":"-20.00000000","l":"20.00000000","ld":"20.00000000","o":"ENTRUST_PLACE"}}',
    source: 'assumed',
  },
];
