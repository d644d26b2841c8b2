/**
 * The pushes of the sandbox's streams, fed by its own matching engine (engine.ts). Public
 * streams are batched per event-loop tick: the tick's trades in one deals push, one depth
 * snapshot per changed book and level count, a bookTicker push when the best bid or ask changed,
 * the open candle of every interval of a traded symbol. Private order and fill pushes go out as
 * they happen; balances once per tick per changed asset. The names and frames are the
 * deployment's framing (frames.ts): JSON for the spec, Protocol Buffers for mexc.
 */
import {
  HOUSE,
  type Account,
  type Balance,
  type BalanceChange,
  type MatchingEngine,
  type ExchangeListener,
  type Order,
} from '../engine';
import { SYMBOLS, SYMBOLS_BY_NAME, type SymbolSpec } from '../market';
import type { DealEvent, Framing, TopEvent } from './frames';
import type { Frame, WsHub } from './hub';
import { privateKey } from './messages';
import { Candles } from './klines';
import type { PlayedStream } from './names';

export class MarketFeed implements ExchangeListener {
  private deals = new Map<string, DealEvent[]>();
  private books = new Set<SymbolSpec>();
  private traded = new Set<string>();
  private candles = new Map<string, Candles>();
  private versions = new Map<string, number>();
  private tops = new Map<string, string>();
  private changed = new Map<Account, Map<string, BalanceChange>>();
  private pushed = new Map<string, Map<string, Balance>>();
  private tradeId = 0;
  private scheduled = false;
  private readonly maxDepth: number;

  constructor(
    private readonly hub: WsHub,
    private readonly engine: MatchingEngine,
    private readonly serverTime: () => number,
    private readonly framing: Framing,
  ) {
    this.maxDepth = Math.max(...SYMBOLS.flatMap((s) => framing.depth(s.symbol).map((o) => o.levels)));
    this.reset();
  }

  /** Back to the exchange's start: no candles, balances as they are now. */
  reset(): void {
    this.deals = new Map();
    this.books = new Set();
    this.traded = new Set();
    this.candles = new Map(SYMBOLS.map((s) => [s.symbol, new Candles(this.framing.klineIntervals)]));
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
    if (this.framing.deals(symbol).some((o) => this.hub.hasSubscribers(o.name))) {
      let list = this.deals.get(symbol);
      if (list === undefined) this.deals.set(symbol, (list = [] as DealEvent[]));
      list.push({ price, qty, side: taker.side, time, tradeId });
    }
    this.candles.get(symbol)!.trade(price, qty, time);
    this.traded.add(symbol);
    this.schedule();
    const outlet = this.framing.privateDeals;
    for (const o of [taker, maker]) {
      if (o.owner.name === HOUSE) continue;
      const key = privateKey(o.owner.name, outlet.name);
      if (!this.hub.hasSubscribers(key)) continue;
      const event = { order: o, price, qty, time, tradeId, maker: o === maker };
      this.hub.publish(key, outlet.frame(event, this.serverTime()));
    }
  }

  order(o: Order): void {
    if (o.owner.name === HOUSE) return;
    const outlet = this.framing.orders;
    const key = privateKey(o.owner.name, outlet.name);
    if (this.hub.hasSubscribers(key)) this.hub.publish(key, outlet.frame(o, this.serverTime()));
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
  snapshot(name: string, stream: PlayedStream): Frame | undefined {
    if (stream.kind !== 'depth' && stream.kind !== 'bookTicker' && stream.kind !== 'bookTickerBatch') return undefined;
    const spec = SYMBOLS_BY_NAME.get(stream.symbol);
    if (spec === undefined) return undefined;
    const t = this.serverTime();
    if (stream.kind !== 'depth') {
      const outlet = this.framing.bookTicker(spec.symbol).find((o) => o.name === name);
      return outlet?.frame(this.top(spec), t);
    }
    const outlet = this.framing.depth(spec.symbol).find((o) => o.name === name);
    return outlet?.frame(this.depth(spec, outlet.levels), t);
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
    const per = this.framing.dealsPerPush;
    for (const [symbol, list] of this.deals) {
      for (const outlet of this.framing.deals(symbol)) {
        if (!this.hub.hasSubscribers(outlet.name)) continue;
        for (let i = 0; i < list.length; i += per)
          this.hub.publish(outlet.name, outlet.frame(list.slice(i, i + per), t));
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

  private depth(spec: SymbolSpec, levels: number) {
    return {
      symbol: spec.symbol,
      version: this.versions.get(spec.symbol)!,
      bids: this.engine.levels(spec, 'BUY', levels),
      asks: this.engine.levels(spec, 'SELL', levels),
    };
  }

  private top(spec: SymbolSpec): TopEvent {
    const [bid] = this.engine.levels(spec, 'BUY', 1);
    const [ask] = this.engine.levels(spec, 'SELL', 1);
    return { symbol: spec.symbol, version: this.versions.get(spec.symbol)!, bid, ask };
  }

  private flushBook(spec: SymbolSpec, t: number): void {
    const symbol = spec.symbol;
    this.versions.set(symbol, this.versions.get(symbol)! + 1);
    const wanted = this.framing.depth(symbol).filter((o) => this.hub.hasSubscribers(o.name));
    if (wanted.length > 0) {
      const depth = this.depth(spec, this.maxDepth);
      for (const outlet of wanted) this.hub.publish(outlet.name, outlet.frame(depth, t));
    }
    const top = this.top(spec);
    // The top changed when its levels did (the version alone moves with every book change).
    const seen = `${top.bid?.join()}|${top.ask?.join()}`;
    if (this.tops.get(symbol) === seen) return;
    this.tops.set(symbol, seen);
    for (const outlet of this.framing.bookTicker(symbol))
      if (this.hub.hasSubscribers(outlet.name)) this.hub.publish(outlet.name, outlet.frame(top, t));
  }

  private flushKlines(symbol: string, t: number): void {
    const candles = this.candles.get(symbol)!;
    for (const outlet of this.framing.kline(symbol)) {
      if (!this.hub.hasSubscribers(outlet.name)) continue;
      const c = candles.candle(outlet.interval);
      if (c !== undefined) this.hub.publish(outlet.name, outlet.frame(c, t));
    }
  }

  private flushBalances(account: Account, assets: Map<string, BalanceChange>, t: number): void {
    let held = this.pushed.get(account.name);
    if (held === undefined) this.pushed.set(account.name, (held = new Map<string, Balance>()));
    const outlet = this.framing.account;
    const key = privateKey(account.name, outlet.name);
    const listening = this.hub.hasSubscribers(key);
    for (const [asset, why] of assets) {
      const b = account.balance(asset);
      const before = held.get(asset) ?? { free: 0n, locked: 0n };
      held.set(asset, { free: b.free, locked: b.locked });
      if (!listening || (before.free === b.free && before.locked === b.locked)) continue;
      const event = {
        asset,
        free: b.free,
        locked: b.locked,
        freeChange: b.free - before.free,
        lockedChange: b.locked - before.locked,
        why,
        time: t,
      };
      this.hub.publish(key, outlet.frame(event, t));
    }
  }
}
