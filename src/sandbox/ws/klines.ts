/**
 * Candles of the kline streams, built from the sandbox's own trades: one open candle per symbol
 * and interval, rolled over when a trade falls past its end. Times are UTC; a week starts on
 * Monday 00:00 and a month on the first (assumed, as the whole stream catalog).
 */
import { KLINE_INTERVALS, KLINE_INTERVAL_MS, type KlineInterval } from '../../core/catalog/streams';
import { formatUnits, mulFloor } from '../decimal';

// 1970-01-05, the first Monday after the Unix epoch.
const FIRST_MONDAY_MS = 4 * 24 * 60 * 60_000;

/** The [start, end) of the candle of `interval` that holds `time` (Unix ms). */
function candleSpan(interval: KlineInterval, time: number): [number, number] {
  if (interval === 'Month') {
    const d = new Date(time);
    return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
  }
  const ms = KLINE_INTERVAL_MS[interval]!;
  const origin = interval === 'Week1' ? FIRST_MONDAY_MS : 0;
  const start = Math.floor((time - origin) / ms) * ms + origin;
  return [start, start + ms];
}

interface Candle {
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
  private readonly open = new Map<KlineInterval, Candle>();

  trade(price: bigint, qty: bigint, time: number): void {
    const amount = mulFloor(qty, price);
    for (const interval of KLINE_INTERVALS) {
      const c = this.open.get(interval);
      if (c === undefined || time >= c.end || time < c.start) {
        const [start, end] = candleSpan(interval, time);
        this.open.set(interval, {
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

  /** The push's `k` of the open candle of `interval`, as JSON text; undefined before any trade. */
  json(interval: KlineInterval): string | undefined {
    const c = this.open.get(interval);
    if (c === undefined) return undefined;
    // The family writes candle times in seconds.
    return `{"t":${c.start / 1000},"T":${c.end / 1000},"i":"${interval}","o":"${formatUnits(c.open)}","c":"${formatUnits(c.close)}","h":"${formatUnits(c.high)}","l":"${formatUnits(c.low)}","v":"${formatUnits(c.volume)}","a":"${formatUnits(c.amount)}"}`;
  }
}
