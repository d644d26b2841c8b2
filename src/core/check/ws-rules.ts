/**
 * What the check step says about a WebSocket request (docs/format.md, "WebSocket requests"): the §8
 * limits (30 streams, 100 client messages a second), stream names the catalog does not know
 * (catalog/stream-names.ts, assumed), private streams without a listen key, and directives written
 * on the wrong kind of request.
 */
import { EXPECT_KINDS } from '../format/expectation';
import { readStreamName, type StreamProblem } from '../catalog/stream-names';
import { WS_RULES } from '../catalog/ws-limits';
import type { RequestOptions } from '../format/directives';
import { isWebSocket, range, type Directive, type Range, type RequestBlock, type Token } from '../format/model';
import type { VariableScope } from '../format/variables';
import { Findings } from './findings';
import { effectiveText } from './values';

export function checkWsRequest(
  request: RequestBlock,
  options: RequestOptions,
  scope: VariableScope,
  out: Findings,
): void {
  const names = new Map<string, Token>();
  for (const token of request.streams) {
    const v = effectiveText(token.text, scope);
    if (!v) continue;
    if (!names.has(v.value)) names.set(v.value, token);
    const parsed = readStreamName(v.value);
    if (!parsed.ok) streamProblem(token, v.literal, parsed.error, out);
    else if (parsed.value.info.visibility === 'private' && !options.listenKey) {
      const message = `${parsed.value.info.channel} is private: it needs a listen key, or the service refuses the subscription. Add \`# @listenKey\` to this request (TradeReq obtains one with the request's key profile when connecting).`;
      out.add('private-stream', token.range, message);
    }
  }
  const distinct = [...names.values()];
  const max = WS_RULES.streamsPerConnection;
  if (distinct.length > max) {
    const message = `This request subscribes ${distinct.length} streams: §8 allows at most ${max} per connection, and the service refuses those past the ${max}th. Split them over ${Math.ceil(distinct.length / max)} WebSocket requests.`;
    out.add('ws-streams', span(distinct[max]!.range, distinct[distinct.length - 1]!.range), message);
  }
  checkMessageRate(request, distinct, out);
}

/** A problem of the catalog's parse, at its place in the name when the name is written as is. */
function streamProblem(token: Token, literal: boolean, problem: StreamProblem, out: Findings): void {
  const at = literal ? within(token, problem.start, problem.end) : token.range;
  if (problem.kind === 'bad-symbol' && problem.suggestion !== undefined) {
    const symbol = problem.suggestion.slice(problem.start, problem.end);
    const fix = literal ? { title: `Change to ${symbol}`, replacement: symbol } : undefined;
    out.add('stream-symbol-case', at, `${problem.message} The service refuses the subscription otherwise.`, { fix });
    return;
  }
  out.add('unknown-stream', at, `${problem.message} The service refuses the subscription.`);
}

/** Characters [start, end) of a one-line token; an empty span is widened to the token so it shows. */
function within(token: Token, start: number, end: number): Range {
  const r = token.range;
  if (end <= start) return r;
  return range(r.startLine, r.startChar + start, r.startLine, r.startChar + Math.min(end, token.text.length));
}

function span(from: Range, to: Range): Range {
  return range(from.startLine, from.startChar, to.endLine, to.endChar);
}

/**
 * §8: at most 100 messages a second from a client. When the connection opens, the client sends its
 * SUBSCRIPTION messages (up to 30 streams each) and every `[message]` at once; TradeReq paces them
 * (ws/pacer.ts), but a list past the limit is one the service would cut. Any number of streams and
 * messages a file may hold (docs/format.md, Limits) gets a finding whose advice can be followed.
 */
function checkMessageRate(request: RequestBlock, streams: readonly Token[], out: Findings): void {
  const per = WS_RULES.streamsPerConnection;
  const limit = WS_RULES.messagesPerSecond;
  const messages = request.messages;
  const subscriptions = Math.ceil(streams.length / per);
  const total = subscriptions + messages.length;
  if (total <= limit) return;
  const subs = subscriptions > 0 ? ` and ${subscriptions} SUBSCRIPTION` : '';
  const said = `This request sends ${total} messages as it connects (${messages.length} [message]${subs}): §8 allows ${limit} a second from a client, beyond it the connection is cut, and IPs cut repeatedly are banned.`;
  const room = limit - subscriptions;
  if (room > 0) {
    const at = span(messages[room]!.range, messages[messages.length - 1]!.range);
    out.add('ws-message-rate', at, `${said} Send at most ${room} [message] sections.`);
    return;
  }
  // The SUBSCRIPTION messages alone reach the limit: fewer [message] sections could not help.
  const first = subscriptions > limit ? streams[limit * per]! : messages[0]!;
  const then = messages.length > 0 ? ` and send at most ${limit - 1} [message] sections with them` : '';
  const advice = `Its ${streams.length} streams alone take ${subscriptions} SUBSCRIPTION messages (${per} streams each): subscribe at most ${per} streams in one request${then}.`;
  out.add('ws-message-rate', span(first.range, lastOf(streams, messages).range), `${said} ${advice}`);
}

/** The later in the file of the last stream and the last message. */
function lastOf(streams: readonly Token[], messages: RequestBlock['messages']): { readonly range: Range } {
  const a = streams[streams.length - 1];
  const b = messages[messages.length - 1];
  if (!a || !b) return (a ?? b)!;
  const r = a.range;
  const q = b.range;
  return r.endLine > q.endLine || (r.endLine === q.endLine && r.endChar >= q.endChar) ? a : b;
}

const WS_ONLY = new Set(['listenKey', 'listen']);
const HTTP_ONLY = new Set(['signed', 'unsigned', 'weight', 'mode', 'confirm', 'signature', 'data', 'mask']);

/** A request's own directive that its kind ignores (file directives apply to every kind of request). */
export function checkDirectiveKinds(request: RequestBlock, out: Findings): void {
  const ws = isWebSocket(request);
  for (const d of request.directives) {
    const name = d.name.text;
    const kind = name === 'expect' ? expectKind(d) : undefined;
    if (ws && (HTTP_ONLY.has(name) || (kind !== undefined && kind !== 'message'))) {
      const message = `# @${name}${kind ? ' ' + kind : ''} applies to HTTP requests: a WebSocket request ignores it.${kind ? ' Check pushes with `# @expect message PATH == VALUE`.' : ''}`;
      out.add('ws-directive', d.range, message);
    } else if (!ws && (WS_ONLY.has(name) || kind === 'message')) {
      const message = `# @${name}${kind ? ' ' + kind : ''} applies to WebSocket requests (WS /ws): an HTTP request ignores it.`;
      out.add('ws-directive', d.range, message);
    }
  }
}

function expectKind(d: Directive): string | undefined {
  const kind = /^\w+/.exec(d.args?.text ?? '')?.[0];
  return (EXPECT_KINDS as readonly string[]).includes(kind ?? '') ? kind : undefined;
}
