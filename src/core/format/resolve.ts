/**
 * The resolve step: variables substituted (file, then environment, then system), the URL joined to
 * the environment's base URL, directives read, and the endpoint looked up in the catalog.
 * Pure: time and randomness come in through the context.
 */
import { randomUUID, randomBytes } from 'node:crypto';
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

/** A JSON value as text: strings as they are, everything else as JSON. */
export function jsonValueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** Follows `a.b[0].c` or `a.b.0.c` into a parsed JSON value. */
export function jsonPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p.length > 0)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

type Lookup = { ok: true; value: string } | { ok: false; message: string };

/** Variable lookup shared by resolve and the editor's hover and diagnostics. */
export class VariableScope {
  private readonly fileValues = new Map<string, string>();
  private readonly timestamp: number;

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

  lookup(name: string, visiting: Set<string> = new Set()): Lookup {
    if (visiting.has(name))
      return { ok: false, message: `"${name}" refers to itself through ${[...visiting].join(' → ')}` };
    const file = this.fileValues.get(name);
    if (file !== undefined) return this.substituteNested(name, file, visiting);
    const envVars = this.ctx.environment.variables;
    if (envVars && Object.hasOwn(envVars, name)) return this.substituteNested(name, String(envVars[name]), visiting);
    switch (name) {
      case '$timestamp':
        return { ok: true, value: String(this.timestamp) };
      case '$uuid':
        return { ok: true, value: this.ctx.uuid() };
      case '$clientOrderId':
        return { ok: true, value: this.ctx.clientOrderId() };
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
      return { ok: true, value: jsonValueText(found) };
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

  /** Replaces every `{{name}}` in `text`; the first failure is returned. */
  substitute(text: string, visiting: Set<string> = new Set()): Lookup {
    if (text.indexOf('{{') < 0) return { ok: true, value: text };
    let out = '';
    let last = 0;
    let p = text.indexOf('{{');
    while (p >= 0) {
      const close = text.indexOf('}}', p + 2);
      if (close < 0) break;
      const r = this.lookup(text.slice(p + 2, close).trim(), visiting);
      if (!r.ok) return r;
      out += text.slice(last, p) + r.value;
      last = close + 2;
      p = text.indexOf('{{', last);
    }
    return { ok: true, value: out + text.slice(last) };
  }

  private substituteNested(name: string, raw: string, visiting: Set<string>): Lookup {
    if (raw.indexOf('{{') < 0) return { ok: true, value: raw };
    const next = new Set(visiting);
    next.add(name);
    return this.substitute(raw, next);
  }
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
  const { options, diagnostics: directiveProblems } = readOptions(doc, request);
  const diagnostics: Diagnostic[] = [
    ...directiveProblems.filter((d) => d.severity === 'error'),
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

  const text = (s: string): string => {
    const r = scope.substitute(s);
    return r.ok ? r.value : s;
  };

  const target = text(request.requestLine.path.text);
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
    .map((p) => ({ name: text(p.name.text), value: text(p.value.text), placement: p.placement }));
  let json: string | undefined;
  if (request.json) {
    json = text(request.json.text);
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
  const headers = request.headers.map((h) => ({ name: h.name.text, value: text(h.value.text) }));
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
