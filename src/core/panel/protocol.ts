/**
 * The response panel's state and its messages, both ways, defined once as shapes (shape.ts). The
 * panel's page checks every message with the shapes' own small validator; the extension checks
 * what the page sends with zod schemas derived from the same shapes. Everything in a state is
 * already redacted (API key and listen key masked, no secret anywhere); values from the server
 * (answers, pushes) are raw strings that the panel shows as text only. Unknown messages are dropped.
 */
import { BOUNDS, HISTORY_LIMIT } from '../bounds';
import { SEND_OUTCOMES } from '../outcome';
import { shape as s, type Infer } from './shape';
import { toZod } from './zod-shape';

// The panel's code imports this module only: what it needs of the core comes through here.
export { BOUNDS, HISTORY_LIMIT } from '../bounds';
export type { SendOutcome } from '../outcome';
export { check, shape } from './shape';
export { WHY_CODES } from './why-codes';

// Room for the note clip() appends to a cut text.
const NOTE = 64;
const text = (max: number) => s.string(max + NOTE);
const id = s.string(100);
/** The longest key profile name an entry keeps. */
export const PROFILE_NAME_CHARS = 100;

const CounterShape = s.object({
  mode: s.enum(['ip', 'uid']),
  limit: s.number(),
  used: s.number(),
  remaining: s.number(),
  /** Milliseconds until the oldest counted request leaves the 10 s window, at `now`. */
  freesInMs: s.number(),
});

const BudgetStateShape = s.object({
  origin: s.string(BOUNDS.messageChars),
  ip: CounterShape,
  uid: s.optional(CounterShape),
  /** A 429 wait or a 418 ban: nothing is sent to the origin until `untilMs`. */
  blocked: s.optional(s.object({ status: s.number(), untilMs: s.number() })),
  /** The rate-limit state could not be read: nothing is sent until it is reset (the message says how). */
  damaged: s.optional(text(BOUNDS.messageChars)),
});

// Header names are not clipped (Node's HTTP parser, as undici's, bounds a response's headers to 16 KiB in all).
const pairs = (max: number) => s.array(s.tuple(text(BOUNDS.historyRequestChars), text(max)), 10_000);

const ErrorInfoShape = s.object({
  code: s.number(),
  meanings: s.array(s.string(BOUNDS.messageChars), 20),
  cause: s.optional(s.string(BOUNDS.messageChars)),
  action: s.optional(s.string(BOUNDS.messageChars)),
  /** The same text as the editor's hover on this code (plain text). */
  hoverText: text(BOUNDS.historyRequestChars),
});

const PanelEntryShape = s.object({
  id,
  /** Local time of the send, ms. */
  at: s.number(),
  title: text(BOUNDS.messageChars),
  environment: text(BOUNDS.messageChars),
  request: s.object({
    method: s.string(20),
    /** Full URL with the query string as sent (the signature is no secret; no key is in it). */
    url: text(BOUNDS.historyRequestChars),
    query: text(BOUNDS.historyRequestChars),
    body: text(BOUNDS.historyRequestChars),
    totalParams: s.optional(text(BOUNDS.historyRequestChars)),
    /** As sent, the API key masked. */
    headers: pairs(BOUNDS.historyRequestChars),
    signed: s.boolean(),
    /** The key profile that signed it (a name, never a key): what the panel's Why? checks against. */
    keyProfile: s.optional(s.string(PROFILE_NAME_CHARS)),
    /** The `timestamp` its file writes (line from 1, value as written), which Why? says to delete. */
    ownTimestamp: s.optional(s.object({ line: s.number(), value: text(BOUNDS.messageChars) })),
  }),
  outcome: s.enum(SEND_OUTCOMES),
  /**
   * A rejection the request's `# @expect` lines ask for (`# @expect code 700003`), every one of them
   * met (request/pipeline.ts passed): the panel shows it as passed, not as a failure.
   */
  expected: s.optional(s.boolean()),
  /** One line: "200 ok", "400 rejected: 30002 …", "outcome unknown: …", "refused: …". */
  summary: text(BOUNDS.messageChars),
  /** Refused or not sent: why, without the outcome's own word (the badge says it). */
  reason: s.optional(text(BOUNDS.messageChars)),
  /** After a 700003: the timing rule and the clock offset measured again (pipeline.ts), or why it was not. */
  note: s.optional(text(BOUNDS.messageChars)),
  /**
   * A 700003 after which the clock was measured again: nothing was processed, and the panel offers
   * Send again. The extension leaves it out of a state when it cannot send that request again.
   */
  sendAgain: s.optional(s.boolean()),
  status: s.optional(s.number()),
  statusMeaning: s.optional(s.string(BOUNDS.messageChars)),
  error: s.optional(ErrorInfoShape),
  /** The service's own message (hostile input). */
  msg: s.optional(text(BOUNDS.messageChars)),
  response: s.optional(
    s.object({
      /** Pretty-printed when JSON, else as received (hostile input). */
      body: text(BOUNDS.historyBodyChars),
      isJson: s.boolean(),
      truncated: s.boolean(),
      bytes: s.number(),
      headers: pairs(BOUNDS.messageChars),
    }),
  ),
  timings: s.optional(s.object({ connectMs: s.number(), firstByteMs: s.number(), totalMs: s.number() })),
  /** When an order's outcome is unknown: what the one-click query looks for. */
  orderRef: s.optional(
    s.object({
      symbol: s.string(100),
      orderId: s.optional(s.string(100)),
      origClientOrderId: s.optional(s.string(100)),
    }),
  ),
  /** A Retry-After wait or ban in force after this send (for the countdown). */
  retryAtMs: s.optional(s.number()),
  expectations: s.withDefault(
    s.array(
      s.object({
        text: text(BOUNDS.messageChars),
        passed: s.boolean(),
        actual: text(BOUNDS.messageChars),
        /** Not compared by a send (`# @expect snapshot`): shown with no mark of passing. */
        checked: s.optional(s.literal(false)),
      }),
      1_000,
    ),
    [],
  ),
});

/** A send in the history list: what the list shows, not the whole entry (the panel asks for that with `show`). */
const HistoryItemShape = s.object({
  id,
  at: s.number(),
  title: text(BOUNDS.messageChars),
  outcome: s.enum(SEND_OUTCOMES),
  /** A rejection its `# @expect` lines asked for, all met (as the entry's). */
  expected: s.optional(s.boolean()),
  summary: text(BOUNDS.messageChars),
  method: s.string(20),
  /** The URL's path, without origin or query. */
  path: text(BOUNDS.historyRequestChars),
  status: s.optional(s.number()),
  /** Where it was sent (sandbox or live): what tells two answers to compare apart. */
  environment: s.optional(text(BOUNDS.messageChars)),
});

export const PanelStateShape = s.object({
  /** The entry shown; the latest send unless one was picked from the history. */
  current: s.optional(PanelEntryShape),
  budget: s.optional(BudgetStateShape),
  /** The last sends of this workspace, newest first, already redacted. */
  history: s.array(HistoryItemShape, HISTORY_LIMIT),
  /** The extension's clock when the state was made, for countdowns. */
  now: s.number(),
  /** True while a send is under way. */
  busy: s.withDefault(s.boolean(), false),
});

export type PanelEntry = Infer<typeof PanelEntryShape>;
export type PanelState = Infer<typeof PanelStateShape>;
export type BudgetState = Infer<typeof BudgetStateShape>;
export type HistoryItem = Infer<typeof HistoryItemShape>;

// ---------------------------------------------------------------------------------------------
// The stream view: live WebSocket connections (docs/format.md "WebSocket requests", spec §8)

const streamName = text(200);

const LiveStreamShape = s.object({
  stream: streamName,
  status: s.enum(['pending', 'subscribed', 'refused', 'unsubscribing']),
  kind: s.optional(s.string(20)),
  pushes: s.number(),
  lastPushAt: s.optional(s.number()),
  /** Pushes a second over the last 10 s. */
  ratePerSecond: s.number(),
  /** A refusal's code (none: refused by the client before sending) and message. */
  code: s.optional(s.number()),
  msg: s.optional(text(BOUNDS.messageChars)),
});

/** One event of a connection for people: a message sent, a reply, a refusal, a dropped frame, an error. */
const LiveNoteShape = s.object({
  at: s.number(),
  tone: s.enum(['info', 'ok', 'warn', 'error']),
  text: text(BOUNDS.messageChars),
});

const count = s.number();

/** A time without a connection that the client reconnected over (core/ws/reconnect.ts). */
const LiveGapShape = s.object({
  startedAt: s.number(),
  /** Absent while the gap lasts. */
  endedAt: s.optional(s.number()),
  /** false: the connection ended during the gap. */
  resumed: s.optional(s.boolean()),
  code: s.optional(s.number()),
  reason: text(BOUNDS.messageChars),
  attempts: count,
  ratePerSecond: s.number(),
  /** An estimate: the rate before the gap times its length. */
  missedEstimate: s.optional(s.number()),
});

/** Gaps a connection's view holds (core/ws/reconnect.ts RECONNECT.maxGaps; the panel takes no more). */
export const MAX_LIVE_GAPS = 50;

/** One connection as the stream view shows it; the URL and any listen key masked. */
const LiveConnectionShape = s.object({
  id,
  title: text(BOUNDS.messageChars),
  environment: text(BOUNDS.messageChars),
  url: text(BOUNDS.messageChars),
  status: s.enum(['idle', 'connecting', 'open', 'closing', 'closed']),
  /** Ms since it opened (until it closed), at `now`. */
  ageMs: s.optional(s.number()),
  /** The extension's clock when this view was made. */
  now: s.number(),
  code: s.optional(s.number()),
  /** The close explained, or why it never opened. */
  message: s.optional(text(BOUNDS.messageChars)),
  listenKey: s.optional(s.string(40)),
  meters: s.object({
    /** §8: streams held of at most 30. */
    streams: s.object({ used: count, limit: count }),
    /** §8: client messages in the last second of at most 100; the client's own pace; sends waiting. */
    messages: s.object({ lastSecond: count, limit: count, pace: s.string(200), queued: count }),
  }),
  streams: s.array(LiveStreamShape, 200),
  counts: s.object({
    pushes: count,
    replies: count,
    pongs: count,
    sent: count,
    notJson: count,
    binary: count,
    unknown: count,
    tooLarge: count,
    /** Binary frames not decoded as a push, and JSON pushes, where the deployment sends Protocol Buffers. */
    undecodable: count,
    textPush: count,
  }),
  /** The last events, oldest first. */
  notes: s.array(LiveNoteShape, BOUNDS.streamViewNotes),
  /** Its gaps, oldest first, and how many older ones were forgotten. */
  gaps: s.optional(s.array(LiveGapShape, MAX_LIVE_GAPS)),
  gapsForgotten: s.optional(count),
});

const PushLineShape = s.object({
  at: s.number(),
  stream: streamName,
  /** A line for people (a trade, the best bid and ask), for the kinds that have one. */
  summary: s.optional(s.string(400)),
  /** The push as JSON text, clipped; absent for depth pushes, whose book is shown instead. */
  text: s.optional(text(BOUNDS.pushTextChars)),
});

const level = s.tuple(s.string(40), s.string(40));

/** The latest book of a depth stream: [price, quantity], best first. */
const BookShape = s.object({
  stream: streamName,
  at: s.number(),
  version: s.optional(s.string(40)),
  bids: s.array(level, 20),
  asks: s.array(level, 20),
});

/** Depth streams whose book a connection keeps (§8: 30 streams a connection). */
export const MAX_BOOKS = 30;

export type LiveStream = Infer<typeof LiveStreamShape>;
export type LiveNote = Infer<typeof LiveNoteShape>;
export type LiveGap = Infer<typeof LiveGapShape>;
export type LiveConnection = Infer<typeof LiveConnectionShape>;
export type PushLine = Infer<typeof PushLineShape>;
export type Book = Infer<typeof BookShape>;

const LiveMessageShape = s.object({
  type: s.literal('live'),
  connection: LiveConnectionShape,
  /** Pushes since the last message, oldest first. */
  pushes: s.array(PushLineShape, BOUNDS.livePushesPerMessage),
  /** Books that changed since the last message. */
  books: s.array(BookShape, MAX_BOOKS),
  /** Pushes since the last message that did not fit in it: counted, not shown. */
  skipped: count,
  /** Bring this connection's tab to the front (after Connect). */
  select: s.withDefault(s.boolean(), false),
});
export type LiveMessage = Infer<typeof LiveMessageShape>;

/** From the extension to the panel. */
export const ToPanelShape = s.union('type', [
  s.object({ type: s.literal('state'), state: PanelStateShape }),
  LiveMessageShape,
  /** The connection's tab is closed. */
  s.object({ type: s.literal('forget'), id }),
]);

/** From the panel to the extension. */
export const FromPanelShape = s.union('type', [
  s.object({ type: s.literal('ready') }),
  /** Show an entry of the history. */
  s.object({ type: s.literal('show'), id }),
  /** The one-click query of an order whose outcome is unknown. */
  s.object({ type: s.literal('queryOrder'), id }),
  /** Copy the response body of an entry to the clipboard. */
  s.object({ type: s.literal('copyBody'), id }),
  /** Send the request of an entry with sendAgain once more, through the gates and confirmation as any send. */
  s.object({ type: s.literal('sendAgain'), id }),
  s.object({ type: s.literal('unsubscribe'), id, stream: streamName }),
  /** A JSON message typed in the stream view, for the connection's pacer. */
  s.object({ type: s.literal('sendMessage'), id, text: s.string(BOUNDS.liveMessageChars) }),
  s.object({ type: s.literal('disconnect'), id }),
  /** Close the tab of a closed connection. */
  s.object({ type: s.literal('forget'), id }),
  /** Open the answers of two entries of the history in VS Code's diff editor, volatile fields masked or not. */
  s.object({ type: s.literal('compare'), left: id, right: id, mask: s.boolean() }),
  /** Why?: the signature doctor on what TradeReq sent for an entry rejected with one of WHY_CODES. */
  s.object({ type: s.literal('why'), id }),
]);

export type FromPanel = Infer<typeof FromPanelShape>;

// The extension's zod schemas, from the same shapes. Pure: the panel's bundle leaves them (and zod) out.
export const PanelEntrySchema = /* @__PURE__ */ toZod(PanelEntryShape);
export const ToPanelSchema = /* @__PURE__ */ toZod(ToPanelShape);
export const FromPanelSchema = /* @__PURE__ */ toZod(FromPanelShape);
