/**
 * What the check step says about a WebSocket request (docs/format.md, "WebSocket requests"): the §8
 * limits (30 streams, 100 client messages a second), stream names the environment's deployment does
 * not know (catalog/stream-names.ts), a name of another deployment with its equivalent as a quick
 * fix, private streams without a listen key, and directives written on the wrong kind of request.
 */
import { EXPECT_KINDS } from '../format/expectation';
import { deploymentOf } from '../catalog/deployment';
import { readStreamName, type StreamProblem } from '../catalog/stream-names';
import { WS_RULES } from '../catalog/ws-limits';
import type { RequestOptions } from '../format/directives';
import { isWebSocket, range, type Directive, type Range, type RequestBlock, type Token } from '../format/model';
import type { VariableScope } from '../format/variables';
import type { NamedEnvironment } from '../env/constants';
import { t } from '../l10n';
import { Findings } from './findings';
import { effectiveText } from './values';

export function checkWsRequest(
  request: RequestBlock,
  options: RequestOptions,
  scope: VariableScope,
  out: Findings,
  environment: NamedEnvironment,
): void {
  const deployment = deploymentOf(environment);
  const names = new Map<string, Token>();
  for (const token of request.streams) {
    const v = effectiveText(token.text, scope);
    if (!v) continue;
    if (!names.has(v.value)) names.set(v.value, token);
    const parsed = readStreamName(v.value, deployment);
    if (!parsed.ok) streamProblem(token, v.literal, parsed.error, out, environment);
    else if (parsed.value.info.visibility === 'private' && !options.listenKey) {
      const message = t(
        "{0} is private: it needs a listen key, or the service refuses the subscription. Add `# @listenKey` to this request (TradeReq obtains one with the request's key profile when connecting).",
        parsed.value.info.channel,
      );
      out.add('private-stream', token.range, message);
    }
  }
  const distinct = [...names.values()];
  const max = WS_RULES.streamsPerConnection;
  if (distinct.length > max) {
    const message = t(
      'This request subscribes {0} streams: §8 allows at most {1} per connection, and the service refuses those past the {1}th. Split them over {2} WebSocket requests.',
      distinct.length,
      max,
      Math.ceil(distinct.length / max),
    );
    out.add('ws-streams', span(distinct[max]!.range, distinct[distinct.length - 1]!.range), message);
  }
  checkMessageRate(request, distinct, out);
}

/**
 * A problem of the catalog's parse, at its place in the name when the name is written as is; a
 * plain correction (the suggestion) is a quick fix of that place, never through a variable.
 */
function streamProblem(
  token: Token,
  literal: boolean,
  problem: StreamProblem,
  out: Findings,
  environment: NamedEnvironment,
): void {
  const at = literal ? within(token, problem.start, problem.end) : token.range;
  const replacement = literal ? replacementOf(token.text, problem) : undefined;
  const fix = replacement !== undefined ? { title: t('Change to {0}', replacement), replacement } : undefined;
  if (problem.kind === 'bad-symbol' && problem.suggestion !== undefined) {
    const message = t('{0} The service refuses the subscription otherwise.', problem.message);
    out.add('stream-symbol-case', at, message, { fix });
    return;
  }
  if (problem.kind === 'other-deployment') {
    // Either the name or the environment is wrong: say both ways out.
    const message = t(
      '{0} The service refuses the subscription; or name the deployment this file is for in the environment "{1}" of tradereq.env.json ("deployment": "{2}").',
      problem.message,
      environment.name,
      problem.deployment ?? '',
    );
    out.add('stream-deployment', at, message, { fix });
    return;
  }
  out.add('unknown-stream', at, t('{0} The service refuses the subscription.', problem.message), { fix });
}

/** The text of the problem's place in the corrected name (which differs from the name only there). */
function replacementOf(name: string, problem: StreamProblem): string | undefined {
  const s = problem.suggestion;
  if (s === undefined || problem.end <= problem.start) return undefined;
  const tail = name.length - problem.end;
  if (
    s.slice(0, problem.start) !== name.slice(0, problem.start) ||
    s.slice(s.length - tail) !== name.slice(problem.end)
  )
    return undefined;
  return s.slice(problem.start, s.length - tail);
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
  const said =
    subscriptions > 0
      ? t(
          'This request sends {0} messages as it connects ({1} [message] and {2} SUBSCRIPTION): §8 allows {3} a second from a client, beyond it the connection is cut, and IPs cut repeatedly are banned.',
          total,
          messages.length,
          subscriptions,
          limit,
        )
      : t(
          'This request sends {0} messages as it connects ({1} [message]): §8 allows {2} a second from a client, beyond it the connection is cut, and IPs cut repeatedly are banned.',
          total,
          messages.length,
          limit,
        );
  const room = limit - subscriptions;
  if (room > 0) {
    const at = span(messages[room]!.range, messages[messages.length - 1]!.range);
    out.add('ws-message-rate', at, t('{0} Send at most {1} [message] sections.', said, room));
    return;
  }
  // The SUBSCRIPTION messages alone reach the limit: fewer [message] sections could not help.
  const first = subscriptions > limit ? streams[limit * per]! : messages[0]!;
  const message =
    messages.length > 0
      ? t(
          '{0} Its {1} streams alone take {2} SUBSCRIPTION messages ({3} streams each): subscribe at most {3} streams in one request and send at most {4} [message] sections with them.',
          said,
          streams.length,
          subscriptions,
          per,
          limit - 1,
        )
      : t(
          '{0} Its {1} streams alone take {2} SUBSCRIPTION messages ({3} streams each): subscribe at most {3} streams in one request.',
          said,
          streams.length,
          subscriptions,
          per,
        );
  out.add('ws-message-rate', span(first.range, lastOf(streams, messages).range), message);
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
    const written = `# @${name}${kind ? ' ' + kind : ''}`;
    if (ws && (HTTP_ONLY.has(name) || (kind !== undefined && kind !== 'message'))) {
      const message = kind
        ? t(
            '{0} applies to HTTP requests: a WebSocket request ignores it. Check pushes with `# @expect message PATH == VALUE`.',
            written,
          )
        : t('{0} applies to HTTP requests: a WebSocket request ignores it.', written);
      out.add('ws-directive', d.range, message);
    } else if (!ws && (WS_ONLY.has(name) || kind === 'message')) {
      const message = t('{0} applies to WebSocket requests (WS /ws): an HTTP request ignores it.', written);
      out.add('ws-directive', d.range, message);
    }
  }
}

function expectKind(d: Directive): string | undefined {
  const kind = /^\w+/.exec(d.args?.text ?? '')?.[0];
  return (EXPECT_KINDS as readonly string[]).includes(kind ?? '') ? kind : undefined;
}
