/**
 * The WebSocket requests of `.http` files (httpYac's `WS URL`, the JetBrains client's
 * `WEBSOCKET URL`, `GET ws://…`) in TradeReq's form (docs/format.md, WebSocket requests): the
 * messages of the body become `[subscribe]` stream names (a SUBSCRIPTION message) or `[message]`
 * objects. What has no counterpart is kept as a comment and noted, as for HTTP requests.
 */
import { BOUNDS } from '../bounds';
import { credentialNote, isApiKeyHeader, isCredentialHeader, isCredentialName } from './credential-like';
import type { DraftRequest, DraftWs } from './draft';
import { readObject } from './json-placeholders';
import { Notes, shown } from './common';

function note(ctx: WsContext, text: string): void {
  ctx.notes.add(`${ctx.where}: ${text}`);
}

/** What the block reader lends: notes and comments at the request's line, `{{...}}` mapping. */
export interface WsContext {
  /** `file.http:LINE`, the request line's place. */
  readonly where: string;
  readonly notes: Notes;
  /** Keeps `text` as a comment below the request, or above its request line (credential lines scrubbed). */
  comment(text: string, above?: boolean): void;
  mapped(text: string): string;
}

/** `WS`, `WEBSOCKET` (and `WSS`) request lines, and a GET (or bare URL) of a ws:// or wss:// URL. */
export function isWebSocketLine(method: string, url: string): boolean {
  return /^(WS|WSS|WEBSOCKET)$/i.test(method) || (/^GET$/i.test(method) && /^wss?:\/\//i.test(url));
}

/**
 * The request line's target: a ws(s):// URL (an http(s) one takes the matching scheme), a path or
 * `{{variable}}…`. A listen key in the query becomes `# @listenKey`; other credentials go.
 */
export function readWsUrl(request: DraftRequest, url: string, ctx: WsContext): void {
  let target = ctx.mapped(url);
  const http = /^(https?):\/\//i.exec(target);
  if (http || !/^(wss?:\/\/|\/|\{\{)/i.test(target)) {
    const scheme = http?.[1]!.toLowerCase() === 'https' ? 'wss' : 'ws';
    target = `${scheme}://${http ? target.slice(http[0].length) : target}`;
    note(ctx, `the WebSocket URL ${shown(url)} is written as ${shown(target)}.`);
  }
  const q = target.indexOf('?');
  if (q >= 0) target = target.slice(0, q) + wsQuery(request, target.slice(q + 1), ctx);
  request.target = target;
}

/** The query of a WebSocket URL without its credentials, with its `?`. */
function wsQuery(request: DraftRequest, query: string, ctx: WsContext): string {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const pair of query.split('&')) {
    const name = pair.split('=', 1)[0]!;
    if (/^listenKey$/i.test(name)) {
      if (!request.directives.includes('listenKey')) request.directives.push('listenKey');
      note(
        ctx,
        'the listen key in the URL is not copied: # @listenKey obtains one when connecting (docs/format.md, WebSocket requests).',
      );
    } else if (isCredentialName(name)) dropped.push(name);
    else if (pair.length > 0) kept.push(pair);
  }
  if (dropped.length > 0) ctx.notes.add(credentialNote(ctx.where, 'the URL parameters', dropped));
  return kept.length > 0 ? '?' + kept.join('&') : '';
}

/** `===` between messages (JetBrains); `=== wait-for-server` waits for an answer first. */
const SEPARATOR = /^\s*===\s*(wait-for-server)?\s*$/i;

/** The body: messages separated by `===` lines (JetBrains), else one message (httpYac). */
export function readWsBody(ws: DraftWs, body: readonly string[], ctx: WsContext): void {
  let part: string[] = [];
  const flush = (): void => {
    const text = part.join('\n').trim();
    part = [];
    if (text.length > 0) readMessage(ws, text, ctx);
  };
  for (const line of body) {
    const separator = SEPARATOR.exec(line);
    if (!separator) {
      part.push(line);
      continue;
    }
    flush();
    if (separator[1] !== undefined) {
      ctx.comment(`no counterpart in TradeReq: ${line.trim()}`);
      note(
        ctx,
        '=== wait-for-server has no counterpart: TradeReq sends the messages one after another without waiting for an answer; kept as a comment.',
      );
    }
  }
  flush();
}

function readMessage(ws: DraftWs, raw: string, ctx: WsContext): void {
  // Past what the writer takes (write.ts refuses the request, counting them), messages are not read.
  if (ws.subscribe.length + ws.messages.length > BOUNDS.paramsPerRequest) {
    ws.messages.push(raw);
    return;
  }
  const text = ctx.mapped(raw);
  const read = readObject(text);
  if (!read) {
    ctx.comment(`message left out (not one JSON object):\n${raw}`);
    note(ctx, 'a WebSocket message that is not one JSON object has no counterpart and is kept as a comment.');
    return;
  }
  const streams = subscriptionStreams(read.value);
  if (streams) for (const name of streams) ws.subscribe.push(read.restore(name));
  else ws.messages.push(text);
}

/** The streams of `{"method": "SUBSCRIPTION", "params": [...], "id": N}`: TradeReq's `[subscribe]` sends them so. */
function subscriptionStreams(value: Record<string, unknown>): string[] | undefined {
  const params = value['params'];
  if (value['method'] !== 'SUBSCRIPTION' || !Array.isArray(params) || params.length === 0) return undefined;
  if (Object.keys(value).some((k) => k !== 'method' && k !== 'params' && k !== 'id')) return undefined;
  return params.every((p): p is string => typeof p === 'string') ? params : undefined;
}

/** A WebSocket request has no headers: the API key header becomes advice, the rest comments. */
export function readWsHeaders(
  headers: readonly { name: string; value: string }[],
  apiKeyHeaders: Set<string>,
  ctx: WsContext,
): void {
  for (const h of headers) {
    if (isApiKeyHeader(h.name)) apiKeyHeaders.add(h.name);
    else if (isCredentialHeader(h.name)) note(ctx, `the ${h.name} header is a credential and is not copied.`);
    else {
      ctx.comment(`header left out (a WebSocket request has no headers): ${h.name}: ${h.value}`, true);
      note(ctx, `the ${h.name} header has no counterpart in a WebSocket request and is kept as a comment.`);
    }
  }
}
