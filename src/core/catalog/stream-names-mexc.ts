/**
 * The mexc deployment's streams, as its documentation describes them since 2025 (docs/websocket.md,
 * "Deployments"): names ending in `.pb`, pushes as binary Protocol Buffers wrappers, each carrying
 * one body message (src/core/ws/proto/push.proto). A decoded push reads
 * `{channel, symbol, symbolId, createTime, sendTime, <body>: {…}}`, the body under its field's
 * name in the wrapper (ws/pb.ts); `fields` are paths inside that body. Where the documentation's
 * illustrations name an older body for an aggregated channel, the body listed here is the wrapper's
 * aggregated one (313, 314, 315), as the published field numbers pair them.
 */
import { ORDER_STATUS_TEXT } from './stream-names-spec';
import {
  MEXC_KLINE_INTERVALS,
  STREAM_RATES,
  intervalParam,
  levelsParam,
  symbolParam,
  type PushFieldInfo,
  type StreamDescription,
  type StreamParamInfo,
} from './stream-types';

const rateParam: StreamParamInfo = {
  name: 'rate',
  description: 'How often the stream pushes what it gathered since its last push.',
  rule: '100ms or 10ms',
  values: STREAM_RATES.map((r) => ({ value: r, description: `a push at most every ${r}`, source: 'assumed' })),
};

const klineIntervalParam = intervalParam(MEXC_KLINE_INTERVALS);

const MEXC_ORDER_TYPE_TEXT =
  '1 LIMIT, 2 POST_ONLY (LIMIT_MAKER), 3 IMMEDIATE_OR_CANCEL, 4 FILL_OR_KILL, 5 MARKET, 100 stop loss / take profit';

/** A price level of a book body: `asks[]` or `bids[]`. */
function levels(side: 'asks' | 'bids', what: string): PushFieldInfo[] {
  return [
    { path: side, type: 'list', description: what },
    { path: `${side}[].price`, type: 'decimal', description: 'Price of the level.' },
    {
      path: `${side}[].quantity`,
      type: 'decimal',
      description: 'Quantity at the level now; 0 means the level is gone from the book.',
    },
  ];
}

const eventType: PushFieldInfo = {
  path: 'eventType',
  type: 'string',
  description: 'The channel the push belongs to, without the symbol.',
};

const deals: StreamDescription = {
  kind: 'deals',
  channel: 'spot@public.aggre.deals.v3.api.pb',
  visibility: 'public',
  title: 'Trades',
  description: "The symbol's trades, gathered and pushed at most every 100 ms or 10 ms.",
  template: 'spot@public.aggre.deals.v3.api.pb@<rate>@<symbol>',
  params: [rateParam, symbolParam],
  body: { name: 'publicAggreDeals', field: 314, message: 'PublicAggreDealsV3Api' },
  fields: [
    { path: 'deals', type: 'list', description: 'The trades since the last push, oldest first.' },
    { path: 'deals[].price', type: 'decimal', description: 'Price.' },
    { path: 'deals[].quantity', type: 'decimal', description: 'Quantity, in the base asset.' },
    { path: 'deals[].tradeType', type: 'code', description: "The taker's side: 1 buy, 2 sell." },
    { path: 'deals[].time', type: 'timestampMs', description: 'Trade time.' },
    { path: 'deals[].tradeId', type: 'string', description: 'Trade id.' },
    eventType,
  ],
  example:
    '{"channel":"spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT","symbol":"BTCUSDT","sendTime":1736409765052,"publicAggreDeals":{"deals":[{"price":"93220.00","quantity":"0.04438243","tradeType":2,"time":1736409765051,"tradeId":"505979017439002624X1"}],"eventType":"spot@public.aggre.deals.v3.api.pb@100ms"}}',
  source: 'deployment',
};

const aggreDepth: StreamDescription = {
  kind: 'aggreDepth',
  channel: 'spot@public.aggre.depth.v3.api.pb',
  visibility: 'public',
  title: 'Order book changes',
  description:
    'The price levels that changed, gathered and pushed at most every 100 ms or 10 ms, with the book versions they span; with a REST depth snapshot they keep a local book.',
  template: 'spot@public.aggre.depth.v3.api.pb@<rate>@<symbol>',
  params: [rateParam, symbolParam],
  body: { name: 'publicAggreDepths', field: 313, message: 'PublicAggreDepthsV3Api' },
  fields: [
    ...levels('asks', 'Asks that changed.'),
    ...levels('bids', 'Bids that changed.'),
    eventType,
    { path: 'fromVersion', type: 'string', description: 'The first book version the push covers.' },
    { path: 'toVersion', type: 'string', description: 'The last book version the push covers.' },
    { path: 'lastOrderCreateTime', type: 'timestampMs', description: 'When the latest order it reflects was placed.' },
  ],
  example:
    '{"channel":"spot@public.aggre.depth.v3.api.pb@100ms@BTCUSDT","symbol":"BTCUSDT","sendTime":1736411507002,"publicAggreDepths":{"asks":[{"price":"92880.10","quantity":"0.51000000"}],"bids":[{"price":"92877.58","quantity":"0.00000000"}],"eventType":"spot@public.aggre.depth.v3.api.pb@100ms","fromVersion":"10589632359","toVersion":"10589632359","lastOrderCreateTime":1736411506990}}',
  source: 'deployment',
};

const limitDepth: StreamDescription = {
  kind: 'depth',
  channel: 'spot@public.limit.depth.v3.api.pb',
  visibility: 'public',
  title: 'Order book, best levels',
  description: 'The best LEVELS bids and asks, the whole snapshot on every change of the book.',
  template: 'spot@public.limit.depth.v3.api.pb@<symbol>@<levels>',
  params: [symbolParam, levelsParam],
  body: { name: 'publicLimitDepths', field: 303, message: 'PublicLimitDepthsV3Api' },
  fields: [
    ...levels('asks', 'Asks, best (lowest) first.'),
    ...levels('bids', 'Bids, best (highest) first.'),
    eventType,
    { path: 'version', type: 'string', description: "The book's version; it grows with every change." },
    { path: 'lastOrderCreateTime', type: 'timestampMs', description: 'When the latest order it reflects was placed.' },
  ],
  example:
    '{"channel":"spot@public.limit.depth.v3.api.pb@BTCUSDT@5","symbol":"BTCUSDT","sendTime":1736411838730,"publicLimitDepths":{"asks":[{"price":"93180.18","quantity":"0.21976424"}],"bids":[{"price":"93179.98","quantity":"2.82651000"}],"eventType":"spot@public.limit.depth.v3.api.pb","version":"36913565463","lastOrderCreateTime":1736411838700}}',
  source: 'deployment',
};

const increaseDepthBatch: StreamDescription = {
  kind: 'increaseDepthBatch',
  channel: 'spot@public.increase.depth.batch.v3.api.pb',
  visibility: 'public',
  title: 'Order book changes, batched',
  description:
    'Each change of the book with its version, several to a push (once more than 5 gather or 5 ms pass). The documentation keeps this channel in a hidden section.',
  template: 'spot@public.increase.depth.batch.v3.api.pb@<symbol>',
  params: [symbolParam],
  body: { name: 'publicIncreaseDepthsBatch', field: 312, message: 'PublicIncreaseDepthsBatchV3Api' },
  fields: [
    { path: 'items', type: 'list', description: 'The changes, oldest first.' },
    ...levels('asks', 'Asks that changed.').map((f) => ({ ...f, path: `items[].${f.path}` })),
    ...levels('bids', 'Bids that changed.').map((f) => ({ ...f, path: `items[].${f.path}` })),
    { path: 'items[].version', type: 'string', description: "The book's version after the change." },
    { path: 'items[].eventType', type: 'string', description: 'Empty inside a batch; the batch names its channel.' },
    eventType,
  ],
  example:
    '{"channel":"spot@public.increase.depth.batch.v3.api.pb@BTCUSDT","symbol":"BTCUSDT","sendTime":1739502064578,"publicIncreaseDepthsBatch":{"items":[{"asks":[{"price":"96580.02","quantity":"1.20000000"}],"bids":[{"price":"96578.48","quantity":"0.00000000"}],"eventType":"","version":"39003145507"}],"eventType":"spot@public.increase.depth.batch.v3.api.pb"}}',
  source: 'deployment',
};

const bookTickerFields = (prefix: string): PushFieldInfo[] => [
  { path: `${prefix}bidPrice`, type: 'decimal', description: 'Best bid price.' },
  { path: `${prefix}bidQuantity`, type: 'decimal', description: 'Quantity at the best bid.' },
  { path: `${prefix}askPrice`, type: 'decimal', description: 'Best ask price.' },
  { path: `${prefix}askQuantity`, type: 'decimal', description: 'Quantity at the best ask.' },
];

const bookTicker: StreamDescription = {
  kind: 'bookTicker',
  channel: 'spot@public.aggre.bookTicker.v3.api.pb',
  visibility: 'public',
  title: 'Best bid and ask',
  description: 'The best bid and the best ask, pushed at most every 100 ms or 10 ms when either changed.',
  template: 'spot@public.aggre.bookTicker.v3.api.pb@<rate>@<symbol>',
  params: [rateParam, symbolParam],
  body: { name: 'publicAggreBookTicker', field: 315, message: 'PublicAggreBookTickerV3Api' },
  fields: [
    ...bookTickerFields(''),
    { path: 'version', type: 'string', description: "The book's version." },
    { path: 'lastOrderCreateTime', type: 'timestampMs', description: 'When the latest order it reflects was placed.' },
  ],
  example:
    '{"channel":"spot@public.aggre.bookTicker.v3.api.pb@100ms@BTCUSDT","symbol":"BTCUSDT","sendTime":1736412092433,"publicAggreBookTicker":{"bidPrice":"93387.28","bidQuantity":"3.73485","askPrice":"93387.29","askQuantity":"7.669875","version":"36913565900","lastOrderCreateTime":1736412092400}}',
  source: 'deployment',
};

const bookTickerBatch: StreamDescription = {
  kind: 'bookTickerBatch',
  channel: 'spot@public.bookTicker.batch.v3.api.pb',
  visibility: 'public',
  title: 'Best bid and ask, batched',
  description: 'The best bid and ask of the symbol, several changes to a push.',
  template: 'spot@public.bookTicker.batch.v3.api.pb@<symbol>',
  params: [symbolParam],
  body: { name: 'publicBookTickerBatch', field: 311, message: 'PublicBookTickerBatchV3Api' },
  fields: [
    { path: 'items', type: 'list', description: 'The best bid and ask after each change, oldest first.' },
    ...bookTickerFields('items[].'),
    { path: 'version', type: 'string', description: "The book's version." },
    { path: 'lastOrderCreateTime', type: 'timestampMs', description: 'When the latest order it reflects was placed.' },
  ],
  example:
    '{"channel":"spot@public.bookTicker.batch.v3.api.pb@BTCUSDT","symbol":"BTCUSDT","sendTime":1739503249114,"publicBookTickerBatch":{"items":[{"bidPrice":"96567.37","bidQuantity":"3.362925","askPrice":"96567.38","askQuantity":"1.545255"}],"version":"","lastOrderCreateTime":0}}',
  source: 'deployment',
};

const kline: StreamDescription = {
  kind: 'kline',
  channel: 'spot@public.kline.v3.api.pb',
  visibility: 'public',
  title: 'Candles',
  description: 'The current candle of the interval, pushed as it changes.',
  template: 'spot@public.kline.v3.api.pb@<symbol>@<interval>',
  params: [symbolParam, klineIntervalParam],
  body: { name: 'publicSpotKline', field: 308, message: 'PublicSpotKlineV3Api' },
  fields: [
    { path: 'interval', type: 'string', description: 'The interval.' },
    { path: 'windowStart', type: 'timestampS', description: 'Start of the candle, Unix seconds.' },
    { path: 'openingPrice', type: 'decimal', description: 'Open: the first trade price of the candle.' },
    { path: 'closingPrice', type: 'decimal', description: 'Close: the latest trade price.' },
    { path: 'highestPrice', type: 'decimal', description: 'High.' },
    { path: 'lowestPrice', type: 'decimal', description: 'Low.' },
    { path: 'volume', type: 'decimal', description: 'Volume, in the base asset.' },
    { path: 'amount', type: 'decimal', description: 'Amount, in the quote asset.' },
    { path: 'windowEnd', type: 'timestampS', description: 'End of the candle, Unix seconds.' },
  ],
  example:
    '{"channel":"spot@public.kline.v3.api.pb@BTCUSDT@Min15","symbol":"BTCUSDT","symbolId":"2fb942154ef44a4ab2ef98c8afb6a4a7","createTime":1736410707571,"publicSpotKline":{"interval":"Min15","windowStart":1736410500,"openingPrice":"92925","closingPrice":"93158.47","highestPrice":"93158.47","lowestPrice":"92800","volume":"36.83803224","amount":"3424811.05","windowEnd":1736411400}}',
  source: 'deployment',
};

const orders: StreamDescription = {
  kind: 'orders',
  channel: 'spot@private.orders.v3.api.pb',
  visibility: 'private',
  title: 'My orders',
  description: "The account's orders on every change: placed, filled in part or whole, cancelled. Needs a listen key.",
  template: 'spot@private.orders.v3.api.pb',
  params: [],
  body: { name: 'privateOrders', field: 304, message: 'PrivateOrdersV3Api' },
  fields: [
    { path: 'id', type: 'string', description: 'orderId.' },
    { path: 'clientId', type: 'string', description: 'The client order id.' },
    { path: 'price', type: 'decimal', description: 'Price.' },
    { path: 'quantity', type: 'decimal', description: 'Quantity ordered.' },
    { path: 'amount', type: 'decimal', description: 'Amount ordered, in the quote asset.' },
    { path: 'avgPrice', type: 'decimal', description: 'Average fill price.' },
    { path: 'orderType', type: 'code', description: `Order type: ${MEXC_ORDER_TYPE_TEXT}.` },
    { path: 'tradeType', type: 'code', description: 'Side: 1 buy, 2 sell.' },
    { path: 'isMaker', type: 'boolean', description: 'Whether the order rested in the book (a maker).' },
    { path: 'remainAmount', type: 'decimal', description: 'Amount not yet filled.' },
    { path: 'remainQuantity', type: 'decimal', description: 'Quantity not yet filled.' },
    { path: 'lastDealQuantity', type: 'decimal', description: 'Quantity of the latest fill.' },
    { path: 'cumulativeQuantity', type: 'decimal', description: 'Quantity filled.' },
    { path: 'cumulativeAmount', type: 'decimal', description: 'Amount filled, in the quote asset.' },
    { path: 'status', type: 'code', description: `Status: ${ORDER_STATUS_TEXT}.` },
    { path: 'createTime', type: 'timestampMs', description: 'When the order was placed.' },
  ],
  example:
    '{"channel":"spot@private.orders.v3.api.pb","symbol":"MXUSDT","sendTime":1736417034281,"privateOrders":{"id":"C02__505979017439002624115","clientId":"","price":"3.5121","quantity":"1","amount":"0","avgPrice":"3.6962","orderType":5,"tradeType":2,"isMaker":false,"remainAmount":"0","remainQuantity":"0","lastDealQuantity":"1","cumulativeQuantity":"1","cumulativeAmount":"3.6962","status":2,"createTime":1736417034259}}',
  source: 'deployment',
};

const privateDeals: StreamDescription = {
  kind: 'privateDeals',
  channel: 'spot@private.deals.v3.api.pb',
  visibility: 'private',
  title: 'My fills',
  description: "The account's fills, one push each. Needs a listen key.",
  template: 'spot@private.deals.v3.api.pb',
  params: [],
  body: { name: 'privateDeals', field: 306, message: 'PrivateDealsV3Api' },
  fields: [
    { path: 'price', type: 'decimal', description: 'Price.' },
    { path: 'quantity', type: 'decimal', description: 'Quantity.' },
    { path: 'amount', type: 'decimal', description: 'Amount, in the quote asset.' },
    { path: 'tradeType', type: 'code', description: "The order's side: 1 buy, 2 sell." },
    { path: 'isMaker', type: 'boolean', description: 'Whether the order was the maker.' },
    { path: 'isSelfTrade', type: 'boolean', description: "Whether both sides of the trade were the account's own." },
    { path: 'tradeId', type: 'string', description: 'Trade id.' },
    { path: 'clientOrderId', type: 'string', description: 'The client order id.' },
    { path: 'orderId', type: 'string', description: 'orderId.' },
    { path: 'feeAmount', type: 'decimal', description: 'Fee.' },
    { path: 'feeCurrency', type: 'string', description: 'Fee asset.' },
    { path: 'time', type: 'timestampMs', description: 'Trade time.' },
  ],
  example:
    '{"channel":"spot@private.deals.v3.api.pb","symbol":"MXUSDT","sendTime":1736417034332,"privateDeals":{"price":"3.6962","quantity":"1","amount":"3.6962","tradeType":2,"isMaker":false,"isSelfTrade":false,"tradeId":"505979017439002624X1","clientOrderId":"","orderId":"C02__505979017439002624115","feeAmount":"0.0003998377369698171","feeCurrency":"MX","time":1736417034280}}',
  source: 'deployment',
};

const account: StreamDescription = {
  kind: 'account',
  channel: 'spot@private.account.v3.api.pb',
  visibility: 'private',
  title: 'My balances',
  description: "The account's balance of an asset, on every change. Needs a listen key.",
  template: 'spot@private.account.v3.api.pb',
  params: [],
  body: { name: 'privateAccount', field: 307, message: 'PrivateAccountV3Api' },
  fields: [
    { path: 'vcoinName', type: 'string', description: 'Asset.' },
    { path: 'coinId', type: 'string', description: "The asset's id." },
    { path: 'balanceAmount', type: 'decimal', description: 'Free amount.' },
    { path: 'balanceAmountChange', type: 'decimal', description: 'Change of the free amount.' },
    { path: 'frozenAmount', type: 'decimal', description: 'Locked amount (held by open orders).' },
    { path: 'frozenAmountChange', type: 'decimal', description: 'Change of the locked amount.' },
    {
      path: 'type',
      type: 'string',
      description:
        'Why: ENTRUST_PLACE (an order locked it), ENTRUST_CANCEL (released), ENTRUST (a fill), TRADE_FEE, DEPOSIT, WITHDRAW, and more.',
    },
    { path: 'time', type: 'timestampMs', description: 'Time of the change.' },
  ],
  example:
    '{"channel":"spot@private.account.v3.api.pb","createTime":1736417034305,"sendTime":1736417034307,"privateAccount":{"vcoinName":"USDT","coinId":"128f589271cb4951b03e71e6323eb7be","balanceAmount":"21.94210356004384","balanceAmountChange":"10","frozenAmount":"0","frozenAmountChange":"0","type":"CONTRACT_TRANSFER","time":1736416910000}}',
  source: 'deployment',
};

/** mexc's streams, public first; each is a binary push with its body named in `body`. */
export const MEXC_STREAM_DESCRIPTIONS: readonly StreamDescription[] = [
  deals,
  aggreDepth,
  limitDepth,
  increaseDepthBatch,
  bookTicker,
  bookTickerBatch,
  kline,
  orders,
  privateDeals,
  account,
];
