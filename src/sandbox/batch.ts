/**
 * The list of POST /api/v3/batchOrders (assumed, the family's endpoint): `batchOrders` is a JSON
 * list of 1 to BATCH_ORDERS_MAX order objects, each with the order's parameters as strings or
 * numbers. A list that cannot be read is refused whole (33333, or 730002 for its size); each
 * order that can be read is then placed or refused on its own.
 */
import { BATCH_ORDERS_MAX } from '../core/catalog/endpoints';
import { SAFE_CHARS } from './params';
import { refusal, value, type Answer } from './replies';

/** One order of the list: its parameters as text, or why it cannot be read (its own refusal). */
type BatchItem = Answer<Map<string, string>>;

const EXAMPLE = '[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"0.001","price":"20000"}]';

function item(raw: unknown, index: number): BatchItem {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return refusal(33333, `Order ${index + 1} of batchOrders is not an object of parameters.`);
  const values = new Map<string, string>();
  for (const [name, v] of Object.entries(raw)) {
    let text: string;
    if (typeof v === 'string') text = v;
    else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
    else return refusal(33333, `"${name}" of order ${index + 1} must be a string or a number.`);
    // The same characters as a parameter of its own (700008), as each order is one.
    if (!SAFE_CHARS.test(name) || !SAFE_CHARS.test(text))
      return refusal(
        700008,
        `"${SAFE_CHARS.test(name) ? name : 'a name'}" of order ${index + 1} holds a character outside letters, digits and . _ - ,.`,
      );
    values.set(name, text);
  }
  return value(values);
}

/** The orders of a batchOrders value, or the refusal of the whole request. */
export function parseBatchOrders(text: string): Answer<BatchItem[]> {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return refusal(33333, `batchOrders must be a JSON list of orders, such as ${EXAMPLE}; it is not valid JSON.`);
  }
  if (!Array.isArray(list))
    return refusal(33333, `batchOrders must be a JSON list of orders, such as ${EXAMPLE}; it is not a list.`);
  if (list.length === 0 || list.length > BATCH_ORDERS_MAX)
    return refusal(730002, `batchOrders holds 1 to ${BATCH_ORDERS_MAX} orders; this one holds ${list.length}.`);
  return value(list.map((v, i) => item(v, i)));
}
