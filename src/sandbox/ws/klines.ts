/**
 * Candles of the kline streams, built from the sandbox's own trades: one open candle per symbol
 * and interval, rolled over when a trade falls past its end. Times are UTC; a week starts on
 * Monday 00:00 and a month on the first (assumed, as the whole stream catalog). The intervals
 * are the deployment's (its framing's).
 */
import { formatUnits, mulFloor } from '../decimal';

/** An interval of a kline stream: its name in the stream name, its length (undefined: a calendar month). */
export interface CandleInterval {
  readonly name: string;
  readonly ms: number | undefined;
}

// 1970-01-05, the first Monday after the Unix epoch.
const FIRST_MONDAY_MS = 4 * 24 * 60 * 60_000;
const WEEK_MS = 7 * 24 * 60 * 60_000;

/** The [start, end) of the candle of `interval` that holds `time` (Unix ms). */
function candleSpan(interval: CandleInterval, time: number): [number, number] {
  const ms = interval.ms;
  if (ms === undefined) {
    const d = new Date(time);
    return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
  }
  const origin = ms === WEEK_MS ? FIRST_MONDAY_MS : 0;
  const start = Math.floor((time - origin) / ms) * ms + origin;
  return [start, start + ms];
}

/** One open candle; times in Unix ms, amounts in the sandbox's fixed-point units. */
export interface Candle {
  readonly interval: string;
  start: number;
  end: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  amount: bigint;
}

/** The open candles of one symbol, one per interval. */
export class Candles {
  private readonly open = new Map<string, Candle>();

  constructor(private readonly intervals: readonly CandleInterval[]) {}

  trade(price: bigint, qty: bigint, time: number): void {
    const amount = mulFloor(qty, price);
    for (const interval of this.intervals) {
      const c = this.open.get(interval.name);
      if (c === undefined || time >= c.end || time < c.start) {
        const [start, end] = candleSpan(interval, time);
        this.open.set(interval.name, {
          interval: interval.name,
          start,
          end,
          open: price,
          high: price,
          low: price,
          close: price,
          volume: qty,
          amount,
        });
        continue;
      }
      if (price > c.high) c.high = price;
      if (price < c.low) c.low = price;
      c.close = price;
      c.volume += qty;
      c.amount += amount;
    }
  }

  /** The open candle of `interval`; undefined before any trade. */
  candle(interval: string): Readonly<Candle> | undefined {
    return this.open.get(interval);
  }
}

/** The JSON push's `k` of a candle (the family writes candle times in seconds). */
export function candleJson(c: Readonly<Candle>): string {
  const n = formatUnits;
  return `{"t":${c.start / 1000},"T":${c.end / 1000},"i":"${c.interval}","o":"${n(c.open)}","c":"${n(c.close)}","h":"${n(c.high)}","l":"${n(c.low)}","v":"${n(c.volume)}","a":"${n(c.amount)}"}`;
}
