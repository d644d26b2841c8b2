/**
 * The spec's framing: JSON text pushes `{"c": STREAM, "s": SYMBOL, "t": MS, "d": {...}}` on the
 * family's JSON stream names (the stream catalog, src/core/catalog/streams.ts). Written by hand as
 * text, not through JSON.stringify: the pushes of a busy tick are many (bench:ws).
 */
import {
  DEPTH_LEVELS,
  KLINE_INTERVALS,
  KLINE_INTERVAL_MS,
  formatStreamName,
  streamInfo,
} from '../../core/catalog/streams';
import { formatUnits as n, mulFloor } from '../decimal';
import { SYMBOLS } from '../market';
import { orderFigures, perSymbol, statusCode, typeCode, type DepthEvent, type Framing, type TopEvent } from './frames';
import { candleJson, type Candle } from './klines';

const DEALS = streamInfo('deals').channel;
const DEPTH = streamInfo('depth').channel;
const KLINE = streamInfo('kline').channel;
const ORDERS = streamInfo('orders').channel;
const PRIVATE_DEALS = streamInfo('privateDeals').channel;
const ACCOUNT = streamInfo('account').channel;

function push(c: string, s: string | undefined, t: number, d: string): string {
  return s === undefined ? `{"c":"${c}","t":${t},"d":${d}}` : `{"c":"${c}","s":"${s}","t":${t},"d":${d}}`;
}

function levelsJson(levels: DepthEvent['bids'], count: number): string {
  return (
    '[' +
    levels
      .slice(0, count)
      .map(([p, v]) => `{"p":"${n(p)}","v":"${n(v)}"}`)
      .join(',') +
    ']'
  );
}

function topJson(e: TopEvent): string {
  const q = (v: bigint | undefined): string => (v === undefined ? 'null' : `"${n(v)}"`);
  return `{"b":${q(e.bid?.[0])},"B":${q(e.bid?.[1])},"a":${q(e.ask?.[0])},"A":${q(e.ask?.[1])}}`;
}

const symbols = SYMBOLS.map((s) => s.symbol);

export const JSON_FRAMING: Framing = {
  klineIntervals: KLINE_INTERVALS.map((name) => ({ name, ms: KLINE_INTERVAL_MS[name] })),
  dealsPerPush: 500,
  deals: perSymbol(symbols, (symbol) => [
    {
      name: `${DEALS}@${symbol}`,
      frame: (deals, t) => {
        const list = deals.map(
          (d) => `{"p":"${n(d.price)}","v":"${n(d.qty)}","S":${d.side === 'BUY' ? 1 : 2},"t":${d.time}}`,
        );
        return push(`${DEALS}@${symbol}`, symbol, t, `{"e":"${DEALS}","deals":[${list.join(',')}]}`);
      },
    },
  ]),
  depth: perSymbol(symbols, (symbol) =>
    DEPTH_LEVELS.map((levels) => {
      const name = `${DEPTH}@${symbol}@${levels}`;
      return {
        name,
        levels,
        frame: (e: DepthEvent, t: number) =>
          push(
            name,
            symbol,
            t,
            `{"e":"${DEPTH}","r":"${e.version}","bids":${levelsJson(e.bids, levels)},"asks":${levelsJson(e.asks, levels)}}`,
          ),
      };
    }),
  ),
  bookTicker: perSymbol(symbols, (symbol) => {
    const name = formatStreamName({ kind: 'bookTicker', symbol });
    return [{ name, frame: (e: TopEvent, t: number) => push(name, symbol, t, topJson(e)) }];
  }),
  kline: perSymbol(symbols, (symbol) =>
    KLINE_INTERVALS.map((interval) => {
      const name = `${KLINE}@${symbol}@${interval}`;
      return {
        name,
        interval,
        frame: (c: Readonly<Candle>, t: number) => push(name, symbol, t, `{"e":"${KLINE}","k":${candleJson(c)}}`),
      };
    }),
  ),
  orders: {
    name: ORDERS,
    frame: (o, t) => {
      const f = orderFigures(o);
      const d = `{"i":"${o.orderId}","c":"${o.clientOrderId}","o":${typeCode(o)},"S":${o.side === 'BUY' ? 1 : 2},"p":"${n(o.price)}","v":"${n(o.origQty)}","a":"${n(f.amount)}","V":"${n(f.left)}","A":"${n(f.amountLeft)}","cv":"${n(o.executedQty)}","ca":"${n(o.cummulativeQuoteQty)}","ap":"${n(f.avg)}","s":${statusCode(o)},"m":${o.rested ? 1 : 0},"O":${o.time}}`;
      return push(ORDERS, o.spec.symbol, t, d);
    },
  },
  privateDeals: {
    name: PRIVATE_DEALS,
    frame: (e, t) => {
      const o = e.order;
      const d = `{"p":"${n(e.price)}","v":"${n(e.qty)}","a":"${n(mulFloor(e.qty, e.price))}","S":${o.side === 'BUY' ? 1 : 2},"T":${e.time},"t":"${e.tradeId}","c":"${o.clientOrderId}","i":"${o.orderId}","m":${e.maker ? 1 : 0},"n":"${n(0n)}","N":"${o.spec.quoteAsset}"}`;
      return push(PRIVATE_DEALS, o.spec.symbol, t, d);
    },
  },
  account: {
    name: ACCOUNT,
    frame: (e, t) =>
      push(
        ACCOUNT,
        undefined,
        t,
        `{"a":"${e.asset}","c":${e.time},"f":"${n(e.free)}","fd":"${n(e.freeChange)}","l":"${n(e.locked)}","ld":"${n(e.lockedChange)}","o":"${e.why}"}`,
      ),
  },
  malformed: '{"c":"spot@public.deals.v3.api@BTCUSDT","d":{"deals":[{"p":',
};
