/**
 * The resolve step: variables substituted (file, then environment, then system), the URL joined to
 * the environment's base URL, directives read, and the endpoint looked up in the catalog.
 * Pure: time and randomness come in through the context.
 */
import { randomUUID, randomBytes } from 'node:crypto';
import { BOUNDS, formatSize } from '../bounds';
import { jsonPath, jsonValueText } from './json-value';
import type { NamedEnvironment } from '../env/constants';
import { findEndpoint } from '../spec/endpoints';
import type { EndpointInfo, RateLimitMode } from '../spec/types';
import { readOptions, type RequestOptions } from './directives';
import type { Diagnostic, Method, Placement, Range, RequestBlock, TradeReqDocument, VariableRef } from './model';
import { METHODS } from './model';

export interface ResolveContext {
  readonly environment: NamedEnvironment;
  /** Milliseconds, already corrected by the measured server-clock offset when clock sync is on. */
  now(): number;
  uuid(): string;
  clientOrderId(): string;
  /** The parsed body of the last response of the request named `name`, when there is one. */
  response?(name: string): unknown;
}

export interface ResolvedParam {
  readonly name: string;
  readonly value: string;
  readonly placement: Placement;
}

export interface ResolvedRequest {
  readonly request: RequestBlock;
  readonly options: RequestOptions;
  readonly environment: NamedEnvironment;
  readonly method: Method;
  /** Without the query string. */
  readonly url: string;
  readonly origin: string;
  readonly path: string;
  readonly endpoint?: EndpointInfo;
  /** Query and form parameters in the order written (inline query first); JSON members are in `json`. */
  readonly params: readonly ResolvedParam[];
  readonly json?: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  readonly signed: boolean;
  readonly keyProfile?: string;
  readonly weight: number;
  readonly mode: RateLimitMode;
  /** The one clock reading of this request: {{$timestamp}} and the added timestamp agree. */
  readonly now: number;
}

export type ResolveResult = { ok: true; value: ResolvedRequest } | { ok: false; diagnostics: Diagnostic[] };

export const SYSTEM_VARIABLES: readonly { name: string; description: string }[] = [
  { name: '$timestamp', description: 'Now in milliseconds (clock-corrected).' },
  { name: '$uuid', description: 'A random UUID.' },
  { name: '$clientOrderId', description: 'A fresh client order id: 32 characters of A-Z a-z 0-9.' },
];

const RESPONSE_REF = /^([A-Za-z_][\w-]*)\.response\.(.+)$/;

/** A context with the real clock and randomness, for the shells. */
export function defaultContext(environment: NamedEnvironment, extra: Partial<ResolveContext> = {}): ResolveContext {
  return { environment, now: () => Date.now(), uuid: () => randomUUID(), clientOrderId: newClientOrderId, ...extra };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 characters of A-Za-z0-9, within the limit format.md gives for client order ids. */
export function newClientOrderId(): string {
  const bytes = randomBytes(32);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

type Lookup = { ok: true; value: string } | { ok: false; message: string };

/** A resolved variable: its value and how many levels of variables it went through. */
type Resolved = { ok: true; value: string; depth: number } | { ok: false; message: string; transient?: boolean };

/**
 * Variable lookup shared by resolve and the editor's hover and diagnostics. Each variable is
 * resolved once per scope (memoised), so variables that repeat each other cost linear time; a
 * value may grow to BOUNDS.variableChars, a chain may be BOUNDS.variableDepth deep, and all
 * substitution in the scope may produce BOUNDS.substitutionChars (a shared file is hostile).
 */
export class VariableScope {
  private readonly fileValues = new Map<string, string>();
  private readonly timestamp: number;
  private readonly memo = new Map<string, Resolved>();
  /** The variables being resolved, outermost first: for cycles and the depth bound. */
  private readonly resolving: string[] = [];
  /** Characters produced by substitution in this scope so far. */
  private produced = 0;

  constructor(
    doc: TradeReqDocument,
    private readonly ctx: ResolveContext,
  ) {
    for (const v of doc.variables) this.fileValues.set(v.name.text, v.value.text);
    // One clock reading per request, so {{$timestamp}} and the added timestamp agree.
    this.timestamp = ctx.now();
  }

  get now(): number {
    return this.timestamp;
  }

  /** Where a name would come from, without resolving nested references. */
  origin(name: string): 'file' | 'environment' | 'system' | 'response' | undefined {
    if (this.fileValues.has(name)) return 'file';
    if (this.ctx.environment.variables && Object.hasOwn(this.ctx.environment.variables, name)) return 'environment';
    if (SYSTEM_VARIABLES.some((s) => s.name === name)) return 'system';
    if (RESPONSE_REF.test(name)) return 'response';
    return undefined;
  }

  lookup(name: string): Lookup {
    return plain(this.resolve(name));
  }

  /** Replaces every `{{name}}` in `text`; the first failure is returned. */
  substitute(text: string, maxChars: number = BOUNDS.variableChars): Lookup {
    return plain(this.expand(text, maxChars, 'This value'));
  }

  private resolve(name: string): Resolved {
    const known = this.memo.get(name);
    if (known) return known;
    const cycleAt = this.resolving.indexOf(name);
    if (cycleAt >= 0) {
      const chain = [...this.resolving.slice(cycleAt), name].join(' → ');
      return { ok: false, message: `"${name}" refers to itself through ${chain}` };
    }
    const raw = this.rawValue(name);
    if (raw === undefined) return this.special(name);
    if (raw.indexOf('{{') < 0) return { ok: true, value: raw, depth: 0 };
    if (this.resolving.length >= BOUNDS.variableDepth) {
      const chain = [...this.resolving, name].join(' → ');
      const message = `{{${this.resolving[0]}}} goes through more than ${BOUNDS.variableDepth} variables (${chain} → …): write its value more directly`;
      return { ok: false, message, transient: true };
    }
    this.resolving.push(name);
    const r = this.expand(raw, BOUNDS.variableChars, `{{${name}}}`);
    this.resolving.pop();
    const result: Resolved =
      r.ok && r.depth + 1 > BOUNDS.variableDepth
        ? {
            ok: false,
            message: `{{${name}}} goes through more than ${BOUNDS.variableDepth} variables: write its value more directly`,
          }
        : r.ok
          ? { ok: true, value: r.value, depth: r.depth + 1 }
          : r;
    if (!(!result.ok && result.transient)) this.memo.set(name, result);
    return result;
  }

  /** The file's value, else the environment's, before substitution. */
  private rawValue(name: string): string | undefined {
    const file = this.fileValues.get(name);
    if (file !== undefined) return file;
    const envVars = this.ctx.environment.variables;
    return envVars && Object.hasOwn(envVars, name) ? String(envVars[name]) : undefined;
  }

  /** System variables (fresh on each use) and response fields; otherwise the reason it is undefined. */
  private special(name: string): Resolved {
    switch (name) {
      case '$timestamp':
        return { ok: true, value: String(this.timestamp), depth: 0 };
      case '$uuid':
        return { ok: true, value: this.ctx.uuid(), depth: 0 };
      case '$clientOrderId':
        return { ok: true, value: this.ctx.clientOrderId(), depth: 0 };
    }
    const response = RESPONSE_REF.exec(name);
    if (response) {
      const [, requestName, path] = response;
      const body = this.ctx.response?.(requestName!);
      if (body === undefined)
        return {
          ok: false,
          message: `{{${name}}} needs a response of the request named "${requestName}": send that request first`,
        };
      const found = jsonPath(body, path!);
      if (found === undefined || found === null)
        return { ok: false, message: `The last response of "${requestName}" has no field ${path}` };
      return { ok: true, value: jsonValueText(found), depth: 0 };
    }
    if (name.startsWith('$'))
      return {
        ok: false,
        message: `Unknown system variable {{${name}}}: known are ${SYSTEM_VARIABLES.map((s) => s.name).join(', ')}`,
      };
    return {
      ok: false,
      message: `Undefined variable {{${name}}}: define it with \`@${name} = value\` at the top of the file or in the environment "${this.ctx.environment.name}" of tradereq.env.json`,
    };
  }

  /** `text` with its `{{name}}` replaced, at most `maxChars` long; `what` names it in messages. */
  private expand(text: string, maxChars: number, what: string): Resolved {
    if (text.indexOf('{{') < 0) return { ok: true, value: text, depth: 0 };
    let out = '';
    let depth = 0;
    let last = 0;
    for (let p = text.indexOf('{{'); p >= 0; p = text.indexOf('{{', last)) {
      const close = text.indexOf('}}', p + 2);
      if (close < 0) break;
      const r = this.resolve(text.slice(p + 2, close).trim());
      if (!r.ok) return r;
      if (out.length + (p - last) + r.value.length > maxChars) return tooLong(what, maxChars);
      out += text.slice(last, p) + r.value;
      depth = Math.max(depth, r.depth);
      last = close + 2;
    }
    if (out.length + text.length - last > maxChars) return tooLong(what, maxChars);
    out += text.slice(last);
    this.produced += out.length;
    if (this.produced > BOUNDS.substitutionChars) {
      return {
        ok: false,
        message: `Substituting variables here produces more than ${formatSize(BOUNDS.substitutionChars)} in all: TradeReq stops there. Look for variables that repeat each other`,
      };
    }
    return { ok: true, value: out, depth };
  }
}

function tooLong(what: string, maxChars: number): Resolved {
  return {
    ok: false,
    message: `${what} grows to more than ${formatSize(maxChars)} once its variables are substituted: TradeReq refuses values that large (variables that repeat each other, for example)`,
  };
}

function plain(r: Resolved): Lookup {
  return r.ok ? { ok: true, value: r.value } : { ok: false, message: r.message };
}

/** Checks every reference of the request and returns a diagnostic for each that cannot be resolved. */
export function unresolvedRefs(
  refs: readonly VariableRef[],
  scope: VariableScope,
  options: { skipResponses?: boolean } = {},
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const ref of refs) {
    if (options.skipResponses && RESPONSE_REF.test(ref.name)) continue;
    const r = scope.lookup(ref.name);
    if (!r.ok)
      out.push({
        range: ref.nameRange,
        severity: 'error',
        message: r.message + '. Nothing is sent until it resolves.',
        rule: 'undefined-variable',
      });
  }
  return out;
}

export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

export function resolveRequest(doc: TradeReqDocument, request: RequestBlock, ctx: ResolveContext): ResolveResult {
  const scope = new VariableScope(doc, ctx);
  const { options, diagnostics: own, fileDiagnostics } = readOptions(doc, request);
  const diagnostics: Diagnostic[] = [
    ...fileDiagnostics.filter((d) => d.severity === 'error'),
    ...own.filter((d) => d.severity === 'error'),
    ...unresolvedRefs(request.variableRefs, scope),
  ];
  const fail = (range: Range, message: string, rule: string): void => {
    diagnostics.push({ range, severity: 'error', message, rule });
  };

  const method = request.requestLine.method.text;
  if (!(METHODS as readonly string[]).includes(method)) {
    fail(
      request.requestLine.method.range,
      `The service accepts GET, POST, PUT and DELETE (spec §4.1), not ${method}.`,
      'unknown-method',
    );
  }
  if (request.json && !request.json.closed)
    fail(request.json.range, 'The JSON body is not closed: add the missing `}`.', 'json-unclosed');
  if (diagnostics.length > 0) return { ok: false, diagnostics };

  // A value that cannot be substituted whole (too large, say) is refused: nothing is sent half-resolved.
  const text = (s: string, at: Range, maxChars?: number): string => {
    const r = scope.substitute(s, maxChars);
    if (!r.ok) fail(at, `${r.message}. Nothing is sent until it resolves.`, 'variable-expansion');
    return r.ok ? r.value : s;
  };

  const target = text(request.requestLine.path.text, request.requestLine.path.range);
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  let url: string;
  let origin: string;
  let path: string;
  try {
    const full = /^https?:\/\//i.test(target)
      ? target
      : target.startsWith('/')
        ? joinUrl(ctx.environment.baseUrl, target)
        : undefined;
    if (full === undefined) throw new Error('not a path');
    const parsed = new URL(full);
    if (parsed.search || parsed.hash) throw new Error('query in a variable');
    url = full;
    origin = parsed.origin;
    path = target.startsWith('/') ? target : parsed.pathname;
  } catch {
    fail(
      request.requestLine.target.range,
      `"${target}" is not a path starting with / or an http(s):// URL.`,
      'bad-target',
    );
    return { ok: false, diagnostics };
  }

  const params: ResolvedParam[] = request.params
    .filter((p) => p.origin !== 'json')
    .map((p) => ({
      name: text(p.name.text, p.name.range),
      value: text(p.value.text, p.value.range),
      placement: p.placement,
    }));
  const headers = request.headers.map((h) => ({ name: h.name.text, value: text(h.value.text, h.value.range) }));
  let json: string | undefined;
  if (request.json) json = text(request.json.text, request.json.range, BOUNDS.substitutionChars);
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  if (request.json && json !== undefined) {
    try {
      const parsed: unknown = JSON.parse(json);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    } catch (e) {
      fail(
        request.json.range,
        `The JSON body is not a valid JSON object after substituting variables (${e instanceof Error ? e.message : String(e)}).`,
        'json-invalid',
      );
      return { ok: false, diagnostics };
    }
  }
  const endpoint = findEndpoint(method, path);
  const signed = options.signed ?? endpoint?.signed ?? false;
  return {
    ok: true,
    value: {
      request,
      options,
      environment: ctx.environment,
      method: method as Method,
      url,
      origin,
      path,
      endpoint,
      params,
      json,
      headers,
      signed,
      keyProfile: options.keyProfile ?? ctx.environment.key,
      weight: options.weight ?? endpoint?.weight ?? 1,
      mode: options.mode ?? endpoint?.mode ?? (signed ? 'uid' : 'ip'),
      now: scope.now,
    },
  };
}
