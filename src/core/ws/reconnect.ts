/**
 * Connections that last a day (docs/websocket.md, "Connection lifetime"): a WsSession holds one
 * WsConnection after another. When the server closes the connection (its 24 h lifetime, an idle
 * close, a drop), the session waits out a back-off and opens a new one through the same gate
 * (upgrade.ts: a ban or a Retry-After in the rate-limit state holds it back), re-subscribes the
 * streams the old one held, and goes on with the same listen key, which it keeps renewed
 * (deployment.listenKey.renewEveryMs). What it cannot come back from (a close the user asked for,
 * a §8 cut, a ban, a refused key that a new one does not cure) ends it, with the reason. Each time
 * without a connection is a gap: when, why, and how many pushes it may have cost (an estimate).
 *
 * The back-off is a small schedule of its own rather than a library: none is in package.json, and
 * the ones on npm wait with their own setTimeout, which a test could not move (timers.ts).
 */
import { clip, BOUNDS } from '../bounds';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';
import { FAILURE_CODES } from '../net/send';
import type { ConnectOptions, ConnectResult, WsConnection } from './connection';
import { WsEmitter } from './emitter';
import { ListenKeyLease } from './listen-key';
import { NODE_TIMERS, type Timers } from './timers';
import {
  noCounts,
  type ConnectionSnapshot,
  type Counts,
  type ConnectionState,
  type MutableCounts,
  type Gap,
  type MessageSent,
  type SubscriptionOutcome,
  type WsEvent,
  type WsFailure,
} from './types';

/** The reconnect schedule (docs/websocket.md, "Connection lifetime"; docs/security.md). */
export const RECONNECT = {
  /** The first wait after a close: never a reconnect at once, whatever closed it. */
  firstMs: 1_000,
  /** Each failed attempt doubles the wait, up to this. */
  maxMs: 60_000,
  /** A connection open this long starts the schedule again from firstMs. */
  stableMs: 60_000,
  /** Attempts in a row that do not open before the session gives up (about 15 minutes of waits). */
  maxAttempts: 20,
  /** Gaps a session keeps for the view and the report; older ones are counted. */
  maxGaps: 50,
  /** Listen keys a session remembers to mask after it replaced them. */
  maxPastKeys: 8,
} as const;

/**
 * The wait before attempt `attempt` (0: the first after a close): the step doubles from firstMs up
 * to maxMs, and the wait is the step's upper half drawn at random ("equal jitter"), so that many
 * clients cut at once do not come back at once, and none comes back sooner than half the step.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(RECONNECT.maxMs, RECONNECT.firstMs * 2 ** Math.min(attempt, 20));
  return Math.round(step / 2 + (step / 2) * Math.min(1, Math.max(0, random())));
}

/** Close codes after which the session comes back (RFC 6455 §7.4.1: normal, going away, no code, dropped, server error, restart, try later, bad gateway). */
const RECONNECT_CODES: ReadonlySet<number> = new Set([1000, 1001, 1005, 1006, 1011, 1012, 1013, 1014]);

/** Why a close of an open connection ends the session, or undefined when it reconnects. */
function stopAfterClose(code: number | undefined): string | undefined {
  if (code === 1008)
    return t(
      'a connection cut for breaking a rule is not re-opened: §8 bans IPs that are cut repeatedly. Connect again once the cause is fixed.',
    );
  if (code === undefined || RECONNECT_CODES.has(code)) return undefined;
  return t('close code {0} says not to come back.', code);
}

type Verdict = { readonly stop: string } | { readonly retryAtMs?: number; readonly renewKey?: true };

export interface WsSessionOptions {
  /** Makes each connection of the session (a new WsConnection, same options, every time). */
  readonly connection: () => WsConnection;
  /** false: the first close ends the session, as a single connection (`--no-reconnect`, the setting). */
  readonly reconnect: boolean;
  /** Default Node's; a test moves them by hand. */
  readonly timers?: Timers;
  /** For the jitter; default Math.random. */
  readonly random?: () => number;
  /** Unix ms. Default Date.now. */
  readonly now?: () => number;
}

export class WsSession extends WsEmitter {
  readonly #o: WsSessionOptions;
  readonly #timers: Timers;
  readonly #now: () => number;
  #current: WsConnection;
  #stopCurrent: () => void = () => undefined;
  #url = '';
  #options: ConnectOptions = {};
  #lease: ListenKeyLease | undefined;
  readonly #pastKeys: ListenKeyLease[] = [];
  /** A 401 was answered with a new key already: a second one ends the session. */
  #keyRenewed = false;
  #attempt = 0;
  #wanted: string[] = [];
  /** The connection whose counts are in #prior already. */
  #counted: WsConnection | undefined;
  readonly #prior: MutableCounts = noCounts();
  readonly #gaps: Gap[] = [];
  #gapsForgotten = 0;
  #gap: Gap | undefined;
  #cancelWait: (() => void) | undefined;
  #state: ConnectionState = { status: 'idle' };
  #closeRequested = false;
  #ended = false;
  readonly #finished: Promise<void>;
  #resolveFinished: () => void = () => undefined;

  constructor(options: WsSessionOptions) {
    super();
    this.#o = options;
    this.#timers = options.timers ?? NODE_TIMERS;
    this.#now = options.now ?? Date.now;
    this.#current = this.#adopt(options.connection());
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Resolves once the session ended: its last connection closed and its listen key closed. */
  get finished(): Promise<void> {
    return this.#finished;
  }

  /** Opens the first connection; a failure here ends the session (nothing to come back to). */
  async connect(url: string, options: ConnectOptions = {}): Promise<ConnectResult> {
    this.#url = url;
    const { listenKey, ...rest } = options;
    this.#options =
      listenKey === undefined ? rest : { ...rest, heldLease: () => this.#leaseFor(listenKey, options.keepAliveMs) };
    const opened = await this.#current.connect(url, this.#options);
    if (!opened.ok) await this.#end(this.#current.state);
    return opened;
  }

  /** The key the session holds, or a new one (the first connect, or after a 401). */
  async #leaseFor(
    api: NonNullable<ConnectOptions['listenKey']>,
    keepAliveMs: number | undefined,
  ): Promise<Result<ListenKeyLease, WsFailure>> {
    if (this.#lease !== undefined) return ok(this.#lease);
    const lease = await ListenKeyLease.open(api, {
      keepAliveMs,
      timers: this.#timers,
      onError: (failure) => this.emit({ type: 'error', failure }),
    });
    if (!lease.ok) return err(lease.error);
    this.#lease = lease.value;
    return ok(lease.value);
  }

  /** Forwards `conn`'s events; its close is the session's to tell. */
  #adopt(conn: WsConnection): WsConnection {
    this.#stopCurrent();
    this.#stopCurrent = conn.onEvent((e) => this.#onEvent(conn, e));
    return conn;
  }

  #onEvent(conn: WsConnection, e: WsEvent): void {
    if (conn !== this.#current || this.#ended) return;
    if (e.type !== 'state') return this.emit(e);
    if (e.state.status !== 'closed') return this.#setState(e.state);
    // A connect that failed is told by its result (connect, #attempt); an open connection's close here.
    if (e.state.openedAt !== undefined) this.#closed(conn, e.state);
  }

  #closed(conn: WsConnection, state: ConnectionState): void {
    const s = conn.snapshot();
    for (const k of Object.keys(this.#prior) as (keyof Counts)[]) this.#prior[k] += s.counts[k];
    this.#counted = conn;
    // What it held or asked for: re-subscribed on the next connection.
    this.#wanted = s.streams.filter((v) => v.status !== 'refused').map((v) => v.stream);
    const stop = this.#closeRequested ? undefined : stopAfterClose(state.code);
    if (this.#closeRequested || !this.#o.reconnect || stop !== undefined) {
      const message = stop === undefined ? state.message : t('{0} Not reconnecting: {1}', state.message ?? '', stop);
      void this.#end({ ...state, message });
      return;
    }
    const now = this.#now();
    if (state.openedAt !== undefined && now - state.openedAt >= RECONNECT.stableMs) this.#attempt = 0;
    const rate = s.streams.reduce((sum, v) => sum + v.ratePerSecond, 0);
    const reason = clip(this.redact(state.message ?? t('The connection closed.')), BOUNDS.messageChars);
    this.#gap = { startedAt: state.closedAt ?? now, code: state.code, reason, attempts: 0, ratePerSecond: rate };
    this.emit({ type: 'gap', gap: this.#gap });
    this.#schedule(reason);
  }

  /** Waits out the back-off (at least until `retryAtMs`), then tries again; past maxAttempts, the session ends. */
  #schedule(why: string, retryAtMs?: number): void {
    if (this.#closeRequested || this.#ended) return;
    if (this.#attempt >= RECONNECT.maxAttempts)
      return void this.#end(
        this.#stopped(
          t(
            '{0} attempts in a row did not open a connection that lasted {1} s; the last: {2}',
            this.#attempt,
            RECONNECT.stableMs / 1000,
            why,
          ),
        ),
      );
    const now = this.#now();
    const wait = Math.max(reconnectDelayMs(this.#attempt, this.#o.random), (retryAtMs ?? 0) - now);
    const seconds = Math.ceil(wait / 1000);
    const attempt = this.#attempt + 1;
    this.#setState({
      ...this.#state,
      status: 'connecting',
      message: t(
        'Reconnecting in {0} s (attempt {1} of at most {2}): {3}',
        seconds,
        attempt,
        RECONNECT.maxAttempts,
        why,
      ),
    });
    this.#cancelWait = this.#timers.after(wait, () => {
      this.#cancelWait = undefined;
      void this.#reattempt();
    });
  }

  async #reattempt(): Promise<void> {
    if (this.#closeRequested || this.#ended) return;
    this.#attempt++;
    if (this.#gap !== undefined) this.#gap = { ...this.#gap, attempts: this.#gap.attempts + 1 };
    const conn = (this.#current = this.#adopt(this.#o.connection()));
    const opened = await conn.connect(this.#url, this.#options);
    if (this.#closeRequested) return void this.#end(conn.state);
    if (opened.ok) return this.#resume(conn);
    const v = await this.#verdict(opened.error);
    if ('stop' in v) return void this.#end(this.#stopped(v.stop, opened.error));
    this.#schedule(clip(this.redact(opened.error.message), BOUNDS.messageChars), v.retryAtMs);
  }

  /** Open again: the streams re-subscribed, then the gap ends. */
  async #resume(conn: WsConnection): Promise<void> {
    if (this.#wanted.length > 0) await conn.subscribe(this.#wanted);
    const gap = this.#gap;
    if (gap === undefined || conn !== this.#current) return;
    this.#gap = undefined;
    this.#keyRenewed = false;
    this.#keep(ended(gap, this.#now(), true));
  }

  #keep(gap: Gap): void {
    this.#gaps.push(gap);
    if (this.#gaps.length > RECONNECT.maxGaps) {
      this.#gaps.shift();
      this.#gapsForgotten++;
    }
    this.emit({ type: 'gap', gap });
  }

  /** What a failed reconnect means: stop (and why), or try again (when). */
  async #verdict(f: WsFailure): Promise<Verdict> {
    const now = this.#now();
    switch (f.kind) {
      case 'gate':
        // A Retry-After wait (a 429 earlier) is waited out; a ban or a damaged state is not.
        return f.reason === 'retry-after' ? { retryAtMs: f.retryAtMs } : { stop: f.message };
      case 'upgrade':
        if (f.status === 429) return { retryAtMs: now + (f.retryAfterSeconds ?? 10) * 1000 };
        if (f.status === 418) return { stop: banned(f, now) };
        if (f.status === 401 && this.#lease !== undefined && !this.#keyRenewed) return this.#renewKey();
        return f.status >= 500 ? {} : { stop: f.message };
      case 'network':
        return f.code === FAILURE_CODES.routeRefused ? { stop: f.message } : {};
      case 'timeout':
        return {};
      default:
        return { stop: f.message };
    }
  }

  /** The key was refused (lapsed): the next attempt gets a new one; the old one is still masked. */
  async #renewKey(): Promise<Verdict> {
    const old = this.#lease!;
    this.#lease = undefined;
    this.#keyRenewed = true;
    this.#pastKeys.push(old);
    if (this.#pastKeys.length > RECONNECT.maxPastKeys) this.#pastKeys.shift();
    // Lapsed for the server already: its DELETE is a courtesy, and its failure is no news.
    await old.close();
    return {};
  }

  /** The state of a session that stops: the last close, and why it does not come back. */
  #stopped(why: string, failure?: WsFailure): ConnectionState {
    return {
      ...this.#state,
      status: 'closed',
      closedAt: this.#now(),
      message: clip(this.redact(t('Not reconnecting: {0}', why)), BOUNDS.messageChars),
      ...(failure !== undefined && { failure }),
    };
  }

  async #end(state: ConnectionState): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.#cancelWait?.();
    if (this.#gap !== undefined) this.#keep(ended(this.#gap, this.#now(), false));
    this.#gap = undefined;
    await this.#current.finished;
    const failure = await this.#lease?.close();
    if (failure !== undefined) this.emit({ type: 'error', failure });
    this.#setState({ ...state, status: 'closed' });
    this.#stopCurrent();
    this.#resolveFinished();
  }

  /** Closes (idempotent): no reconnect after it; resolves once the session ended. */
  close(code?: number, reason?: string): Promise<void> {
    if (this.#closeRequested || this.#ended) return this.#finished;
    this.#closeRequested = true;
    if (this.#cancelWait !== undefined) {
      // Between two connections: nothing is open.
      void this.#end({ ...this.#state, status: 'closed', closedAt: this.#now(), message: t('Closed by the client.') });
    } else {
      // Its close (or its aborted connect) ends the session.
      const conn = this.#current;
      void conn.close(code, reason).then(() => {
        if (conn.state.openedAt === undefined) void this.#end(conn.state);
      });
    }
    return this.#finished;
  }

  subscribe(streams: readonly string[]): Promise<SubscriptionOutcome[]> {
    return this.#current.subscribe(streams);
  }

  unsubscribe(stream: string): Promise<SubscriptionOutcome> {
    return this.#current.unsubscribe(stream);
  }

  send(text: string): Promise<MessageSent> {
    return this.#current.send(text);
  }

  /** The current connection as the stream view shows it, with the session's counts and gaps. */
  snapshot(): ConnectionSnapshot {
    const s = this.#current.snapshot();
    const counts: MutableCounts = { ...this.#prior };
    if (this.#current !== this.#counted)
      for (const k of Object.keys(counts) as (keyof Counts)[]) counts[k] += s.counts[k];
    const gaps = this.#gap === undefined ? [...this.#gaps] : [...this.#gaps, this.#gap];
    return {
      ...s,
      state: this.#state,
      counts,
      gaps,
      gapsForgotten: this.#gapsForgotten,
      ...(this.#lease && { listenKey: this.#lease.masked }),
    };
  }

  /** `text` with every listen key of the session masked (the one in use and those it replaced). */
  redact(text: string): string {
    let shown = this.#current.redact(text);
    for (const lease of [this.#lease, ...this.#pastKeys]) if (lease !== undefined) shown = lease.redact(shown);
    return shown;
  }

  #setState(state: ConnectionState): void {
    this.#state = state;
    this.emit({ type: 'state', state });
  }

  override toString(): string {
    return `WsSession(${this.#state.status})`;
  }

  toJSON(): ConnectionSnapshot {
    return this.snapshot();
  }
}

/** A 418 on the upgrade: a ban, with the time it ends (Retry-After) when the service said. */
function banned(f: Extract<WsFailure, { kind: 'upgrade' }>, now: number): string {
  if (f.retryAfterSeconds === undefined) return f.message;
  const at = new Date(now + f.retryAfterSeconds * 1000).toISOString();
  return t('{0} Connecting again is possible after {1}.', f.message, at);
}

/** `gap` ended at `at`: its estimate of the pushes it cost. */
function ended(gap: Gap, at: number, resumed: boolean): Gap {
  const seconds = Math.max(0, at - gap.startedAt) / 1000;
  return { ...gap, endedAt: at, resumed, missedEstimate: Math.round(gap.ratePerSecond * seconds) };
}
