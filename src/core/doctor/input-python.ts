/**
 * Python's http.client debug output (`HTTPConnection.debuglevel = 1`, under `requests` too): each
 * `send: b'...'` line is the bytes sent, as a Python bytes literal; together they are the raw HTTP
 * request (head, then body), read by input-http.ts.
 */
import { InputError, lineAround, type Found } from './input-common';
import { findHttp } from './input-http';

const MARK = 'send: b';

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, '\\': 92, "'": 39, '"': 34 };

/** The bytes of a Python bytes literal's inside (between its quotes). */
function literalBytes(inside: string, out: number[]): void {
  for (let i = 0; i < inside.length; i++) {
    const c = inside[i]!;
    if (c !== '\\') {
      out.push(c.charCodeAt(0) & 0xff);
      continue;
    }
    const e = inside[i + 1] ?? '';
    const hex = e === 'x' ? inside.slice(i + 2, i + 4) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 3;
    } else if (ESCAPES[e] !== undefined) {
      out.push(ESCAPES[e]);
      i++;
    } else out.push(92);
  }
}

/** The request of the text's `send: b'...'` lines, or undefined when it has none. */
export function findPythonSend(text: string): Found | undefined {
  const bytes: number[] = [];
  let first: number | undefined;
  let last = 0;
  for (let at = text.indexOf(MARK); at >= 0;) {
    const line = lineAround(text, at);
    const open = at - line.start + MARK.length;
    const quote = line.text[open];
    const close = quote === "'" || quote === '"' ? line.text.lastIndexOf(quote) : -1;
    if (close > open) {
      literalBytes(line.text.slice(open + 1, close), bytes);
      first ??= line.start;
      last = line.end;
    }
    at = text.indexOf(MARK, line.next);
  }
  if (first === undefined) return undefined;
  const found = findHttp(Buffer.from(bytes).toString('utf8'));
  if (found === undefined)
    throw new InputError(
      "the send: b'...' lines hold no HTTP request line: paste all the send: lines of the request, from its first",
    );
  return { request: { ...found.request, form: 'python' }, before: text.slice(0, first), after: text.slice(last) };
}
