/**
 * Hover from the document model: error codes in comments and `@expect code` lines, what an `@expect`
 * line checks, parameters, enum values, endpoints, directives and variables (their resolved value;
 * never a secret).
 */
import type { ClockSample } from '../clock/clock';
import { DIRECTIVES } from '../format/directives';
import { t } from '../l10n';
import { expectationHover, requestPushPaths, type PushPath } from './expectation-help';
import { readStreamName } from '../catalog/stream-names';
import {
  contains,
  isWebSocket,
  range,
  requestAtLine,
  type Directive,
  type Range,
  type RequestBlock,
  type TradeReqDocument,
} from '../format/model';
import { SYSTEM_VARIABLES, VariableScope, type ResolveContext } from '../format/variables';
import type { NamedEnvironment } from '../env/constants';
import { lookupError } from '../catalog/errors';
import { findParam } from '../catalog/endpoints';
import { DEFAULT_DEPLOYMENT, deploymentOf, type Deployment } from '../catalog/deployment';
import { endpointCatalogOf } from '../catalog/endpoint-catalogs';
import {
  endpointMarkdown,
  errorCodeMarkdown,
  escapeMarkdown,
  inlineCode,
  paramMarkdown,
  sourceNote,
  streamMarkdown,
} from './markdown';

export interface HoverResult {
  readonly markdown: string;
  readonly range: Range;
}

export interface HoverContext {
  readonly environment: NamedEnvironment;
  /** The measured clock offset of the environment's origin, for 700003: asked for only on an error code (a read of the state). */
  readonly clock?: () => ClockSample | undefined;
}

/** The error code under the cursor in a comment or an `@expect code` line. */
function errorCodeAt(lineText: string, line: number, character: number): HoverResult | undefined {
  if (!/^\s*(#|\/\/)/.test(lineText)) return undefined;
  const re = /-?\d+/g;
  for (let m = re.exec(lineText); m; m = re.exec(lineText)) {
    if (character < m.index || character > m.index + m[0].length) continue;
    const info = lookupError(Number(m[0]));
    return info ? { markdown: '', range: range(line, m.index, line, m.index + m[0].length) } : undefined;
  }
  return undefined;
}

/** A WebSocket request's `# @expect message` paths: its pushes' fields under the environment's deployment. */
function pushPathsOf(request: RequestBlock | undefined, ctx: HoverContext): readonly PushPath[] {
  return request && isWebSocket(request) ? requestPushPaths(request, deploymentOf(ctx.environment)) : [];
}

/** An error code in a comment; on an `# @expect` line, what it checks (`code N` keeps its code's hover on the number). */
function commentHover(
  directives: readonly Directive[],
  lineText: string,
  line: number,
  character: number,
  ctx: HoverContext,
  pushPaths: () => readonly PushPath[] = () => [],
): HoverResult | undefined {
  const expect = directives.find(
    (d) => d.name.text === 'expect' && d.args !== undefined && contains(d.args.range, line, character),
  );
  if (expect && !/^code\b/.test(expect.args!.text)) return expectationHover(expect, pushPaths());
  const code = errorCodeAt(lineText, line, character);
  if (code) {
    const n = Number(lineText.slice(code.range.startChar, code.range.endChar));
    return { markdown: errorCodeMarkdown(lookupError(n)!, ctx.clock?.()), range: code.range };
  }
  return expect && expectationHover(expect);
}

export function hoverAt(
  doc: TradeReqDocument,
  lineText: string,
  line: number,
  character: number,
  ctx: HoverContext,
): HoverResult | undefined {
  const request = requestAtLine(doc, line);
  const pushes = () => pushPathsOf(request, ctx);
  const comment = commentHover(request?.directives ?? doc.fileDirectives, lineText, line, character, ctx, pushes);
  if (comment) return comment;

  const refs = request ? request.variableRefs : doc.variableRefs;
  const ref = refs.find((r) => contains(r.range, line, character));
  if (ref) return variableHover(doc, ref.name, ref.range, ctx);

  const directive = (request?.directives ?? doc.fileDirectives).find((d) => contains(d.name.range, line, character));
  if (directive) return directiveHover(directive);
  if (!request) return undefined;
  if (isWebSocket(request)) return wsHover(doc, request, line, character, ctx);

  const rl = request.requestLine;
  const deployment = deploymentOf(ctx.environment);
  const endpoint = endpointCatalogOf(deployment).find(rl.method.text, rl.path.text);
  if (contains(rl.path.range, line, character) || contains(rl.method.range, line, character)) {
    return endpoint
      ? { markdown: endpointMarkdown(endpoint), range: rl.range }
      : { markdown: unknownEndpoint(rl.method.text, rl.path.text, deployment), range: rl.range };
  }
  for (const p of request.params) {
    if (p.range.startLine > line || p.range.endLine < line) continue;
    if (contains(p.name.range, line, character)) {
      const info = endpoint ? findParam(endpoint, p.name.text) : undefined;
      if (info && endpoint) return { markdown: paramMarkdown(info, endpoint), range: p.name.range };
      return {
        markdown: endpoint
          ? t(
              '{0} is not a known parameter of {1} {2}. It is sent and signed as written.',
              inlineCode(p.name.text),
              endpoint.method,
              endpoint.path,
            )
          : t('{0} is not a known parameter. It is sent and signed as written.', inlineCode(p.name.text)),
        range: p.name.range,
      };
    }
    if (contains(p.value.range, line, character)) {
      const info = endpoint ? findParam(endpoint, p.name.text) : undefined;
      const value = info?.enumValues?.find((v) => v.value === p.value.text);
      if (value)
        return {
          markdown: `**${value.value}**: ${t(value.description)}\n\n${sourceNote(value.source)}`,
          range: p.value.range,
        };
    }
  }
  return undefined;
}

/** A request line whose endpoint the environment's deployment does not list. */
function unknownEndpoint(method: string, path: string, deployment: Deployment): string {
  const line = method + ' ' + path;
  const undocumented = endpointCatalogOf(deployment).undocumented(pathOf(path));
  if (undocumented)
    return t(
      '{0} is not documented by {1}: {2}. Its parameters are not checked, and its rate-limit weight is 1 unless `# @weight` says otherwise.',
      inlineCode(line),
      escapeMarkdown(deployment.title),
      t(undocumented.reason),
    );
  if (deployment !== DEFAULT_DEPLOYMENT)
    return t(
      '{0} is not in the endpoint catalog of {1}: its parameters are not checked, and its rate-limit weight is 1 unless `# @weight` says otherwise.',
      inlineCode(line),
      escapeMarkdown(deployment.title),
    );
  return t(
    "{0} is not in TradeReq's endpoint catalog: its parameters are not checked, and its rate-limit weight is 1 unless `# @weight` says otherwise.",
    inlineCode(line),
  );
}

/** The path of a request line's target, which may be a whole URL. */
function pathOf(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    return new URL(target).pathname;
  } catch {
    return target;
  }
}

/** A directive's name: what it does and how it is written. */
function directiveHover(directive: Directive): HoverResult {
  const info = DIRECTIVES.find((d) => d.name === directive.name.text);
  return {
    markdown: info
      ? `**@${info.name}**: ${t(info.description)}\n\n${inlineCode(info.usage)}`
      : t('Unknown directive {0}.', inlineCode('@' + directive.name.text)),
    range: directive.name.range,
  };
}

/** A WebSocket request: its request line, and each stream name (what it pushes, public or private). */
function wsHover(
  doc: TradeReqDocument,
  request: RequestBlock,
  line: number,
  character: number,
  ctx: HoverContext,
): HoverResult | undefined {
  const rl = request.requestLine;
  if (contains(rl.range, line, character)) {
    const where = ctx.environment.wsUrl ?? t('the base URL with ws:// or wss:// and the path /ws');
    const connects = t(
      '**WebSocket request**: connects to the WebSocket endpoint of the environment "{0}" (its wsUrl: {1}), subscribes the `[subscribe]` streams and sends each `[message]`. `/ws` is that endpoint; another path goes on its host, a ws:// or wss:// URL is used as written.',
      ctx.environment.name,
      inlineCode(where),
    );
    const deployment = deploymentOf(ctx.environment);
    const assumed =
      deployment.streamEncoding === 'protobuf'
        ? t(
            '_The stream names are those of the deployment {0} (its own documentation): its pushes are binary (Protocol Buffers), shown decoded; §8 limits a connection to 30 streams and 100 client messages a second._',
            deployment.title,
          )
        : t(
            '_The stream names and messages are assumed (not documented by the service, §6); §8 limits a connection to 30 streams and 100 client messages a second._',
          );
    return {
      markdown: `${connects}\n\n${assumed}`,
      range: rl.range,
    };
  }
  const token = request.streams.find((s) => contains(s.range, line, character));
  if (!token) return undefined;
  const name = token.text.includes('{{') ? substituted(doc, token.text, ctx) : token.text;
  const deployment = deploymentOf(ctx.environment);
  const parsed = readStreamName(name, deployment);
  return {
    markdown: parsed.ok
      ? streamMarkdown(parsed.value.info, name, deployment)
      : `${inlineCode(name)}: ${escapeMarkdown(parsed.error.message)}`,
    range: token.range,
  };
}

function substituted(doc: TradeReqDocument, text: string, ctx: HoverContext): string {
  const r = new VariableScope(doc, hoverContext(ctx)).substitute(text);
  return r.ok ? r.value : text;
}

function hoverContext(ctx: HoverContext): ResolveContext {
  return { environment: ctx.environment, now: () => Date.now(), uuid: () => '', clientOrderId: () => '' };
}

function variableHover(doc: TradeReqDocument, name: string, r: Range, ctx: HoverContext): HoverResult {
  const system = SYSTEM_VARIABLES.find((s) => s.name === name);
  if (system)
    return {
      markdown: `**{{${name}}}**: ${t('{0} Made when the request is sent.', t(system.description))}`,
      range: r,
    };
  const scope = new VariableScope(doc, hoverContext(ctx));
  const origin = scope.origin(name);
  if (origin === 'response') {
    return {
      markdown: `**{{${name}}}**: ${t('read from the last response of the named request when this one is sent.')}`,
      range: r,
    };
  }
  const value = scope.lookup(name);
  if (!value.ok) return { markdown: `**{{${name}}}**: ${value.error}.`, range: r };
  const where = origin === 'file' ? t('file variable') : t('variable of the environment "{0}"', ctx.environment.name);
  return { markdown: `**{{${name}}}** = ${inlineCode(value.value)}\n\n${where}`, range: r };
}
