/**
 * mexc's framing: each push is one binary Protocol Buffers `PushDataV3ApiWrapper`
 * (src/core/ws/proto/push.proto), encoded with the generated schema and @bufbuild/protobuf:
 * the wrapper's channel (the stream's name), symbol, createTime (the event's time) and sendTime
 * (the server's, when sent), and one body. Decimals go as text, times as int64 milliseconds, but
 * the candle windows, which go in seconds as the family writes them.
 */
import { create, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { PushDataV3ApiWrapperSchema } from '../../core/ws/proto/push_pb';
import { formatUnits as n, mulFloor } from '../decimal';
import { SYMBOLS } from '../market';
import {
  orderFigures,
  perSymbol,
  statusCode,
  typeCode,
  type DealEvent,
  type DepthEvent,
  type Framing,
  type TopEvent,
} from './frames';
import type { Candle } from './klines';
import { PB_CHANNEL, PB_DEPTH_LEVELS, PB_KLINE_INTERVALS, PB_SPEEDS } from './names-pb';

type WrapperInit = MessageInitShape<typeof PushDataV3ApiWrapperSchema>;
type Body = WrapperInit['body'];

function wrapper(channel: string, symbol: string | undefined, created: number, t: number, body: Body): Uint8Array {
  const init: WrapperInit = { channel, createTime: BigInt(created), sendTime: BigInt(t), body };
  if (symbol !== undefined) init.symbol = symbol;
  return toBinary(PushDataV3ApiWrapperSchema, create(PushDataV3ApiWrapperSchema, init));
}

const side = (s: 'BUY' | 'SELL'): number => (s === 'BUY' ? 1 : 2);
const level = ([p, v]: readonly [bigint, bigint]) => ({ price: n(p), quantity: n(v) });

function top(e: TopEvent) {
  return {
    bidPrice: e.bid === undefined ? '' : n(e.bid[0]),
    bidQuantity: e.bid === undefined ? '' : n(e.bid[1]),
    askPrice: e.ask === undefined ? '' : n(e.ask[0]),
    askQuantity: e.ask === undefined ? '' : n(e.ask[1]),
  };
}

function deals(symbol: string) {
  return PB_SPEEDS.map((speed) => {
    const event = `spot@${PB_CHANNEL.deals}@${speed}`;
    const name = `${event}@${symbol}`;
    const frame = (list: readonly DealEvent[], t: number) =>
      wrapper(name, symbol, list.at(-1)?.time ?? t, t, {
        case: 'publicAggreDeals',
        value: {
          deals: list.map((d) => ({
            price: n(d.price),
            quantity: n(d.qty),
            tradeType: side(d.side),
            time: BigInt(d.time),
            tradeId: d.tradeId,
          })),
          eventType: event,
        },
      });
    return { name, frame };
  });
}

function depth(symbol: string) {
  return PB_DEPTH_LEVELS.map((levels) => {
    const name = `spot@${PB_CHANNEL.depth}@${symbol}@${levels}`;
    const frame = (e: DepthEvent, t: number) =>
      wrapper(name, symbol, t, t, {
        case: 'publicLimitDepths',
        value: {
          asks: e.asks.slice(0, levels).map(level),
          bids: e.bids.slice(0, levels).map(level),
          eventType: `spot@${PB_CHANNEL.depth}`,
          version: String(e.version),
        },
      });
    return { name, levels, frame };
  });
}

function bookTicker(symbol: string) {
  const aggre = PB_SPEEDS.map((speed) => {
    const name = `spot@${PB_CHANNEL.bookTicker}@${speed}@${symbol}`;
    const frame = (e: TopEvent, t: number) =>
      wrapper(name, symbol, t, t, {
        case: 'publicAggreBookTicker',
        value: { ...top(e), version: String(e.version) },
      });
    return { name, frame };
  });
  const batch = `spot@${PB_CHANNEL.bookTickerBatch}@${symbol}`;
  const frameBatch = (e: TopEvent, t: number) =>
    wrapper(batch, symbol, t, t, {
      case: 'publicBookTickerBatch',
      value: { items: [top(e)], version: String(e.version) },
    });
  return [...aggre, { name: batch, frame: frameBatch }];
}

function kline(symbol: string) {
  return PB_KLINE_INTERVALS.map(({ name: interval }) => {
    const name = `spot@${PB_CHANNEL.kline}@${symbol}@${interval}`;
    const frame = (c: Readonly<Candle>, t: number) =>
      wrapper(name, symbol, t, t, {
        case: 'publicSpotKline',
        value: {
          interval,
          windowStart: BigInt(c.start / 1000),
          windowEnd: BigInt(c.end / 1000),
          openingPrice: n(c.open),
          closingPrice: n(c.close),
          highestPrice: n(c.high),
          lowestPrice: n(c.low),
          volume: n(c.volume),
          amount: n(c.amount),
        },
      });
    return { name, interval, frame };
  });
}

const ORDERS = `spot@${PB_CHANNEL.orders}`;
const PRIVATE_DEALS = `spot@${PB_CHANNEL.privateDeals}`;
const ACCOUNT = `spot@${PB_CHANNEL.account}`;
const symbols = SYMBOLS.map((s) => s.symbol);

export const PB_FRAMING: Framing = {
  klineIntervals: PB_KLINE_INTERVALS,
  dealsPerPush: 500,
  deals: perSymbol(symbols, deals),
  depth: perSymbol(symbols, depth),
  bookTicker: perSymbol(symbols, bookTicker),
  kline: perSymbol(symbols, kline),
  orders: {
    name: ORDERS,
    frame: (o, t) => {
      const f = orderFigures(o);
      return wrapper(ORDERS, o.spec.symbol, o.updateTime, t, {
        case: 'privateOrders',
        value: {
          id: o.orderId,
          clientId: o.clientOrderId,
          price: n(o.price),
          quantity: n(o.origQty),
          amount: n(f.amount),
          avgPrice: n(f.avg),
          orderType: typeCode(o),
          tradeType: side(o.side),
          isMaker: o.rested,
          remainAmount: n(f.amountLeft),
          remainQuantity: n(f.left),
          cumulativeQuantity: n(o.executedQty),
          cumulativeAmount: n(o.cummulativeQuoteQty),
          status: statusCode(o),
          createTime: BigInt(o.time),
        },
      });
    },
  },
  privateDeals: {
    name: PRIVATE_DEALS,
    frame: (e, t) =>
      wrapper(PRIVATE_DEALS, e.order.spec.symbol, e.time, t, {
        case: 'privateDeals',
        value: {
          price: n(e.price),
          quantity: n(e.qty),
          amount: n(mulFloor(e.qty, e.price)),
          tradeType: side(e.order.side),
          isMaker: e.maker,
          isSelfTrade: false,
          tradeId: e.tradeId,
          clientOrderId: e.order.clientOrderId,
          orderId: e.order.orderId,
          feeAmount: n(0n),
          feeCurrency: e.order.spec.quoteAsset,
          time: BigInt(e.time),
        },
      }),
  },
  account: {
    name: ACCOUNT,
    frame: (e, t) =>
      wrapper(ACCOUNT, undefined, e.time, t, {
        case: 'privateAccount',
        value: {
          vcoinName: e.asset,
          coinId: e.asset,
          balanceAmount: n(e.free),
          balanceAmountChange: n(e.freeChange),
          frozenAmount: n(e.locked),
          frozenAmountChange: n(e.lockedChange),
          type: e.why,
          time: BigInt(e.time),
        },
      }),
  },
  // A length-delimited field 1 whose length runs past the end: no wrapper reads from it.
  malformed: Uint8Array.from([0x0a, 0x40, 0x73, 0x70, 0x6f, 0x74]),
};
