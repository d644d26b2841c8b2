/**
 * `batchOrders` of POST /api/v3/batchOrders (assumed, the family's endpoint): a JSON list of 1 to
 * BATCH_ORDERS_MAX orders, each an object of the order's parameters as text or numbers, with what
 * its type needs (as POST /api/v3/order). Written as `batchOrders = [...]` or as a `[json]` member;
 * each problem is reported on the order it is about when the list is written as is.
 */
import { BATCH_ORDERS_MAX, findEndpoint } from '../catalog/endpoints';
import type { ParamInfo } from '../catalog/types';
import { range, type Param, type Range } from '../format/model';
import type { VariableScope } from '../format/variables';
import { t } from '../l10n';
import { answer, either, Findings } from './findings';
import { effectiveValue } from './values';

const EXAMPLE = '[{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","quantity":"0.001","price":"20000"}]';
const ORDER = findEndpoint('POST', '/api/v3/order')!;

/** The list as JSON text, and where an offset of it is in the file (undefined: not written as is). */
interface ListText {
  readonly text: string;
  readonly at?: (start: number, end: number) => Range;
}

export function checkOrderList(p: Param, info: ParamInfo, scope: VariableScope, out: Findings): void {
  const list = listText(p, scope);
  if (!list) return;
  const whole = p.value.range;
  const spot = (start: number, end: number): Range => list.at?.(start, end) ?? whole;
  let parsed: unknown;
  try {
    parsed = JSON.parse(list.text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const message = t(
      'batchOrders must be a JSON list of 1 to {0} orders, such as {1}; this is not valid JSON ({2}) (the service answers {3}).',
      maxOrders(info),
      EXAMPLE,
      why,
      answer(33333),
    );
    return out.add('batch-list', whole, message, { prevents: 33333 });
  }
  if (!Array.isArray(parsed)) {
    const message = t(
      'batchOrders must be a JSON list of 1 to {0} orders, such as {1}; this is not a list (the service answers {2}).',
      maxOrders(info),
      EXAMPLE,
      answer(33333),
    );
    return out.add('batch-list', whole, message, { prevents: 33333 });
  }
  const max = maxOrders(info);
  const items = itemSpans(list.text);
  if (parsed.length === 0 || parsed.length > max) {
    const at = parsed.length > max ? spot(items[max]![0], items[items.length - 1]![1]) : whole;
    const message = t(
      'batchOrders holds 1 to {0} orders; this one holds {1} (the service answers {2}). Split it into batches of {0}.',
      max,
      parsed.length,
      answer(730002),
    );
    out.add('batch-size', at, message, { prevents: 730002 });
  }
  parsed.slice(0, max).forEach((order, i) => checkOrder(order, i, spot(...items[i]!), info, out));
}

function maxOrders(info: ParamInfo): number {
  return info.maxItems ?? BATCH_ORDERS_MAX;
}

/** One order of the list: an object of known parameters as text or numbers, with what its type needs. */
function checkOrder(order: unknown, i: number, at: Range, info: ParamInfo, out: Findings): void {
  const n = i + 1;
  if (typeof order !== 'object' || order === null || Array.isArray(order)) {
    const message = t(
      'Order {0} of batchOrders is not an object of parameters (the service answers {1}).',
      n,
      answer(33333),
    );
    return out.add('batch-list', at, message, { prevents: 33333 });
  }
  const entries = Object.entries(order as Record<string, unknown>);
  const known = info.itemParams ?? [];
  for (const [name, value] of entries) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
      const message = t(
        '"{0}" of order {1} must be text or a number (the service answers {2}).',
        name,
        n,
        answer(33333),
      );
      out.add('batch-list', at, message, { prevents: 33333 });
    } else if (known.length > 0 && !known.some((k) => k.name === name)) {
      const message = t(
        '"{0}" of order {1} is not a parameter of an order; known: {2} (the service answers {3}).',
        name,
        n,
        known.map((k) => k.name).join(', '),
        answer(33333),
      );
      out.add('unknown-param', at, message, { prevents: 33333 });
    }
  }
  checkOrderNeeds(order as Record<string, unknown>, n, at, known, out);
}

/** What an order of the list needs: the order's required parameters, and those of its type. */
function checkOrderNeeds(
  order: Record<string, unknown>,
  n: number,
  at: Range,
  known: readonly ParamInfo[],
  out: Findings,
): void {
  const present = new Set(Object.keys(order));
  const missing = known.filter((k) => k.required && !present.has(k.name)).map((k) => `"${k.name}"`);
  const type = order['type'];
  const needs = ORDER.typeRequirements?.find((r) => r.type === type);
  for (const name of needs?.required ?? []) if (!present.has(name)) missing.push(`"${name}"`);
  for (const group of needs?.anyOf ?? []) if (!group.some((g) => present.has(g))) missing.push(either(group));
  if (missing.length === 0) return;
  const list = missing.join(', ');
  const message = needs
    ? t(
        'Order {0} of batchOrders is a {1} order and needs {2} (the service answers {3}).',
        n,
        String(type),
        list,
        answer(44444),
      )
    : t('Order {0} of batchOrders is an order and needs {1} (the service answers {2}).', n, list, answer(44444));
  out.add('missing-param', at, message, { prevents: 44444 });
}

/**
 * The list's JSON text. Written as is (a `batchOrders = [...]` line or a `[json]` member written as
 * a list), an offset of it maps to the file; a JSON string or a value through variables is checked whole.
 */
function listText(p: Param, scope: VariableScope): ListText | undefined {
  const v = effectiveValue(p, scope);
  if (!v) return undefined;
  if (p.origin === 'json' && p.quoted) {
    try {
      return { text: JSON.parse(`"${v.value}"`) as string };
    } catch {
      return { text: v.value };
    }
  }
  if (!v.literal) return { text: v.value };
  const token = p.value;
  return { text: v.value, at: (start, end) => range(...position(token, start), ...position(token, end)) };
}

/** The line and character of an offset of a token's text (a `[json]` member may span lines). */
function position(token: Param['value'], offset: number): [number, number] {
  const before = token.text.slice(0, offset);
  const newline = before.lastIndexOf('\n');
  if (newline < 0) return [token.range.startLine, token.range.startChar + offset];
  const lines = before.split('\n').length - 1;
  return [token.range.startLine + lines, offset - newline - 1];
}

/** [start, end) of each element of the JSON list `text` (valid JSON), without the white space around it. */
export function itemSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  let last = -1;
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if (inString) {
      if (c === '\\') k++;
      else if (c === '"') inString = false;
      last = k;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (depth === 1 && (c === ',' || c === ']')) {
      if (start >= 0) spans.push([start, last + 1]);
      start = -1;
    } else if (depth === 1 && start < 0) start = k;
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    last = k;
  }
  return spans;
}
