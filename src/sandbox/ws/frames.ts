/**
 * What the feed (feed.ts) says happened, and the framing that turns it into a deployment's
 * pushes: the stream names each event goes to and each push's frame, JSON text for the spec
 * (frames-json.ts) or one binary Protocol Buffers wrapper for mexc (frames-pb.ts). The feed
 * decides when and to whom; a framing decides names and bytes.
 */
import { divFloor, mulFloor } from '../decimal';
import { remaining, type Order, type Side } from '../engine';
import type { Frame } from './hub';
import type { Candle, CandleInterval } from './klines';

/** One trade of the tick. */
export interface DealEvent {
  readonly price: bigint;
  readonly qty: bigint;
  /** The taker's side. */
  readonly side: Side;
  readonly time: number;
  readonly tradeId: string;
}

/** The top levels of one symbol's book, best first, at `version`. */
export interface DepthEvent {
  readonly symbol: string;
  readonly version: number;
  readonly bids: readonly (readonly [bigint, bigint])[];
  readonly asks: readonly (readonly [bigint, bigint])[];
}

/** The best bid and ask of one symbol (undefined: that side is empty). */
export interface TopEvent {
  readonly symbol: string;
  readonly version: number;
  readonly bid: readonly [bigint, bigint] | undefined;
  readonly ask: readonly [bigint, bigint] | undefined;
}

/** One of an account's own trades, from the side of its order `order`. */
export interface PrivateDealEvent {
  readonly order: Order;
  readonly price: bigint;
  readonly qty: bigint;
  readonly time: number;
  readonly tradeId: string;
  readonly maker: boolean;
}

/** One balance of an account that changed, and why (the engine's word: ENTRUST, DEAL, ...). */
export interface AccountEvent {
  readonly asset: string;
  readonly free: bigint;
  readonly locked: bigint;
  readonly freeChange: bigint;
  readonly lockedChange: bigint;
  readonly why: string;
  readonly time: number;
}

/** A stream the framing pushes to, and how it frames an event at server time `t`. */
export interface Outlet<T> {
  readonly name: string;
  frame(event: T, t: number): Frame;
}

export interface DepthOutlet extends Outlet<DepthEvent> {
  readonly levels: number;
}

export interface KlineOutlet extends Outlet<Readonly<Candle>> {
  /** The interval's name, as in the stream name. */
  readonly interval: string;
}

export interface Framing {
  /** The intervals of the deployment's kline streams. */
  readonly klineIntervals: readonly CandleInterval[];
  /** Trades of one tick beyond this go in further deals pushes. */
  readonly dealsPerPush: number;
  deals(symbol: string): readonly Outlet<readonly DealEvent[]>[];
  depth(symbol: string): readonly DepthOutlet[];
  bookTicker(symbol: string): readonly Outlet<TopEvent>[];
  kline(symbol: string): readonly KlineOutlet[];
  /** The private streams: their names are the same for every account (the hub keys them per account). */
  readonly orders: Outlet<Order>;
  readonly privateDeals: Outlet<PrivateDealEvent>;
  readonly account: Outlet<AccountEvent>;
  /** A frame that is not a valid push (POST /_sandbox/ws/malformed). */
  readonly malformed: Frame;
}

/** The order type code of the private orders stream (1 LIMIT, 3 IOC, 4 FOK, 5 MARKET). */
export function typeCode(o: Order): number {
  if (o.type === 'MARKET') return 5;
  return o.timeInForce === 'IOC' ? 3 : o.timeInForce === 'FOK' ? 4 : 1;
}

/** The status code of the private orders stream (1 NEW, 2 FILLED, 3 PARTIALLY_FILLED, 4 CANCELED, 5 PARTIALLY_CANCELED). */
export function statusCode(o: Order): number {
  if (o.status === 'NEW') return 1;
  if (o.status === 'FILLED') return 2;
  if (o.status === 'PARTIALLY_FILLED') return 3;
  return o.executedQty > 0n ? 5 : 4;
}

/** Per symbol, the outlets a framing makes once. */
export function perSymbol<T>(symbols: readonly string[], make: (symbol: string) => T): (symbol: string) => T {
  const made = new Map(symbols.map((s) => [s, make(s)]));
  return (symbol) => made.get(symbol)!;
}

/** An order's figures the private orders stream shows: amount, what is left of it, the average price. */
export function orderFigures(o: Order): { amount: bigint; left: bigint; amountLeft: bigint; avg: bigint } {
  const amount = o.type === 'LIMIT' ? mulFloor(o.origQty, o.price) : o.origQuoteOrderQty;
  const left = remaining(o);
  const amountLeft = amount - o.cummulativeQuoteQty;
  const avg = o.executedQty > 0n ? divFloor(o.cummulativeQuoteQty, o.executedQty) : 0n;
  return { amount, left: left > 0n ? left : 0n, amountLeft: amountLeft > 0n ? amountLeft : 0n, avg };
}
