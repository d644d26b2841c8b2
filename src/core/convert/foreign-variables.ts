/**
 * `{{...}}` of other tools in TradeReq's terms (docs/format.md, Variables): plain names stay as they
 * are, dynamic variables with a counterpart are renamed, and the rest is kept and noted.
 */
import { params, type DraftRequest } from './draft';
import { Notes } from './common';

export type Dialect = 'Postman' | 'the .http file';

const PLAIN = /^[A-Za-z_][\w.-]*$/;
const UUID = new Set(['$guid', '$uuid', '$randomUUID', '$random.uuid']);
const ENV_LOOKUP = /^\$(processEnv|dotenv)\s+%?([A-Za-z_][\w.-]*)$/;
/** REST Client's `{{login.response.body.$.token}}`; TradeReq reads `{{login.response.token}}`. */
const RESPONSE_BODY = /^([A-Za-z_][\w-]*)\.response\.body\.(?:\$\.?)?([\w.[\]]+)$/;

export interface MappedText {
  readonly text: string;
  /** The plain variable names the text refers to after mapping. */
  readonly names: string[];
}

function mapOne(inner: string, dialect: Dialect, where: string, notes: Notes, names: string[]): string {
  if (UUID.has(inner)) return '{{$uuid}}';
  // Noted by secondsNote once signing has dropped the timestamp parameter that usually holds it.
  if (inner === '$timestamp') return '{{$timestamp}}';
  const body = RESPONSE_BODY.exec(inner);
  if (body) {
    names.push(`${body[1]}.response.${body[2]}`);
    return `{{${body[1]}.response.${body[2]}}}`;
  }
  const env = ENV_LOOKUP.exec(inner);
  if (env) {
    notes.add(
      `${where}: {{${inner}}} read ${env[2]} from the process environment or a .env file; it is {{${env[2]}}} now: define it in tradereq.env.json (never a secret).`,
    );
    names.push(env[2]!);
    return `{{${env[2]}}}`;
  }
  if (PLAIN.test(inner) && !/\.response\./.test(inner)) {
    names.push(inner);
    return `{{${inner}}}`;
  }
  notes.add(
    inner.startsWith('$')
      ? `${where}: {{${inner}}} has no counterpart in TradeReq (its system variables are $timestamp, $uuid and $clientOrderId); kept as written.`
      : `${where}: {{${inner}}} is a script expression or a reference TradeReq cannot read; kept as written.`,
  );
  return `{{${inner}}}`;
}

/** Maps every `{{...}}` of `text`; an unclosed `{{` is left as it is (the writer reports it). */
export function mapVariables(text: string, dialect: Dialect, where: string, notes: Notes): MappedText {
  const names: string[] = [];
  if (text.indexOf('{{') < 0) return { text, names };
  let out = '';
  let last = 0;
  for (let p = text.indexOf('{{'); p >= 0; p = text.indexOf('{{', last)) {
    const close = text.indexOf('}}', p + 2);
    if (close < 0) break;
    out += text.slice(last, p) + mapOne(text.slice(p + 2, close).trim(), dialect, where, notes, names);
    last = close + 2;
  }
  return { text: out + text.slice(last), names };
}

/** `{{$timestamp}}` counts seconds in the other tools; said where a request still uses it after signing. */
export function secondsNote(request: DraftRequest, dialect: Dialect, where: string, notes: Notes): void {
  const texts = [
    request.target,
    request.json ?? '',
    ...request.headers.map((h) => h.value),
    ...params(request).map((p) => p.value),
  ];
  if (texts.some((t) => t.includes('{{$timestamp}}')))
    notes.add(`${where}: {{$timestamp}} counts seconds in ${dialect} and milliseconds in TradeReq.`);
}
