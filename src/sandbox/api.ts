/**
 * The API endpoints of the sandbox with the shapes of docs/service.md, Assumptions. Parameters are checked
 * here (after authentication): missing or empty → 44444, malformed → 33333, characters outside
 * SAFE_CHARS → 700008, then the exchange's own conditions (symbols, volumes, balances, book).
 */
import { ENDPOINTS } from '../core/catalog/endpoints';
import { LIMITS } from '../core/catalog/limits';
import type { KeyAccount } from './auth';
import { formatUnits } from './decimal';
import { isOpen, type MatchingEngine, type Order, type Refusal } from './engine';
import { ASSETS, SYMBOLS, SYMBOL_JSON } from './market';
import { lookupSymbol, optional, parseOrder, required, symbolParam } from './order-params';
import { parseBatchOrders } from './batch';
import type { RequestParams } from './params';
import type { ListenKeyRules } from '../core/catalog/deployment';
import { listenKeyLapsed } from './ws/listen-keys';
import { EMPTY_OK, fail, ok, refusal, value, type Answer, type Reply } from './replies';

interface ApiRequest {
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
  /** The account's live keys. */
  live(account: string): string[];
  /** Whether a key has the deployment's form. */
  wellFormed(listenKey: string): boolean;
  keepAlive(account: string, listenKey: string): boolean;
  /** Closes the key and the connections that use it. */
  close(account: string, listenKey: string): boolean;
  readonly rules: ListenKeyRules;
}

function refused(r: Refusal): Reply {
  return fail(r.code, r.detail);
}

/** The answers that show an order: a new order's, a query's (and open orders'), a cancel's. */
type OrderView = 'placed' | 'queried' | 'canceled';

const ALL: readonly OrderView[] = ['placed', 'queried', 'canceled'];
// Fields of the record that the cancel answer keeps and the new order's answer does not show.
const RECORD: readonly OrderView[] = ['queried', 'canceled'];

type OrderField = readonly [name: string, read: (o: Order) => string | number | boolean, views: readonly OrderView[]];

/**
 * Every field of an order's answers, in the order they are sent, with the answers that show it
 * (docs/service.md, Assumptions: the cancel answer is the record with origClientOrderId and
 * without its last four fields; the new order's a part of it, with transactTime).
 */
const ORDER_FIELDS: readonly OrderField[] = [
  ['symbol', (o) => o.spec.symbol, ALL],
  ['origClientOrderId', (o) => o.clientOrderId, ['canceled']],
  ['orderId', (o) => o.orderId, ALL],
  ['orderListId', () => -1, ALL],
  ['clientOrderId', (o) => o.clientOrderId, ALL],
  ['price', (o) => formatUnits(o.price), ALL],
  ['origQty', (o) => formatUnits(o.origQty), ALL],
  ['executedQty', (o) => formatUnits(o.executedQty), ALL],
  ['cummulativeQuoteQty', (o) => formatUnits(o.cummulativeQuoteQty), RECORD],
  ['status', (o) => o.status, ALL],
  ['timeInForce', (o) => o.timeInForce, RECORD],
  ['type', (o) => o.type, ALL],
  ['side', (o) => o.side, ALL],
  ['transactTime', (o) => o.time, ['placed']],
  ['time', (o) => o.time, ['queried']],
  ['updateTime', (o) => o.updateTime, ['queried']],
  ['isWorking', (o) => isOpen(o), ['queried']],
  ['origQuoteOrderQty', (o) => formatUnits(o.origQuoteOrderQty), ['queried']],
];

const FIELDS_OF = new Map(ALL.map((a) => [a, ORDER_FIELDS.filter(([, , views]) => views.includes(a))]));

/** The order as the answer `view` shows it, as JSON text. */
function orderView(o: Order, view: OrderView): string {
  const shown: Record<string, string | number | boolean> = {};
  for (const [name, read] of FIELDS_OF.get(view)!) shown[name] = read(o);
  return JSON.stringify(shown);
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
  if (!one.ok) return one.error;
  const many = optional(values, 'symbols');
  if (!many.ok) return many.error;
  if (one.value !== undefined && many.value !== undefined) return fail(33333, 'Send symbol or symbols, not both.');
  let list = ALL_SYMBOLS_JSON;
  if (one.value !== undefined || many.value !== undefined) {
    const names = one.value !== undefined ? [one.value] : many.value!.split(',');
    const parts: string[] = [];
    for (const name of names) {
      const spec = lookupSymbol(name);
      if (!spec.ok) return spec.error;
      parts.push(SYMBOL_JSON.get(spec.value.symbol)!);
    }
    list = parts.join(',');
  }
  return ok(
    `{"timezone":"UTC","serverTime":${req.serverTime},"rateLimits":${RATE_LIMITS_JSON},"exchangeFilters":[],"symbols":[${list}]}`,
  );
}

/** orderId or origClientOrderId; either sent empty counts as not sent (700004's "both were empty"). */
function findOrder(engine: MatchingEngine, req: ApiRequest): Answer<Order> {
  const values = req.params.values;
  const spec = symbolParam(values);
  if (!spec.ok) return spec;
  const orderId = values.get('orderId') || undefined;
  const clientOrderId = values.get('origClientOrderId') || undefined;
  if (orderId === undefined && clientOrderId === undefined) return refusal(700004);
  if (orderId !== undefined && !/^\d{1,20}$/.test(orderId))
    return refusal(30026, `orderId is the digits the order response gave, as text; got "${orderId}".`);
  const order = engine.find(engine.account(req.key!.name), spec.value, orderId, clientOrderId);
  if (order !== undefined) return value(order);
  const which = orderId !== undefined ? `orderId ${orderId}` : `origClientOrderId ${clientOrderId}`;
  return refusal(-2011, `No order of this account on ${spec.value.symbol} with ${which}.`);
}

/** POST /api/v3/batchOrders: each order of the list placed or refused on its own, answered in order. */
function batchOrders(engine: MatchingEngine, req: ApiRequest): Reply {
  const text = required(req.params.values, 'batchOrders');
  if (!text.ok) return text.error;
  const items = parseBatchOrders(text.value);
  if (!items.ok) return items.error;
  const account = engine.account(req.key!.name);
  const results = items.value.map((values) => {
    if (!values.ok) return values.error.body;
    const order = parseOrder(values.value);
    if (!order.ok) return order.error.body;
    const placed = engine.place(account, order.value, req.serverTime);
    return placed.ok ? orderView(placed.value, 'placed') : refused(placed.error).body;
  });
  return ok('[' + results.join(',') + ']');
}

function userDataStream(streams: UserStreams): Record<string, Handler> {
  // The key is a credential: refusals never repeat it.
  const withKey =
    (act: (account: string, listenKey: string) => boolean) =>
    (req: ApiRequest): Reply => {
      const listenKey = required(req.params.values, 'listenKey');
      if (!listenKey.ok) return listenKey.error;
      if (!streams.wellFormed(listenKey.value) || !act(req.key!.name, listenKey.value))
        return fail(730002, listenKeyLapsed(streams.rules));
      return ok(JSON.stringify({ listenKey: listenKey.value }));
    };
  return {
    'POST /api/v3/userDataStream': (req) => {
      const listenKey = streams.open(req.key!.name);
      if (listenKey === undefined)
        return fail(
          730002,
          `The account holds ${streams.rules.maxPerAccount} listen keys; close one with DELETE /api/v3/userDataStream first.`,
        );
      return ok(JSON.stringify({ listenKey }));
    },
    // The deployment documents it (mexc), the spec does not: played where the deployment's catalog has it.
    'GET /api/v3/userDataStream': (req) => ok(JSON.stringify({ listenKey: streams.live(req.key!.name) })),
    'PUT /api/v3/userDataStream': withKey((account, key) => streams.keepAlive(account, key)),
    'DELETE /api/v3/userDataStream': withKey((account, key) => streams.close(account, key)),
  };
}

/** GET /api/v3/account: balances, and the key's permissions (what decides 700007 in the sandbox). */
function account(engine: MatchingEngine, req: ApiRequest): Reply {
  const key = req.key!;
  const held = engine.account(key.name);
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
        const b = held.balance(asset);
        return { asset, free: formatUnits(b.free), locked: formatUnits(b.locked) };
      }),
      // §5 rule 12 names no permissions; these are the sandbox's.
      permissions: [...key.permissions],
    }),
  );
}

/** Handlers by "METHOD path", one for every endpoint of the catalog. */
export function createHandlers(engine: MatchingEngine, streams: UserStreams): ReadonlyMap<string, Handler> {
  const place =
    (test: boolean) =>
    (req: ApiRequest): Reply => {
      const order = parseOrder(req.params.values);
      if (!order.ok) return order.error;
      // docs/service.md, Assumptions: order/test validates without placing and answers {}.
      if (test) return EMPTY_OK;
      const placed = engine.place(engine.account(req.key!.name), order.value, req.serverTime);
      return placed.ok ? ok(orderView(placed.value, 'placed')) : refused(placed.error);
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
      return order.ok ? ok(orderView(order.value, 'queried')) : order.error;
    },
    'DELETE /api/v3/order': (req) => {
      const order = findOrder(engine, req);
      if (!order.ok) return order.error;
      const done = engine.cancel(order.value, req.serverTime);
      return done.ok ? ok(orderView(done.value, 'canceled')) : refused(done.error);
    },
    'GET /api/v3/openOrders': (req) => {
      const spec = symbolParam(req.params.values);
      if (!spec.ok) return spec.error;
      const open = engine.openOrders(engine.account(req.key!.name), spec.value);
      return ok('[' + open.map((o) => orderView(o, 'queried')).join(',') + ']');
    },
    'GET /api/v3/account': (req) => account(engine, req),
  };
  const map = new Map(Object.entries(handlers));
  for (const e of ENDPOINTS) {
    if (!map.has(`${e.method} ${e.path}`)) throw new Error(`the sandbox has no handler for ${e.method} ${e.path}`);
  }
  return map;
}
