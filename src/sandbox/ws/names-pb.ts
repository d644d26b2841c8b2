/**
 * mexc's `.pb` stream names as the sandbox plays them (docs/websocket.md, "Deployments"):
 * `spot@<channel>@<parameters>`, the channel ending in `.pb`. Until the stream catalog per
 * deployment reads them (src/core/catalog), this reader is the sandbox's own.
 */
import { err, ok, type Result } from '../../core/result';
import type { CandleInterval } from './klines';
import type { PlayedStream, StreamReader } from './names';

const MINUTE = 60_000;

/** The intervals of mexc's kline streams; Month1 is a calendar month. */
export const PB_KLINE_INTERVALS: readonly CandleInterval[] = [
  { name: 'Min1', ms: MINUTE },
  { name: 'Min5', ms: 5 * MINUTE },
  { name: 'Min15', ms: 15 * MINUTE },
  { name: 'Min30', ms: 30 * MINUTE },
  { name: 'Min60', ms: 60 * MINUTE },
  { name: 'Hour4', ms: 240 * MINUTE },
  { name: 'Hour8', ms: 480 * MINUTE },
  { name: 'Day1', ms: 1440 * MINUTE },
  { name: 'Week1', ms: 7 * 1440 * MINUTE },
  { name: 'Month1', ms: undefined },
];
/** The aggregation intervals of the aggre channels. */
export const PB_SPEEDS = ['100ms', '10ms'] as const;
export const PB_DEPTH_LEVELS = [5, 10, 20] as const;

/** The channels (the part between `spot@` and the parameters). */
export const PB_CHANNEL = {
  deals: 'public.aggre.deals.v3.api.pb',
  depth: 'public.limit.depth.v3.api.pb',
  bookTicker: 'public.aggre.bookTicker.v3.api.pb',
  bookTickerBatch: 'public.bookTicker.batch.v3.api.pb',
  kline: 'public.kline.v3.api.pb',
  orders: 'private.orders.v3.api.pb',
  privateDeals: 'private.deals.v3.api.pb',
  account: 'private.account.v3.api.pb',
} as const;

/** Channels the deployment documents that the sandbox does not push (book increments: it keeps no diff of its book). */
const NOT_PLAYED = ['public.aggre.depth.v3.api.pb', 'public.increase.depth.batch.v3.api.pb'];

type Param = 'speed' | 'symbol' | 'levels' | 'interval';

interface Shape {
  readonly params: readonly Param[];
  readonly make: (v: Values) => PlayedStream;
}

const SHAPES: ReadonlyMap<string, Shape> = new Map<string, Shape>([
  [PB_CHANNEL.deals, { params: ['speed', 'symbol'], make: (v) => ({ kind: 'deals', symbol: v.symbol! }) }],
  [
    PB_CHANNEL.depth,
    { params: ['symbol', 'levels'], make: (v) => ({ kind: 'depth', symbol: v.symbol!, levels: Number(v.levels) }) },
  ],
  [PB_CHANNEL.bookTicker, { params: ['speed', 'symbol'], make: (v) => ({ kind: 'bookTicker', symbol: v.symbol! }) }],
  [PB_CHANNEL.bookTickerBatch, { params: ['symbol'], make: (v) => ({ kind: 'bookTicker', symbol: v.symbol! }) }],
  [
    PB_CHANNEL.kline,
    {
      params: ['symbol', 'interval'],
      make: (v) => ({ kind: 'kline', symbol: v.symbol!, interval: v.interval! }),
    },
  ],
  [PB_CHANNEL.orders, { params: [], make: () => ({ kind: 'orders' }) }],
  [PB_CHANNEL.privateDeals, { params: [], make: () => ({ kind: 'privateDeals' }) }],
  [PB_CHANNEL.account, { params: [], make: () => ({ kind: 'account' }) }],
]);

type Values = Partial<Record<Param, string>>;

const RULES: Readonly<Record<Param, { readonly test: (v: string) => boolean; readonly rule: string }>> = {
  speed: { test: (v) => (PB_SPEEDS as readonly string[]).includes(v), rule: PB_SPEEDS.join(' or ') },
  symbol: { test: (v) => /^[A-Z0-9]{2,20}$/.test(v), rule: 'an upper-case symbol such as BTCUSDT' },
  levels: { test: (v) => PB_DEPTH_LEVELS.map(String).includes(v), rule: PB_DEPTH_LEVELS.join(', ') },
  interval: {
    test: (v) => PB_KLINE_INTERVALS.some((i) => i.name === v),
    rule: PB_KLINE_INTERVALS.map((i) => i.name).join(', ') + ' (case-sensitive)',
  },
};

const EXAMPLE = `spot@${PB_CHANNEL.deals}@100ms@BTCUSDT`;
const MAX_NAME = 120;

function read(name: string): Result<PlayedStream, string> {
  if (name.length > MAX_NAME) return err(`A stream name has at most ${MAX_NAME} characters.`);
  const [spot, channel = '', ...values] = name.split('@');
  if (spot !== 'spot') return err(`Unknown stream; names of this deployment look like ${EXAMPLE}.`);
  if (!channel.endsWith('.pb'))
    return err(`This deployment pushes Protocol Buffers: its stream names end their channel in .pb, e.g. ${EXAMPLE}.`);
  if (NOT_PLAYED.includes(channel))
    return err(`spot@${channel} is a stream of the deployment that the sandbox does not play.`);
  const shape = SHAPES.get(channel);
  if (shape === undefined)
    return err(`Unknown stream; the channels are ${[...SHAPES.keys()].map((c) => `spot@${c}`).join(', ')}.`);
  if (values.length !== shape.params.length) {
    const wanted = shape.params.map((p) => `@<${p}>`).join('');
    return err(`spot@${channel} is written spot@${channel}${wanted}.`);
  }
  const v: Values = {};
  for (const [i, param] of shape.params.entries()) {
    const given = values[i]!;
    if (!RULES[param].test(given)) return err(`${param} "${given}" is not one of ${RULES[param].rule}.`);
    v[param] = given;
  }
  return ok(shape.make(v));
}

export const PB_STREAM_READER: StreamReader = { read, example: EXAMPLE };
