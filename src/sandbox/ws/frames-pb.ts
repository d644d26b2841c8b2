/**
 * The framing of a deployment whose pushes are Protocol Buffers (mexc): each push is one binary
 * `PushDataV3ApiWrapper` (src/core/ws/proto/push.proto), encoded with the generated schema and
 * @bufbuild/protobuf: the wrapper's channel (the stream's name), symbol, createTime (the event's
 * time) and sendTime (the server's, when sent), and one body. Decimals go as text, times as int64
 * milliseconds, but the candle windows, which go in seconds as the family writes them. The names
 * are the deployment's stream catalog's, one per value of each parameter (rate, levels, interval).
 */
import { create, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import type { Deployment } from '../../core/catalog/deployment';
import {
  KLINE_INTERVAL_MS,
  streamOfKind,
  type KlineInterval,
  type StreamDescription,
  type StreamKind,
  type StreamParamName,
} from '../../core/catalog/stream-names';
import { PushDataV3ApiWrapperSchema } from '../../core/ws/proto/push_pb';
import { formatUnits as n, mulFloor } from '../decimal';
import type { Order } from '../engine';
import { SYMBOLS } from '../market';
import {
  orderFigures,
  perSymbol,
  statusCode,
  typeCode,
  type AccountEvent,
  type DealEvent,
  type DepthEvent,
  type DepthOutlet,
  type Framing,
  type KlineOutlet,
  type Outlet,
  type PrivateDealEvent,
  type TopEvent,
} from './frames';
import type { Candle } from './klines';

type WrapperInit = MessageInitShape<typeof PushDataV3ApiWrapperSchema>;
type Body = WrapperInit['body'];

function wrapper(channel: string, symbol: string | undefined, created: number, t: number, body: Body): Uint8Array {
  const init: WrapperInit = { channel, createTime: BigInt(created), sendTime: BigInt(t), body };
  if (symbol !== undefined) init.symbol = symbol;
  return toBinary(PushDataV3ApiWrapperSchema, create(PushDataV3ApiWrapperSchema, init));
}

type Texts = Partial<Record<StreamParamName, string>>;

/** Every name of the stream `info` for `symbol`: one per combination of its other parameters' values. */
function variants(
  info: StreamDescription | undefined,
  symbol: string,
): { name: string; channel: string; texts: Texts }[] {
  if (info === undefined) return [];
  let all: Texts[] = [{}];
  for (const p of info.params) {
    const values = p.name === 'symbol' ? [symbol] : (p.values ?? []).map((v) => v.value);
    all = all.flatMap((texts) => values.map((v) => ({ ...texts, [p.name]: v })));
  }
  const channel = info.channel;
  return all.map((texts) => ({ name: [channel, ...info.params.map((p) => texts[p.name]!)].join('@'), channel, texts }));
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

function deals(info: StreamDescription | undefined, symbol: string): Outlet<readonly DealEvent[]>[] {
  return variants(info, symbol).map(({ name, channel, texts }) => {
    const event = texts.rate === undefined ? channel : `${channel}@${texts.rate}`;
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

function depth(info: StreamDescription | undefined, symbol: string): DepthOutlet[] {
  return variants(info, symbol).map(({ name, channel, texts }) => {
    const levels = Number(texts.levels);
    const frame = (e: DepthEvent, t: number) =>
      wrapper(name, symbol, t, t, {
        case: 'publicLimitDepths',
        value: {
          asks: e.asks.slice(0, levels).map(level),
          bids: e.bids.slice(0, levels).map(level),
          eventType: channel,
          version: String(e.version),
        },
      });
    return { name, levels, frame };
  });
}

function bookTicker(
  info: StreamDescription | undefined,
  batchInfo: StreamDescription | undefined,
  symbol: string,
): Outlet<TopEvent>[] {
  const aggre = variants(info, symbol).map(({ name }) => {
    const frame = (e: TopEvent, t: number) =>
      wrapper(name, symbol, t, t, {
        case: 'publicAggreBookTicker',
        value: { ...top(e), version: String(e.version) },
      });
    return { name, frame };
  });
  const batch = variants(batchInfo, symbol).map(({ name }) => {
    const frame = (e: TopEvent, t: number) =>
      wrapper(name, symbol, t, t, {
        case: 'publicBookTickerBatch',
        value: { items: [top(e)], version: String(e.version) },
      });
    return { name, frame };
  });
  return [...aggre, ...batch];
}

function kline(info: StreamDescription | undefined, symbol: string): KlineOutlet[] {
  return variants(info, symbol).map(({ name, texts }) => {
    const interval = texts.interval!;
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

function orders(name: string): Outlet<Order> {
  return {
    name,
    frame: (o, t) => {
      const f = orderFigures(o);
      return wrapper(name, o.spec.symbol, o.updateTime, t, {
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
  };
}

function privateDeals(name: string): Outlet<PrivateDealEvent> {
  return {
    name,
    frame: (e, t) =>
      wrapper(name, e.order.spec.symbol, e.time, t, {
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
  };
}

function account(name: string): Outlet<AccountEvent> {
  return {
    name,
    frame: (e, t) =>
      wrapper(name, undefined, e.time, t, {
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
  };
}

/** The name of the deployment's private stream of `kind` (it has no parameters). */
function privateName(deployment: Deployment, kind: StreamKind): string {
  const info = streamOfKind(kind, deployment);
  if (info === undefined) throw new Error(`the ${deployment.id} deployment has no ${kind} stream`);
  return info.channel;
}

/** The Protocol Buffers framing of `deployment`'s streams. */
export function pbFraming(deployment: Deployment): Framing {
  const symbols = SYMBOLS.map((s) => s.symbol);
  const of = (kind: StreamKind) => streamOfKind(kind, deployment);
  const intervals = (of('kline')?.params.find((p) => p.name === 'interval')?.values ?? []).map((v) => v.value);
  return {
    klineIntervals: intervals.map((name) => ({ name, ms: KLINE_INTERVAL_MS[name as KlineInterval] })),
    dealsPerPush: 500,
    deals: perSymbol(symbols, (s) => deals(of('deals'), s)),
    depth: perSymbol(symbols, (s) => depth(of('depth'), s)),
    bookTicker: perSymbol(symbols, (s) => bookTicker(of('bookTicker'), of('bookTickerBatch'), s)),
    kline: perSymbol(symbols, (s) => kline(of('kline'), s)),
    orders: orders(privateName(deployment, 'orders')),
    privateDeals: privateDeals(privateName(deployment, 'privateDeals')),
    account: account(privateName(deployment, 'account')),
    // A length-delimited field 1 whose length runs past the end: no wrapper reads from it.
    malformed: Uint8Array.from([0x0a, 0x40, 0x73, 0x70, 0x6f, 0x74]),
  };
}
