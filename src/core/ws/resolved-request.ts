/**
 * A WebSocket request of a `.tradereq` file (docs/format.md, "WebSocket requests") once its variables
 * are resolved: what `tradereq listen` and the editor's stream view connect with. Variables and
 * directives are resolved exactly as for an HTTP request (format/resolve-begin.ts beginResolve); the
 * URL is the environment's wsUrl, or the request line's path on its origin, or a ws(s):// URL.
 */
import { BOUNDS } from '../bounds';
import { deploymentOf, type StreamEncoding } from '../catalog/deployment';
import { WS_RULES } from '../catalog/ws-limits';
import type { NamedEnvironment } from '../env/constants';
import type { Expectation, ListenOption } from '../format/directives';
import { isWebSocket, type Diagnostic, type RequestBlock, type TradeReqDocument } from '../format/model';
import { unclosedJsonMessage } from '../format/messages';
import { resolveExpectations } from '../format/expect-variables';
import { beginResolve, checkJsonObject, substituter, type Problems } from '../format/resolve-begin';
import type { ResolveContext } from '../format/variables';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';
import type { MessageExpectation } from './expect';
import { environmentWsUrl, parseWsUrl } from './url';

export type ListenBound = ListenOption;

export interface ResolvedWsRequest {
  /** The request's title (`### title`), else its request line. */
  readonly title: string;
  readonly name?: string;
  readonly environment: NamedEnvironment;
  /** The full ws:// or wss:// URL to connect to, without any listenKey. */
  readonly url: string;
  /** The environment's wsUrl: the only origin a listen key may be sent to. */
  readonly envWsUrl: string;
  /** The environment's REST base URL: where a listen key is obtained, and the gate's origin. */
  readonly restBaseUrl: string;
  /** How the environment's deployment sends pushes: JSON text, or Protocol Buffers the connection decodes. */
  readonly streamEncoding: StreamEncoding;
  /** `[subscribe]` stream names, variables substituted, in file order, without duplicates. */
  readonly streams: readonly string[];
  /** `[message]` bodies as JSON text, variables substituted, in file order. */
  readonly messages: readonly string[];
  /** `# @listenKey`: obtain a listen key with the request's key profile before connecting. */
  readonly listenKey: boolean;
  /** `# @key PROFILE`, else the environment's key profile. */
  readonly keyProfile?: string;
  readonly listen: ListenBound;
  readonly expectations: readonly MessageExpectation[];
}

/** A WebSocket request that cannot be resolved: what is wrong, with ranges (as resolveRequest). */
export type WsResolveResult = Result<ResolvedWsRequest, Diagnostic[]>;

/** `request` (a `WS PATH` request) with its variables substituted, against `context.environment`. */
export function resolveWsRequest(
  doc: TradeReqDocument,
  request: RequestBlock,
  context: ResolveContext,
): WsResolveResult {
  const rl = request.requestLine;
  if (!isWebSocket(request))
    return err([
      {
        range: rl.method.range,
        severity: 'error',
        message: t(
          '{0} {1} is not a WebSocket request: a WebSocket request line is WS PATH.',
          rl.method.text,
          rl.target.text,
        ),
        rule: 'unknown-method',
      },
    ]);
  const { options, scope, problems } = beginResolve(doc, request, context);
  for (const m of request.messages) if (!m.closed) problems.add(m.range, unclosedJsonMessage(), 'json-unclosed');
  if (problems.any) return err(problems.list);
  const text = substituter(scope, problems);
  const env = context.environment;
  const envWsUrl = environmentWsUrl(env);
  const url = wsTarget(text(rl.target.text, rl.target.range), envWsUrl, request, problems);
  const streams = [...new Set(request.streams.map((s) => text(s.text, s.range)))];
  const messages = request.messages.map((m) => {
    const json = text(m.text, m.range, BOUNDS.substitutionChars);
    if (!problems.any) checkJsonObject(json, m.range, problems, 'message');
    return json;
  });
  // `tradereq listen` judges the `# @expect message` lines: their variables resolve as the request's.
  const expectations = context.expectations
    ? resolveExpectations(options.expectations, scope, problems)
    : options.expectations;
  if (problems.any || url === undefined || envWsUrl === undefined) return err(problems.list);
  return ok({
    title: request.title?.text || `${rl.method.text} ${rl.target.text}`,
    name: options.name,
    environment: env,
    url,
    envWsUrl,
    restBaseUrl: env.baseUrl,
    streamEncoding: deploymentOf(env).streamEncoding,
    streams,
    messages,
    listenKey: options.listenKey,
    keyProfile: options.keyProfile ?? env.key,
    listen: options.listen,
    expectations: expectations.filter(isMessageExpectation).map((e) => ({
      path: e.path,
      value: e.value,
      text: e.shown ?? e.directive.args?.text,
      line: { check: e.check, steps: e.steps },
    })),
  });
}

function isMessageExpectation(e: Expectation): e is Extract<Expectation, { kind: 'message' }> {
  return e.kind === 'message';
}

/**
 * The URL of the (substituted) request target: a ws:// or wss:// URL as written; `/ws`, the
 * family's one endpoint, is the environment's wsUrl whatever its path; another path goes on the
 * wsUrl's origin. A listenKey written in it is refused: it is a credential (`# @listenKey` gets one).
 */
function wsTarget(
  target: string,
  envWsUrl: string | undefined,
  request: RequestBlock,
  problems: Problems,
): string | undefined {
  const at = request.requestLine.target.range;
  if (problems.any) return undefined;
  if (envWsUrl === undefined || parseWsUrl(envWsUrl) === undefined) {
    const message = t(
      'The environment has no usable wsUrl ("{0}"): set "wsUrl": "wss://…/ws" in tradereq.env.json.',
      envWsUrl ?? '',
    );
    problems.add(at, message, 'bad-target');
    return undefined;
  }
  const u = /^wss?:\/\//i.test(target)
    ? parseWsUrl(target)
    : target.startsWith('/')
      ? parseWsUrl(pathOn(envWsUrl, target))
      : undefined;
  if (u === undefined) {
    problems.add(at, t('"{0}" is not a path starting with / or a ws:// or wss:// URL.', target), 'bad-target');
    return undefined;
  }
  if (u.searchParams.has('listenKey')) {
    const message = t(
      'A listen key is a credential: never write it in a file. Remove ?listenKey= and add `# @listenKey`, which obtains one when connecting.',
    );
    problems.add(at, message, 'bad-target');
    return undefined;
  }
  return u.href;
}

/** `path` (with its query) on the origin of `wsUrl`; `/ws` is `wsUrl` itself (with the query added). */
function pathOn(wsUrl: string, path: string): string {
  const q = path.indexOf('?');
  const pathname = q < 0 ? path : path.slice(0, q);
  const base = new URL(wsUrl);
  if (pathname === WS_RULES.path) return q < 0 ? base.href : base.origin + base.pathname + path.slice(q);
  return base.origin + path;
}
