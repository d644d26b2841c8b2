/**
 * The sandbox's exchange: an in-memory book per symbol (price levels, first come first served),
 * balances per account with free and locked parts, and orders. A BUY locks quote asset
 * (quantity × price, rounded up), a SELL locks base asset; fills move amounts rounded down, so a
 * lock always covers its fills. Refusals carry the §7.2 code of the real condition met.
 */
import { divCeil, divFloor, formatUnits, mulCeil, mulFloor } from './decimal';
import { ASSETS, DEMO_BALANCES, HOUSE_BALANCE, SYMBOLS, type SymbolSpec } from './market';
import { err, ok, type Result } from '../core/result';

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

/** Open orders an account may hold before 30029; high enough for the benchmark's resting orders. */
const MAX_OPEN_ORDERS = 200_000;
/** Closed orders kept for queries; older ones are forgotten (then -2011), so memory stays bounded. */
const MAX_CLOSED_ORDERS = 200_000;

export const HOUSE = '_house';

export interface Balance {
  free: bigint;
  locked: bigint;
}

export interface Order {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly owner: Account;
  readonly spec: SymbolSpec;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  /** 0 for MARKET orders. */
  readonly price: bigint;
  /** For a MARKET order sized by quoteOrderQty: set to the executed quantity when it is done. */
  origQty: bigint;
  readonly origQuoteOrderQty: bigint;
  executedQty: bigint;
  cummulativeQuoteQty: bigint;
  /** What the order still holds: quote asset for a BUY, base asset for a SELL. */
  locked: bigint;
  status: OrderStatus;
  /** It has rested in the book: a maker (the private orders stream's `m`). */
  rested: boolean;
  readonly time: number;
  updateTime: number;
}

export class Account {
  readonly balances = new Map<string, Balance>();
  readonly open = new Map<string, Order>();
  readonly byClientId = new Map<string, Order>();

  constructor(
    readonly name: string,
    start: (asset: string) => bigint,
  ) {
    for (const asset of ASSETS) this.balances.set(asset, { free: start(asset), locked: 0n });
  }

  balance(asset: string): Balance {
    let b = this.balances.get(asset);
    if (b === undefined) {
      b = { free: 0n, locked: 0n };
      this.balances.set(asset, b);
    }
    return b;
  }
}

interface Level {
  readonly price: bigint;
  readonly orders: Order[];
}

/** One side of a book: levels best first (asks ascending, bids descending). */
class BookSide {
  readonly levels: Level[] = [];

  constructor(private readonly descending: boolean) {}

  /** Index of the level at `price`, or where it would go. */
  private search(price: bigint): number {
    let lo = 0;
    let hi = this.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.levels[mid]!.price;
      if (this.descending ? p > price : p < price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(order: Order): void {
    const i = this.search(order.price);
    const level = this.levels[i];
    if (level !== undefined && level.price === order.price) level.orders.push(order);
    else this.levels.splice(i, 0, { price: order.price, orders: [order] });
  }

  remove(order: Order): void {
    const i = this.search(order.price);
    const level = this.levels[i];
    if (level === undefined || level.price !== order.price) return;
    const j = level.orders.indexOf(order);
    if (j >= 0) level.orders.splice(j, 1);
    if (level.orders.length === 0) this.levels.splice(i, 1);
  }
}

class Book {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);

  /** Where orders of `side` rest: the bids for BUY, the asks for SELL. */
  of(side: Side): BookSide {
    return side === 'BUY' ? this.bids : this.asks;
  }

  /** Where orders of `side` take from. */
  opposite(side: Side): BookSide {
    return side === 'BUY' ? this.asks : this.bids;
  }
}

/** The quantity resting at a level. */
function levelSize(level: Level): bigint {
  let size = 0n;
  for (const o of level.orders) size += remaining(o);
  return size;
}

/** The asset an order of `side` locks and spends: the quote asset for a BUY, the base asset for a SELL. */
function lockedAsset(spec: SymbolSpec, side: Side): string {
  return side === 'BUY' ? spec.quoteAsset : spec.baseAsset;
}

/** What a LIMIT order locks: quantity × price rounded up for a BUY, the quantity for a SELL. */
function limitLock(side: Side, qty: bigint, price: bigint): bigint {
  return side === 'BUY' ? mulCeil(qty, price) : qty;
}

/** A price a taker of `side` with limit `limit` does not take: above it for a BUY, below it for a SELL. */
function pastLimit(side: Side, price: bigint, limit: bigint): boolean {
  return side === 'BUY' ? price > limit : price < limit;
}

/** A refusal with the §7.2 code of the condition met. */
export interface Refusal {
  readonly code: number;
  readonly detail: string;
}

function refuse(code: number, detail: string): Result<never, Refusal> {
  return err({ code, detail });
}

export interface NewOrder {
  readonly spec: SymbolSpec;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  /** LIMIT, and MARKET sized in the base asset. */
  readonly quantity?: bigint;
  /** MARKET sized in the quote asset. */
  readonly quoteOrderQty?: bigint;
  /** LIMIT only. */
  readonly price: bigint;
  readonly clientOrderId?: string;
}

/** Why a balance changed, as the private account stream says it. */
export type BalanceChange = 'ENTRUST_PLACE' | 'ENTRUST_CANCEL' | 'DEAL';

/** What the WebSocket side hears of the exchange (the house account's orders included). */
export interface ExchangeListener {
  /** A fill, at the maker's price. */
  trade(taker: Order, maker: Order, qty: bigint, price: bigint, time: number): void;
  /** An order was placed, filled in part or whole, or closed. */
  order(order: Order, time: number): void;
  /** The book of `spec` changed. */
  book(spec: SymbolSpec): void;
  balance(account: Account, asset: string, why: BalanceChange): void;
}

export function remaining(o: Order): bigint {
  return o.origQty - o.executedQty;
}

/** NEW or PARTIALLY_FILLED: the order may still fill (the record's isWorking). */
export function isOpen(o: Order): boolean {
  return o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
}

export class MatchingEngine {
  // Order ids keep counting across resets, so an id from before a reset never names a new order.
  private nextId = 1_000_001;
  private accounts = new Map<string, Account>();
  private books = new Map<string, Book>();
  private orders = new Map<string, Order>();
  private closed: string[] = [];
  private closedHead = 0;
  /** Set by the server when the WebSocket side listens; off during reset's seeding. */
  listener: ExchangeListener | undefined;

  constructor(private readonly accountNames: readonly string[]) {
    this.reset(0);
  }

  /** Demo accounts with their start balances, house liquidity around each reference price. */
  reset(time: number): void {
    const listener = this.listener;
    this.listener = undefined;
    this.accounts = new Map(this.accountNames.map((n) => [n, new Account(n, (asset) => DEMO_BALANCES[asset] ?? 0n)]));
    this.books = new Map(SYMBOLS.map((s) => [s.symbol, new Book()]));
    this.orders = new Map();
    this.closed = [];
    this.closedHead = 0;
    const house = new Account(HOUSE, () => HOUSE_BALANCE);
    for (const spec of SYMBOLS) {
      for (let k = 1; k <= spec.levels; k++) {
        const step = spec.step * BigInt(k);
        this.seed(house, spec, 'SELL', spec.referencePrice + step, time);
        this.seed(house, spec, 'BUY', spec.referencePrice - step, time);
      }
    }
    this.listener = listener;
  }

  /** The best `depth` levels of a side of `spec`'s book, best first: [price, quantity]. */
  levels(spec: SymbolSpec, side: Side, depth: number): [bigint, bigint][] {
    const out: [bigint, bigint][] = [];
    for (const level of this.book(spec).of(side).levels) {
      if (out.length >= depth) break;
      out.push([level.price, levelSize(level)]);
    }
    return out;
  }

  private book(spec: SymbolSpec): Book {
    return this.books.get(spec.symbol)!;
  }

  /** Every user account (not the house). */
  userAccounts(): IterableIterator<Account> {
    return this.accounts.values();
  }

  private seed(house: Account, spec: SymbolSpec, side: Side, price: bigint, time: number): void {
    const order = this.newOrder(
      house,
      { spec, side, type: 'LIMIT', timeInForce: 'GTC', quantity: spec.levelQty, price },
      time,
    );
    this.lock(order, limitLock(side, spec.levelQty, price));
    this.rest(order);
  }

  account(name: string): Account {
    const a = this.accounts.get(name);
    if (a === undefined) throw new Error(`no sandbox account ${name}`);
    return a;
  }

  private newOrder(owner: Account, req: NewOrder, time: number): Order {
    const orderId = String(this.nextId++);
    return {
      orderId,
      clientOrderId: req.clientOrderId ?? 'sbx' + orderId,
      owner,
      spec: req.spec,
      side: req.side,
      type: req.type,
      timeInForce: req.timeInForce,
      price: req.type === 'LIMIT' ? req.price : 0n,
      origQty: req.quantity ?? 0n,
      origQuoteOrderQty: req.quoteOrderQty ?? 0n,
      executedQty: 0n,
      cummulativeQuoteQty: 0n,
      locked: 0n,
      status: 'NEW',
      rested: false,
      time,
      updateTime: time,
    };
  }

  private lock(o: Order, amount: bigint): void {
    const asset = lockedAsset(o.spec, o.side);
    const b = o.owner.balance(asset);
    b.free -= amount;
    b.locked += amount;
    o.locked = amount;
    this.listener?.balance(o.owner, asset, 'ENTRUST_PLACE');
  }

  private release(o: Order): void {
    if (o.locked === 0n) return;
    const asset = lockedAsset(o.spec, o.side);
    const b = o.owner.balance(asset);
    b.locked -= o.locked;
    b.free += o.locked;
    o.locked = 0n;
    this.listener?.balance(o.owner, asset, 'ENTRUST_CANCEL');
  }

  private rest(o: Order): void {
    this.book(o.spec).of(o.side).insert(o);
    o.owner.open.set(o.orderId, o);
    o.rested = true;
    this.listener?.book(o.spec);
  }

  private close(o: Order, status: OrderStatus, time: number): void {
    this.release(o);
    o.status = status;
    o.updateTime = time;
    o.owner.open.delete(o.orderId);
    this.listener?.order(o, time);
    if (o.owner.name === HOUSE) return;
    this.closed.push(o.orderId);
    if (this.closed.length - this.closedHead > MAX_CLOSED_ORDERS) this.forgetOldest();
  }

  private forgetOldest(): void {
    const id = this.closed[this.closedHead]!;
    this.closedHead++;
    const o = this.orders.get(id);
    if (o !== undefined) {
      this.orders.delete(id);
      if (o.owner.byClientId.get(o.clientOrderId) === o) o.owner.byClientId.delete(o.clientOrderId);
    }
    if (this.closedHead > 65_536) {
      this.closed = this.closed.slice(this.closedHead);
      this.closedHead = 0;
    }
  }

  /** Moves base from seller to buyer and quote back, at the maker's price; returns the quote amount. */
  private fill(taker: Order, maker: Order, qty: bigint, price: bigint, time: number): bigint {
    const amount = mulFloor(qty, price);
    const buyer = taker.side === 'BUY' ? taker : maker;
    const seller = taker.side === 'BUY' ? maker : taker;
    const spec = taker.spec;
    const buyerQuote = buyer.owner.balance(spec.quoteAsset);
    if (buyer.type === 'LIMIT') {
      buyerQuote.locked -= amount;
      buyer.locked -= amount;
    } else buyerQuote.free -= amount;
    buyer.owner.balance(spec.baseAsset).free += qty;
    const sellerBase = seller.owner.balance(spec.baseAsset);
    if (seller.type === 'LIMIT') {
      sellerBase.locked -= qty;
      seller.locked -= qty;
    } else sellerBase.free -= qty;
    seller.owner.balance(spec.quoteAsset).free += amount;
    for (const o of [taker, maker]) {
      o.executedQty += qty;
      o.cummulativeQuoteQty += amount;
      o.updateTime = time;
    }
    const listener = this.listener;
    if (listener !== undefined) {
      listener.trade(taker, maker, qty, price, time);
      listener.book(spec);
      for (const account of [buyer.owner, seller.owner]) {
        listener.balance(account, spec.baseAsset, 'DEAL');
        listener.balance(account, spec.quoteAsset, 'DEAL');
      }
    }
    return amount;
  }

  /**
   * Takes from the opposite side while prices are within `limit`; sized by the taker's remaining
   * quantity, or by `budget` in the quote asset. True when the taker wants nothing more.
   */
  private match(taker: Order, limit: bigint | undefined, budget: bigint | undefined, time: number): boolean {
    const opposite = this.book(taker.spec).opposite(taker.side);
    const buying = taker.side === 'BUY';
    let left = budget;
    for (;;) {
      const level = opposite.levels[0];
      if (level === undefined) return false;
      if (limit !== undefined && pastLimit(taker.side, level.price, limit)) return false;
      let want: bigint;
      if (left === undefined) want = remaining(taker);
      else if (buying) want = divFloor(left, level.price);
      else want = divCeil(left, level.price);
      if (want <= 0n) return true;
      while (want > 0n && level.orders.length > 0) {
        const maker = level.orders[0]!;
        const r = remaining(maker);
        const qty = want < r ? want : r;
        const amount = this.fill(taker, maker, qty, level.price, time);
        want -= qty;
        if (left !== undefined) left -= amount;
        if (remaining(maker) === 0n) {
          level.orders.shift();
          this.close(maker, 'FILLED', time);
        } else {
          maker.status = 'PARTIALLY_FILLED';
          this.listener?.order(maker, time);
        }
      }
      if (level.orders.length === 0) opposite.levels.shift();
      if (left !== undefined ? left <= 0n : remaining(taker) === 0n) return true;
    }
  }

  /** Quantity resting on the opposite side at prices within `limit`, counted up to `enough`. */
  private available(spec: SymbolSpec, side: Side, limit: bigint, enough: bigint): bigint {
    let total = 0n;
    for (const level of this.book(spec).opposite(side).levels) {
      if (pastLimit(side, level.price, limit)) break;
      total += levelSize(level);
      if (total >= enough) break;
    }
    return total;
  }

  /** Upper bound of the quote a MARKET BUY of `qty` spends (per level rounding is never below the fills'). */
  private costOf(spec: SymbolSpec, qty: bigint): bigint {
    let left = qty;
    let cost = 0n;
    for (const level of this.book(spec).asks.levels) {
      const size = levelSize(level);
      const take = size < left ? size : left;
      cost += mulCeil(take, level.price);
      left -= take;
      if (left === 0n) break;
    }
    return cost;
  }

  /** Base a MARKET SELL needs to receive `budget` of the quote asset (or all the bids can give). */
  private baseFor(spec: SymbolSpec, budget: bigint): bigint {
    let left = budget;
    let need = 0n;
    for (const level of this.book(spec).bids.levels) {
      const size = levelSize(level);
      const amount = mulFloor(size, level.price);
      if (amount >= left) return need + divCeil(left, level.price);
      need += size;
      left -= amount;
    }
    return need;
  }

  private hasOpposite(spec: SymbolSpec, side: Side): boolean {
    return this.book(spec).opposite(side).levels.length > 0;
  }

  /** Places an order for `account`; `time` is the server time. */
  place(account: Account, req: NewOrder, time: number): Result<Order, Refusal> {
    if (account.open.size >= MAX_OPEN_ORDERS) {
      return refuse(30029, `The account holds ${MAX_OPEN_ORDERS} open orders; cancel some first.`);
    }
    if (req.clientOrderId !== undefined) {
      const previous = account.byClientId.get(req.clientOrderId);
      if (previous !== undefined && isOpen(previous)) {
        return refuse(
          33333,
          `newClientOrderId "${req.clientOrderId}" is already used by open order ${previous.orderId}; query that order instead of placing it again.`,
        );
      }
    }
    return req.type === 'LIMIT' ? this.placeLimit(account, req, time) : this.placeMarket(account, req, time);
  }

  private placeLimit(account: Account, req: NewOrder, time: number): Result<Order, Refusal> {
    const spec = req.spec;
    const qty = req.quantity!;
    const need = limitLock(req.side, qty, req.price);
    const balance = account.balance(lockedAsset(spec, req.side));
    const refusal = this.checkFree(req.side, balance, need, spec);
    if (refusal !== undefined) return err(refusal);
    const order = this.newOrder(account, req, time);
    this.register(order);
    if (req.timeInForce === 'FOK' && this.available(spec, req.side, req.price, qty) < qty) {
      this.close(order, 'EXPIRED', time);
      return ok(order);
    }
    this.lock(order, need);
    const done = this.match(order, req.price, undefined, time);
    if (done) this.close(order, 'FILLED', time);
    else if (req.timeInForce !== 'GTC') this.close(order, 'EXPIRED', time);
    else {
      this.rest(order);
      if (order.executedQty > 0n) {
        order.status = 'PARTIALLY_FILLED';
        this.listener?.order(order, time);
      }
    }
    return ok(order);
  }

  private placeMarket(account: Account, req: NewOrder, time: number): Result<Order, Refusal> {
    const spec = req.spec;
    // §7.2 30025: a MARKET order needs an order on the other side.
    if (!this.hasOpposite(spec, req.side)) {
      return refuse(
        30025,
        `The ${spec.symbol} book has no ${req.side === 'BUY' ? 'SELL' : 'BUY'} orders; place a LIMIT order that can rest instead.`,
      );
    }
    let need: bigint;
    if (req.side === 'BUY') need = req.quantity !== undefined ? this.costOf(spec, req.quantity) : req.quoteOrderQty!;
    else need = req.quantity !== undefined ? req.quantity : this.baseFor(spec, req.quoteOrderQty!);
    const balance = account.balance(lockedAsset(spec, req.side));
    const refusal = this.checkFree(req.side, balance, need, spec);
    if (refusal !== undefined) return err(refusal);
    const order = this.newOrder(account, req, time);
    this.register(order);
    const done = this.match(order, undefined, req.quoteOrderQty, time);
    if (req.quoteOrderQty !== undefined) order.origQty = order.executedQty;
    this.close(order, done && order.executedQty > 0n ? 'FILLED' : 'EXPIRED', time);
    return ok(order);
  }

  private checkFree(side: Side, balance: Balance, need: bigint, spec: SymbolSpec): Refusal | undefined {
    if (balance.free >= need) return undefined;
    // BUY spends the quote asset (10101 insufficient balance); SELL the base asset (30004 insufficient position).
    return side === 'BUY'
      ? { code: 10101, detail: `The order needs ${fmt(need)} ${spec.quoteAsset}; ${fmt(balance.free)} is free.` }
      : { code: 30004, detail: `The order sells ${fmt(need)} ${spec.baseAsset}; ${fmt(balance.free)} is free.` };
  }

  private register(o: Order): void {
    this.orders.set(o.orderId, o);
    o.owner.byClientId.set(o.clientOrderId, o);
    this.listener?.order(o, o.time);
  }

  /** The account's order on `spec` by orderId (preferred) or client order id. */
  find(
    account: Account,
    spec: SymbolSpec,
    orderId: string | undefined,
    clientOrderId: string | undefined,
  ): Order | undefined {
    const o = orderId !== undefined ? this.orders.get(orderId) : account.byClientId.get(clientOrderId ?? '');
    if (o === undefined || o.owner !== account || o.spec !== spec) return undefined;
    if (orderId !== undefined && clientOrderId !== undefined && o.clientOrderId !== clientOrderId) return undefined;
    return o;
  }

  cancel(order: Order, time: number): Result<Order, Refusal> {
    if (!isOpen(order))
      return refuse(-2011, `Order ${order.orderId} is ${order.status}; only open orders can be cancelled.`);
    this.book(order.spec).of(order.side).remove(order);
    this.listener?.book(order.spec);
    this.close(order, 'CANCELED', time);
    return ok(order);
  }

  openOrders(account: Account, spec: SymbolSpec): Order[] {
    const list: Order[] = [];
    for (const o of account.open.values()) if (o.spec === spec) list.push(o);
    return list;
  }
}

/** An amount for a message: "20", "0.5". */
function fmt(v: bigint): string {
  return formatUnits(v).replace(/\.?0+$/, '');
}
