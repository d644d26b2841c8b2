/**
 * A raw HTTP request in the text: a request line, headers, a blank line and the body (LF or CRLF),
 * the same as curl -v prints it (`> ` lines, no body), or a log line quoting a request line after
 * its origin, as urllib3 logs it: `https://api.example.com:443 "POST /api/v3/order?... HTTP/1.1" 400`.
 */
import {
  InputError,
  bodyLines,
  headerLine,
  headerValue,
  lineAround,
  lineFrom,
  originOfHost,
  serviceMethod,
  splitUrl,
  type Found,
  type Line,
} from './input-common';
import type { SentHeader } from './types';

interface RequestLine {
  readonly method: string;
  readonly target: string;
  readonly line: Line;
  /** curl -v's `> ` lines. */
  readonly verbose: boolean;
  /** The origin a log line names before a quoted request line; undefined for a raw request. */
  readonly origin?: string;
}

/** `METHOD target HTTP/1.1`, exactly. */
function requestLine(text: string): { method: string; target: string } | undefined {
  const parts = text.trim().split(' ');
  if (parts.length !== 3 || !/^HTTP\/\d(\.\d)?$/.test(parts[2]!) || !/^[A-Za-z]{1,10}$/.test(parts[0]!))
    return undefined;
  return { method: parts[0]!, target: parts[1]! };
}

/** The scheme and host of the last URL in `line` before `end` (urllib3 writes `https://host:443`). */
function originBefore(line: string, end: number): string | undefined {
  const mark = line.lastIndexOf('://', end);
  if (mark < 0) return undefined;
  let start = mark;
  while (start > 0 && /[A-Za-z0-9+.-]/.test(line[start - 1]!)) start--;
  let stop = mark + 3;
  while (stop < end && !' \t"\'/?#'.includes(line[stop]!)) stop++;
  return splitUrl(line.slice(start, stop)).url.slice(0, -1);
}

/** A log line's quoted request line: `"POST /path HTTP/1.1"` after its origin; `version` is where " HTTP/" is. */
function quotedRequestLine(line: Line, version: number): RequestLine | undefined {
  const open = line.text.lastIndexOf('"', version);
  const close = line.text.indexOf('"', version);
  const found = open >= 0 && close > 0 ? requestLine(line.text.slice(open + 1, close)) : undefined;
  if (found === undefined) return undefined;
  const origin = originBefore(line.text, open);
  if (origin === undefined)
    throw new InputError('the log line names no host before its request line: paste the full URL of the request');
  return { ...found, line, verbose: false, origin };
}

/** Every request line of the text, found from its " HTTP/" (more than one is refused by the caller). */
function requestLines(text: string): RequestLine[] {
  const found: RequestLine[] = [];
  for (let at = text.indexOf(' HTTP/'); at >= 0;) {
    const line = lineAround(text, at);
    const verbose = line.text.startsWith('> ');
    const whole = requestLine(verbose ? line.text.slice(2) : line.text);
    const request = whole ? { ...whole, line, verbose } : quotedRequestLine(line, at - line.start);
    if (request) found.push(request);
    at = text.indexOf(' HTTP/', line.next);
  }
  return found;
}

/** A line of the request's head: curl -v's lines lose their `> `; undefined where its head ends. */
function headLine(line: string, verbose: boolean): string | undefined {
  if (!verbose) return line;
  if (line.startsWith('> ')) return line.slice(2);
  return line.trim() === '>' ? '' : undefined;
}

/** The headers after the request line, and where the line after their blank line starts (undefined: no blank line). */
function readHead(text: string, at: RequestLine): { headers: SentHeader[]; bodyStart?: number } {
  const headers: SentHeader[] = [];
  for (let line = lineFrom(text, at.line.next), n = 2; line !== undefined; line = lineFrom(text, line.next), n++) {
    const head = headLine(line.text, at.verbose);
    if (head === undefined) break;
    if (head.trim() === '') return { headers, bodyStart: line.next };
    const header = headerLine(head);
    if (header === undefined)
      throw new InputError(
        `line ${n} of the HTTP request is neither a header nor the blank line before the body: paste the request as sent, with a blank line between its headers and its body`,
      );
    headers.push(header);
  }
  return { headers };
}

/** The body after the blank line: Content-Length bytes when the request has the header, else bodyLines's rule. */
function readBody(
  text: string,
  start: number | undefined,
  length: string | undefined,
  verbose: boolean,
): { body: string; after: string } {
  const rest = start === undefined || start > text.length ? '' : text.slice(start);
  if (length !== undefined && !/^\d{1,9}$/.test(length))
    throw new InputError('the Content-Length header is not a number: paste the request as it was sent');
  const bytes = length === undefined ? 0 : Number(length);
  if (bytes > 0 && (verbose || rest.length === 0))
    throw new InputError(
      'the request has a body that is not in the text (curl -v does not print it): paste the request with its body after the blank line, or the cURL command as set -x prints it',
    );
  if (verbose || start === undefined || start > text.length) return { body: '', after: rest };
  if (length === undefined) {
    const { body, end } = bodyLines(text, start);
    return { body, after: text.slice(end) };
  }
  const raw = Buffer.from(rest, 'utf8');
  return { body: raw.subarray(0, bytes).toString('utf8'), after: raw.subarray(bytes).toString('utf8') };
}

function rawRequest(text: string, at: RequestLine): Found {
  const { headers, bodyStart } = readHead(text, at);
  const { body, after } = readBody(text, bodyStart, headerValue(headers, 'content-length'), at.verbose);
  let absolute = at.target;
  if (at.target.startsWith('/')) {
    const host = headerValue(headers, 'host');
    if (host === undefined || host.length === 0)
      throw new InputError(
        'the HTTP request has no Host header: paste it with its Host line, or write the full URL in the request line',
      );
    absolute = originOfHost(host) + at.target;
  }
  const { url, query } = splitUrl(absolute);
  const request = { method: serviceMethod(at.method), url, query, body, headers, form: 'http' as const };
  return { request, before: text.slice(0, at.line.start), after };
}

/** The HTTP request in `text`, or undefined when it holds no request line. */
export function findHttp(text: string): Found | undefined {
  const found = requestLines(text);
  if (found.length === 0) return undefined;
  if (found.length > 1)
    throw new InputError(`the text holds ${found.length} HTTP request lines: paste the one request that was rejected`);
  const at = found[0]!;
  if (at.origin === undefined) return rawRequest(text, at);
  const { url, query } = splitUrl(at.target.startsWith('/') ? at.origin + at.target : at.target);
  const request = { method: serviceMethod(at.method), url, query, body: '', headers: [], form: 'http' as const };
  return { request, before: text.slice(0, at.line.start), after: text.slice(at.line.end) };
}
