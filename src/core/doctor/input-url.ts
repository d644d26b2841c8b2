/**
 * A URL with its method and body: `POST https://host/api/v3/order?a=1` and the body after it on the
 * same line or the next ones (headers between, as a .http file writes them, then a blank line), a bare
 * URL, or a log line: `POST https://... body={"symbol":"BTCUSDT"}`, `data=...`.
 */
import { looksLikeForm } from '../convert/common';
import {
  HTTP_METHODS,
  InputError,
  bodyLines,
  headerLine,
  lineAround,
  lineFrom,
  serviceMethod,
  splitUrl,
  type Found,
  type Line,
} from './input-common';
import type { SentHeader } from './types';

interface UrlAt {
  readonly line: Line;
  /** [start, end) of the URL in its line. */
  readonly start: number;
  readonly end: number;
  readonly method?: string;
  /** Where the request starts in its line: its method, else its URL. */
  readonly from: number;
}

/** The URL starting at `start` of its line's text, with the method written before it. */
function urlAt(line: Line, start: number): UrlAt {
  const text = line.text;
  let end = start;
  while (end < text.length && !' \t"\'<>`'.includes(text[end]!)) end++;
  let wordEnd = start;
  while (wordEnd > 0 && ' \t'.includes(text[wordEnd - 1]!)) wordEnd--;
  let wordStart = wordEnd;
  while (wordStart > 0 && /[A-Za-z]/.test(text[wordStart - 1]!)) wordStart--;
  const word = text.slice(wordStart, wordEnd);
  const method = wordEnd > wordStart && HTTP_METHODS.has(word.toUpperCase()) ? word : undefined;
  return { line, start, end, ...(method !== undefined ? { method } : {}), from: method ? wordStart : start };
}

/** The first http:// or https:// URL of each line that has one. */
function urlsIn(text: string): UrlAt[] {
  const found: UrlAt[] = [];
  for (let at = text.indexOf('http'); at >= 0;) {
    const url = text.startsWith('http://', at) || text.startsWith('https://', at);
    if (!url || (at > 0 && /[A-Za-z0-9]/.test(text[at - 1]!))) {
      at = text.indexOf('http', at + 4);
      continue;
    }
    const line = lineAround(text, at);
    found.push(urlAt(line, at - line.start));
    at = text.indexOf('http', line.next);
  }
  return found;
}

/** Where a JSON value starting at 0 ends (after its closing bracket), strings skipped; text.length if it does not. */
function jsonEnd(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return text.length;
}

interface Value {
  readonly value: string;
  /** Where it ends in the text it was read from. */
  readonly end: number;
}

/** The value at `at`: a quoted string's inside, a JSON value, or the text up to a space. */
function valueAt(text: string, at: number): Value {
  const q = text[at];
  if (q === '"' || q === "'") {
    const close = text.indexOf(q, at + 1);
    const end = close < 0 ? text.length : close;
    return { value: text.slice(at + 1, end), end: end + 1 };
  }
  const rest = text.slice(at);
  const length = q === '{' || q === '[' ? jsonEnd(rest) : rest.search(/\s/);
  const end = length < 0 ? text.length : at + length;
  return { value: text.slice(at, end), end };
}

const NO_BODY: Value = { value: '', end: 0 };

/** A body written after the URL on its line: labelled `body=`, `data:` (a log's), a JSON value or a form. */
function bodyOnLine(tail: string): Value {
  const at = tail.length - tail.replace(/^[\s'",;)}\]]+/, '').length;
  const label = /^["']?(?:body|data|payload)["']?\s{0,4}([=:])\s{0,4}/i.exec(tail.slice(at));
  if (label) {
    const start = at + label[0].length;
    const found = valueAt(tail, start);
    // `data=x&y=1` is a form body with a parameter named data; `data=symbol=X&...` is labelled.
    const first = found.value.split('&', 1)[0]!;
    if (label[1] === ':' || /['"{[]/.test(tail[start] ?? '') || first.includes('=')) return found;
  }
  const found = valueAt(tail, at);
  return '{['.includes(tail[at] ?? ' ') || looksLikeForm(found.value) ? found : NO_BODY;
}

/** Headers on the lines from `start` (a .http file's), then the body after a blank line; else the body at once. */
function bodyBelow(text: string, start: number): { headers: SentHeader[]; body: string; end: number } {
  const headers: SentHeader[] = [];
  let line = lineFrom(text, start);
  for (let h = headerLine(line?.text ?? ''); line !== undefined && h !== undefined; h = headerLine(line?.text ?? '')) {
    headers.push(h);
    line = lineFrom(text, line.next);
  }
  if (line === undefined) return { headers, body: '', end: text.length };
  if (headers.length === 0) return { headers, ...bodyLines(text, line.start) };
  // After headers, a blank line comes before the body; without one, what follows is not the request's.
  return line.text.trim() === '' ? { headers, ...bodyLines(text, line.next) } : { headers, body: '', end: line.start };
}

function onlyOne(urls: readonly UrlAt[]): UrlAt | undefined {
  const withMethod = urls.filter((u) => u.method !== undefined);
  const candidates = withMethod.length > 0 ? withMethod : urls;
  if (candidates.length > 1)
    throw new InputError(
      `the text holds ${candidates.length} URLs${withMethod.length > 0 ? ' with a method' : ''}: paste the one request that was rejected`,
    );
  return candidates[0];
}

/** The URL-and-body request in `text`, or undefined when it holds no http(s) URL. */
export function findUrl(text: string): Found | undefined {
  const at = onlyOne(urlsIn(text));
  if (at === undefined) return undefined;
  const line = at.line;
  const { url, query } = splitUrl(line.text.slice(at.start, at.end));
  const sameLine = bodyOnLine(line.text.slice(at.end));
  // A log line's next lines are the log's; a line that starts with the request may have its body below.
  const below =
    sameLine.value === '' && line.text.slice(0, at.from).trim() === '' ? bodyBelow(text, line.next) : undefined;
  const body = below?.body ?? sameLine.value;
  const method = serviceMethod(at.method ?? (body.length > 0 ? 'POST' : 'GET'));
  const request = { method, url, query, body, headers: below?.headers ?? [], form: 'url' as const };
  const end = below?.end ?? line.start + at.end + sameLine.end;
  return { request, before: text.slice(0, line.start + at.from), after: text.slice(end) };
}
