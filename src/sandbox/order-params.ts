/**
 * Reading an order's parameters (POST /api/v3/order, order/test, each order of a batch): missing
 * or empty → 44444, malformed → 33333, then the symbol's own limits (30002, 30003, 30010).
 * Every step answers a value or the refusal that ends the request.
 */
import { findEndpoint, findParam } from '../core/catalog/endpoints';
import { CLIENT_ORDER_ID_FORMAT, SYMBOL_FORMAT } from '../core/catalog/formats';
import { formatUnits, mulFloor, parseUnits } from './decimal';
import type { NewOrder, OrderType, Side, TimeInForce } from './engine';
import { SYMBOLS, SYMBOLS_BY_NAME, type SymbolSpec } from './market';
import { refusal, value, type Answer } from './replies';

type Values = ReadonlyMap<string, string>;

/** A parameter that must be sent with a value (44444 otherwise). */
export function required(values: Values, name: string, why = ''): Answer<string> {
  const v = values.get(name);
  if (v === undefined || v.length === 0) {
    return refusal(44444, `Mandatory parameter "${name}" was ${v === undefined ? 'not sent' : 'sent empty'}${why}.`);
  }
  return value(v);
}

/** An optional parameter: absent is fine, sent empty is 44444 (an empty value is still signed and sent). */
export function optional(values: Values, name: string): Answer<string | undefined> {
  const v = values.get(name);
  if (v !== undefined && v.length === 0)
    return refusal(44444, `Parameter "${name}" was sent empty; give it a value or leave it out.`);
  return value(v);
}

/** Unknown but well formed → 10007 (bad symbol); not upper-case letters and digits → 30014 (invalid symbol). */
export function lookupSymbol(text: string): Answer<SymbolSpec> {
  const spec = SYMBOLS_BY_NAME.get(text);
  if (spec !== undefined) return value(spec);
  if (!SYMBOL_FORMAT.test(text)) {
    return refusal(
      30014,
      `"${text}" is not a symbol name: symbols are upper-case letters with no separator, such as BTCUSDT (§2.1).`,
    );
  }
  return refusal(10007, `The sandbox lists ${SYMBOLS.map((s) => s.symbol).join(', ')}; "${text}" is not one of them.`);
}

export function symbolParam(values: Values): Answer<SymbolSpec> {
  const text = required(values, 'symbol');
  return text.ok ? lookupSymbol(text.value) : text;
}

function decimalParam(name: string, text: string): Answer<bigint> {
  const v = parseUnits(text);
  if (v !== undefined) return value(v);
  return refusal(
    33333,
    `${name} must be a plain decimal number sent as text, such as 0.001, with at most 8 decimal places (§2.1); got "${text}".`,
  );
}

const orderEndpoint = findEndpoint('POST', '/api/v3/order');
/** Order types the catalog knows; those other than LIMIT and MARKET are refused with 30041. */
const CATALOG_TYPES: ReadonlySet<string> = new Set(
  (orderEndpoint && findParam(orderEndpoint, 'type')?.enumValues?.map((e) => e.value)) ?? ['LIMIT', 'MARKET'],
);

/** The order of a POST /api/v3/order(/test), checked against the symbol's limits. */
export function parseOrder(values: Values): Answer<NewOrder> {
  const spec = symbolParam(values);
  if (!spec.ok) return spec;
  const kind = orderKind(values, spec.value);
  if (!kind.ok) return kind;
  const size = kind.value.type === 'LIMIT' ? limitSize(values) : marketSize(values);
  if (!size.ok) return size;
  const limits = checkLimits(spec.value, kind.value.type, size.value);
  if (!limits.ok) return limits;
  return value({ spec: spec.value, ...kind.value, ...size.value });
}

type Kind = Pick<NewOrder, 'side' | 'type' | 'timeInForce' | 'clientOrderId'>;
type Size = Pick<NewOrder, 'quantity' | 'quoteOrderQty' | 'price'>;

/** side, type, timeInForce and newClientOrderId. */
function orderKind(values: Values, spec: SymbolSpec): Answer<Kind> {
  const side = required(values, 'side');
  if (!side.ok) return side;
  if (side.value !== 'BUY' && side.value !== 'SELL')
    return refusal(33333, `side must be BUY or SELL, not "${side.value}".`);
  const type = required(values, 'type');
  if (!type.ok) return type;
  if (type.value !== 'LIMIT' && type.value !== 'MARKET') {
    if (CATALOG_TYPES.has(type.value))
      return refusal(
        30041,
        `The sandbox takes LIMIT and MARKET orders; ${type.value} is not offered for ${spec.symbol}.`,
      );
    return refusal(33333, `type must be LIMIT or MARKET, not "${type.value}".`);
  }
  const tif = optional(values, 'timeInForce');
  if (!tif.ok) return tif;
  if (tif.value !== undefined && tif.value !== 'GTC' && tif.value !== 'IOC' && tif.value !== 'FOK') {
    return refusal(33333, `timeInForce must be GTC, IOC or FOK, not "${tif.value}".`);
  }
  const clientOrderId = optional(values, 'newClientOrderId');
  if (!clientOrderId.ok) return clientOrderId;
  if (clientOrderId.value !== undefined && !CLIENT_ORDER_ID_FORMAT.test(clientOrderId.value)) {
    return refusal(33333, `newClientOrderId must be 1 to 32 letters and digits, not "${clientOrderId.value}".`);
  }
  const side2: Side = side.value;
  const type2: OrderType = type.value;
  const timeInForce: TimeInForce = tif.value ?? 'GTC';
  return value({ side: side2, type: type2, timeInForce, clientOrderId: clientOrderId.value });
}

/** A LIMIT order: quantity and price, and no quoteOrderQty. */
function limitSize(values: Values): Answer<Size> {
  const why = ' (LIMIT orders need quantity and price)';
  const q = required(values, 'quantity', why);
  if (!q.ok) return q;
  const p = required(values, 'price', why);
  if (!p.ok) return p;
  if (values.has('quoteOrderQty'))
    return refusal(33333, 'quoteOrderQty is for MARKET orders; a LIMIT order takes quantity and price.');
  const quantity = decimalParam('quantity', q.value);
  if (!quantity.ok) return quantity;
  const price = decimalParam('price', p.value);
  if (!price.ok) return price;
  return value({ quantity: quantity.value, price: price.value });
}

/** A MARKET order: quantity or quoteOrderQty, not both. */
function marketSize(values: Values): Answer<Size> {
  const q = optional(values, 'quantity');
  if (!q.ok) return q;
  const qq = optional(values, 'quoteOrderQty');
  if (!qq.ok) return qq;
  if (q.value === undefined && qq.value === undefined)
    return refusal(44444, 'A MARKET order needs quantity or quoteOrderQty.');
  if (q.value !== undefined && qq.value !== undefined)
    return refusal(33333, 'A MARKET order takes quantity or quoteOrderQty, not both.');
  if (q.value !== undefined) {
    const quantity = decimalParam('quantity', q.value);
    return quantity.ok ? value({ quantity: quantity.value, price: 0n }) : quantity;
  }
  const quote = decimalParam('quoteOrderQty', qq.value!);
  return quote.ok ? value({ quoteOrderQty: quote.value, price: 0n }) : quote;
}

/** The symbol's limits: quantity (30002, 30003), price (30010), notional (30002, 30003). */
function checkLimits(spec: SymbolSpec, type: OrderType, size: Size): Answer<void> {
  const { quantity, quoteOrderQty, price } = size;
  const u = formatUnits;
  if (quantity !== undefined && quantity < spec.minQty)
    return refusal(30002, `quantity ${u(quantity)} is below ${spec.symbol}'s minimum of ${u(spec.minQty)}.`);
  if (quantity !== undefined && quantity > spec.maxQty)
    return refusal(30003, `quantity ${u(quantity)} is above ${spec.symbol}'s maximum of ${u(spec.maxQty)}.`);
  if (type === 'LIMIT') {
    if (price === 0n || price > spec.maxPrice)
      return refusal(30010, `price must be above 0 and at most ${u(spec.maxPrice)} for ${spec.symbol}.`);
    const notional = mulFloor(quantity!, price);
    if (notional < spec.minNotional)
      return refusal(
        30002,
        `quantity × price is ${u(notional)} ${spec.quoteAsset}, below the minimum of ${u(spec.minNotional)}.`,
      );
    if (notional > spec.maxNotional)
      return refusal(
        30003,
        `quantity × price is ${u(notional)} ${spec.quoteAsset}, above the maximum of ${u(spec.maxNotional)}.`,
      );
  }
  if (quoteOrderQty !== undefined) {
    if (quoteOrderQty < spec.minNotional)
      return refusal(
        30002,
        `quoteOrderQty is below ${spec.symbol}'s minimum of ${u(spec.minNotional)} ${spec.quoteAsset}.`,
      );
    if (quoteOrderQty > spec.maxNotional)
      return refusal(
        30003,
        `quoteOrderQty is above ${spec.symbol}'s maximum of ${u(spec.maxNotional)} ${spec.quoteAsset}.`,
      );
  }
  return value(undefined);
}
