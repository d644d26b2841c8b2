/**
 * The known mistakes, each a named way a program could have built the message or the key instead
 * of what §5 asks. A fixed, small set: each variant is one string (or key) derived from what was
 * sent, never a search over secrets.
 */
import { findParam } from '../catalog/endpoints';
import { percentEncode } from '../signing/encode';
import type { CauseId, DoctorKey } from './types';
import { memberText, type RawPair, type Wire } from './wire';

export interface MessageVariant {
  readonly cause: CauseId;
  /** What the program did, in words: "joined the query string and the body with "&"". */
  readonly what: string;
  readonly message: string;
}

export interface KeyVariant {
  readonly cause: CauseId;
  readonly what: string;
  readonly secretKey: string;
}

const join = (pairs: readonly RawPair[]): string => pairs.map((p) => p.raw).join('&');
const byName = (a: RawPair, b: RawPair): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function ampersand(w: Wire): MessageVariant[] {
  if (w.query.length === 0 || w.body.length === 0) return [];
  return [
    { cause: 'ampersand-join', what: 'put "&" between the query string and the body', message: `${w.query}&${w.body}` },
  ];
}

function moved(pairs: readonly RawPair[], name: string, toEnd: boolean): RawPair[] {
  const found = pairs.filter((p) => p.name === name);
  const rest = pairs.filter((p) => p.name !== name);
  return toEnd ? [...rest, ...found] : [...found, ...rest];
}

/** The form parts in other orders: sorted, timestamp last or first, the body before the query. */
function order(w: Wire): MessageVariant[] {
  const out: MessageVariant[] = [];
  const add = (what: string, message: string): void => void out.push({ cause: 'order-differs', what, message });
  const body = w.json ? w.body : join(w.bodyPairs);
  const sortedBody = w.json ? w.body : join([...w.bodyPairs].sort(byName));
  add('signed the parameters sorted by name', join([...w.queryPairs].sort(byName)) + sortedBody);
  add('signed the parameters sorted by name, all in one string', join([...w.queryPairs, ...w.bodyPairs].sort(byName)));
  for (const toEnd of [true, false]) {
    const where = toEnd ? 'last' : 'first';
    add(`signed timestamp ${where}, not where it was sent`, join(moved(w.queryPairs, 'timestamp', toEnd)) + body);
    if (!w.json)
      add(`signed timestamp ${where}, not where it was sent`, w.query + join(moved(w.bodyPairs, 'timestamp', toEnd)));
  }
  if (w.query.length > 0 && w.body.length > 0) add('signed the body before the query string', w.body + w.query);
  if (w.members !== undefined) {
    const sorted = Object.fromEntries(Object.entries(w.members).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    add('signed the JSON members sorted by name', w.query + JSON.stringify(sorted));
    add('signed the JSON members sorted by name', w.query + pythonJson(sorted));
  }
  return out;
}

/** Python's json.dumps with its default separators ", " and ": ". */
function pythonJson(o: Readonly<Record<string, unknown>>): string {
  return (
    '{' +
    Object.entries(o)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(', ') +
    '}'
  );
}

/** The JSON body written another way than it was sent (a library serialises it again). */
function reserialised(w: Wire): MessageVariant[] {
  if (w.members === undefined) return [];
  const m = w.members;
  const strings = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, memberText(v)]));
  const forms: [string, string][] = [
    ['signed compact JSON ({"a":1}) but sent it written another way', JSON.stringify(m)],
    ['signed JSON as Python\'s json.dumps writes it ({"a": 1}) but sent it written another way', pythonJson(m)],
    ['signed JSON indented by 2 spaces but sent it written another way', JSON.stringify(m, null, 2)],
    ['signed JSON indented by 4 spaces but sent it written another way', JSON.stringify(m, null, 4)],
    ['signed the JSON values as strings but sent numbers (or the reverse)', JSON.stringify(strings)],
  ];
  return forms.map(([what, text]) => ({ cause: 'body-reserialised' as const, what, message: w.query + text }));
}

/** Every %XX escape of `text` in the given case. */
function escapesIn(text: string, upper: boolean): string {
  return text.replace(/%[0-9A-Fa-f]{2}/g, (e) => (upper ? e.toUpperCase() : e.toLowerCase()));
}

/** Re-encodes every pair's name and value with `encode`. */
function reencoded(pairs: readonly RawPair[], encode: (s: string) => string): string {
  return pairs.map((p) => `${encode(p.name)}=${encode(p.value)}`).join('&');
}

function bodyWith(w: Wire, encode: (s: string) => string): string {
  return w.json ? w.body : reencoded(w.bodyPairs, encode);
}

const plain = (s: string): string => s;
const uriComponent = (s: string): string => encodeURIComponent(s);
const plus = (s: string): string => percentEncode(s).replace(/%20/g, '+');

function encoding(w: Wire): MessageVariant[] {
  const out: MessageVariant[] = [];
  const t = w.totalParams;
  const escapes = t.match(/%[0-9A-Fa-f]{2}/g) ?? [];
  if (escapes.some((e) => e !== e.toLowerCase()))
    out.push({
      cause: 'encoding-lowercase',
      what: 'signed lower-case percent-escapes (%2c) but sent upper-case (%2C)',
      message: escapesIn(t, false),
    });
  if (escapes.some((e) => e !== e.toUpperCase()))
    out.push({
      cause: 'encoding-lowercase',
      what: 'sent lower-case percent-escapes (%2c) but signed upper-case (%2C)',
      message: escapesIn(t, true),
    });
  const each: [string, (s: string) => string][] = [
    ['signed the values unencoded (BTC,ETH) but sent them percent-encoded', plain],
    ["signed with encodeURIComponent, which leaves ! ' ( ) * unencoded, but sent them encoded", uriComponent],
    ['signed the values strictly percent-encoded but sent some characters unencoded', percentEncode],
    ['signed spaces as "+" but sent them as %20 (or the reverse)', plus],
  ];
  for (const [what, encode] of each)
    out.push({ cause: 'encoding-missing', what, message: reencoded(w.queryPairs, encode) + bodyWith(w, encode) });
  return out;
}

function newline(w: Wire): MessageVariant[] {
  return [
    {
      cause: 'message-newline',
      what: 'signed the message with a newline after it (echo without -n)',
      message: w.totalParams + '\n',
    },
    { cause: 'message-newline', what: 'signed the message with a CRLF after it', message: w.totalParams + '\r\n' },
  ];
}

/** The signature pair (or member) itself signed, empty, where it was sent. */
function included(w: Wire): MessageVariant[] {
  const s = w.sent;
  const emptied = (text: string): string => text.replace(/(^|&)signature=[^&]*/, '$1signature=');
  const inJson = s.body.replace(/("signature"\s*:\s*)"[^"\\]*"/, '$1""');
  const out: MessageVariant[] = [
    {
      cause: 'signature-included',
      what: 'signed "signature=" (empty) along with the parameters',
      message: `${w.totalParams}&signature=`,
    },
    {
      cause: 'signature-included',
      what: 'signed "signature=" (empty) along with the parameters',
      message: `${w.totalParams}signature=`,
    },
  ];
  if (w.signatureIn === 'query')
    out.push({
      cause: 'signature-included',
      what: 'signed the query string with an empty signature parameter in it',
      message: emptied(s.query) + w.body,
    });
  if (w.signatureIn === 'body')
    out.push({
      cause: 'signature-included',
      what: 'signed the body with an empty signature parameter in it',
      message: w.query + (w.json ? inJson : emptied(s.body)),
    });
  return out;
}

function jsonVsForm(w: Wire): MessageVariant[] {
  if (w.members !== undefined) {
    const pairs = Object.entries(w.members).map(([k, v]) => ({ raw: '', name: k, value: memberText(v) }));
    return [
      {
        cause: 'json-vs-form',
        what: 'signed the parameters as a form (a=1&b=2) but sent them as JSON',
        message: w.query + reencoded(pairs, percentEncode),
      },
    ];
  }
  if (w.bodyPairs.length === 0) return [];
  const typed = (number: RegExp): Record<string, unknown> =>
    Object.fromEntries(w.bodyPairs.map((p) => [p.name, number.test(p.value) ? Number(p.value) : p.value]));
  // Programs keep values as strings, or numbers, or the service's integers (timestamp) as numbers and decimals as strings.
  const integer = (name: string): boolean =>
    /^(integer|timestampMs)$/.test((w.endpoint && findParam(w.endpoint, name)?.type) ?? '');
  const byCatalog = Object.fromEntries(
    w.bodyPairs.map((p) => [p.name, integer(p.name) && /^-?\d{1,15}$/.test(p.value) ? Number(p.value) : p.value]),
  );
  const forms = [typed(/^$/), typed(/^-?\d+(\.\d+)?$/), byCatalog];
  const what = 'signed the parameters as JSON but sent them as a form';
  return forms.flatMap((o) => [
    { cause: 'json-vs-form' as const, what, message: w.query + JSON.stringify(o) },
    { cause: 'json-vs-form' as const, what, message: w.query + pythonJson(o) },
  ]);
}

/** Every message variant of `w`, in the order they are tried; those equal to totalParams dropped. */
export function messageVariants(w: Wire): MessageVariant[] {
  const all = [
    ...ampersand(w),
    ...reserialised(w),
    ...order(w),
    ...encoding(w),
    ...newline(w),
    ...included(w),
    ...jsonVsForm(w),
  ];
  const seen = new Set([w.totalParams]);
  return all.filter((v) => !seen.has(v.message) && seen.add(v.message));
}

/** Most profiles a search tries as "the key of another environment". */
const MAX_OTHER_KEYS = 32;

/** The key as it could have been read wrong, then the other keys the shell knows. */
export function keyVariants(key: DoctorKey, others: readonly DoctorKey[]): KeyVariant[] {
  const s = key.secretKey;
  const ws = (what: string, secretKey: string): KeyVariant => ({ cause: 'secret-whitespace', what, secretKey });
  const out: KeyVariant[] = [
    ws('signed with the secret followed by a newline (read from a file or env var with its line end)', s + '\n'),
    ws('signed with the secret followed by CRLF (a file saved on Windows)', s + '\r\n'),
    ws('signed with a space after the secret', s + ' '),
    ws('signed with a space before the secret', ' ' + s),
    ws('signed with a tab after the secret', s + '\t'),
    { cause: 'wrong-secret', what: 'signed with the API key instead of the secret key', secretKey: key.apiKey },
  ];
  for (const o of others.slice(0, MAX_OTHER_KEYS)) {
    if (o.secretKey !== s)
      out.push({
        cause: 'wrong-secret',
        what: `signed with the secret of the key profile "${o.profile}"`,
        secretKey: o.secretKey,
      });
  }
  return out;
}
