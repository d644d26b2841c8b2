/**
 * The WebSocket side of the service: the messages a client sends, the replies and pushes it gets,
 * validated with zod. §6 shows none of it and §8 only the limits, so everything here is the API
 * family's public convention (docs/websocket.md), marked `source: 'assumed'`. The stream names and
 * their descriptions live in stream-names.ts (no zod, for the editor); this file adds the schema
 * of each stream's pushes, for the sandbox and the WebSocket client.
 */
import { err, ok, type Result } from '../result';
import { t } from '../l10n';
import * as z from '../zod-mini';
import {
  KLINE_INTERVALS,
  STREAM_DESCRIPTIONS,
  readStreamName,
  type ParsedStream,
  type StreamDescription,
  type StreamKind,
  type StreamProblem,
} from './stream-names';
import { WS_RULES } from './ws-limits';

export * from './stream-names';

// ---------------------------------------------------------------------------------------------
// Pushes: the envelope and each stream's `d`

const decimalText = z.string().check(z.regex(/^-?\d{1,20}(\.\d{1,18})?$/, 'a decimal number as text'));
const timeMs = z.int().check(z.gte(0));
const side = z.union([z.literal(1), z.literal(2)]);
const flag = z.union([z.literal(0), z.literal(1)]);
const level = z.object({ p: decimalText, v: decimalText });

export const DealsDataSchema = z.object({
  e: z.literal('spot@public.deals.v3.api'),
  deals: z.array(z.object({ p: decimalText, v: decimalText, S: side, t: timeMs })).check(z.maxLength(10_000)),
});
export const DepthDataSchema = z.object({
  e: z.literal('spot@public.limit.depth.v3.api'),
  r: z.string().check(z.maxLength(20)),
  bids: z.array(level).check(z.maxLength(20)),
  asks: z.array(level).check(z.maxLength(20)),
});
export const BookTickerDataSchema = z.object({
  b: z.nullable(decimalText),
  B: z.nullable(decimalText),
  a: z.nullable(decimalText),
  A: z.nullable(decimalText),
});
export const KlineDataSchema = z.object({
  e: z.literal('spot@public.kline.v3.api'),
  k: z.object({
    t: z.int(),
    T: z.int(),
    i: z.enum(KLINE_INTERVALS),
    o: decimalText,
    c: decimalText,
    h: decimalText,
    l: decimalText,
    v: decimalText,
    a: decimalText,
  }),
});
export const OrderDataSchema = z.object({
  i: z.string().check(z.maxLength(64)),
  c: z.string().check(z.maxLength(64)),
  o: z.int(),
  S: side,
  p: decimalText,
  v: decimalText,
  a: decimalText,
  V: decimalText,
  A: decimalText,
  cv: decimalText,
  ca: decimalText,
  ap: decimalText,
  s: z.int(),
  m: flag,
  O: timeMs,
});
export const PrivateDealDataSchema = z.object({
  p: decimalText,
  v: decimalText,
  a: decimalText,
  S: side,
  T: timeMs,
  t: z.string().check(z.maxLength(64)),
  c: z.string().check(z.maxLength(64)),
  i: z.string().check(z.maxLength(64)),
  m: flag,
  n: decimalText,
  N: z.string().check(z.maxLength(20)),
});
export const AccountDataSchema = z.object({
  a: z.string().check(z.maxLength(20)),
  c: timeMs,
  f: decimalText,
  fd: decimalText,
  l: decimalText,
  ld: decimalText,
  o: z.string().check(z.maxLength(40)),
});

/** Every push: `{"c": STREAM, "s": SYMBOL, "t": MILLISECONDS, "d": {...}}` (no `s` on account pushes). */
const PushSchema = z.object({
  c: z.string().check(z.maxLength(WS_RULES.maxStreamNameLength)),
  s: z.optional(z.string().check(z.maxLength(20))),
  t: timeMs,
  d: z.record(z.string(), z.unknown()),
});
export type Push = z.infer<typeof PushSchema>;

/** The answer to a client message: code 0 = done; otherwise refused, msg says why. */
const ReplySchema = z.object({
  id: z.int(),
  code: z.int(),
  msg: z.string().check(z.maxLength(4096)),
});
export type Reply = z.infer<typeof ReplySchema>;

// ---------------------------------------------------------------------------------------------
// Client messages

const messageId = z.int().check(z.gte(0), z.lte(Number.MAX_SAFE_INTEGER));
const streamNames = z
  .array(z.string().check(z.maxLength(WS_RULES.maxStreamNameLength)))
  .check(z.minLength(1), z.maxLength(WS_RULES.maxParamsPerMessage));

export const ClientMessageSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('SUBSCRIPTION'), params: streamNames, id: z.optional(messageId) }),
  z.object({ method: z.literal('UNSUBSCRIPTION'), params: streamNames, id: z.optional(messageId) }),
  z.object({ method: z.literal('PING'), id: z.optional(messageId) }),
]);

/** The PING reply's msg. */
export const PONG = 'PONG';

export function subscriptionMessage(
  method: 'SUBSCRIPTION' | 'UNSUBSCRIPTION',
  params: readonly string[],
  id: number,
): string {
  return JSON.stringify({ method, params, id });
}

export const PING_MESSAGE = '{"method":"PING"}';

/** A server message, told apart: a reply to the client, or a push of a known stream. */
export type ServerMessage =
  | { readonly type: 'reply'; readonly reply: Reply }
  | { readonly type: 'push'; readonly push: Push; readonly stream: ParsedStream; readonly info: StreamInfo }
  | { readonly type: 'unknown'; readonly why: string };

/** Reads one parsed JSON message from the server, validating the push's `d` against its stream. */
export function classifyServerMessage(value: unknown): ServerMessage {
  const reply = ReplySchema.safeParse(value);
  if (reply.success) return { type: 'reply', reply: reply.data };
  const push = PushSchema.safeParse(value);
  if (!push.success) return { type: 'unknown', why: t('neither a reply {id, code, msg} nor a push {c, t, d}') };
  const parsed = parseStreamName(push.data.c);
  if (!parsed.ok) return { type: 'unknown', why: t('push of an unknown stream: {0}', parsed.error.message) };
  const data = parsed.value.info.data.safeParse(push.data.d);
  if (!data.success) {
    const issue = data.error.issues[0];
    return {
      type: 'unknown',
      why: t('push of {0} with an unexpected d.{1}', parsed.value.info.channel, issue?.path.join('.') ?? ''),
    };
  }
  return { type: 'push', push: push.data, stream: parsed.value.stream, info: parsed.value.info };
}

// ---------------------------------------------------------------------------------------------
// The catalog with the schema of each stream's pushes

export interface StreamInfo extends StreamDescription {
  /** Schema of the push's `d`. */
  readonly data: z.ZodMiniType<Record<string, unknown>>;
}

/** The kinds the spec's JSON convention has: the others are mexc's binary streams, with no JSON schema. */
export type JsonStreamKind = Exclude<StreamKind, 'aggreDepth' | 'increaseDepthBatch' | 'bookTickerBatch'>;

const DATA: Readonly<Record<JsonStreamKind, z.ZodMiniType<Record<string, unknown>>>> = {
  deals: DealsDataSchema,
  depth: DepthDataSchema,
  bookTicker: BookTickerDataSchema,
  kline: KlineDataSchema,
  orders: OrderDataSchema,
  privateDeals: PrivateDealDataSchema,
  account: AccountDataSchema,
};

/** The spec's streams, each with the schema of its JSON pushes' `d`. */
export const STREAMS: readonly StreamInfo[] = STREAM_DESCRIPTIONS.map((s) => ({
  ...s,
  data: DATA[s.kind as JsonStreamKind],
}));

const byKind = new Map<StreamKind, StreamInfo>(STREAMS.map((s) => [s.kind, s]));

/** The spec's stream of a JSON kind, with its push schema. */
export function streamInfo(kind: JsonStreamKind): StreamInfo {
  return byKind.get(kind)!;
}

export type StreamParse = Result<{ readonly stream: ParsedStream; readonly info: StreamInfo }, StreamProblem>;

/**
 * The kind of `name` as a spec (JSON) stream and its parameters, with the schema of its pushes, or
 * the first precise problem with it. A binary deployment's names: readStreamName(name, deployment).
 */
export function parseStreamName(name: string): StreamParse {
  const r = readStreamName(name);
  return r.ok ? ok({ stream: r.value.stream, info: streamInfo(r.value.stream.kind as JsonStreamKind) }) : err(r.error);
}
