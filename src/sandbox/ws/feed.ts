/**
 * The pushes of the sandbox's streams, fed by its own matching engine (engine.ts). Public
 * streams are batched per event-loop tick: the tick's trades in one deals push, one depth
 * snapshot per changed book and level count, a bookTicker push when the best bid or ask changed,
 * the open candle of every interval of a traded symbol. Private order and fill pushes go out as
 * they happen; balances once per tick per changed asset. Shapes: the stream catalog (assumed).
 */
import {
  DEPTH_LEVELS,
  KLINE_INTERVALS,
  formatStreamName,
  streamInfo,
  type ParsedStream,
} from '../../core/catalog/streams';
import { divFloor, formatUnits, mulFloor } from '../decimal';
import {
  HOUSE,
  remaining,
  type Account,
  type Balance,
  type BalanceChange,
  type MatchingEngine,
  type ExchangeListener,
  type Order,
} from '../engine';
import { SYMBOLS, SYMBOLS_BY_NAME, type SymbolSpec } from '../market';
import type { WsHub } from './hub';
import { privateKey } from './messages';
import { Candles } from './klines';

const DEALS = streamInfo('deals').channel;
const DEPTH = streamInfo('depth').channel;
const KLINE = streamInfo('kline').channel;
const ORDERS = streamInfo('orders').channel;
const PRIVATE_DEALS = streamInfo('privateDeals').channel;
const ACCOUNT = streamInfo('account').channel;
const MAX_DEPTH = Math.max(...DEPTH_LEVELS);
// Trades of one tick beyond this go in further deals pushes.
const DEALS_PER_PUSH = 500;

const n = formatUnits;

function push(c: string, s: string | undefined, t: number, d: string): string {
  return s === undefined ? `{"c":"${c}","t":${t},"d":${d}}` : `{"c":"${c}","s":"${s}","t":${t},"d":${d}}`;
}

function levelsJson(levels: readonly [bigint, bigint][]): string {
  return '[' + levels.map(([p, v]) => `{"p":"${n(p)}","v":"${n(v)}"}`).join(',') + ']';
}

/** The order type code of the private orders stream (1 LIMIT, 3 IOC, 4 FOK, 5 MARKET). */
function typeCode(o: Order): number {
  if (o.type === 'MARKET') return 5;
  return o.timeInForce === 'IOC' ? 3 : o.timeInForce === 'FOK' ? 4 : 1;
}

/** The status code of the private orders stream (1 NEW, 2 FILLED, 3 PARTIALLY_FILLED, 4 CANCELED, 5 PARTIALLY_CANCELED). */
function statusCode(o: Order): number {
  if (o.status === 'NEW') return 1;
  if (o.status === 'FILLED') return 2;
  if (o.status === 'PARTIALLY_FILLED') return 3;
  return o.executedQty > 0n ? 5 : 4;
}

function orderJson(o: Order): string {
  const amount = o.type === 'LIMIT' ? mulFloor(o.origQty, o.price) : o.origQuoteOrderQty;
  const left = remaining(o);
  const amountLeft = amount - o.cummulativeQuoteQty;
  const avg = o.executedQty > 0n ? divFloor(o.cummulativeQuoteQty, o.executedQty) : 0n;
  return `{"i":"${o.orderId}","c":"${o.clientOrderId}","o":${typeCode(o)},"S":${o.side === 'BUY' ? 1 : 2},"p":"${n(o.price)}","v":"${n(o.origQty)}","a":"${n(amount)}","V":"${n(left > 0n ? left : 0n)}","A":"${n(amountLeft > 0n ? amountLeft : 0n)}","cv":"${n(o.executedQty)}","ca":"${n(o.cummulativeQuoteQty)}","ap":"${n(avg)}","s":${statusCode(o)},"m":${o.rested ? 1 : 0},"O":${o.time}}`;
}

export class MarketFeed implements ExchangeListener {
  private deals = new Map<string, string[]>();
  private books = new Set<SymbolSpec>();
  private traded = new Set<string>();
  private candles = new Map<string, Candles>();
  private versions = new Map<string, number>();
  private tops = new Map<string, string>();
  private changed = new Map<Account, Map<string, BalanceChange>>();
  private pushed = new Map<string, Map<string, Balance>>();
  private tradeId = 0;
  private scheduled = false;

  constructor(
    private readonly hub: WsHub,
    private readonly engine: MatchingEngine,
    private readonly serverTime: () => number,
  ) {
    this.reset();
  }

  /** Back to the exchange's start: no candles, balances as they are now. */
  reset(): void {
    this.deals = new Map();
    this.books = new Set();
    this.traded = new Set();
    this.candles = new Map(SYMBOLS.map((s) => [s.symbol, new Candles()]));
    this.versions = new Map(SYMBOLS.map((s) => [s.symbol, 0]));
    this.tops = new Map();
    this.changed = new Map();
    this.pushed = new Map();
    for (const account of this.engine.userAccounts()) {
      const held = new Map<string, Balance>();
      for (const [asset, b] of account.balances) held.set(asset, { free: b.free, locked: b.locked });
      this.pushed.set(account.name, held);
    }
  }

  // ExchangeListener

  trade(taker: Order, maker: Order, qty: bigint, price: bigint, time: number): void {
    const symbol = taker.spec.symbol;
    const tradeId = String(++this.tradeId);
    if (this.hub.hasSubscribers(`${DEALS}@${symbol}`)) {
      let list = this.deals.get(symbol);
      if (list === undefined) this.deals.set(symbol, (list = [] as string[]));
      list.push(`{"p":"${n(price)}","v":"${n(qty)}","S":${taker.side === 'BUY' ? 1 : 2},"t":${time}}`);
    }
    this.candles.get(symbol)!.trade(price, qty, time);
    this.traded.add(symbol);
    this.schedule();
    for (const o of [taker, maker]) {
      if (o.owner.name === HOUSE) continue;
      const key = privateKey(o.owner.name, PRIVATE_DEALS);
      if (!this.hub.hasSubscribers(key)) continue;
      const d = `{"p":"${n(price)}","v":"${n(qty)}","a":"${n(mulFloor(qty, price))}","S":${o.side === 'BUY' ? 1 : 2},"T":${time},"t":"${tradeId}","c":"${o.clientOrderId}","i":"${o.orderId}","m":${o === maker ? 1 : 0},"n":"${n(0n)}","N":"${o.spec.quoteAsset}"}`;
      this.hub.publish(key, push(PRIVATE_DEALS, symbol, this.serverTime(), d));
    }
  }

  order(o: Order): void {
    if (o.owner.name === HOUSE) return;
    const key = privateKey(o.owner.name, ORDERS);
    if (this.hub.hasSubscribers(key))
      this.hub.publish(key, push(ORDERS, o.spec.symbol, this.serverTime(), orderJson(o)));
  }

  book(spec: SymbolSpec): void {
    this.books.add(spec);
    this.schedule();
  }

  balance(account: Account, asset: string, why: BalanceChange): void {
    if (account.name === HOUSE) return;
    let assets = this.changed.get(account);
    if (assets === undefined) this.changed.set(account, (assets = new Map<string, BalanceChange>()));
    assets.set(asset, why);
    this.schedule();
  }

  // Pushes

  /** The current state of a depth or bookTicker stream as a push (sent to a new subscriber). */
  snapshot(stream: ParsedStream): string | undefined {
    if (stream.kind !== 'depth' && stream.kind !== 'bookTicker') return undefined;
    const spec = SYMBOLS_BY_NAME.get(stream.symbol);
    if (spec === undefined) return undefined;
    const t = this.serverTime();
    if (stream.kind === 'bookTicker') return push(formatStreamName(stream), spec.symbol, t, this.top(spec));
    return this.depthPush(
      spec,
      stream.levels,
      this.engine.levels(spec, 'BUY', stream.levels),
      this.engine.levels(spec, 'SELL', stream.levels),
      t,
    );
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    this.hub.batch(() => this.publishTick(this.serverTime()));
  }

  private publishTick(t: number): void {
    for (const [symbol, list] of this.deals) {
      for (let i = 0; i < list.length; i += DEALS_PER_PUSH) {
        const d = `{"e":"${DEALS}","deals":[${list.slice(i, i + DEALS_PER_PUSH).join(',')}]}`;
        this.hub.publish(`${DEALS}@${symbol}`, push(`${DEALS}@${symbol}`, symbol, t, d));
      }
    }
    this.deals = new Map();
    for (const spec of this.books) this.flushBook(spec, t);
    this.books = new Set();
    for (const symbol of this.traded) this.flushKlines(symbol, t);
    this.traded = new Set();
    for (const [account, assets] of this.changed) this.flushBalances(account, assets, t);
    this.changed = new Map();
  }

  private depthPush(
    spec: SymbolSpec,
    levels: number,
    bids: [bigint, bigint][],
    asks: [bigint, bigint][],
    t: number,
  ): string {
    const name = `${DEPTH}@${spec.symbol}@${levels}`;
    const d = `{"e":"${DEPTH}","r":"${this.versions.get(spec.symbol)}","bids":${levelsJson(bids.slice(0, levels))},"asks":${levelsJson(asks.slice(0, levels))}}`;
    return push(name, spec.symbol, t, d);
  }

  private top(spec: SymbolSpec): string {
    const [bid] = this.engine.levels(spec, 'BUY', 1);
    const [ask] = this.engine.levels(spec, 'SELL', 1);
    const q = (v: bigint | undefined): string => (v === undefined ? 'null' : `"${n(v)}"`);
    return `{"b":${q(bid?.[0])},"B":${q(bid?.[1])},"a":${q(ask?.[0])},"A":${q(ask?.[1])}}`;
  }

  private flushBook(spec: SymbolSpec, t: number): void {
    const symbol = spec.symbol;
    this.versions.set(symbol, this.versions.get(symbol)! + 1);
    const wanted = DEPTH_LEVELS.filter((levels) => this.hub.hasSubscribers(`${DEPTH}@${symbol}@${levels}`));
    if (wanted.length > 0) {
      const bids = this.engine.levels(spec, 'BUY', MAX_DEPTH);
      const asks = this.engine.levels(spec, 'SELL', MAX_DEPTH);
      for (const levels of wanted)
        this.hub.publish(`${DEPTH}@${symbol}@${levels}`, this.depthPush(spec, levels, bids, asks, t));
    }
    const top = this.top(spec);
    if (this.tops.get(symbol) === top) return;
    this.tops.set(symbol, top);
    const name = formatStreamName({ kind: 'bookTicker', symbol });
    this.hub.publish(name, push(name, symbol, t, top));
  }

  private flushKlines(symbol: string, t: number): void {
    const candles = this.candles.get(symbol)!;
    for (const interval of KLINE_INTERVALS) {
      const name = `${KLINE}@${symbol}@${interval}`;
      if (!this.hub.hasSubscribers(name)) continue;
      const k = candles.json(interval);
      if (k !== undefined) this.hub.publish(name, push(name, symbol, t, `{"e":"${KLINE}","k":${k}}`));
    }
  }

  private flushBalances(account: Account, assets: Map<string, BalanceChange>, t: number): void {
    let held = this.pushed.get(account.name);
    if (held === undefined) this.pushed.set(account.name, (held = new Map<string, Balance>()));
    const key = privateKey(account.name, ACCOUNT);
    const listening = this.hub.hasSubscribers(key);
    for (const [asset, why] of assets) {
      const b = account.balance(asset);
      const before = held.get(asset) ?? { free: 0n, locked: 0n };
      held.set(asset, { free: b.free, locked: b.locked });
      if (!listening || (before.free === b.free && before.locked === b.locked)) continue;
      const d = `{"a":"${asset}","c":${t},"f":"${n(b.free)}","fd":"${n(b.free - before.free)}","l":"${n(b.locked)}","ld":"${n(b.locked - before.locked)}","o":"${why}"}`;
      this.hub.publish(key, push(ACCOUNT, undefined, t, d));
    }
  }
}
