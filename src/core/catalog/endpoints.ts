/**
 * Endpoints and their parameters. The order endpoint and its parameters are documented by the
 * service (§2.1, §4.2); the rest comes from the API family (docs/service.md, Assumptions) and is marked assumed.
 */
import { LIMITS } from './limits';
import type { EndpointInfo, EnumValueInfo, ParamInfo, Source, TypeRequirement, UndocumentedPaths } from './types';

const RECV = LIMITS.recvWindow;

function param(p: ParamInfo): ParamInfo {
  return p;
}

export const symbol = param({
  name: 'symbol',
  type: 'symbol',
  description: 'Trading pair name, e.g. BTCUSDT.',
  rule: 'upper-case letters',
  required: true,
  source: 'spec',
});

const sideValues: EnumValueInfo[] = [
  { value: 'BUY', description: 'Buy the base asset.', source: 'spec' },
  { value: 'SELL', description: 'Sell the base asset.', source: 'assumed' },
];

const typeValues: EnumValueInfo[] = [
  { value: 'LIMIT', description: 'Rests in the book at `price`; needs quantity and price.', source: 'spec' },
  {
    value: 'MARKET',
    description: 'Fills at the best available prices; needs quantity or quoteOrderQty.',
    source: 'assumed',
  },
  {
    value: 'LIMIT_MAKER',
    description: 'A limit order that is rejected if it would trade at once; needs quantity and price.',
    source: 'assumed',
  },
  {
    value: 'IMMEDIATE_OR_CANCEL',
    description: 'Fills what it can at `price` at once and cancels the rest; needs quantity and price.',
    source: 'assumed',
  },
  {
    value: 'FILL_OR_KILL',
    description: 'Fills completely at `price` at once, or not at all; needs quantity and price.',
    source: 'assumed',
  },
];

const recvWindow = param({
  name: 'recvWindow',
  type: 'integer',
  description:
    'Validity window of the request in milliseconds: it is processed only when serverTime − timestamp ≤ recvWindow (§5 rule 9).',
  rule: `integer, default ${RECV.defaultMs}, ${RECV.recommendedMaxMs} or less recommended, maximum ${RECV.maxMs}`,
  required: false,
  defaultValue: String(RECV.defaultMs),
  source: 'spec',
});

const timestamp = param({
  name: 'timestamp',
  type: 'timestampMs',
  description:
    'Unix time in milliseconds when the request was created and sent. TradeReq adds it when the request does not write one.',
  rule: 'milliseconds; less than serverTime + 1000',
  required: true,
  addedBySigner: true,
  source: 'spec',
});

const signature = param({
  name: 'signature',
  type: 'signature',
  description:
    'Lower-case hex HMAC-SHA256 of totalParams with the secret key. TradeReq computes and adds it: never write it by hand.',
  rule: '64 lower-case hexadecimal characters',
  required: true,
  addedBySigner: true,
  source: 'spec',
});

export const signedParams = [recvWindow, timestamp, signature];

export const orderParams: ParamInfo[] = [
  symbol,
  param({
    name: 'side',
    type: 'enum',
    description: 'Order direction.',
    rule: 'BUY or SELL',
    required: true,
    enumValues: sideValues,
    source: 'spec',
  }),
  param({
    name: 'type',
    type: 'enum',
    description: 'Order type.',
    rule: 'LIMIT, MARKET, …',
    required: true,
    enumValues: typeValues,
    source: 'spec',
  }),
  param({
    name: 'quantity',
    type: 'decimal',
    description: 'Order quantity in the base asset.',
    rule: 'decimal number sent as text, e.g. 0.001',
    required: false,
    source: 'spec',
  }),
  param({
    name: 'price',
    type: 'decimal',
    description: 'Limit price in the quote asset.',
    rule: 'decimal number sent as text, e.g. 30000.5',
    required: false,
    source: 'spec',
  }),
  param({
    name: 'quoteOrderQty',
    type: 'decimal',
    description: 'For MARKET orders: amount to spend or receive in the quote asset, instead of quantity.',
    rule: 'decimal number sent as text',
    required: false,
    source: 'assumed',
  }),
  param({
    name: 'newClientOrderId',
    type: 'clientOrderId',
    description:
      'Your own id for the order, to find it again (e.g. after an unknown outcome). {{$clientOrderId}} makes a fresh one.',
    rule: 'at most 32 characters of A-Z a-z 0-9',
    required: false,
    source: 'assumed',
  }),
  param({
    name: 'timeInForce',
    type: 'enum',
    description: 'How long a limit order stays active (seen in the published signing examples).',
    rule: 'GTC, IOC or FOK',
    required: false,
    enumValues: [
      { value: 'GTC', description: 'Good till cancelled.', source: 'assumed' },
      { value: 'IOC', description: 'Immediate or cancel.', source: 'assumed' },
      { value: 'FOK', description: 'Fill or kill.', source: 'assumed' },
    ],
    source: 'assumed',
  }),
  ...signedParams,
];

export const typeRequirements: TypeRequirement[] = [
  { type: 'LIMIT', required: ['quantity', 'price'], source: 'assumed' },
  { type: 'MARKET', required: [], anyOf: [['quantity', 'quoteOrderQty']], source: 'assumed' },
  { type: 'LIMIT_MAKER', required: ['quantity', 'price'], source: 'assumed' },
  { type: 'IMMEDIATE_OR_CANCEL', required: ['quantity', 'price'], source: 'assumed' },
  { type: 'FILL_OR_KILL', required: ['quantity', 'price'], source: 'assumed' },
];

export const orderIdParams: ParamInfo[] = [
  symbol,
  param({
    name: 'orderId',
    type: 'string',
    description: 'The id the service gave the order.',
    required: false,
    source: 'spec',
  }),
  param({
    name: 'origClientOrderId',
    type: 'clientOrderId',
    description: 'The client order id sent as newClientOrderId when the order was placed.',
    required: false,
    source: 'spec',
  }),
  ...signedParams,
];

/** Orders one batch may hold (the family's limit; the spec shows no batch endpoint). */
export const BATCH_ORDERS_MAX = 20;

/** The parameters of one order inside a batch: the order's own, without those of the request. */
const batchItemParams: ParamInfo[] = orderParams.filter((p) => !signedParams.includes(p));

export const batchOrders = param({
  name: 'batchOrders',
  type: 'orderList',
  description: `A JSON list of up to ${BATCH_ORDERS_MAX} orders, each an object with the order's parameters (symbol, side, type, quantity, price, …). Each order is placed or refused on its own. Its brackets, braces, quotes, colons and commas are percent-encoded with upper-case hex when signed and sent (§5 rule 6).`,
  rule: `JSON list of 1 to ${BATCH_ORDERS_MAX} order objects, e.g. [{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"0.001","price":"20000"}]`,
  required: true,
  maxItems: BATCH_ORDERS_MAX,
  itemParams: batchItemParams,
  source: 'assumed',
});

export const listenKey = param({
  name: 'listenKey',
  type: 'listenKey',
  description:
    'The key POST /api/v3/userDataStream gave. A credential, like the API key: never written in a file or shared.',
  rule: '64 hexadecimal characters',
  required: true,
  source: 'assumed',
});

function assumed(e: Omit<EndpointInfo, 'source' | 'weightSource'>): EndpointInfo {
  return { ...e, source: 'assumed', weightSource: 'assumed' };
}

export const ENDPOINTS: readonly EndpointInfo[] = [
  assumed({
    method: 'GET',
    path: '/api/v3/ping',
    title: 'Ping',
    description: 'Tests connectivity; answers {}.',
    signed: false,
    mode: 'ip',
    weight: 1,
    params: [],
  }),
  assumed({
    method: 'GET',
    path: '/api/v3/time',
    title: 'Server time',
    description: 'The server time as {"serverTime": ms}; TradeReq uses it to measure the clock offset.',
    signed: false,
    mode: 'ip',
    weight: 1,
    params: [],
  }),
  assumed({
    method: 'GET',
    path: '/api/v3/exchangeInfo',
    title: 'Exchange information',
    description: 'Symbols, their status and order types.',
    signed: false,
    mode: 'ip',
    weight: 10,
    params: [
      { ...symbol, required: false, source: 'assumed' },
      param({
        name: 'symbols',
        type: 'symbols',
        description: 'Several symbols, comma-separated (encoded as %2C when sent).',
        rule: 'upper-case symbols separated by commas',
        required: false,
        source: 'assumed',
      }),
    ],
  }),
  {
    method: 'POST',
    path: '/api/v3/order',
    title: 'Place an order',
    description:
      'Places an order (spec §4.2). Parameters may go in the body, in the query string, or split between both.',
    signed: true,
    mode: 'uid',
    weight: 1,
    weightSource: 'assumed',
    params: orderParams,
    typeRequirements,
    permission: 'trade',
    source: 'spec',
  },
  assumed({
    method: 'POST',
    path: '/api/v3/order/test',
    title: 'Test an order',
    description: 'Validates an order like POST /api/v3/order without placing it; answers {}.',
    signed: true,
    mode: 'uid',
    weight: 1,
    params: orderParams,
    typeRequirements,
    permission: 'trade',
  }),
  assumed({
    method: 'GET',
    path: '/api/v3/order',
    title: 'Query an order',
    description: 'One order by orderId or origClientOrderId.',
    signed: true,
    mode: 'uid',
    weight: 2,
    params: orderIdParams,
    anyOf: [['orderId', 'origClientOrderId']],
    permission: 'read',
  }),
  assumed({
    method: 'DELETE',
    path: '/api/v3/order',
    title: 'Cancel an order',
    description: 'Cancels one order by orderId or origClientOrderId (neither: 700004).',
    signed: true,
    mode: 'uid',
    weight: 1,
    params: orderIdParams,
    anyOf: [['orderId', 'origClientOrderId']],
    permission: 'trade',
  }),
  assumed({
    method: 'GET',
    path: '/api/v3/openOrders',
    title: 'Open orders',
    description: 'Open orders of a symbol.',
    signed: true,
    mode: 'uid',
    weight: 3,
    params: [{ ...symbol, source: 'assumed' }, ...signedParams],
    permission: 'read',
  }),
  assumed({
    method: 'GET',
    path: '/api/v3/account',
    title: 'Account',
    description: 'Balances and permissions of the account.',
    signed: true,
    mode: 'uid',
    weight: 10,
    params: signedParams,
    permission: 'read',
  }),
  assumed({
    method: 'POST',
    path: '/api/v3/batchOrders',
    title: 'Place a batch of orders',
    description: `Places up to ${BATCH_ORDERS_MAX} orders in one request; the answer lists, in order, each order's result or its error {"code", "msg"}. Special characters of the list are percent-encoded with upper-case hex when signing (§5 rule 6).`,
    signed: true,
    mode: 'uid',
    weight: 1,
    params: [batchOrders, ...signedParams],
    permission: 'trade',
  }),
  assumed({
    method: 'POST',
    path: '/api/v3/userDataStream',
    title: 'Open a listen key',
    description:
      'Returns {"listenKey": "..."} for the private WebSocket streams (connect to /ws?listenKey=...); it lapses 60 minutes after the last keep-alive.',
    signed: true,
    mode: 'uid',
    weight: 1,
    params: signedParams,
    permission: 'read',
  }),
  assumed({
    method: 'PUT',
    path: '/api/v3/userDataStream',
    title: 'Keep a listen key alive',
    description: 'Extends the listen key by 60 minutes from now; answers {"listenKey": "..."}.',
    signed: true,
    mode: 'uid',
    weight: 1,
    params: [listenKey, ...signedParams],
    permission: 'read',
  }),
  assumed({
    method: 'DELETE',
    path: '/api/v3/userDataStream',
    title: 'Close a listen key',
    description: 'Closes the listen key; the connections that use it are closed.',
    signed: true,
    mode: 'uid',
    weight: 1,
    params: [listenKey, ...signedParams],
    permission: 'read',
  }),
];

/**
 * One deployment's endpoints, looked up by method and path (docs/websocket.md, "Deployments"): built
 * once per deployment (catalog/endpoint-catalogs.ts endpointCatalogOf), read by the check step, completion,
 * hover, resolve and the doctor.
 */
export class EndpointCatalog {
  private readonly byKey: ReadonlyMap<string, EndpointInfo>;
  /** Known paths, each once, for completion. */
  readonly paths: readonly string[];

  constructor(
    readonly endpoints: readonly EndpointInfo[],
    private readonly undocumentedPaths: readonly UndocumentedPaths[] = [],
  ) {
    this.byKey = new Map(endpoints.map((e) => [e.method + ' ' + e.path, e]));
    this.paths = [...new Set(endpoints.map((e) => e.path))];
  }

  find(method: string, path: string): EndpointInfo | undefined {
    return this.byKey.get(method.toUpperCase() + ' ' + normalisePath(path));
  }

  /** Endpoints with this path, whatever the method (to tell "wrong method" from "unknown path"). */
  atPath(path: string): EndpointInfo[] {
    const p = normalisePath(path);
    return this.endpoints.filter((e) => e.path === p);
  }

  /** Why the deployment's documentation leaves `path` out, when it says (a withdrawn or separate API). */
  undocumented(path: string): UndocumentedPaths | undefined {
    const p = normalisePath(path);
    return this.undocumentedPaths.find((u) => p.startsWith(u.prefix));
  }
}

/** The published spec's endpoints: the default, and what the sandbox plays. */
export const SPEC_ENDPOINTS = new EndpointCatalog(ENDPOINTS);

export function findEndpoint(method: string, path: string): EndpointInfo | undefined {
  return SPEC_ENDPOINTS.find(method, path);
}

/** The weight a request to `endpoint` counts: its own, or the other one when the parameter it depends on is not sent. */
export function endpointWeight(endpoint: EndpointInfo, sent: (name: string) => boolean): number {
  const without = endpoint.weightWithout;
  return without && !sent(without.param) ? without.weight : endpoint.weight;
}

export function findParam(endpoint: EndpointInfo, name: string): ParamInfo | undefined {
  return endpoint.params.find((p) => p.name === name);
}

/** Known paths, each once, for completion. */
export const KNOWN_PATHS: readonly string[] = SPEC_ENDPOINTS.paths;

function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** "documented by the service" or "assumed", as hover and diagnostics say it. */
export function describeSource(source: Source): string {
  return source === 'spec' ? 'documented by the service' : 'assumed (not documented by the service)';
}

/** Endpoints whose values §5 rule 6 says are percent-encoded strictly, upper-case hex (batch operations). */
export function isBatchEndpoint(endpoint: EndpointInfo): boolean {
  return endpoint.params.some((p) => p.type === 'orderList');
}

/** The API key format the sandbox enforces (700001); the spec does not show one. */
export const API_KEY_FORMAT = /^[A-Za-z0-9]{16,64}$/;
