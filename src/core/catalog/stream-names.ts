/**
 * The names of the WebSocket side's streams, and what each one pushes: the §8 limits (spec) and
 * the API family's convention (docs/websocket.md, marked `source: 'assumed'`). Plain data with no
 * zod, so the editor (completion, hover, the check step) reads it without loading the push
 * schemas; streams.ts adds those for the sandbox and the WebSocket client.
 */
import { SYMBOL_FORMAT } from './formats';
import { WS_RULES } from './ws-limits';
import type { EnumValueInfo, Source } from './types';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';

export type StreamKind = 'deals' | 'depth' | 'bookTicker' | 'kline' | 'orders' | 'privateDeals' | 'account';

export const DEPTH_LEVELS = [5, 10, 20] as const;
type DepthLevels = (typeof DEPTH_LEVELS)[number];

export const KLINE_INTERVALS = ['Min1', 'Min5', 'Min15', 'Min30', 'Min60', 'Hour4', 'Day1', 'Week1', 'Month'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

const MINUTE = 60_000;
/** Each interval's length; a Month runs from the first of a UTC month to the next (no fixed length). */
export const KLINE_INTERVAL_MS: Readonly<Record<KlineInterval, number | undefined>> = {
  Min1: MINUTE,
  Min5: 5 * MINUTE,
  Min15: 15 * MINUTE,
  Min30: 30 * MINUTE,
  Min60: 60 * MINUTE,
  Hour4: 240 * MINUTE,
  Day1: 1440 * MINUTE,
  Week1: 7 * 1440 * MINUTE,
  Month: undefined,
};

export type ParsedStream =
  | { readonly kind: 'deals'; readonly symbol: string }
  | { readonly kind: 'depth'; readonly symbol: string; readonly levels: DepthLevels }
  | { readonly kind: 'bookTicker'; readonly symbol: string }
  | { readonly kind: 'kline'; readonly symbol: string; readonly interval: KlineInterval }
  | { readonly kind: 'orders' }
  | { readonly kind: 'privateDeals' }
  | { readonly kind: 'account' };

// ---------------------------------------------------------------------------------------------
// The catalog

interface StreamParamInfo {
  readonly name: 'symbol' | 'levels' | 'interval';
  readonly description: string;
  readonly rule: string;
  readonly values?: readonly EnumValueInfo[];
}

/** One field of a push's `d`, by its path (`deals[].p`). */
interface PushFieldInfo {
  readonly path: string;
  readonly type: 'decimal' | 'integer' | 'timestampMs' | 'timestampS' | 'string' | 'code' | 'list';
  readonly description: string;
}

/** A stream as the editor knows it; streams.ts adds the schema of its pushes (StreamInfo). */
export interface StreamDescription {
  readonly kind: StreamKind;
  /** The name's fixed part, also the `e` of the pushes that carry one. */
  readonly channel: string;
  readonly visibility: 'public' | 'private';
  readonly title: string;
  readonly description: string;
  /** The name with its parameters as placeholders: `spot@public.deals.v3.api@<symbol>`. */
  readonly template: string;
  readonly params: readonly StreamParamInfo[];
  readonly fields: readonly PushFieldInfo[];
  /** One push, as JSON text. */
  readonly example: string;
  readonly source: Source;
}

const symbolParam: StreamParamInfo = {
  name: 'symbol',
  description: 'Trading pair name, e.g. BTCUSDT.',
  rule: 'upper-case letters (and digits)',
};

const levelsParam: StreamParamInfo = {
  name: 'levels',
  description: 'How many of the best price levels each push lists on each side.',
  rule: '5, 10 or 20',
  values: DEPTH_LEVELS.map((n) => ({
    value: String(n),
    description: `the best ${n} bids and asks`,
    source: 'assumed',
  })),
};

const INTERVAL_WORDS: Readonly<Record<KlineInterval, string>> = {
  Min1: '1 minute',
  Min5: '5 minutes',
  Min15: '15 minutes',
  Min30: '30 minutes',
  Min60: '60 minutes',
  Hour4: '4 hours',
  Day1: '1 day (UTC)',
  Week1: '1 week, from Monday 00:00 UTC',
  Month: '1 calendar month (UTC)',
};

const intervalParam: StreamParamInfo = {
  name: 'interval',
  description: 'The length of each candle.',
  rule: KLINE_INTERVALS.join(', '),
  values: KLINE_INTERVALS.map((i) => ({ value: i, description: INTERVAL_WORDS[i], source: 'assumed' })),
};

const ORDER_STATUS_TEXT =
  '1 NEW, 2 FILLED, 3 PARTIALLY_FILLED, 4 CANCELED, 5 PARTIALLY_CANCELED (cancelled or expired after partial fills)';
const ORDER_TYPE_TEXT = '1 LIMIT, 3 IMMEDIATE_OR_CANCEL, 4 FILL_OR_KILL, 5 MARKET';

export const STREAM_DESCRIPTIONS: readonly StreamDescription[] = [
  {
    kind: 'deals',
    channel: 'spot@public.deals.v3.api',
    visibility: 'public',
    title: 'Trades',
    description: "The symbol's trades as they happen, several to a push.",
    template: 'spot@public.deals.v3.api@<symbol>',
    params: [symbolParam],
    fields: [
      { path: 'e', type: 'string', description: 'The channel, spot@public.deals.v3.api.' },
      { path: 'deals', type: 'list', description: 'The trades since the last push, oldest first.' },
      { path: 'deals[].p', type: 'decimal', description: 'Price.' },
      { path: 'deals[].v', type: 'decimal', description: 'Quantity, in the base asset.' },
      { path: 'deals[].S', type: 'code', description: "The taker's side: 1 buy, 2 sell." },
      { path: 'deals[].t', type: 'timestampMs', description: 'Trade time.' },
    ],
    example:
      '{"c":"spot@public.deals.v3.api@BTCUSDT","s":"BTCUSDT","t":1700000000000,"d":{"e":"spot@public.deals.v3.api","deals":[{"p":"30010.00000000","v":"0.00100000","S":1,"t":1700000000000}]}}',
    source: 'assumed',
  },
  {
    kind: 'depth',
    channel: 'spot@public.limit.depth.v3.api',
    visibility: 'public',
    title: 'Order book, best levels',
    description: 'The best LEVELS bids and asks, the whole snapshot on every change of the book.',
    template: 'spot@public.limit.depth.v3.api@<symbol>@<levels>',
    params: [symbolParam, levelsParam],
    fields: [
      { path: 'e', type: 'string', description: 'The channel, spot@public.limit.depth.v3.api.' },
      { path: 'r', type: 'string', description: "The book's version; it grows with every change." },
      { path: 'bids', type: 'list', description: 'Bids, best (highest) first.' },
      { path: 'bids[].p', type: 'decimal', description: 'Price of the level.' },
      { path: 'bids[].v', type: 'decimal', description: 'Quantity resting at the level.' },
      { path: 'asks', type: 'list', description: 'Asks, best (lowest) first.' },
      { path: 'asks[].p', type: 'decimal', description: 'Price of the level.' },
      { path: 'asks[].v', type: 'decimal', description: 'Quantity resting at the level.' },
    ],
    example:
      '{"c":"spot@public.limit.depth.v3.api@BTCUSDT@5","s":"BTCUSDT","t":1700000000000,"d":{"e":"spot@public.limit.depth.v3.api","r":"42","bids":[{"p":"29990.00000000","v":"2.00000000"}],"asks":[{"p":"30010.00000000","v":"1.99900000"}]}}',
    source: 'assumed',
  },
  {
    kind: 'bookTicker',
    channel: 'spot@public.bookTicker.v3.api',
    visibility: 'public',
    title: 'Best bid and ask',
    description: 'The best bid and the best ask, on every change of either.',
    template: 'spot@public.bookTicker.v3.api@<symbol>',
    params: [symbolParam],
    fields: [
      { path: 'b', type: 'decimal', description: 'Best bid price (null when there is no bid).' },
      { path: 'B', type: 'decimal', description: 'Quantity at the best bid.' },
      { path: 'a', type: 'decimal', description: 'Best ask price (null when there is no ask).' },
      { path: 'A', type: 'decimal', description: 'Quantity at the best ask.' },
    ],
    example:
      '{"c":"spot@public.bookTicker.v3.api@BTCUSDT","s":"BTCUSDT","t":1700000000000,"d":{"b":"29990.00000000","B":"2.00000000","a":"30010.00000000","A":"1.99900000"}}',
    source: 'assumed',
  },
  {
    kind: 'kline',
    channel: 'spot@public.kline.v3.api',
    visibility: 'public',
    title: 'Candles',
    description: 'The current candle of the interval, built from the trades, on every trade.',
    template: 'spot@public.kline.v3.api@<symbol>@<interval>',
    params: [symbolParam, intervalParam],
    fields: [
      { path: 'e', type: 'string', description: 'The channel, spot@public.kline.v3.api.' },
      { path: 'k.t', type: 'timestampS', description: 'Start of the candle, Unix seconds.' },
      { path: 'k.T', type: 'timestampS', description: 'End of the candle, Unix seconds.' },
      { path: 'k.i', type: 'string', description: 'The interval.' },
      { path: 'k.o', type: 'decimal', description: 'Open: the first trade price of the candle.' },
      { path: 'k.c', type: 'decimal', description: 'Close: the latest trade price.' },
      { path: 'k.h', type: 'decimal', description: 'High.' },
      { path: 'k.l', type: 'decimal', description: 'Low.' },
      { path: 'k.v', type: 'decimal', description: 'Volume, in the base asset.' },
      { path: 'k.a', type: 'decimal', description: 'Amount, in the quote asset.' },
    ],
    example:
      '{"c":"spot@public.kline.v3.api@BTCUSDT@Min1","s":"BTCUSDT","t":1700000000000,"d":{"e":"spot@public.kline.v3.api","k":{"t":1699999980,"T":1700000040,"i":"Min1","o":"30010.00000000","c":"30010.00000000","h":"30010.00000000","l":"30010.00000000","v":"0.00100000","a":"30.01000000"}}}',
    source: 'assumed',
  },
  {
    kind: 'orders',
    channel: 'spot@private.orders.v3.api',
    visibility: 'private',
    title: 'My orders',
    description:
      "The account's orders on every change: placed, filled in part or whole, cancelled. Needs a listen key.",
    template: 'spot@private.orders.v3.api',
    params: [],
    fields: [
      { path: 'i', type: 'string', description: 'orderId.' },
      { path: 'c', type: 'string', description: 'The client order id.' },
      { path: 'o', type: 'code', description: `Order type: ${ORDER_TYPE_TEXT}.` },
      { path: 'S', type: 'code', description: 'Side: 1 buy, 2 sell.' },
      { path: 'p', type: 'decimal', description: 'Price (0 for MARKET).' },
      { path: 'v', type: 'decimal', description: 'Quantity ordered.' },
      { path: 'a', type: 'decimal', description: 'Amount ordered, in the quote asset (price × quantity).' },
      { path: 'V', type: 'decimal', description: 'Quantity not yet filled.' },
      { path: 'A', type: 'decimal', description: 'Amount not yet filled.' },
      { path: 'cv', type: 'decimal', description: 'Quantity filled.' },
      { path: 'ca', type: 'decimal', description: 'Amount filled, in the quote asset.' },
      { path: 'ap', type: 'decimal', description: 'Average fill price.' },
      { path: 's', type: 'code', description: `Status: ${ORDER_STATUS_TEXT}.` },
      { path: 'm', type: 'code', description: '1 once the order has rested in the book (a maker), 0 otherwise.' },
      { path: 'O', type: 'timestampMs', description: 'When the order was placed.' },
    ],
    example:
      '{"c":"spot@private.orders.v3.api","s":"BTCUSDT","t":1700000000000,"d":{"i":"1000001","c":"sbx1000001","o":1,"S":1,"p":"20000.00000000","v":"0.00100000","a":"20.00000000","V":"0.00100000","A":"20.00000000","cv":"0.00000000","ca":"0.00000000","ap":"0.00000000","s":1,"m":1,"O":1700000000000}}',
    source: 'assumed',
  },
  {
    kind: 'privateDeals',
    channel: 'spot@private.deals.v3.api',
    visibility: 'private',
    title: 'My fills',
    description: "The account's fills, one push each. Needs a listen key.",
    template: 'spot@private.deals.v3.api',
    params: [],
    fields: [
      { path: 'p', type: 'decimal', description: 'Price.' },
      { path: 'v', type: 'decimal', description: 'Quantity.' },
      { path: 'a', type: 'decimal', description: 'Amount, in the quote asset.' },
      { path: 'S', type: 'code', description: "The order's side: 1 buy, 2 sell." },
      { path: 'T', type: 'timestampMs', description: 'Trade time.' },
      { path: 't', type: 'string', description: 'Trade id.' },
      { path: 'c', type: 'string', description: 'The client order id.' },
      { path: 'i', type: 'string', description: 'orderId.' },
      { path: 'm', type: 'code', description: '1 when the order was the maker, 0 the taker.' },
      { path: 'n', type: 'decimal', description: 'Fee.' },
      { path: 'N', type: 'string', description: 'Fee asset.' },
    ],
    example:
      '{"c":"spot@private.deals.v3.api","s":"BTCUSDT","t":1700000000000,"d":{"p":"30010.00000000","v":"0.00100000","a":"30.01000000","S":1,"T":1700000000000,"t":"1","c":"sbx1000001","i":"1000001","m":0,"n":"0.00000000","N":"USDT"}}',
    source: 'assumed',
  },
  {
    kind: 'account',
    channel: 'spot@private.account.v3.api',
    visibility: 'private',
    title: 'My balances',
    description: "The account's balance of an asset, on every change. Needs a listen key.",
    template: 'spot@private.account.v3.api',
    params: [],
    fields: [
      { path: 'a', type: 'string', description: 'Asset.' },
      { path: 'c', type: 'timestampMs', description: 'Time of the change.' },
      { path: 'f', type: 'decimal', description: 'Free amount.' },
      { path: 'fd', type: 'decimal', description: 'Change of the free amount.' },
      { path: 'l', type: 'decimal', description: 'Locked amount (held by open orders).' },
      { path: 'ld', type: 'decimal', description: 'Change of the locked amount.' },
      {
        path: 'o',
        type: 'string',
        description: 'Why: ENTRUST_PLACE (an order locked it), ENTRUST_CANCEL (released), DEAL (a fill).',
      },
    ],
    example:
      '{"c":"spot@private.account.v3.api","t":1700000000000,"d":{"a":"USDT","c":1700000000000,"f":"999980.00000000","fd":"-20.00000000","l":"20.00000000","ld":"20.00000000","o":"ENTRUST_PLACE"}}',
    source: 'assumed',
  },
];

const byKind = new Map<StreamKind, StreamDescription>(STREAM_DESCRIPTIONS.map((s) => [s.kind, s]));
const byChannel = new Map<string, StreamDescription>(STREAM_DESCRIPTIONS.map((s) => [s.channel, s]));

function describeStream(kind: StreamKind): StreamDescription {
  return byKind.get(kind)!;
}

/** The name of a stream, as subscribed and as the `c` of its pushes. */
export function formatStreamName(s: ParsedStream): string {
  const info = describeStream(s.kind);
  switch (s.kind) {
    case 'deals':
    case 'bookTicker':
      return `${info.channel}@${s.symbol}`;
    case 'depth':
      return `${info.channel}@${s.symbol}@${s.levels}`;
    case 'kline':
      return `${info.channel}@${s.symbol}@${s.interval}`;
    default:
      return info.channel;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing a stream name

type StreamProblemKind = 'malformed' | 'unknown-kind' | 'bad-symbol' | 'bad-levels' | 'bad-interval';

export interface StreamProblem {
  readonly kind: StreamProblemKind;
  /** What is wrong and what to write instead, as one or two sentences. */
  readonly message: string;
  /** The offending part of the name, as [start, end) offsets into it (for an editor squiggle). */
  readonly start: number;
  readonly end: number;
  /** Values that would fit there (levels, intervals, channels), for a quick fix or completion. */
  readonly expected?: readonly string[];
  /** A corrected name when one is plain (upper-cased symbol, interval written in another case). */
  readonly suggestion?: string;
}

export type StreamNameParse = Result<
  { readonly stream: ParsedStream; readonly info: StreamDescription },
  StreamProblem
>;

// Characters a stream name may hold at all; anything else (spaces, quotes, controls) is malformed.
const NAME_CHARS = /^[A-Za-z0-9@._-]*$/;

function problem(
  kind: StreamProblemKind,
  message: string,
  start: number,
  end: number,
  extra: { expected?: readonly string[]; suggestion?: string } = {},
): StreamNameParse {
  return err({ kind, message, start, end, ...extra });
}

/** The kind of `name` and its parameters, or the first precise problem with it. */
export function readStreamName(name: string): StreamNameParse {
  if (name.length === 0) return problem('malformed', t('The stream name is empty.'), 0, 0);
  if (name.length > WS_RULES.maxStreamNameLength) {
    const message = t('A stream name has at most {0} characters.', WS_RULES.maxStreamNameLength);
    return problem('malformed', message, 0, name.length);
  }
  if (!NAME_CHARS.test(name)) {
    const at = [...name].findIndex((c) => !NAME_CHARS.test(c));
    const message = t('A stream name holds letters, digits and . _ - @ only, with no spaces.');
    return problem('malformed', message, at, at + 1);
  }
  const parts = name.split('@');
  const channel = parts.length >= 2 ? `${parts[0]}@${parts[1]}` : name;
  const info = byChannel.get(channel);
  if (info === undefined) return unknownKind(channel);
  const args = parts.slice(2);
  let offset = channel.length + 1;
  const spans = args.map((a) => {
    const span = { text: a, start: offset, end: offset + a.length };
    offset += a.length + 1;
    return span;
  });
  const wanted = info.params.length;
  if (args.length !== wanted) {
    const at = args.length > wanted ? spans[wanted]!.start - 1 : 0;
    return problem('malformed', parameterCountMessage(info), at, name.length);
  }
  if (wanted === 0) return ok({ stream: { kind: info.kind as 'orders' | 'privateDeals' | 'account' }, info });
  return parsePublic(info, name, spans);
}

interface Span {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** What a stream's name takes after its channel, and how to write it. */
function parameterCountMessage(info: StreamDescription): string {
  const names = info.params.map((p) => p.name);
  if (names.length === 0) return t('{0} takes no parameters: write {1}.', info.channel, info.template);
  const params = names.slice(1).reduce<string>((all, n) => t('{0} and {1}', all, n), names[0]!);
  return t('{0} takes {1}: write {2}, e.g. {3}.', info.channel, params, info.template, exampleName(info));
}

function exampleName(info: StreamDescription): string {
  return info.template.replace('<symbol>', 'BTCUSDT').replace('<levels>', '5').replace('<interval>', 'Min1');
}

function unknownKind(channel: string): StreamNameParse {
  const channels = STREAM_DESCRIPTIONS.map((s) => s.channel);
  const lower = channel.toLowerCase();
  const near = channels.find((c) => c.toLowerCase() === lower);
  return problem(
    'unknown-kind',
    near !== undefined
      ? t('Unknown stream "{0}"; names are case-sensitive: {1}.', channel, near)
      : t('Unknown stream "{0}"; known: {1}.', channel, channels.join(', ')),
    0,
    channel.length,
    near !== undefined ? { expected: channels, suggestion: near } : { expected: channels },
  );
}

function parsePublic(info: StreamDescription, name: string, spans: readonly Span[]): StreamNameParse {
  const sym = spans[0]!;
  if (!SYMBOL_FORMAT.test(sym.text)) {
    const upper = sym.text.toUpperCase();
    const fixable = upper !== sym.text && SYMBOL_FORMAT.test(upper);
    return problem(
      'bad-symbol',
      fixable
        ? t('The symbol must be upper-case (§2.1): {0}, not {1}.', upper, sym.text)
        : t(
            '"{0}" is not a symbol: upper-case letters and digits with no separator, such as BTCUSDT (§2.1).',
            sym.text,
          ),
      sym.start,
      sym.end,
      fixable ? { suggestion: name.slice(0, sym.start) + upper + name.slice(sym.end) } : {},
    );
  }
  const symbol = sym.text;
  if (info.kind === 'depth') {
    const lv = spans[1]!;
    const levels = DEPTH_LEVELS.find((n) => String(n) === lv.text);
    if (levels === undefined)
      return problem('bad-levels', t('The depth levels are 5, 10 or 20, not "{0}".', lv.text), lv.start, lv.end, {
        expected: DEPTH_LEVELS.map(String),
      });
    return ok({ stream: { kind: 'depth', symbol, levels }, info });
  }
  if (info.kind === 'kline') {
    const iv = spans[1]!;
    const interval = KLINE_INTERVALS.find((i) => i === iv.text);
    if (interval === undefined) {
      const near = KLINE_INTERVALS.find((i) => i.toLowerCase() === iv.text.toLowerCase());
      const message =
        near !== undefined
          ? t(
              'The kline interval is one of {0} (case-sensitive: {1}), not "{2}".',
              KLINE_INTERVALS.join(', '),
              near,
              iv.text,
            )
          : t('The kline interval is one of {0}, not "{1}".', KLINE_INTERVALS.join(', '), iv.text);
      return problem(
        'bad-interval',
        message,
        iv.start,
        iv.end,
        near !== undefined
          ? { expected: KLINE_INTERVALS, suggestion: name.slice(0, iv.start) + near + name.slice(iv.end) }
          : { expected: KLINE_INTERVALS },
      );
    }
    return ok({ stream: { kind: 'kline', symbol, interval }, info });
  }
  return ok({ stream: { kind: info.kind as 'deals' | 'bookTicker', symbol }, info });
}
