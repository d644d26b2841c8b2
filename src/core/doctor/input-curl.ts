/**
 * A cURL command in the text (after a prompt or inside a log line), split by the importer's shell
 * splitter and read by its option reader, then built as cURL sends it.
 */
import { readCurlArguments, type CurlCommand } from '../convert/curl-args';
import { shellWords } from '../convert/shell-words';
import { percentEncode } from '../signing/encode';
import { InputError, headerValue, serviceMethod, splitUrl, type Found } from './input-common';
import type { SentHeader, SentRequest } from './types';

/** Where a `curl` word starts a command, from `from`: after a line start, a space, a path or a prompt; -1 if none. */
function curlStart(text: string, from: number): number {
  for (let i = text.indexOf('curl', from); i >= 0; i = text.indexOf('curl', i + 4)) {
    const before = i === 0 ? ' ' : text[i - 1]!;
    const after = text.startsWith('.exe', i + 4) ? i + 8 : i + 4;
    if (' \t\r\n/\\:+>'.includes(before) && ' \t\r\n'.includes(text[after] ?? ' ')) return i;
  }
  return -1;
}

/** The data as cURL joins it: "&" between parts, none before a --json part; --data-urlencode encodes the value. */
function joinData(parts: CurlCommand['data']): string | undefined {
  if (parts.length === 0) return undefined;
  let out = '';
  parts.forEach((p, i) => {
    if (i > 0 && p.kind !== 'json') out += '&';
    out += p.kind === 'pair' ? `${p.name}=${percentEncode(p.value)}` : p.text;
  });
  return out;
}

/** The headers cURL sends that matter here: the command's, and the Content-Type (and --json's Accept) it adds. */
function headersOf(cmd: CurlCommand, withBody: boolean): SentHeader[] {
  const headers = [...cmd.headers];
  const json = cmd.data.some((d) => d.kind === 'json');
  if (withBody && headerValue(headers, 'content-type') === undefined)
    headers.push({ name: 'Content-Type', value: json ? 'application/json' : 'application/x-www-form-urlencoded' });
  if (json && headerValue(headers, 'accept') === undefined) headers.push({ name: 'Accept', value: 'application/json' });
  return headers;
}

function curlRequest(cmd: CurlCommand): Found['request'] {
  if (cmd.incomplete)
    throw new InputError(
      'the cURL command reads data or headers from a file (@file) or sends a nameless --data-urlencode: paste the command with them written out as name=value',
    );
  if (cmd.form)
    throw new InputError(
      'the cURL command sends a multipart body (-F), which the service does not read: paste a request with its parameters in the query string or a -d body',
    );
  if (cmd.urls.length !== 1)
    throw new InputError(
      cmd.urls.length === 0
        ? 'the cURL command has no URL: paste the whole command, with its line continuations'
        : `the cURL command has ${cmd.urls.length} URLs: paste a command that sends one request`,
    );
  const data = joinData(cmd.data);
  const method = serviceMethod(cmd.method ?? (cmd.head ? 'HEAD' : cmd.get || data === undefined ? 'GET' : 'POST'));
  const { url, query } = splitUrl(cmd.urls[0]!, 'http');
  // -G sends the data in the query string, after the URL's own, joined by "&".
  const moved = cmd.get && data !== undefined;
  const sent: Omit<SentRequest, 'code'> = {
    method,
    url,
    query: moved ? [query, data].filter((s) => s.length > 0).join('&') : query,
    body: moved ? '' : (data ?? ''),
    headers: headersOf(cmd, data !== undefined && !cmd.get),
    form: 'curl',
  };
  return sent;
}

/** The cURL command in `text`, or undefined when there is none. */
export function findCurl(text: string): Found | undefined {
  const start = curlStart(text, 0);
  if (start < 0) return undefined;
  const split = shellWords(text.slice(start), { lineEnds: true });
  const after = split.rest ?? '';
  if (curlStart(after, 0) >= 0)
    throw new InputError('the text holds more than one cURL command: paste the one whose request was rejected');
  if (split.variables.length > 0 || split.substitutions.length > 0)
    throw new InputError(
      'the cURL command holds shell variables or command substitutions ($NAME, $(...)), whose values are not in the text: paste the command as it ran, with the values (set -x prints it; curl -v prints its request line and headers)',
    );
  return { request: curlRequest(readCurlArguments(split.words.slice(1))), before: text.slice(0, start), after };
}
