/**
 * A send's answer as plain text, for VS Code's diff editor (Compare Two Answers): the request line,
 * the environment, the outcome and status, the decoded error code, the answer's headers sorted by
 * name and its body pretty-printed. Made from a history entry, which is already redacted (entry.ts);
 * the request's headers (where the API key goes) are left out, and credentials in the body are
 * masked again, as everywhere an answer is shown (request/listen-keys.ts).
 */
import { parseJson, prettyBody } from '../format/json-value';
import { hideListenKeys, listenKeysInAnswer } from '../request/listen-keys';
import { historyItem } from './entry';
import type { PanelEntry } from './protocol';

/** Masks the volatile fields of a parsed body (orderId, times: core/testing/mask.ts), as a copy. */
export type MaskJson = (json: unknown) => unknown;

/** Headers that differ on every answer: masked with the body's volatile fields. */
const VOLATILE_HEADER = /^(?:date|content-length|x-[a-z0-9-]*used-weight[a-z0-9-]*)$/i;

/** The text of `entry`'s answer; with `mask`, its volatile headers and body fields replaced by placeholders. */
export function answerText(entry: PanelEntry, mask?: MaskJson): string {
  const lines = [
    `${entry.request.method} ${historyItem(entry).path}`,
    `environment: ${entry.environment}`,
    `outcome: ${entry.outcome}`,
    entry.status === undefined ? 'status: none' : `status: ${entry.status} ${entry.statusMeaning ?? ''}`.trimEnd(),
    ...errorLines(entry),
    '',
    ...headerLines(entry, mask !== undefined),
    '',
    ...bodyLines(entry, mask),
  ];
  return scrub(`${lines.join('\n')}\n`, entry);
}

function errorLines(e: PanelEntry): string[] {
  const lines: string[] = [];
  if (e.error) lines.push(`code: ${e.error.code} ${e.error.meanings.join(' / ')}`.trimEnd());
  if (e.msg !== undefined) lines.push(`msg: ${e.msg}`);
  if (e.reason !== undefined) lines.push(`reason: ${e.reason}`);
  return lines;
}

function headerLines(e: PanelEntry, mask: boolean): string[] {
  const headers = e.response?.headers;
  if (!headers) return ['headers: none (no answer)'];
  const sorted = [...headers].sort(([a], [b]) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return [
    'headers:',
    ...sorted.map(([n, v]) => `${n.toLowerCase()}: ${mask && VOLATILE_HEADER.test(n) ? `<${n.toLowerCase()}>` : v}`),
  ];
}

function bodyLines(e: PanelEntry, mask: MaskJson | undefined): string[] {
  const r = e.response;
  if (!r) return ['body: none (no answer)'];
  if (r.body === '') return ['body: empty'];
  const cut = r.truncated ? ', cut by the history' : '';
  if (!r.isJson) return [`body (text${cut}):`, r.body];
  if (mask === undefined) return [`body (JSON${cut}):`, r.body];
  // A body cut short is no longer JSON: shown as kept, unmasked, and said so.
  const json = r.truncated ? undefined : parseJson(r.body);
  if (json === undefined) return [`body (JSON${cut}, not masked):`, r.body];
  return ['body (JSON, volatile fields masked):', prettyBody(mask(json), r.body)];
}

/** Credentials of the body masked across the whole text: the entry did it already; an answer's copy must never undo it. */
function scrub(text: string, e: PanelEntry): string {
  const json = e.response?.isJson && !e.response.truncated ? parseJson(e.response.body) : undefined;
  return hideListenKeys(text, listenKeysInAnswer(json, e.response?.body));
}

/** Local time of a send, to the second: "2025-03-14 13:02:11". */
function localTime(at: number): string {
  const d = new Date(at);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** How an answer is named in a diff's title and a pick: "GET /api/v3/account · sandbox · 2025-03-14 13:02:11". */
export function answerLabel(e: PanelEntry): string {
  return `${e.request.method} ${historyItem(e).path} · ${e.environment} · ${localTime(e.at)}`;
}

/** A file name for the answer's virtual document: its title and environment, in characters any file system takes. */
export function answerFileName(e: PanelEntry): string {
  const name = `${e.title} (${e.environment})`.replace(/[^\w .()@-]+/g, '_').slice(0, 80);
  return `${name}.txt`;
}
