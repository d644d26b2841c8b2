/**
 * The API endpoints of the sandbox with the shapes of service-notes.md. Parameters are checked
 * here (after authentication): missing or empty → 44444, malformed → 33333, characters outside
 * SAFE_CHARS → 700008, then the exchange's own conditions (symbols, volumes, balances, book).
 */
import { ENDPOINTS, findEndpoint, findParam } from '../core/catalog/endpoints';
import { LIMITS } from '../core/catalog/limits';
import type { KeyAccount } from './auth';
import { formatUnits, mulFloor, parseUnits } from './decimal';
import {
  MatchingEngine,
  Refusal,
  type NewOrder,
  type Order,
  type OrderType,
  type Side,
  type TimeInForce,
} from './engine';
import { ASSETS, SYMBOLS, SYMBOLS_BY_NAME, SYMBOL_FORMAT, SYMBOL_JSON, type SymbolSpec } from './market';
import { parseBatchOrders } from './batch';
import type { RequestParams } from './params';
import { LISTEN_KEY_FORMAT } from './ws/listen-keys';
import { EMPTY_OK, fail, ok, type Reply } from './replies';

export interface ApiRequest {
  readonly params: RequestParams;
  /** The authenticated key, for signed endpoints. */
  readonly key: KeyAccount | undefined;
  readonly serverTime: number;
}

export type Handler = (req: ApiRequest) => Reply;

/** The listen keys of the private streams, by account name (the server's, with its clock). */
export interface UserStreams {
  /** A new listen key, or undefined when the account holds the most it may. */
  open(account: string): string | undefined;
  keepAlive(account: string, listenKey: string): boolean;
  /** Closes the key and the connections that use it. */
  close(account: string, listenKey: string): boolean;
  readonly maxPerAccount: number;
}

type Values = Map<string, string>;

/** A parameter that must be sent with a value (44444 otherwise). */
function required(values: Values, name: string, why = ''): string | Reply {
  const v = values.get(name);
  if (v === undefined || v.length === 0) {
    return fail(44444, `Mandatory parameter "${name}" was ${v === undefined ? 'not sent' : 'sent empty'}${why}.`);
  }
  return v;
}

/** An optional parameter: absent is fine, sent empty is 44444 (an empty value is still signed and sent). */
function optional(values: Values, name: string): string | undefined | Reply {
  const v = values.get(name);
  if (v !== undefined && v.length === 0)
    return fail(44444, `Parameter "${name}" was sent empty; give it a value or leave it out.`);
  return v;
}

function isReply(v: unknown): v is Reply {
  return typeof v === 'object' && v !== null && 'body' in v;
}

/** Unknown but well formed → 10007 (bad symbol); not upper-case letters and digits → 30014 (invalid symbol). */
function lookupSymbol(text: string): SymbolSpec | Reply {
  const spec = SYMBOLS_BY_NAME.get(text);
  if (spec !== undefined) return spec;
  if (!SYMBOL_FORMAT.test(text)) {
    return fail(
      30014,
      `"${text}" is not a symbol name: symbols are upper-case letters with no separator, such as BTCUSDT (§2.1).`,
    );
  }
  return fail(10007, `The sandbox lists ${SYMBOLS.map((s) => s.symbol).join(', ')}; "${text}" is not one of them.`);
}

function symbolParam(values: Values): SymbolSpec | Reply {
  const text = required(values, 'symbol');
  return isReply(text) ? text : lookupSymbol(text);
}

function decimalParam(name: string, text: string): bigint | Reply {
  const v = parseUnits(text);
  if (v === undefined) {
    return fail(
      33333,
      `${name} must be a plain decimal number sent as text, such as 0.001, with at most 8 decimal places (§2.1); got "${text}".`,
    );
  }
  return v;
}

const orderEndpoint = findEndpoint('POST', '/api/v3/order');
/** Order types the catalog knows; those other than LIMIT and MARKET are refused with 30041. */
const CATALOG_TYPES: ReadonlySet<string> = new Set(
  (orderEndpoint && findParam(orderEndpoint, 'type')?.enumValues?.map((e) => e.value)) ?? ['LIMIT', 'MARKET'],
);
const CLIENT_ORDER_ID = /^[A-Za-z0-9]{1,32}$/;

function refused(r: Refusal): Reply {
  return fail(r.code, r.detail);
}

/** The order of a POST /api/v3/order(/test), checked against the symbol's limits. */
export function parseOrder(values: Values): NewOrder | Reply {
  const spec = symbolParam(values);
  if (isReply(spec)) return spec;
  const side = required(values, 'side');
  if (isReply(side)) return side;
  if (side !== 'BUY' && side !== 'SELL') return fail(33333, `side must be BUY or SELL, not "${side}".`);
  const type = required(values, 'type');
  if (isReply(type)) return type;
  if (type !== 'LIMIT' && type !== 'MARKET') {
    if (CATALOG_TYPES.has(type))
      return fail(30041, `The sandbox takes LIMIT and MARKET orders; ${type} is not offered for ${spec.symbol}.`);
    return fail(33333, `type must be LIMIT or MARKET, not "${type}".`);
  }
  const tif = optional(values, 'timeInForce');
  if (isReply(tif)) return tif;
  if (tif !== undefined && tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK')
    return fail(33333, `timeInForce must be GTC, IOC or FOK, not "${tif}".`);
  const clientOrderId = optional(values, 'newClientOrderId');
  if (isReply(clientOrderId)) return clientOrderId;
  if (clientOrderId !== undefined && !CLIENT_ORDER_ID.test(clientOrderId)) {
    return fail(33333, `newClientOrderId must be 1 to 32 letters and digits, not "${clientOrderId}".`);
  }

  let quantity: bigint | undefined;
  let quoteOrderQty: bigint | undefined;
  let price = 0n;
  if (type === 'LIMIT') {
    const q = required(values, 'quantity', ' (LIMIT orders need quantity and price)');
    if (isReply(q)) return q;
    const p = required(values, 'price', ' (LIMIT orders need quantity and price)');
    if (isReply(p)) return p;
    if (values.has('quoteOrderQty'))
      return fail(33333, 'quoteOrderQty is for MARKET orders; a LIMIT order takes quantity and price.');
    const qv = decimalParam('quantity', q);
    if (isReply(qv)) return qv;
    const pv = decimalParam('price', p);
    if (isReply(pv)) return pv;
    quantity = qv;
    price = pv;
  } else {
    const q = optional(values, 'quantity');
    if (isReply(q)) return q;
    const qq = optional(values, 'quoteOrderQty');
    if (isReply(qq)) return qq;
    if (q === undefined && qq === undefined) return fail(44444, 'A MARKET order needs quantity or quoteOrderQty.');
    if (q !== undefined && qq !== undefined)
      return fail(33333, 'A MARKET order takes quantity or quoteOrderQty, not both.');
    if (q !== undefined) {
      const qv = decimalParam('quantity', q);
      if (isReply(qv)) return qv;
      quantity = qv;
    } else {
      const qv = decimalParam('quoteOrderQty', qq!);
      if (isReply(qv)) return qv;
      quoteOrderQty = qv;
    }
  }

  if (quantity !== undefined) {
    if (quantity < spec.minQty)
      return fail(
        30002,
        `quantity ${formatUnits(quantity)} is below ${spec.symbol}'s minimum of ${formatUnits(spec.minQty)}.`,
      );
    if (quantity > spec.maxQty)
      return fail(
        30003,
        `quantity ${formatUnits(quantity)} is above ${spec.symbol}'s maximum of ${formatUnits(spec.maxQty)}.`,
      );
  }
  if (type === 'LIMIT') {
    if (price === 0n || price > spec.maxPrice) {
      return fail(30010, `price must be above 0 and at most ${formatUnits(spec.maxPrice)} for ${spec.symbol}.`);
    }
    const notional = mulFloor(quantity!, price);
    if (notional < spec.minNotional)
      return fail(
        30002,
        `quantity × price is ${formatUnits(notional)} ${spec.quoteAsset}, below the minimum of ${formatUnits(spec.minNotional)}.`,
      );
    if (notional > spec.maxNotional)
      return fail(
        30003,
        `quantity × price is ${formatUnits(notional)} ${spec.quoteAsset}, above the maximum of ${formatUnits(spec.maxNotional)}.`,
      );
  }
  if (quoteOrderQty !== undefined) {
    if (quoteOrderQty < spec.minNotional)
      return fail(
        30002,
        `quoteOrderQty is below ${spec.symbol}'s minimum of ${formatUnits(spec.minNotional)} ${spec.quoteAsset}.`,
      );
    if (quoteOrderQty > spec.maxNotional)
      return fail(
        30003,
        `quoteOrderQty is above ${spec.symbol}'s maximum of ${formatUnits(spec.maxNotional)} ${spec.quoteAsset}.`,
      );
  }
  return {
    spec,
    side: side satisfies Side,
    type: type satisfies OrderType,
    timeInForce: (tif ?? 'GTC') satisfies TimeInForce,
    quantity,
    quoteOrderQty,
    price,
    clientOrderId,
  };
}

function placedView(o: Order): string {
  return JSON.stringify({
    symbol: o.spec.symbol,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: o.clientOrderId,
    price: formatUnits(o.price),
    origQty: formatUnits(o.origQty),
    executedQty: formatUnits(o.executedQty),
    status: o.status,
    type: o.type,
    side: o.side,
    transactTime: o.time,
  });
}

function orderRecord(o: Order): Record<string, string | number | boolean> {
  return {
    symbol: o.spec.symbol,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: o.clientOrderId,
    price: formatUnits(o.price),
    origQty: formatUnits(o.origQty),
    executedQty: formatUnits(o.executedQty),
    cummulativeQuoteQty: formatUnits(o.cummulativeQuoteQty),
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    time: o.time,
    updateTime: o.updateTime,
    isWorking: o.status === 'NEW' || o.status === 'PARTIALLY_FILLED',
    origQuoteOrderQty: formatUnits(o.origQuoteOrderQty),
  };
}

/** The cancel answer of the family: the order record without its times, with origClientOrderId. */
function canceledView(o: Order): string {
  const {
    time: _time,
    updateTime: _updateTime,
    isWorking: _isWorking,
    origQuoteOrderQty: _quote,
    ...record
  } = orderRecord(o);
  return JSON.stringify({ symbol: record['symbol'], origClientOrderId: o.clientOrderId, ...record });
}

const RATE_LIMITS_JSON = JSON.stringify(
  Object.values(LIMITS.rate).map((r) => ({
    rateLimitType: 'REQUEST_WEIGHT',
    interval: 'SECOND',
    intervalNum: r.intervalMs / 1000,
    limit: r.limit,
    mode: r.mode.toUpperCase(),
  })),
);
const ALL_SYMBOLS_JSON = SYMBOLS.map((s) => SYMBOL_JSON.get(s.symbol)!).join(',');

function exchangeInfo(req: ApiRequest): Reply {
  const values = req.params.values;
  const one = optional(values, 'symbol');
  if (isReply(one)) return one;
  const many = optional(values, 'symbols');
  if (isReply(many)) return many;
  if (one !== undefined && many !== undefined) return fail(33333, 'Send symbol or symbols, not both.');
  let list = ALL_SYMBOLS_JSON;
  if (one !== undefined || many !== undefined) {
    const names = one !== undefined ? [one] : many!.split(',');
    const parts: string[] = [];
    for (const name of names) {
      const spec = lookupSymbol(name);
      if (isReply(spec)) return spec;
      parts.push(SYMBOL_JSON.get(spec.symbol)!);
    }
    list = parts.join(',');
  }
  return ok(
    `{"timezone":"UTC","serverTime":${req.serverTime},"rateLimits":${RATE_LIMITS_JSON},"exchangeFilters":[],"symbols":[${list}]}`,
  );
}

/** orderId or origClientOrderId; either sent empty counts as not sent (700004's "both were empty"). */
function findOrder(engine: MatchingEngine, req: ApiRequest): Order | Reply {
  const values = req.params.values;
  const spec = symbolParam(values);
  if (isReply(spec)) return spec;
  const orderId = values.get('orderId') || undefined;
  const clientOrderId = values.get('origClientOrderId') || undefined;
  if (orderId === undefined && clientOrderId === undefined) return fail(700004);
  if (orderId !== undefined && !/^\d{1,20}$/.test(orderId))
    return fail(30026, `orderId is the digits the order response gave, as text; got "${orderId}".`);
  const order = engine.find(engine.account(req.key!.name), spec, orderId, clientOrderId);
  if (order === undefined)
    return fail(
      -2011,
      `No order of this account on ${spec.symbol} with ${orderId !== undefined ? `orderId ${orderId}` : `origClientOrderId ${clientOrderId}`}.`,
    );
  return order;
}

/** POST /api/v3/batchOrders: each order of the list placed or refused on its own, answered in order. */
function batchOrders(engine: MatchingEngine, req: ApiRequest): Reply {
  const text = required(req.params.values, 'batchOrders');
  if (isReply(text)) return text;
  const items = parseBatchOrders(text);
  if (isReply(items)) return items;
  const account = engine.account(req.key!.name);
  const results = items.map((values) => {
    if (isReply(values)) return values.body;
    const order = parseOrder(values);
    if (isReply(order)) return order.body;
    const placed = engine.place(account, order, req.serverTime);
    return placed instanceof Refusal ? refused(placed).body : placedView(placed);
  });
  return ok('[' + results.join(',') + ']');
}

const LAPSED =
  'The listenKey is unknown, closed or lapsed (60 minutes after its last keep-alive); get one with POST /api/v3/userDataStream.';

function userDataStream(streams: UserStreams): Record<string, Handler> {
  // The key is a credential: refusals never repeat it.
  const withKey =
    (act: (account: string, listenKey: string) => boolean) =>
    (req: ApiRequest): Reply => {
      const listenKey = required(req.params.values, 'listenKey');
      if (isReply(listenKey)) return listenKey;
      if (!LISTEN_KEY_FORMAT.test(listenKey) || !act(req.key!.name, listenKey)) return fail(730002, LAPSED);
      return ok(JSON.stringify({ listenKey }));
    };
  return {
    'POST /api/v3/userDataStream': (req) => {
      const listenKey = streams.open(req.key!.name);
      if (listenKey === undefined)
        return fail(
          730002,
          `The account holds ${streams.maxPerAccount} listen keys; close one with DELETE /api/v3/userDataStream first.`,
        );
      return ok(JSON.stringify({ listenKey }));
    },
    'PUT /api/v3/userDataStream': withKey((account, key) => streams.keepAlive(account, key)),
    'DELETE /api/v3/userDataStream': withKey((account, key) => streams.close(account, key)),
  };
}

/** Handlers by "METHOD path", one for every endpoint of the catalog. */
export function createHandlers(engine: MatchingEngine, streams: UserStreams): ReadonlyMap<string, Handler> {
  const place =
    (test: boolean) =>
    (req: ApiRequest): Reply => {
      const order = parseOrder(req.params.values);
      if (isReply(order)) return order;
      // service-notes.md: order/test validates without placing and answers {}.
      if (test) return EMPTY_OK;
      const placed = engine.place(engine.account(req.key!.name), order, req.serverTime);
      return placed instanceof Refusal ? refused(placed) : ok(placedView(placed));
    };
  const handlers: Record<string, Handler> = {
    'GET /api/v3/ping': () => EMPTY_OK,
    'GET /api/v3/time': (req) => ok(`{"serverTime":${req.serverTime}}`),
    'GET /api/v3/exchangeInfo': exchangeInfo,
    'POST /api/v3/order': place(false),
    'POST /api/v3/order/test': place(true),
    'POST /api/v3/batchOrders': (req) => batchOrders(engine, req),
    ...userDataStream(streams),
    'GET /api/v3/order': (req) => {
      const order = findOrder(engine, req);
      return isReply(order) ? order : ok(JSON.stringify(orderRecord(order)));
    },
    'DELETE /api/v3/order': (req) => {
      const order = findOrder(engine, req);
      if (isReply(order)) return order;
      const done = engine.cancel(order, req.serverTime);
      return done instanceof Refusal ? refused(done) : ok(canceledView(done));
    },
    'GET /api/v3/openOrders': (req) => {
      const spec = symbolParam(req.params.values);
      if (isReply(spec)) return spec;
      return ok(JSON.stringify(engine.openOrders(engine.account(req.key!.name), spec).map(orderRecord)));
    },
    'GET /api/v3/account': (req) => {
      const key = req.key!;
      const account = engine.account(key.name);
      return ok(
        JSON.stringify({
          makerCommission: 0,
          takerCommission: 0,
          buyerCommission: 0,
          sellerCommission: 0,
          canTrade: key.permissions.has('trade'),
          canWithdraw: false,
          canDeposit: false,
          updateTime: req.serverTime,
          accountType: 'SPOT',
          balances: ASSETS.map((asset) => {
            const b = account.balance(asset);
            return { asset, free: formatUnits(b.free), locked: formatUnits(b.locked) };
          }),
          // The key's permissions: what decides 700007 in the sandbox (§5 rule 12 names none).
          permissions: [...key.permissions],
        }),
      );
    },
  };
  const map = new Map(Object.entries(handlers));
  for (const e of ENDPOINTS) {
    if (!map.has(`${e.method} ${e.path}`)) throw new Error(`the sandbox has no handler for ${e.method} ${e.path}`);
  }
  return map;
}
