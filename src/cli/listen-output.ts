/**
 * What `tradereq listen` prints: readable lines (pushes and progress on standard output, problems
 * on standard error), or with --json one JSON object a line on standard output. Every text goes
 * through the terminal writer the command gets (safeIo), so a push cannot rewrite the terminal;
 * URLs and snapshots come from the client core with any listen key already masked.
 */
import type { Reply } from '../core/catalog/streams';
import type { MessageExpectationResult } from '../core/ws/expect';
import type { ListenBound } from '../core/ws/resolved-request';
import type { ConnectionSnapshot, Counts, Gap, SubscriptionOutcome, WsEventOf, WsFailure } from '../core/ws/types';
import { LISTEN, REQUESTS } from './messages';
import type { Io } from './usage';

/** Why a run ended: its bound (count, duration, a signal), the server closed it, an error nobody caught, or it never opened. */
export type EndReason = 'count' | 'duration' | 'signal' | 'closed' | 'error' | 'failed';

export interface End {
  readonly reason: EndReason;
  readonly pushes: number;
  readonly ms: number;
  readonly bound?: ListenBound;
  /** When the server closed the connection: its close code and reason, and what they mean. */
  readonly code?: number;
  readonly closeReason?: string;
  readonly message?: string;
  readonly expectations: readonly MessageExpectationResult[];
  readonly exit: number;
  /** The times without a connection that the client reconnected over (reconnect.ts). */
  readonly gaps?: readonly Gap[];
  /** Frames dropped on the connection, by why (the connection's counts). */
  readonly dropped?: DroppedFrames;
}

/** The connection's counts of dropped frames. */
export type DroppedFrames = Pick<Counts, 'notJson' | 'binary' | 'unknown' | 'tooLarge' | 'undecodable' | 'textPush'>;

/** The dropped-frame counts of a connection's counts. */
export function droppedFrames(c: Counts): DroppedFrames {
  const { notJson, binary, unknown, tooLarge, undecodable, textPush } = c;
  return { notJson, binary, unknown, tooLarge, undecodable, textPush };
}

/** "12:00:01.250": the time a push came, UTC. */
function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

export class ListenOutput {
  constructor(
    private readonly io: Io,
    private readonly json: boolean,
  ) {}

  private record(value: Record<string, unknown>): void {
    this.io.out(JSON.stringify(value));
  }

  connected(s: ConnectionSnapshot): void {
    if (this.json) return this.record({ type: 'connected', url: s.state.url ?? null, listenKey: s.listenKey ?? null });
    this.io.out(LISTEN.connected(s.state.url ?? '', s.listenKey));
  }

  subscription(o: SubscriptionOutcome): void {
    if (this.json)
      return this.record({
        type: 'subscription',
        stream: o.stream,
        ok: o.ok,
        code: o.code ?? null,
        msg: o.msg ?? null,
      });
    if (o.ok) this.io.out(LISTEN.subscribed(o.stream));
    else this.io.err(LISTEN.notSubscribed(o.stream, o.code, o.msg ?? ''));
  }

  /**
   * A JSON push prints its `d`; a decoded binary push its body under its name. A push nested too
   * deeply to write out as JSON comes with its text (clipped): shown as it is, as REST answers are.
   */
  push(e: WsEventOf<'push'>): void {
    if (e.encoding === 'protobuf') {
      if (this.json) return this.record({ type: 'push', stream: e.stream, body: e.body, at: e.at, push: e.json });
      const body = (e.json as Readonly<Record<string, unknown>>)[e.body];
      return this.io.out(`${clock(e.at)} ${e.stream} ${JSON.stringify({ [e.body]: body })}`);
    }
    const push = e.text ?? e.push;
    if (this.json) return this.record({ type: 'push', stream: e.stream, kind: e.kind, at: e.at, push });
    this.io.out(`${clock(e.at)} ${e.stream} ${e.text ?? JSON.stringify(e.push.d)}`);
  }

  reply(reply: Reply): void {
    if (this.json) return this.record({ type: 'reply', reply });
    // A refusal goes to standard error, as docs/cli.md says of refusals.
    (reply.code === 0 ? this.io.out : this.io.err)(LISTEN.reply(JSON.stringify(reply)));
  }

  frame(e: WsEventOf<'frame'>): void {
    const text = LISTEN.frameDropped(e.count, e.why, e.sample);
    if (this.json) return this.record({ type: 'error', kind: e.problem, message: text });
    this.io.err(`! ${text}`);
  }

  error(f: WsFailure): void {
    if (this.json) return this.record({ type: 'error', kind: f.kind, message: f.message });
    this.io.err(`✘ ${f.message}`);
  }

  /** A gap as it starts (the close) and as it ends (open and re-subscribed again). */
  gap(g: Gap): void {
    if (this.json) return this.record({ type: 'gap', ...gapRecord(g) });
    if (g.endedAt === undefined) this.io.err(`! ${LISTEN.gapStarted(clock(g.startedAt), g.code, g.reason)}`);
    else if (g.resumed === true) this.io.out(LISTEN.gapEnded(clock(g.endedAt), seconds(g), g.attempts, estimate(g)));
  }

  /** An error nobody caught (a failed write, a bug): the run ends, closing the connection and its listen key. */
  unexpected(message: string): void {
    const text = LISTEN.unexpected(message);
    if (this.json) return this.record({ type: 'error', kind: 'unexpected', message: text });
    this.io.err(`✘ ${text}`);
  }

  end(e: End): void {
    if (this.json)
      return this.record({
        type: 'end',
        reason: e.reason,
        pushes: e.pushes,
        ms: e.ms,
        code: e.code ?? null,
        closeReason: e.closeReason ?? null,
        message: e.message ?? null,
        expectations: e.expectations,
        gaps: (e.gaps ?? []).map(gapRecord),
        ...(e.dropped && { dropped: e.dropped }),
        exit: e.exit,
      });
    if (e.reason === 'failed') this.io.err(LISTEN.notConnected(e.message ?? ''));
    else if (e.reason === 'closed') this.io.err(LISTEN.closedByServer(e.code, e.closeReason, e.message ?? ''));
    if (e.reason !== 'failed') this.io.out(LISTEN.closedAfter(e.pushes, (e.ms / 1000).toFixed(1), ending(e)));
    const dropped = e.dropped === undefined ? 0 : Object.values(e.dropped).reduce((a, b) => a + b, 0);
    if (e.dropped !== undefined && dropped > 0) this.io.err(`! ${LISTEN.framesDropped(dropped, e.dropped)}`);
    const gaps = e.gaps ?? [];
    if (gaps.length > 0) {
      const missed = gaps.reduce((n, g) => n + (g.missedEstimate ?? 0), 0);
      const ms = gaps.reduce((n, g) => n + ((g.endedAt ?? g.startedAt) - g.startedAt), 0);
      this.io.out(LISTEN.gapsSummary(gaps.length, (ms / 1000).toFixed(1), missed));
      for (const g of gaps)
        this.io.out(`  ${LISTEN.gapLine(clock(g.startedAt), seconds(g), g.code, g.reason, estimate(g))}`);
    }
    for (const x of e.expectations)
      this.io.out(`${x.passed ? '✔' : '✘'} ${REQUESTS.expectation(x.text, x.passed, x.actual)}`);
  }
}

/** A gap for --json: times in Unix ms, null where not known. */
function gapRecord(g: Gap): Record<string, unknown> {
  return {
    startedAt: g.startedAt,
    endedAt: g.endedAt ?? null,
    resumed: g.resumed ?? null,
    code: g.code ?? null,
    reason: g.reason,
    attempts: g.attempts,
    ratePerSecond: g.ratePerSecond,
    missedEstimate: g.missedEstimate ?? null,
  };
}

function seconds(g: Gap): string {
  return (((g.endedAt ?? g.startedAt) - g.startedAt) / 1000).toFixed(1);
}

function estimate(g: Gap): string {
  return LISTEN.missedEstimate(g.missedEstimate ?? 0, g.ratePerSecond.toFixed(1));
}

function ending(e: End): string {
  switch (e.reason) {
    case 'count':
      return LISTEN.endedByCount(e.bound?.count ?? e.pushes);
    case 'duration':
      return LISTEN.endedByDuration((e.bound?.durationMs ?? e.ms) / 1000);
    case 'signal':
      return LISTEN.endedBySignal;
    case 'error':
      return LISTEN.endedByFailure;
    default:
      return '';
  }
}
