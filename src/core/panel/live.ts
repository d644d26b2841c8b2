/**
 * One live connection as the stream view sees it: a WsConnection's events turned into the panel's
 * `live` messages. However fast the pushes come, a connection posts at most one message every
 * LIVE_INTERVAL_MS, holding at most the newest BOUNDS.livePushesPerMessage pushes (older ones counted), the
 * books that changed and the connection's latest view; while open, one a second even with no push
 * (its age, meters and rates move). Plain Node: the extension posts the messages, a test or the
 * benchmark may post them anywhere.
 */
import { BOUNDS, clip } from '../bounds';
import { t } from '../l10n';
import type { ConnectionSnapshot, Gap, WsEvent } from '../ws/types';
import {
  MAX_BOOKS,
  MAX_LIVE_GAPS,
  type Book,
  type LiveConnection,
  type LiveMessage,
  type LiveNote,
  type PushLine,
} from './protocol';
import { bookOfDecoded, summariseDecoded } from './decoded-summary';
import { bookOf, summarisePush } from './push-summary';

/** At most one message to the panel this often per connection: a fast stream cannot flood it. */
export const LIVE_INTERVAL_MS = 50;
/** While the connection is open, its view is refreshed this often with no push. */
const LIVE_TICK_MS = 1000;
/** The newest pushes kept here, for a panel that reloads (replay) and for tests. */
const REPLAY_LINES = 200;

/** What a LiveFeed reads of a connection (a WsConnection). */
interface LiveSource {
  snapshot(): ConnectionSnapshot;
  onEvent(listener: (e: WsEvent) => void): () => void;
  /** `text` with the connection's listen key masked (pushes are the server's text: it could echo one). */
  redact(text: string): string;
}

export interface LiveFeedOptions {
  readonly id: string;
  readonly title: string;
  readonly environment: string;
  readonly source: LiveSource;
  readonly post: (m: LiveMessage) => void;
  readonly intervalMs?: number;
  readonly now?: () => number;
}

const name = (stream: string): string => clip(stream, 200);
const message = (text: string): string => clip(text, BOUNDS.messageChars);

export class LiveFeed {
  readonly #o: LiveFeedOptions;
  readonly #stop: () => void;
  readonly #now: () => number;
  readonly #interval: number;
  #pending: PushLine[] = [];
  #skipped = 0;
  readonly #books = new Map<string, Book>();
  readonly #changed = new Set<string>();
  readonly #notes: LiveNote[] = [];
  readonly #recent: PushLine[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #tick: NodeJS.Timeout;
  #lastPost = -Infinity;
  #select = false;
  #closed = false;

  constructor(options: LiveFeedOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#interval = options.intervalMs ?? LIVE_INTERVAL_MS;
    this.#stop = options.source.onEvent((e) => this.#on(e));
    this.#tick = setInterval(() => this.#schedule(), LIVE_TICK_MS);
    this.#tick.unref();
  }

  /** The next message brings the connection's tab to the front. */
  select(): void {
    this.#select = true;
    this.#schedule();
  }

  #on(e: WsEvent): void {
    if (e.type === 'push') this.#push(e);
    else this.#note(e);
    this.#schedule();
  }

  #push(e: Extract<WsEvent, { type: 'push' }>): void {
    // The push's own stream name is the server's text too: a listen key echoed in it is masked.
    const stream = name(this.#redact(e.stream));
    // A JSON push by its stream's kind; a decoded binary one (core/ws/pb.ts) by its body's name.
    const book =
      e.encoding === 'json'
        ? e.kind === 'depth'
          ? bookOf(stream, e.push, e.at)
          : undefined
        : bookOfDecoded(stream, e.body, e.json, e.at);
    if (book !== undefined && (this.#books.has(stream) || this.#books.size < MAX_BOOKS)) {
      this.#books.set(stream, book);
      this.#changed.add(stream);
    }
    const summary = e.encoding === 'json' ? summarisePush(e.kind, e.push) : summariseDecoded(e.body, e.json);
    const line: PushLine = {
      at: e.at,
      stream,
      ...(summary !== undefined && { summary: clip(this.#redact(summary), 300) }),
      // A push too deep for JSON.stringify comes with its text (core/ws/frames.ts).
      ...(book === undefined && { text: clip(this.#redact(e.text ?? JSON.stringify(e.json)), BOUNDS.pushTextChars) }),
    };
    this.#recent.push(line);
    if (this.#recent.length > REPLAY_LINES * 2) this.#recent.splice(0, this.#recent.length - REPLAY_LINES);
    this.#pending.push(line);
    // The newest pushes go to the panel; older ones of the same interval are counted only.
    if (this.#pending.length >= 2 * BOUNDS.livePushesPerMessage) this.#keepNewest();
  }

  #keepNewest(): void {
    const over = this.#pending.length - BOUNDS.livePushesPerMessage;
    if (over <= 0) return;
    this.#skipped += over;
    this.#pending = this.#pending.slice(over);
  }

  #note(e: Exclude<WsEvent, { type: 'push' }>): void {
    const n = noteOf(e);
    if (n === undefined) return;
    this.#notes.push({ at: this.#now(), tone: n.tone, text: message(this.#redact(n.text)) });
    if (this.#notes.length > BOUNDS.streamViewNotes) this.#notes.shift();
    if (e.type === 'state' && e.state.status === 'closed') this.#closed = true;
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastPost + this.#interval - this.#now());
    this.#timer = setTimeout(() => this.flush(), wait);
  }

  /** Posts what gathered since the last message (the scheduler calls it; tests may too). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#lastPost = this.#now();
    this.#keepNewest();
    const books = [...this.#changed].map((s) => this.#books.get(s)!);
    const m: LiveMessage = {
      type: 'live',
      connection: this.view(),
      pushes: this.#pending,
      books,
      skipped: this.#skipped,
      select: this.#select,
    };
    this.#pending = [];
    this.#skipped = 0;
    this.#changed.clear();
    this.#select = false;
    if (this.#closed) clearInterval(this.#tick);
    this.#o.post(m);
  }

  /** Everything a panel that just loaded needs: the view, the newest pushes, every book. */
  replay(): LiveMessage {
    return {
      type: 'live',
      connection: this.view(),
      pushes: this.recent(),
      books: [...this.#books.values()],
      skipped: 0,
      select: false,
    };
  }

  /** The newest pushes (at most REPLAY_LINES), oldest first. */
  recent(): PushLine[] {
    return this.#recent.slice(-REPLAY_LINES);
  }

  /** The connection as the stream view shows it, now. */
  view(): LiveConnection {
    return liveConnection(this.#o, this.#o.source.snapshot(), this.#notes, this.#now(), (text) => this.#redact(text));
  }

  #redact(text: string): string {
    return this.#o.source.redact(text);
  }

  /** Stops listening; a last message goes out if anything is pending. */
  dispose(): void {
    this.#stop();
    clearInterval(this.#tick);
    if (this.#timer !== undefined) this.flush();
  }
}

function liveConnection(
  o: LiveFeedOptions,
  s: ConnectionSnapshot,
  notes: readonly LiveNote[],
  now: number,
  redact: (text: string) => string,
): LiveConnection {
  const st = s.state;
  return {
    id: o.id,
    title: message(o.title),
    environment: message(o.environment),
    url: message(redact(st.url ?? '')),
    status: st.status,
    ageMs: s.ageMs,
    now,
    code: st.code,
    message: st.message === undefined ? undefined : message(redact(st.message)),
    listenKey: s.listenKey,
    meters: {
      streams: { ...s.meters.streams },
      messages: { ...s.meters.messages, pace: clip(s.meters.messages.pace, 100) },
    },
    streams: s.streams.slice(0, 200).map((v) => ({
      stream: name(v.stream),
      status: v.status,
      kind: v.kind,
      pushes: v.pushes,
      lastPushAt: v.lastPushAt,
      ratePerSecond: v.ratePerSecond,
      code: v.code,
      msg: v.msg === undefined ? undefined : message(redact(v.msg)),
    })),
    counts: { ...s.counts },
    notes: [...notes],
    ...(s.gaps !== undefined && {
      gaps: s.gaps.slice(-MAX_LIVE_GAPS).map((g) => ({ ...g, reason: message(redact(g.reason)) })),
      gapsForgotten: (s.gapsForgotten ?? 0) + Math.max(0, s.gaps.length - MAX_LIVE_GAPS),
    }),
  };
}

/** An event for people, or undefined for those the view shows otherwise (pushes, states in between). */
function noteOf(e: Exclude<WsEvent, { type: 'push' }>): Pick<LiveNote, 'tone' | 'text'> | undefined {
  switch (e.type) {
    case 'state':
      if (e.state.status === 'open')
        return {
          tone: 'ok',
          text: e.state.url === undefined ? t('Connected to the server.') : t('Connected to {0}.', e.state.url),
        };
      // A connect that failed was told by its error event (all but an abort): once is enough.
      if (e.state.status === 'closed' && e.state.failure !== undefined && e.state.failure.kind !== 'aborted')
        return undefined;
      if (e.state.status === 'closed') return { tone: 'info', text: e.state.message ?? t('Closed.') };
      return undefined;
    case 'sent':
      return {
        tone: 'info',
        text: e.origin === 'user' ? t('Sent your message: {0}', e.text) : t('Sent by the client: {0}', e.text),
      };
    case 'reply':
      // A subscription's reply is told by its subscription event.
      if (e.request?.streams !== undefined) return undefined;
      return { tone: e.reply.code === 0 ? 'ok' : 'warn', text: replyNote(e) };
    case 'subscription':
      return subscriptionNote(e.outcome, e.change);
    case 'frame':
      return {
        tone: 'warn',
        text: e.sample
          ? t('Dropped {0}: {1} ({2} so far).', e.why, e.sample, e.count)
          : t('Dropped {0} ({1} so far).', e.why, e.count),
      };
    case 'error':
      return { tone: 'error', text: e.failure.message };
    case 'gap':
      return gapNote(e.gap);
  }
}

/** A gap as it starts and as it ends (the view lists each gap apart too). */
function gapNote(g: Gap): Pick<LiveNote, 'tone' | 'text'> {
  if (g.endedAt === undefined) return { tone: 'warn', text: t('Connection lost: {0}', g.reason) };
  const seconds = ((g.endedAt - g.startedAt) / 1000).toFixed(1);
  return g.resumed === true
    ? {
        tone: 'ok',
        text: t(
          'Reconnected after {0} s and subscribed again; about {1} pushes may have been missed (an estimate).',
          seconds,
          g.missedEstimate ?? 0,
        ),
      }
    : { tone: 'info', text: t('Not reconnected after {0} s.', seconds) };
}

function replyNote(e: Extract<WsEvent, { type: 'reply' }>): string {
  const { id, code, msg } = e.reply;
  return e.request === undefined
    ? t('Reply to id {0}: code {1}, {2}', id, code, msg)
    : t('Reply to {0}: code {1}, {2}', e.request.method, code, msg);
}

function subscriptionNote(
  o: Extract<WsEvent, { type: 'subscription' }>['outcome'],
  change: 'subscribe' | 'unsubscribe',
): Pick<LiveNote, 'tone' | 'text'> {
  if (o.ok)
    return { tone: 'ok', text: change === 'subscribe' ? subscribed(o.stream, o.msg) : unsubscribed(o.stream, o.msg) };
  const why = o.msg ?? t('no reason given');
  const text =
    o.code === undefined
      ? change === 'subscribe'
        ? t('Not subscribed {0}: {1}', o.stream, why)
        : t('Not unsubscribed {0}: {1}', o.stream, why)
      : change === 'subscribe'
        ? t('Not subscribed {0} (code {1}): {2}', o.stream, o.code, why)
        : t('Not unsubscribed {0} (code {1}): {2}', o.stream, o.code, why);
  return { tone: 'warn', text };
}

function subscribed(stream: string, msg: string | undefined): string {
  return msg ? t('Subscribed {0} ({1}).', stream, msg) : t('Subscribed {0}.', stream);
}

function unsubscribed(stream: string, msg: string | undefined): string {
  return msg ? t('Unsubscribed {0} ({1}).', stream, msg) : t('Unsubscribed {0}.', stream);
}
