/**
 * The resolve step: variables substituted (variables.ts), the URL joined to the environment's base
 * URL, directives read, and the endpoint looked up in the catalog. A value that cannot be
 * substituted whole is refused: nothing is sent half-resolved. Pure: time and randomness come in
 * through the context.
 */
import { BOUNDS } from '../bounds';
import { endpointWeight } from '../catalog/endpoints';
import { endpointsOf } from '../catalog/endpoint-catalogs';
import type { EndpointInfo, RateLimitMode } from '../catalog/types';
import type { NamedEnvironment } from '../env/constants';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';
import type { RequestOptions } from './directives';
import { METHODS, WS_METHOD, type Diagnostic, type Method, type Placement, type RequestBlock } from './model';
import type { TradeReqDocument } from './model';
import { unclosedJsonMessage, unknownMethodMessage, wsNotHttpMessage } from './messages';
import { resolveExpectations } from './expect-variables';
import { beginResolve, checkJsonObject, substituter, type Problems } from './resolve-begin';
import type { ResolveContext } from './variables';

export { defaultContext, type ResolveContext } from './variables';

interface ResolvedParam {
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

/** A request that cannot be resolved: what is wrong, with ranges. */
export type ResolveResult = Result<ResolvedRequest, Diagnostic[]>;

export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

export function resolveRequest(doc: TradeReqDocument, request: RequestBlock, ctx: ResolveContext): ResolveResult {
  const { scope, options, problems } = beginResolve(doc, request, ctx);
  checkShape(request, problems);
  if (problems.any) return err(problems.list);
  const text = substituter(scope, problems);
  const target = resolveTarget(
    text(request.requestLine.path.text, request.requestLine.path.range),
    request,
    ctx,
    problems,
  );
  if (!target) return err(problems.list);
  const params = request.params
    .filter((p) => p.origin !== 'json')
    .map((p) => ({
      name: text(p.name.text, p.name.range),
      value: text(p.value.text, p.value.range),
      placement: p.placement,
    }));
  const headers = request.headers.map((h) => ({ name: h.name.text, value: text(h.value.text, h.value.range) }));
  const json = request.json ? text(request.json.text, request.json.range, BOUNDS.substitutionChars) : undefined;
  if (!problems.any && request.json && json !== undefined) checkJsonObject(json, request.json.range, problems);
  const expectations = ctx.expectations
    ? resolveExpectations(options.expectations, scope, problems)
    : options.expectations;
  if (problems.any) return err(problems.list);
  const judged = expectations === options.expectations ? options : { ...options, expectations };
  return ok(assemble(request, judged, ctx, { ...target, params, headers, json, now: scope.now }));
}

/** What the parser may have let through but nothing can be sent with. */
function checkShape(request: RequestBlock, problems: Problems): void {
  const method = request.requestLine.method.text;
  if (method === WS_METHOD) {
    problems.add(request.requestLine.method.range, wsNotHttpMessage(), 'unknown-method');
  } else if (!(METHODS as readonly string[]).includes(method)) {
    problems.add(request.requestLine.method.range, unknownMethodMessage(method), 'unknown-method');
  }
  if (request.json && !request.json.closed) problems.add(request.json.range, unclosedJsonMessage(), 'json-unclosed');
}

interface Target {
  readonly url: string;
  readonly origin: string;
  readonly path: string;
}

/** The full URL, origin and path of the request line's (substituted) target. */
function resolveTarget(
  target: string,
  request: RequestBlock,
  ctx: ResolveContext,
  problems: Problems,
): Target | undefined {
  if (problems.any) return undefined;
  const absolute = /^https?:\/\//i.test(target);
  const full = absolute ? target : target.startsWith('/') ? joinUrl(ctx.environment.baseUrl, target) : undefined;
  const parsed = full === undefined ? undefined : safeUrl(full);
  // A query or fragment smuggled in through a variable is not a path.
  if (full === undefined || !parsed || parsed.search || parsed.hash) {
    const message = t('"{0}" is not a path starting with / or an http(s):// URL.', target);
    problems.add(request.requestLine.target.range, message, 'bad-target');
    return undefined;
  }
  return { url: full, origin: parsed.origin, path: absolute ? parsed.pathname : target };
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

type Parts = Target & Pick<ResolvedRequest, 'params' | 'headers' | 'json' | 'now'>;

/** The resolved request: signing, key profile and rate limit from the directives, else the catalog. */
function assemble(request: RequestBlock, options: RequestOptions, ctx: ResolveContext, parts: Parts): ResolvedRequest {
  const method = request.requestLine.method.text as Method;
  const endpoint = endpointsOf(ctx.environment).find(method, parts.path);
  const sent = (name: string): boolean => parts.params.some((p) => p.name === name);
  const signed = options.signed ?? endpoint?.signed ?? false;
  return {
    request,
    options,
    environment: ctx.environment,
    method,
    endpoint,
    ...parts,
    signed,
    keyProfile: options.keyProfile ?? ctx.environment.key,
    weight: options.weight ?? (endpoint ? endpointWeight(endpoint, sent) : 1),
    mode: options.mode ?? endpoint?.mode ?? (signed ? 'uid' : 'ip'),
  };
}
