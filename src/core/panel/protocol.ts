/**
 * The response panel's state and its messages, both ways. Everything in PanelStateSchema is already
 * redacted (API key masked, no secret anywhere); values from the server are raw strings that the
 * panel must escape. Messages are validated with zod on both sides; unknown ones are dropped.
 */
import { z } from 'zod';
import { BOUNDS, HISTORY_LIMIT } from '../bounds';
import { SEND_OUTCOMES } from '../outcome';

// The panel's code imports this module only: what it needs of the core comes through here.
export { BOUNDS, HISTORY_LIMIT } from '../bounds';
export { SEND_OUTCOMES, type SendOutcome } from '../outcome';

// Room for the note clip() appends to a cut text.
const NOTE = 64;
const text = (max: number) => z.string().max(max + NOTE);

const CounterSchema = z.object({
  mode: z.enum(['ip', 'uid']),
  limit: z.number(),
  used: z.number(),
  remaining: z.number(),
  /** Milliseconds until the oldest counted request leaves the 10 s window, at `now`. */
  freesInMs: z.number(),
});

export const BudgetStateSchema = z.object({
  origin: z.string(),
  ip: CounterSchema,
  uid: CounterSchema.optional(),
  /** A 429 wait or a 418 ban: nothing is sent to the origin until `untilMs`. */
  blocked: z.object({ status: z.number(), untilMs: z.number() }).optional(),
  /** The rate-limit state could not be read: nothing is sent until it is reset (the message says how). */
  damaged: text(BOUNDS.messageChars).optional(),
});

export const ErrorInfoSchema = z.object({
  code: z.number(),
  meanings: z.array(z.string()),
  cause: z.string().optional(),
  action: z.string().optional(),
  /** The same text as the editor's hover on this code (plain text). */
  hoverText: z.string(),
});

export const PanelEntrySchema = z.object({
  id: z.string(),
  /** Local time of the send, ms. */
  at: z.number(),
  title: text(BOUNDS.messageChars),
  environment: z.string(),
  request: z.object({
    method: z.string(),
    /** Full URL with the query string as sent (the signature is no secret; no key is in it). */
    url: text(BOUNDS.historyRequestChars),
    query: text(BOUNDS.historyRequestChars),
    body: text(BOUNDS.historyRequestChars),
    totalParams: text(BOUNDS.historyRequestChars).optional(),
    /** As sent, the API key masked. */
    headers: z.array(z.tuple([z.string(), z.string()])),
    signed: z.boolean(),
  }),
  outcome: z.enum(SEND_OUTCOMES),
  /** One line: "200 ok", "400 rejected: 30002 …", "outcome unknown: …", "refused: …". */
  summary: text(BOUNDS.messageChars),
  status: z.number().optional(),
  statusMeaning: z.string().optional(),
  error: ErrorInfoSchema.optional(),
  /** The service's own message (hostile input). */
  msg: text(BOUNDS.messageChars).optional(),
  response: z
    .object({
      /** Pretty-printed when JSON, else as received (hostile input). */
      body: text(BOUNDS.historyBodyChars),
      isJson: z.boolean(),
      truncated: z.boolean(),
      bytes: z.number(),
      headers: z.array(z.tuple([z.string(), z.string()])),
    })
    .optional(),
  timings: z.object({ connectMs: z.number(), firstByteMs: z.number(), totalMs: z.number() }).optional(),
  /** When an order's outcome is unknown: what the one-click query looks for. */
  orderRef: z
    .object({ symbol: z.string(), orderId: z.string().optional(), origClientOrderId: z.string().optional() })
    .optional(),
  /** A Retry-After wait or ban in force after this send (for the countdown). */
  retryAtMs: z.number().optional(),
  expectations: z
    .array(z.object({ text: text(BOUNDS.messageChars), passed: z.boolean(), actual: text(BOUNDS.messageChars) }))
    .default([]),
});

/** A send in the history list: what the list shows, not the whole entry (the panel asks for that with `show`). */
export const HistoryItemSchema = z.object({
  id: z.string(),
  at: z.number(),
  title: text(BOUNDS.messageChars),
  outcome: z.enum(SEND_OUTCOMES),
  summary: text(BOUNDS.messageChars),
  method: z.string(),
  /** The URL's path, without origin or query. */
  path: z.string(),
  status: z.number().optional(),
});

export const PanelStateSchema = z.object({
  /** The entry shown; the latest send unless one was picked from the history. */
  current: PanelEntrySchema.optional(),
  budget: BudgetStateSchema.optional(),
  /** The last sends of this workspace, newest first, already redacted. */
  history: z.array(HistoryItemSchema).max(HISTORY_LIMIT),
  /** The extension's clock when the state was made, for countdowns. */
  now: z.number(),
  /** True while a send is under way. */
  busy: z.boolean().default(false),
});

export type PanelEntry = z.infer<typeof PanelEntrySchema>;
export type PanelState = z.infer<typeof PanelStateSchema>;
export type BudgetState = z.infer<typeof BudgetStateSchema>;
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

/** From the extension to the panel. */
export const ToPanelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: PanelStateSchema }),
]);

/** From the panel to the extension. */
export const FromPanelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Show an entry of the history. */
  z.object({ type: z.literal('show'), id: z.string().max(100) }),
  /** The one-click query of an order whose outcome is unknown. */
  z.object({ type: z.literal('queryOrder'), id: z.string().max(100) }),
  /** Copy the response body of an entry to the clipboard. */
  z.object({ type: z.literal('copyBody'), id: z.string().max(100) }),
]);

export type ToPanel = z.infer<typeof ToPanelSchema>;
export type FromPanel = z.infer<typeof FromPanelSchema>;
