/** `METHOD TARGET [HTTP/x]`: the request line (docs/format.md, Lines), and the inline `?query` it may carry. */
import { t } from '../../l10n';
import { unknownMethodMessage } from '../messages';
import { METHODS, WS_METHOD, type Param, type Placement, type RequestLine, type Token } from '../model';
import type { Block } from './block-state';
import { scanRefs } from './refs';
import { CH_LBRACE, CH_SLASH, contentEnd, firstVisible, isSpace } from './source';

const METHOD_SET: ReadonlySet<string> = new Set([...METHODS, WS_METHOD]);

interface RequestLineParts {
  readonly methodEnd: number;
  readonly targetStart: number;
  readonly targetEnd: number;
  readonly versionStart: number;
  readonly versionEnd: number;
}

/** Reads the line as a request line when it is one; false when it is not. */
export function requestLine(b: Block, line: string, i: number, first: number): boolean {
  const parts = scanRequestLine(line, first);
  if (!parts) return false;
  if (b.requestLine) {
    const message = t('A second request line in one request: start a new request with a `###` line above it.');
    b.error(b.pos.range(i, first, i, line.length), message, 'second-request-line');
    return true;
  }
  b.requestLine = readRequestLine(b, parts, line, i, first);
  b.defaultPlacement = defaultPlacement(b.requestLine.method.text);
  return true;
}

/**
 * `METHOD TARGET [HTTP/x]`: a word of letters, white space, a target starting with `/`, `{{` or
 * `http(s)://` / `ws(s)://`, and optionally a version. Scanned by hand: it is tried on many lines.
 */
function scanRequestLine(line: string, first: number): RequestLineParts | undefined {
  let k = first;
  while (k < line.length) {
    const ch = line.charCodeAt(k) | 32;
    if (ch < 97 || ch > 122) break;
    k++;
  }
  const methodEnd = k;
  if (methodEnd === first || k >= line.length || !isSpace(line.charCodeAt(k))) return undefined;
  const targetStart = firstVisible(line, k);
  k = targetStart;
  while (k < line.length && !isSpace(line.charCodeAt(k))) k++;
  const targetEnd = k;
  if (!looksLikeTarget(line, targetStart)) return undefined;
  const versionStart = firstVisible(line, k);
  k = versionStart;
  while (k < line.length && !isSpace(line.charCodeAt(k))) k++;
  const versionEnd = k;
  if (firstVisible(line, k) < line.length) return undefined;
  if (versionEnd > versionStart && !/^HTTP\/[\d.]+$/.test(line.slice(versionStart, versionEnd))) return undefined;
  return { methodEnd, targetStart, targetEnd, versionStart, versionEnd };
}

function looksLikeTarget(line: string, start: number): boolean {
  const c0 = line.charCodeAt(start);
  if (c0 === CH_SLASH || (c0 === CH_LBRACE && line.charCodeAt(start + 1) === CH_LBRACE)) return true;
  return /^(https?|wss?):\/\//i.test(line.slice(start, start + 8));
}

function readRequestLine(b: Block, parts: RequestLineParts, line: string, i: number, first: number): RequestLine {
  const methodText = line.slice(first, parts.methodEnd);
  const method = b.pos.token(methodText, i, first);
  const targetText = line.slice(parts.targetStart, parts.targetEnd);
  const target = b.pos.token(targetText, i, parts.targetStart);
  checkMethod(b, method);
  const q = targetText.indexOf('?');
  const path = q < 0 ? target : b.pos.token(targetText.slice(0, q), i, parts.targetStart);
  let query: Token | undefined;
  if (q >= 0) {
    query = b.pos.token(targetText.slice(q + 1), i, parts.targetStart + q + 1);
    // A WebSocket target keeps its query as written (e.g. ?listenKey is TradeReq's business, not a parameter).
    if (methodText.toUpperCase() !== WS_METHOD) readInlineQuery(b, query, b.params);
  }
  const hasVersion = parts.versionEnd > parts.versionStart;
  const version = hasVersion
    ? b.pos.token(line.slice(parts.versionStart, parts.versionEnd), i, parts.versionStart)
    : undefined;
  scanRefs(b, line, i, parts.targetStart, parts.targetEnd, b.refs);
  return { range: b.pos.range(i, first, i, contentEnd(line)), method, target, path, query, version };
}

function checkMethod(b: Block, method: Token): void {
  if (METHOD_SET.has(method.text)) return;
  const upper = method.text.toUpperCase();
  if (METHOD_SET.has(upper)) {
    const fix = { title: t('Change to {0}', upper), replacement: upper };
    b.report({
      range: method.range,
      severity: 'error',
      message: t('Write the method in capitals: {0}.', upper),
      rule: 'method-case',
      fix,
    });
  } else {
    b.error(method.range, unknownMethodMessage(method.text), 'unknown-method');
  }
}

/** GET and DELETE parameters go in the query string, POST and PUT in the form body (docs/format.md). */
export function defaultPlacement(method: string): Placement {
  const m = method.toUpperCase();
  return m === 'POST' || m === 'PUT' ? 'body' : 'query';
}

/** `?a=1&b=2` on the request line: `[query]` parameters, written percent-encoded as in a URL. */
function readInlineQuery(b: Block, query: Token, params: Param[]): void {
  const line = query.range.startLine - b.pos.delta;
  let start = query.range.startChar;
  for (const part of query.text.split('&')) {
    if (part.length > 0) params.push(inlineParam(b, part, line, start));
    start += part.length + 1;
  }
}

function inlineParam(b: Block, part: string, line: number, start: number): Param {
  const eq = part.indexOf('=');
  const rawName = eq < 0 ? part : part.slice(0, eq);
  const rawValue = eq < 0 ? '' : part.slice(eq + 1);
  const valueStart = eq < 0 ? start + part.length : start + eq + 1;
  if (eq < 0) {
    const message = t('"{0}" has no "=": it is sent as {0}= with an empty value, which is signed too.', rawName);
    b.error(b.pos.range(line, start, line, start + rawName.length), message, 'empty-value', 'warning');
  }
  return {
    // A decoded text keeps the range of what is written (percent-encoded, so maybe longer).
    name: { text: percentDecode(rawName), range: b.pos.range(line, start, line, start + rawName.length) },
    value: { text: percentDecode(rawValue), range: b.pos.range(line, valueStart, line, valueStart + rawValue.length) },
    placement: 'query',
    origin: 'inline',
    range: b.pos.range(line, start, line, start + part.length),
  };
}

/** Decodes `%XX` sequences; a malformed sequence is kept as written. */
export function percentDecode(s: string): string {
  if (s.indexOf('%') < 0) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x80 ? String.fromCharCode(code) : m;
    });
  }
}
