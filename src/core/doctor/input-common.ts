/**
 * What the doctor's readers of a sent request share: the found request, its text's lines, the URL
 * split as sent, the method rule and the body's end. Every scan is one pass with indexOf: the text
 * is hostile.
 */
import { isLoopbackOrigin } from '../env/demo';
import type { SentHeader, SentRequest } from './types';

/** Input the doctor cannot read: one line saying what to paste instead; never a header value or a body. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** A request found in the text, with the text around it (where an answer's code may be). */
export interface Found {
  readonly request: Omit<SentRequest, 'code'>;
  readonly before: string;
  readonly after: string;
}

/** One line of the text: [start, end) its content (without "\r\n" or "\n"), `next` where the next line starts. */
export interface Line {
  readonly start: number;
  readonly end: number;
  readonly next: number;
  readonly text: string;
}

/** The line that starts at `start`; undefined past the text's end. */
export function lineFrom(text: string, start: number): Line | undefined {
  if (start > text.length) return undefined;
  let next = text.indexOf('\n', start);
  if (next < 0) next = text.length;
  const end = next > start && text[next - 1] === '\r' ? next - 1 : next;
  return { start, end, next: next + 1, text: text.slice(start, end) };
}

/** The line that holds the character at `at`. */
export function lineAround(text: string, at: number): Line {
  return lineFrom(text, at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1)!;
}

/** docs/service.md §4.1 rule 1. */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** The method upper-case, when the service takes it. */
export function serviceMethod(written: string): string {
  const method = written.toUpperCase();
  if (METHODS.includes(method)) return method;
  const shown = /^[A-Z]{1,10}$/.test(method) ? method : 'this method';
  throw new InputError(
    `the service takes GET, POST, PUT and DELETE (docs/service.md §4.1 rule 1), not ${shown}: paste a request your program sent to the service`,
  );
}

/** HTTP's methods, as a log line may write one before its URL (the service takes fewer: serviceMethod). */
export const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

const DEFAULT_PORT: Record<string, string> = { http: ':80', https: ':443' };

/** The first index of any of `chars` in `s` from `from`, or s.length. */
function firstOf(s: string, chars: string, from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i]!)) return i;
  return s.length;
}

/**
 * An absolute URL as sent: `url` is the scheme and host (lower-case, without a default port or a
 * user name) and the path as written; `query` the query string exactly as written. `scheme` stands in
 * when the URL has none (cURL's http).
 */
export function splitUrl(raw: string, scheme?: string): { url: string; query: string } {
  const mark = raw.indexOf('://');
  const hasScheme = mark > 0 && /^[A-Za-z][A-Za-z0-9+.-]*$/.test(raw.slice(0, mark));
  const protocol = hasScheme ? raw.slice(0, mark).toLowerCase() : scheme;
  const rest = hasScheme ? raw.slice(mark + 3) : raw;
  const hostEnd = firstOf(rest, '/?#', 0);
  let host = rest.slice(rest.lastIndexOf('@', hostEnd) + 1, hostEnd).toLowerCase();
  if (protocol === undefined || DEFAULT_PORT[protocol] === undefined || host.length === 0 || /\s/.test(raw))
    throw new InputError(
      'the request names no http:// or https:// URL with a host: paste the full URL, e.g. https://api.example.com/api/v3/order?...',
    );
  if (host.endsWith(DEFAULT_PORT[protocol])) host = host.slice(0, -DEFAULT_PORT[protocol].length);
  const hash = rest.indexOf('#', hostEnd);
  const cut = hash < 0 ? rest.length : hash;
  const mark2 = rest.indexOf('?', hostEnd);
  const q = mark2 >= 0 && mark2 < cut ? mark2 : cut;
  const path = rest.slice(hostEnd, q);
  return { url: `${protocol}://${host}${path.length > 0 ? path : '/'}`, query: rest.slice(q + 1, cut) };
}

/** A Host header's value as an origin: https, but http on loopback (where the sandbox listens). */
export function originOfHost(host: string): string {
  return `${isLoopbackOrigin(`http://${host}`) ? 'http' : 'https'}://${host}`;
}

/** A header line `Name: value` (the name an HTTP token), or undefined. */
export function headerLine(line: string): SentHeader | undefined {
  const colon = line.indexOf(':');
  if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(line.slice(0, colon))) return undefined;
  return { name: line.slice(0, colon), value: line.slice(colon + 1).trim() };
}

/** A line where an answer starts: a status line, curl -v's `<` lines, or an error body (docs/service.md §7.1). */
function startsAnswer(line: string): boolean {
  const t = line.trimStart();
  return t.startsWith('HTTP/') || t.startsWith('< ') || /^\{\s{0,8}"code"/.test(t);
}

/**
 * The body on the lines from `start`: up to the first blank line or answer, without the line break
 * before it (a body with blank lines needs its Content-Length). Returns it and the index where it ends.
 */
export function bodyLines(text: string, start: number): { body: string; end: number } {
  let end = start;
  for (let line = lineFrom(text, start); line !== undefined; line = lineFrom(text, line.next)) {
    if (line.text.trim() === '' || startsAnswer(line.text)) break;
    end = line.end;
  }
  return { body: text.slice(start, end), end };
}

/** The first header named `name` (case-insensitive). */
export function headerValue(headers: readonly SentHeader[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}
