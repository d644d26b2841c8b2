/**
 * The data the WebSocket client hands to its front ends (the command line's `tradereq listen`, the
 * editor's live stream view): plain, JSON-serialisable values, every text from the server clipped
 * and every listen key masked.
 */
import type { GateRefusal } from '../budget/budget';
import type { Result } from '../result';
import type { Push, Reply, StreamKind } from '../catalog/streams';

/** Why a connect, a send or the connection failed. */
export type WsFailure =
  /** The rate-limit state holds the upgrade back (a ban, a Retry-After wait, a damaged state). */
  | {
      readonly kind: 'gate';
      readonly reason: GateRefusal['reason'];
      readonly message: string;
      readonly retryAtMs?: number;
    }
  /** The server answered the upgrade with an HTTP status other than 101. */
  | { readonly kind: 'upgrade'; readonly status: number; readonly message: string; readonly retryAfterSeconds?: number }
  /** No answer to the upgrade: refused, unreachable, reset. */
  | { readonly kind: 'network'; readonly message: string; readonly code?: string }
  /** The connection did not open within the connect timeout. */
  | { readonly kind: 'timeout'; readonly message: string }
  /** A listen key could not be had, kept alive or closed, or may not go to that URL. */
  | { readonly kind: 'listen-key'; readonly message: string }
  /** The rate-limit state could not record a ban or wait. */
  | { readonly kind: 'state'; readonly message: string }
  /** A subscription got no reply in time. */
  | { readonly kind: 'reply-timeout'; readonly message: string }
  /** close() was called before the connection opened. */
  | { readonly kind: 'aborted'; readonly message: string }
  /** The caller asked for something the connection cannot do (bad URL, not open, bad message). */
  | { readonly kind: 'usage'; readonly message: string };

type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'closing' | 'closed';

export interface ConnectionState {
  readonly status: ConnectionStatus;
  /** The URL, its listen key masked. */
  readonly url?: string;
  /** Unix ms. */
  readonly openedAt?: number;
  readonly closedAt?: number;
  /** The close code (1000 normal, 1006 dropped with no close frame, 1008 policy: §8 cut, ...). */
  readonly code?: number;
  /** The close reason from the server, clipped, any listen key masked. */
  readonly reason?: string;
  /** What happened, for people: the close explained, or why it never opened. */
  readonly message?: string;
  /** When it never opened: why. */
  readonly failure?: WsFailure;
}

/** Who wrote a client message: the client (subscriptions, keep-alive PINGs) or the user. */
export type MessageOrigin = 'client' | 'ping' | 'user';

/** A client message awaiting its reply. */
export interface SentMessage {
  readonly method: string;
  readonly id: number;
  readonly streams?: readonly string[];
  readonly origin: MessageOrigin;
  /** Unix ms. */
  readonly sentAt: number;
}

export type StreamStatus = 'pending' | 'subscribed' | 'refused' | 'unsubscribing';

/** One stream of the connection, for the stream view. */
export interface StreamView {
  readonly stream: string;
  readonly status: StreamStatus;
  readonly kind?: StreamKind;
  readonly pushes: number;
  /** Unix ms of the last push. */
  readonly lastPushAt?: number;
  /** Pushes a second over the last 10 s. */
  readonly ratePerSecond: number;
  /** A refusal's code (undefined: refused by the client before sending) and message. */
  readonly code?: number;
  readonly msg?: string;
}

export interface SubscriptionOutcome {
  readonly stream: string;
  readonly ok: boolean;
  readonly code?: number;
  readonly msg?: string;
}

/** A message sent on the socket: its id, or why it was not sent. */
export type MessageSent = Result<{ readonly id: number }, string>;

/**
 * Why a frame was dropped: `binary` a binary frame where the deployment sends JSON text,
 * `undecodable` a binary frame that is not a push wrapper (deployment sending Protocol Buffers),
 * `text-push` a JSON push where the deployment sends Protocol Buffers.
 */
export type FrameProblem = 'not-json' | 'binary' | 'unknown' | 'too-large' | 'undecodable' | 'text-push';

/** A push as the front ends get it: a JSON push validated by the catalog, or a binary one decoded. */
type PushEvent = {
  readonly type: 'push';
  /** The push's stream: a JSON push's `c`, a decoded push's `channel`. */
  readonly stream: string;
  /**
   * The push as JSON, for @expect message and for showing: a JSON push's frame as parsed; a decoded
   * push as `{channel, symbol?, symbolId?, createTime?, sendTime?, <body name>: {…}}` (docs/websocket.md).
   */
  readonly json: unknown;
  /** Set when the frame nests too deeply to write out (JSON.stringify would overflow): its text, clipped, to show instead. */
  readonly text?: string;
  readonly at: number;
} & (
  | {
      readonly encoding: 'json';
      readonly kind: StreamKind;
      /** Validated by the catalog's schema (unknown members of the envelope dropped). */
      readonly push: Push;
    }
  | {
      readonly encoding: 'protobuf';
      /** The body's field name in the wrapper (`publicAggreDeals`): the key of the body in `json`. */
      readonly body: string;
    }
);

export type WsEvent =
  | { readonly type: 'state'; readonly state: ConnectionState }
  | PushEvent
  | { readonly type: 'reply'; readonly reply: Reply; readonly request?: SentMessage; readonly at: number }
  | {
      readonly type: 'subscription';
      readonly outcome: SubscriptionOutcome;
      readonly change: 'subscribe' | 'unsubscribe';
    }
  | { readonly type: 'sent'; readonly text: string; readonly origin: MessageOrigin; readonly at: number }
  | {
      readonly type: 'frame';
      readonly problem: FrameProblem;
      readonly why: string;
      /** The start of the frame, clipped, control characters as spaces. */
      readonly sample?: string;
      /** Frames with this problem so far on this connection. */
      readonly count: number;
    }
  | { readonly type: 'error'; readonly failure: WsFailure }
  /** A gap of a WsSession (reconnect.ts): when the connection closed, and again when it was re-opened and re-subscribed. */
  | { readonly type: 'gap'; readonly gap: Gap };

/** Time without a connection between a close the client did not ask for and the reconnect (reconnect.ts). */
export interface Gap {
  /** Unix ms: the close. */
  readonly startedAt: number;
  /** Unix ms: open again and re-subscribed; undefined while the gap lasts. */
  readonly endedAt?: number;
  /** false: the session ended during the gap (stopped, or closed by the user). */
  readonly resumed?: boolean;
  /** The close code. */
  readonly code?: number;
  /** Why: the close explained (any listen key masked). */
  readonly reason: string;
  /** Reconnect attempts it took. */
  readonly attempts: number;
  /** Pushes a second over the 10 s before the close (all streams). */
  readonly ratePerSecond: number;
  /** An estimate, not a count: ratePerSecond times the gap's length, rounded; set once it ended. */
  readonly missedEstimate?: number;
}

export type WsEventType = WsEvent['type'];
export type WsEventOf<T extends WsEventType> = Extract<WsEvent, { type: T }>;

export interface Counts {
  readonly pushes: number;
  readonly replies: number;
  readonly pongs: number;
  readonly sent: number;
  readonly notJson: number;
  readonly binary: number;
  readonly unknown: number;
  readonly tooLarge: number;
  /** Binary frames that did not decode as a push (under Protocol Buffers). */
  readonly undecodable: number;
  /** JSON pushes where the deployment sends Protocol Buffers. */
  readonly textPush: number;
}

export type MutableCounts = { -readonly [K in keyof Counts]: Counts[K] };

/** Counts of a connection that has seen nothing yet. */
export function noCounts(): MutableCounts {
  return {
    pushes: 0,
    replies: 0,
    pongs: 0,
    sent: 0,
    notJson: 0,
    binary: 0,
    unknown: 0,
    tooLarge: 0,
    undecodable: 0,
    textPush: 0,
  };
}

/** Everything the stream view shows of one connection, at one moment. */
export interface ConnectionSnapshot {
  readonly state: ConnectionState;
  /** Ms since it opened (until it closed). */
  readonly ageMs?: number;
  readonly meters: {
    /** §8: streams held (subscribed or awaiting a reply) of at most 30. */
    readonly streams: { readonly used: number; readonly limit: number };
    /** §8: client messages in the last second, of at most 100; the client's own pace, and sends waiting. */
    readonly messages: {
      readonly lastSecond: number;
      readonly limit: number;
      readonly pace: string;
      readonly queued: number;
    };
  };
  readonly streams: readonly StreamView[];
  readonly counts: Counts;
  /** The listen key in use, masked, when the connection has one. */
  readonly listenKey?: string;
  /** A WsSession's gaps, oldest first (the newest RECONNECT.maxGaps), and how many older ones were forgotten. */
  readonly gaps?: readonly Gap[];
  readonly gapsForgotten?: number;
}
