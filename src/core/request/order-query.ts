/**
 * "Query the order" after an unknown outcome: the ids come from the request file and the server's
 * answer, so they are accepted only in their documented shape, and the query is built as data
 * (a request model), never as request text that an id with a line break could add lines to.
 */
import type { TradeReqDocument } from '../format/model';
import { knownRequestDocument } from '../format/known-request';
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

/** GET /api/v3/order at `origin` for `ref` (origClientOrderId when known, else orderId), as a one-request document. */
export function orderQueryDocument(origin: string, ref: OrderRef, title: string): TradeReqDocument | undefined {
  const base = normaliseOrigin(origin);
  const valid = validOrderRef(ref);
  if (!base || !valid) return undefined;
  const id: [string, string] = valid.origClientOrderId
    ? ['origClientOrderId', valid.origClientOrderId]
    : ['orderId', valid.orderId!];
  return knownRequestDocument({
    method: 'GET',
    target: `${base}/api/v3/order`,
    title,
    query: [['symbol', valid.symbol], id],
  });
}
