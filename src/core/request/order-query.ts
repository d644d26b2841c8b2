/**
 * "Query the order" after an unknown outcome: the ids come from the request file and the server's
 * answer, so they are accepted only in their documented shape, and the query is built as data
 * (a request model), never as request text that an id with a line break could add lines to.
 */
import { lineToken, range, type Param, type RequestBlock, type TradeReqDocument } from '../format/model';
import { CLIENT_ORDER_ID_FORMAT, ORDER_ID_FORMAT, SYMBOL_FORMAT } from '../catalog/formats';
import { normaliseOrigin } from './origin-binding';

export interface OrderRef {
  readonly symbol: string;
  readonly orderId?: string;
  readonly origClientOrderId?: string;
}

/** `ref` when every id in it has its documented shape and one of the two ids is there; else undefined. */
export function validOrderRef(ref: {
  symbol?: unknown;
  orderId?: unknown;
  origClientOrderId?: unknown;
}): OrderRef | undefined {
  const text = (v: unknown): string | undefined =>
    typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  const symbol = text(ref.symbol);
  const orderId = text(ref.orderId);
  const origClientOrderId = text(ref.origClientOrderId);
  if (symbol === undefined || !SYMBOL_FORMAT.test(symbol)) return undefined;
  if (orderId !== undefined && !ORDER_ID_FORMAT.test(orderId)) return undefined;
  if (origClientOrderId !== undefined && !CLIENT_ORDER_ID_FORMAT.test(origClientOrderId)) return undefined;
  if (orderId === undefined && origClientOrderId === undefined) return undefined;
  return { symbol, orderId, origClientOrderId };
}

function param(name: string, value: string, line: number): Param {
  const n = lineToken(name, line, 0);
  return {
    name: n,
    value: lineToken(value, line, name.length + 3),
    placement: 'query',
    origin: 'section',
    range: range(line, 0, line, name.length + 3 + value.length),
  };
}

/** GET /api/v3/order at `origin` for `ref` (origClientOrderId when known, else orderId), as a one-request document. */
export function orderQueryDocument(origin: string, ref: OrderRef, title: string): TradeReqDocument | undefined {
  const base = normaliseOrigin(origin);
  const valid = validOrderRef(ref);
  if (!base || !valid) return undefined;
  const url = `${base}/api/v3/order`;
  const id: [string, string] = valid.origClientOrderId
    ? ['origClientOrderId', valid.origClientOrderId]
    : ['orderId', valid.orderId!];
  const target = lineToken(url, 1, 4);
  const request: RequestBlock = {
    index: 0,
    range: range(0, 0, 3, 0),
    title: lineToken(title, 0, 4),
    directives: [],
    requestLine: { range: range(1, 0, 1, 4 + url.length), method: lineToken('GET', 1, 0), target, path: target },
    headers: [],
    sections: [],
    params: [param('symbol', valid.symbol, 2), param(id[0], id[1], 3)],
    variableRefs: [],
    streams: [],
    messages: [],
  };
  return {
    lineCount: 4,
    variables: [],
    fileDirectives: [],
    requests: [request],
    comments: [],
    variableRefs: [],
    diagnostics: [],
    separatorLines: [],
  };
}
