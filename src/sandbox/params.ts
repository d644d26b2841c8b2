/**
 * Request parameters as the service reads them (§4.1 rules 2-5, §5 rules 2-4): from the raw query
 * string and the raw body (form, or JSON with Content-Type application/json), values
 * percent-decoded, the query string's value used when a name is in both. totalParams is the raw
 * query string followed directly by the raw body, the signature pair taken out of either.
 */
import { isJsonBody, jsonWithoutSignature, withoutPair } from '../core/signing/total-params';
import { refusal, value, type Answer } from './replies';

/**
 * Characters a decoded parameter name or value may hold; anything else is 700008. Symbols and
 * enums need letters, decimals digits and ".", symbol lists ",", client order ids "-" and "_".
 */
export const SAFE_CHARS = /^[A-Za-z0-9._,-]*$/;

export interface RequestParams {
  /** Effective values; the query string's where a name is in both places (§4.1 rule 5). */
  readonly values: Map<string, string>;
  /** The first name whose name or value holds a character outside SAFE_CHARS (700008). */
  readonly illegal: string | undefined;
  /** Raw query string without the signature pair, followed by the raw body without it (§5 rule 4). */
  readonly totalParams: string;
  /** The percent-encoded part of totalParams: the query string and a form body, not a JSON body (§5 rule 6). */
  readonly encodedParams: string;
}

const JSON_CONTENT_TYPE = /^\s*application\/json\s*(;|$)/i;

function decode(text: string): string {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' '));
  } catch {
    // A broken escape stays as sent; its "%" then fails the character check (700008).
    return text;
  }
}

interface Collector {
  readonly values: Map<string, string>;
  illegal: string | undefined;
  /** Names whose values are JSON text (a batch's list): their characters are checked item by item. */
  readonly free: ReadonlySet<string>;
}

function checkChars(out: Collector, name: string, value: string): void {
  if (out.illegal !== undefined) return;
  if (!SAFE_CHARS.test(name) || (!out.free.has(name) && !SAFE_CHARS.test(value))) out.illegal = name;
}

/** Adds `name=value` pairs to `out`; returns `raw` without its signature pair, or a 33333 reply. */
function parseForm(raw: string, fromBody: boolean, out: Collector): Answer<string> {
  let bodyNames: Set<string> | undefined;
  let sigStart = -1;
  let sigEnd = -1;
  let start = 0;
  const length = raw.length;
  while (start < length) {
    let end = raw.indexOf('&', start);
    if (end === -1) end = length;
    if (end > start) {
      const eq = raw.indexOf('=', start);
      const hasValue = eq !== -1 && eq < end;
      const name = decode(raw.slice(start, hasValue ? eq : end));
      const value = hasValue ? decode(raw.slice(eq + 1, end)) : '';
      checkChars(out, name, value);
      if (fromBody) {
        bodyNames ??= new Set();
        if (bodyNames.has(name)) return duplicate(name, 'body');
        bodyNames.add(name);
        // §4.1 rule 5: the query string's value wins.
        if (!out.values.has(name)) out.values.set(name, value);
      } else {
        if (out.values.has(name)) return duplicate(name, 'query string');
        out.values.set(name, value);
      }
      if (name === 'signature') {
        sigStart = start;
        sigEnd = end;
      }
    }
    start = end + 1;
  }
  if (sigStart === -1) return value(raw);
  // The pair goes with the "&" that joined it to its neighbour (§5 rule 4: "without the signature parameter").
  return value(withoutPair(raw, sigStart, sigEnd));
}

function duplicate(name: string, place: string): Answer<never> {
  return refusal(
    33333,
    `"${name}" is sent twice in the ${place}; send each parameter once (the query string's value wins only over the body's, §4.1 rule 5).`,
  );
}

/**
 * How deep a list of orders nests: the list, each order, and one more so that an order holding a
 * list is refused alone, as in a form body (batch.ts). Deeper is refused whole before JSON.stringify,
 * which recurses, writes it out again.
 */
const ORDER_LIST_DEPTH = 3;

/** Whether `value` nests deeper than `max` arrays and objects, walked without recursion. */
function nestsDeeper(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function parseJson(raw: string, out: Collector): Answer<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return refusal(33333, 'The body is not valid JSON; send one JSON object with string or number values.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return refusal(33333, 'The JSON body must be one object of parameters, such as {"symbol": "BTCUSDT"}.');
  }
  for (const [name, v] of Object.entries(parsed)) {
    let text: string;
    if (typeof v === 'string') text = v;
    else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') text = String(v);
    else if (v === null) text = '';
    // A batch's list may be written as a JSON list in a JSON body, not only as text; written out again, within its depth.
    else if (out.free.has(name) && Array.isArray(v)) {
      if (nestsDeeper(v, ORDER_LIST_DEPTH))
        return refusal(
          33333,
          `The JSON value of "${name}" nests deeper than a list of orders, each an object of parameters.`,
        );
      text = JSON.stringify(v);
    } else return refusal(33333, `The JSON value of "${name}" must be a string or a number, not an object or array.`);
    checkChars(out, name, text);
    if (!out.values.has(name)) out.values.set(name, text);
  }
  if (!Object.prototype.hasOwnProperty.call(parsed, 'signature')) return value(raw);
  const stripped = jsonWithoutSignature(raw);
  if (stripped === undefined) {
    return refusal(
      33333,
      'Write the signature once, as "signature": "<hex>" in the JSON body, or better in the query string.',
    );
  }
  return value(stripped);
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The parameters of a request, or a 33333 reply when the request cannot be read at all. The
 * values of `jsonValued` names (a batch's list) are not held to SAFE_CHARS: their items are.
 */
export function parseParams(
  method: string,
  rawQuery: string,
  body: string,
  contentType: string | undefined,
  jsonValued: ReadonlySet<string> = NONE,
): Answer<RequestParams> {
  const out: Collector = { values: new Map(), illegal: undefined, free: jsonValued };
  const query = rawQuery.length > 0 ? parseForm(rawQuery, false, out) : value('');
  if (!query.ok) return query;
  const bodyPart = parseBody(method, body, contentType, out);
  if (!bodyPart.ok) return bodyPart;
  const { text, form } = bodyPart.value;
  return value({
    values: out.values,
    illegal: out.illegal,
    totalParams: query.value + text,
    encodedParams: form ? query.value + text : query.value,
  });
}

/** The body without its signature pair, and whether it is a form (percent-encoded) body. */
function parseBody(
  method: string,
  body: string,
  contentType: string | undefined,
  out: Collector,
): Answer<{ text: string; form: boolean }> {
  if (body.length === 0) return value({ text: '', form: true });
  if (method === 'GET')
    return refusal(33333, 'A GET request takes its parameters in the query string only, not in a body (§4.1 rule 2).');
  if (isJsonBody(body)) {
    if (contentType === undefined || !JSON_CONTENT_TYPE.test(contentType))
      return refusal(33333, 'A JSON body needs the header Content-Type: application/json (§4.1 rule 3).');
    const r = parseJson(body, out);
    return r.ok ? value({ text: r.value, form: false }) : r;
  }
  // §4.1 rule 7 names application/json for every request, so a form body is read whatever the type says.
  const r = parseForm(body, true, out);
  return r.ok ? value({ text: r.value, form: true }) : r;
}
