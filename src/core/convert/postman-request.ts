/** One Postman request → one draft request: URL, query, headers, auth, body, scripts. */
import { percentDecode } from '../format/parser';
import { addLeftOut, addParam, newRequest, sentContentType, type DraftRequest } from './draft';
import {
  descriptionText,
  scalarText,
  scriptLines,
  type PostmanAuth,
  type PostmanBody,
  type PostmanEvent,
  type PostmanItem,
  type PostmanKeyValue,
  type PostmanRequest,
  type PostmanUrl,
} from './postman-schema';
import {
  credentialNote,
  isApiKeyHeader,
  isCredentialHeader,
  isCredentialName,
  withoutCredentialLines,
} from './credential-like';
import { checkNotes, readChecks, type ScriptChecks } from './postman-checks';
import { Notes, formDecode, looksLikeForm } from './common';
import { mapVariables } from './foreign-variables';
import type { Deployment } from '../catalog/deployment';

export interface RequestContext {
  readonly notes: Notes;
  /** `{{name}}` references written, for the undefined-variable check. */
  readonly referenced: Set<string>;
  /** API key header names met in headers and auth (of the file being written). */
  apiKeyHeaders: Set<string>;
  /** Counts for the summary. */
  counts: { descriptions: number; examples: number };
  /** Turns a URL's base and path into the request line's target (the base URL choice is global). */
  readonly target: (raw: string) => { target: string; path: string | undefined };
  /** The deployment whose host the base URL names, when not the default: its catalog and key header apply. */
  readonly deployment?: Deployment;
}

/** The family's signing script: an HMAC SHA256 over the parameters that sets `signature`. */
export function isSigningScript(lines: readonly string[]): boolean {
  const text = lines.join('\n');
  return /hmac/i.test(text) && /sha-?256/i.test(text) && /signature/.test(text);
}

export function hasScript(e: PostmanEvent): boolean {
  return e.disabled !== true && scriptLines(e).some((l) => l.trim().length > 0);
}

/** A script kept as a comment block. */
export function scriptKind(e: PostmanEvent): string {
  return e.listen === 'prerequest' ? 'pre-request' : e.listen;
}

/** Text of the collection kept as a comment (a description), without the lines that set a credential. */
export function keptText(text: string, where: string, notes: Notes): string {
  const kept = withoutCredentialLines(text);
  if (kept.names.length > 0) notes.add(credentialNote(where, 'the lines that set', kept.names));
  return kept.text;
}

/** Test scripts already read for checks: a folder's script is asked for by each of its requests. */
const CHECKS = new WeakMap<PostmanEvent, ScriptChecks>();

/** The checks of a test script (postman-checks.ts); undefined for other scripts. */
export function testChecks(e: PostmanEvent): ScriptChecks | undefined {
  if (e.listen !== 'test' || !hasScript(e)) return undefined;
  let checks = CHECKS.get(e);
  if (!checks) CHECKS.set(e, (checks = readChecks(scriptLines(e).join('\n'))));
  return checks;
}

/**
 * The script as a comment, without the lines that set a credential (named in a note, `where`
 * first); `mapped` of its checks are `# @expect` lines already.
 */
function scriptComment(e: PostmanEvent, owner: string, where: string, notes: Notes, mapped = 0): string {
  const kind = scriptKind(e);
  const script = withoutCredentialLines(scriptLines(e).join('\n'));
  if (script.names.length > 0)
    notes.add(credentialNote(where, `the lines of the ${kind} script of ${owner} that set`, script.names));
  const lines = script.text.split('\n');
  const what =
    mapped > 0
      ? `its ${mapped} check(s) with a counterpart are # @expect lines; the rest has no counterpart in TradeReq; kept as a comment`
      : 'no counterpart in TradeReq; kept as a comment';
  let text = `Postman ${kind} script of ${owner} (${what}):`;
  for (const l of lines) text += '\n| ' + l;
  return text;
}

/** What the note says of a script kept as a comment. */
export function keptNote(e: PostmanEvent): string {
  return (testChecks(e)?.directives.length ?? 0) > 0
    ? 'is kept as a comment: its checks with a counterpart are # @expect lines, the rest has none'
    : 'has no counterpart and is kept as a comment';
}

/**
 * A script of a request or folder: its checks become `# @expect` lines of `directives`; it is kept
 * as a comment (returned) unless they were all it held.
 */
export function scriptAsChecks(
  e: PostmanEvent,
  owner: string,
  where: string,
  directives: string[],
  notes: Notes,
): string | undefined {
  const checks = testChecks(e);
  if (checks) {
    const known = new Set(directives);
    for (const d of checks.directives) {
      if (known.has(d)) continue;
      known.add(d);
      directives.push(d);
    }
    checkNotes(checks, where, owner, notes);
    if (checks.complete) return undefined;
  }
  return scriptComment(e, owner, where, notes, checks?.directives.length);
}

function mapped(text: string, where: string, ctx: RequestContext): string {
  const m = mapVariables(text, 'Postman', where, ctx.notes);
  for (const n of m.names) ctx.referenced.add(n);
  return m.text;
}

/** The URL's raw text without its query, and the query items. */
function urlParts(url: PostmanUrl | undefined): {
  base: string;
  query: PostmanKeyValue[];
  variables: PostmanKeyValue[];
} {
  if (url === undefined) return { base: '', query: [], variables: [] };
  if (typeof url === 'string') return splitRaw(url);
  const raw = url.raw ?? buildRaw(url);
  const split = splitRaw(raw);
  return { base: split.base, query: url.query ?? split.query, variables: url.variable ?? [] };
}

function splitRaw(raw: string): { base: string; query: PostmanKeyValue[]; variables: PostmanKeyValue[] } {
  const q = raw.indexOf('?');
  if (q < 0) return { base: raw.split('#')[0]!, query: [], variables: [] };
  const query = raw
    .slice(q + 1)
    .split('#')[0]!
    .split('&')
    .filter((s) => s.length > 0)
    .map((s) => ({ key: s.split('=')[0], value: s.includes('=') ? s.slice(s.indexOf('=') + 1) : '' }));
  return { base: raw.slice(0, q), query, variables: [] };
}

function buildRaw(url: Exclude<PostmanUrl, string>): string {
  const host = Array.isArray(url.host) ? url.host.join('.') : (url.host ?? '');
  const path = Array.isArray(url.path)
    ? url.path.map((p) => (typeof p === 'string' ? p : (p.value ?? ''))).join('/')
    : (url.path ?? '');
  const origin = url.protocol ? `${url.protocol}://${host}` : host;
  return origin + (url.port ? `:${url.port}` : '') + (path ? '/' + path.replace(/^\//, '') : '');
}

/** `:orderId` path segments: their value, else `{{orderId}}`; a credential's value is never copied. */
function pathVariables(
  base: string,
  variables: readonly PostmanKeyValue[],
  where: string,
  ctx: RequestContext,
): string {
  return base.replace(/\/:([A-Za-z_][\w-]*)/g, (_m, name: string) => {
    if (isCredentialName(name)) {
      ctx.notes.add(
        credentialNote(where, 'the path variables', [name], 'are written as {{name}}, their values not copied'),
      );
      return `/{{${name}}}`;
    }
    const value = scalarText(variables.find((v) => v.key === name)?.value);
    if (value.length > 0) return '/' + value;
    ctx.notes.add(`${where}: the path variable :${name} has no value; it is {{${name}}} now: define it.`);
    return `/{{${name}}}`;
  });
}

/** The request, and its path when it is known (for the endpoint catalog). */
export function convertRequest(
  item: PostmanItem,
  auth: PostmanAuth,
  where: string,
  ctx: RequestContext,
): { request: DraftRequest; path: string | undefined } {
  const req: Exclude<PostmanRequest, string> =
    typeof item.request === 'string' ? { url: item.request } : (item.request ?? {});
  const method = (req.method ?? 'GET').toUpperCase();
  const parts = urlParts(req.url);
  const { target, path } = ctx.target(pathVariables(parts.base, parts.variables, where, ctx));
  const request = newRequest(method, mapped(target, where, ctx));
  request.title = item.name;
  const description = keptText(descriptionText(req.description ?? item.description).trim(), where, ctx.notes);
  if (description.length > 0) request.comments.push(description);
  for (const e of item.event ?? [])
    if (hasScript(e) && !(e.listen === 'prerequest' && isSigningScript(scriptLines(e)))) {
      const kept = scriptAsChecks(e, `"${item.name ?? ''}"`, where, request.directives, ctx.notes);
      if (kept === undefined) continue;
      request.comments.push(kept);
      ctx.notes.add(`${where}: its Postman ${scriptKind(e)} script ${keptNote(e)}.`);
    }
  if ((item.response?.length ?? 0) > 0) ctx.counts.examples += item.response!.length;
  for (const q of parts.query) queryParam(request, q, where, ctx);
  readBody(request, req.body, where, ctx);
  readHeaders(request, req.header, where, ctx);
  readAuth(auth, where, ctx);
  return { request, path };
}

/** Whether a parameter is written, or left out with a comment (disabled, or empty: not signed by the family's script). */
function leftOut(
  request: DraftRequest,
  kv: PostmanKeyValue,
  name: string,
  value: string,
  placement: 'query' | 'body',
  ctx: RequestContext,
): boolean {
  if (descriptionText(kv.description).trim().length > 0) ctx.counts.descriptions++;
  const signer = name === 'timestamp' || name === 'signature';
  // A credential's value is not written even as a comment: the writer notes its name (credential-like.ts).
  if (isCredentialName(name) && !signer) return false;
  if (kv.disabled === true) addLeftOut(request, placement, `left out (disabled in Postman): ${name} = ${value}`);
  else if (!signer && value.trim().length === 0) addLeftOut(request, placement, `left out (empty in Postman): ${name}`);
  else return false;
  return true;
}

function queryParam(request: DraftRequest, q: PostmanKeyValue, where: string, ctx: RequestContext): void {
  const name = percentDecode(q.key ?? '');
  if (name.length === 0) return;
  const value = mapped(percentDecode(scalarText(q.value)), where, ctx);
  if (!leftOut(request, q, name, value, 'query', ctx)) addParam(request, name, value, 'query');
}

function readBody(request: DraftRequest, body: PostmanBody, where: string, ctx: RequestContext): void {
  if (!body || body.disabled === true) return;
  const mode = body.mode ?? 'raw';
  if (mode === 'urlencoded' || mode === 'formdata') {
    if (mode === 'formdata')
      ctx.notes.add(`${where}: form-data fields are sent as a form body (application/x-www-form-urlencoded).`);
    for (const f of (mode === 'urlencoded' ? body.urlencoded : body.formdata) ?? []) {
      const name = f.key ?? '';
      if (name.length === 0) continue;
      if (f.type === 'file') {
        ctx.notes.add(`${where}: the file field "${name}" is not carried over.`);
        continue;
      }
      const value = mapped(scalarText(f.value), where, ctx);
      if (!leftOut(request, f, name, value, 'body', ctx)) addParam(request, name, value, 'body');
    }
    return;
  }
  const raw = mode === 'raw' ? (body.raw ?? '').trim() : '';
  if (mode !== 'raw') ctx.notes.add(`${where}: the ${mode} body has no counterpart and is not carried over.`);
  else if (raw.startsWith('{')) request.json = mapped(raw, where, ctx);
  else if (looksLikeForm(raw))
    for (const pair of raw.split('&')) {
      const eq = pair.indexOf('=');
      addParam(request, formDecode(pair.slice(0, eq)), mapped(formDecode(pair.slice(eq + 1)), where, ctx), 'body');
    }
  else if (raw.length > 0) {
    request.after.push(`body left out (not a JSON object or form parameters):\n${raw}`);
    ctx.notes.add(`${where}: the raw body is neither a JSON object nor form parameters; kept as a comment.`);
  }
}

type HeaderField = Exclude<PostmanRequest, string>['header'];

/** The header names a Postman request sends (before anything is read of them). */
export function headerNames(request: PostmanRequest | undefined): string[] {
  return typeof request === 'string' || request === undefined
    ? []
    : headerList(request.header).map((h) => (h.key ?? '').trim());
}

function headerList(header: HeaderField): PostmanKeyValue[] {
  if (!header) return [];
  if (Array.isArray(header)) return header;
  return header
    .split(/\r?\n/)
    .filter((l) => l.includes(':'))
    .map((l) => ({ key: l.slice(0, l.indexOf(':')).trim(), value: l.slice(l.indexOf(':') + 1).trim() }));
}

function readHeaders(request: DraftRequest, header: HeaderField, where: string, ctx: RequestContext): void {
  const bodyType = sentContentType(request);
  for (const h of headerList(header)) {
    const name = (h.key ?? '').trim();
    const value = scalarText(h.value);
    if (name.length === 0) continue;
    if (isApiKeyHeader(name)) ctx.apiKeyHeaders.add(name);
    else if (isCredentialHeader(name)) ctx.notes.add(`${where}: the ${name} header is a credential and is not copied.`);
    else if (h.disabled === true) request.comments.push(`header left out (disabled in Postman): ${name}: ${value}`);
    else if (name.toLowerCase() === 'content-type') {
      if (value.split(';')[0]!.trim().toLowerCase() !== bodyType)
        ctx.notes.add(
          `${where}: Content-Type ${value} is not copied: TradeReq sends ${bodyType} for this body (spec §4.1 rule 7).`,
        );
    } else request.headers.push({ name, value: mapped(value, where, ctx) });
  }
}

function readAuth(auth: PostmanAuth, where: string, ctx: RequestContext): void {
  if (!auth || auth.type === 'noauth' || auth.type === 'inherit') return;
  const field = (k: string): string => scalarText(auth.apikey?.find((x) => x.key === k)?.value);
  if (auth.type === 'apikey' && (field('in') || 'header') === 'header' && isApiKeyHeader(field('key'))) {
    ctx.apiKeyHeaders.add(field('key'));
    return;
  }
  ctx.notes.add(
    `${where}: Postman's ${auth.type} authorization is not carried over (TradeReq signs with a key profile).`,
  );
}
