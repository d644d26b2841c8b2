/**
 * The vocabulary every deployment's stream catalog is written in: the kinds of stream, their
 * parameters, what a description holds, and a name read into its parts (ParsedStream). Each
 * deployment's streams are data in a file of their own (stream-names-spec.ts,
 * stream-names-mexc.ts); stream-names.ts reads and writes names against any of them.
 */
import type { EnumValueInfo, Source } from './types';

/**
 * What a stream carries, the same word in every deployment that has it: `deals` is the spec's
 * trades and mexc's aggregated trades, `bookTicker` the spec's best bid and ask and mexc's
 * aggregated one. A kind only one deployment has is named for what it is (`aggreDepth`).
 */
export type StreamKind =
  | 'deals'
  | 'depth'
  | 'aggreDepth'
  | 'increaseDepthBatch'
  | 'bookTicker'
  | 'bookTickerBatch'
  | 'kline'
  | 'orders'
  | 'privateDeals'
  | 'account';

export const DEPTH_LEVELS = [5, 10, 20] as const;
export type DepthLevels = (typeof DEPTH_LEVELS)[number];

/** How often an aggregated stream pushes what it gathered (mexc's `(100ms|10ms)` parameter). */
export const STREAM_RATES = ['100ms', '10ms'] as const;
export type StreamRate = (typeof STREAM_RATES)[number];

/** The spec's kline intervals (the JSON convention). */
export const KLINE_INTERVALS = ['Min1', 'Min5', 'Min15', 'Min30', 'Min60', 'Hour4', 'Day1', 'Week1', 'Month'] as const;
/** mexc's: the spec's with Hour8 added and Month written Month1. */
export const MEXC_KLINE_INTERVALS = [
  'Min1',
  'Min5',
  'Min15',
  'Min30',
  'Min60',
  'Hour4',
  'Hour8',
  'Day1',
  'Week1',
  'Month1',
] as const;
/** An interval of any deployment. */
export type KlineInterval = (typeof KLINE_INTERVALS)[number] | (typeof MEXC_KLINE_INTERVALS)[number];

const MINUTE = 60_000;
/** Each interval's length; a month runs from the first of a UTC month to the next (no fixed length). */
export const KLINE_INTERVAL_MS: Readonly<Record<KlineInterval, number | undefined>> = {
  Min1: MINUTE,
  Min5: 5 * MINUTE,
  Min15: 15 * MINUTE,
  Min30: 30 * MINUTE,
  Min60: 60 * MINUTE,
  Hour4: 240 * MINUTE,
  Hour8: 480 * MINUTE,
  Day1: 1440 * MINUTE,
  Week1: 7 * 1440 * MINUTE,
  Month: undefined,
  Month1: undefined,
};

const INTERVAL_WORDS: Readonly<Record<KlineInterval, string>> = {
  Min1: '1 minute',
  Min5: '5 minutes',
  Min15: '15 minutes',
  Min30: '30 minutes',
  Min60: '60 minutes',
  Hour4: '4 hours',
  Hour8: '8 hours',
  Day1: '1 day (UTC)',
  Week1: '1 week, from Monday 00:00 UTC',
  Month: '1 calendar month (UTC)',
  Month1: '1 calendar month (UTC)',
};

/**
 * A stream name read into its parts. `rate` is there on mexc's aggregated streams (a deals or
 * bookTicker stream without one, the spec's, has no rate in its name).
 */
export type ParsedStream =
  | { readonly kind: 'deals'; readonly symbol: string; readonly rate?: StreamRate }
  | { readonly kind: 'depth'; readonly symbol: string; readonly levels: DepthLevels }
  | { readonly kind: 'aggreDepth'; readonly symbol: string; readonly rate: StreamRate }
  | { readonly kind: 'increaseDepthBatch'; readonly symbol: string }
  | { readonly kind: 'bookTicker'; readonly symbol: string; readonly rate?: StreamRate }
  | { readonly kind: 'bookTickerBatch'; readonly symbol: string }
  | { readonly kind: 'kline'; readonly symbol: string; readonly interval: KlineInterval }
  | { readonly kind: 'orders' }
  | { readonly kind: 'privateDeals' }
  | { readonly kind: 'account' };

export type StreamParamName = 'symbol' | 'levels' | 'interval' | 'rate';

/** One parameter of a stream's name; its place in the name is its place in `params`. */
export interface StreamParamInfo {
  readonly name: StreamParamName;
  readonly description: string;
  readonly rule: string;
  /** The values it takes, when they are a list (levels, intervals, rates); the symbol has none. */
  readonly values?: readonly EnumValueInfo[];
}

/** One field of a push's body, by its path inside the body: `deals[].p` inside a JSON push's `d`, `deals[].price` inside a decoded push's `publicAggreDeals`. */
export interface PushFieldInfo {
  readonly path: string;
  readonly type: 'decimal' | 'integer' | 'timestampMs' | 'timestampS' | 'string' | 'code' | 'list' | 'boolean';
  readonly description: string;
}

/** Where a stream's description comes from: the spec, the family's convention (assumed), or the deployment's own documentation. */
type StreamSource = Source | 'deployment';

/** A stream as the editor knows it; streams.ts adds the schema of the spec's JSON pushes (StreamInfo). */
export interface StreamDescription {
  readonly kind: StreamKind;
  /** The name's fixed part (before the first parameter), also the `e` of the JSON pushes that carry one. */
  readonly channel: string;
  readonly visibility: 'public' | 'private';
  readonly title: string;
  readonly description: string;
  /** The name with its parameters as placeholders: `spot@public.deals.v3.api@<symbol>`. */
  readonly template: string;
  /** The name's parameters, in the order they follow the channel. */
  readonly params: readonly StreamParamInfo[];
  /**
   * For a binary (Protocol Buffers) push: the wrapper's body field that carries it (its oneof
   * case, e.g. `publicAggreDeals`, field 314), under which a decoded push shows the body.
   */
  readonly body?: { readonly name: string; readonly field: number; readonly message: string };
  /** The fields of a push's body (`d`, or the binary push's body message), by path inside it. */
  readonly fields: readonly PushFieldInfo[];
  /** One push, as JSON text (a binary push as it decodes: `{channel, symbol, …, <body>: {…}}`). */
  readonly example: string;
  readonly source: StreamSource;
}

// ---------------------------------------------------------------------------------------------
// Parameters shared by the deployments' catalogs

export const symbolParam: StreamParamInfo = {
  name: 'symbol',
  description: 'Trading pair name, e.g. BTCUSDT.',
  rule: 'upper-case letters (and digits)',
};

export const levelsParam: StreamParamInfo = {
  name: 'levels',
  description: 'How many of the best price levels each push lists on each side.',
  rule: '5, 10 or 20',
  values: DEPTH_LEVELS.map((n) => ({
    value: String(n),
    description: `the best ${n} bids and asks`,
    source: 'assumed',
  })),
};

/** The interval parameter over a deployment's own list of intervals. */
export function intervalParam(intervals: readonly KlineInterval[]): StreamParamInfo {
  return {
    name: 'interval',
    description: 'The length of each candle.',
    rule: intervals.join(', '),
    values: intervals.map((i) => ({ value: i, description: INTERVAL_WORDS[i], source: 'assumed' })),
  };
}
