/**
 * Clock sync: the offset of the server clock, measured with GET /api/v3/time and corrected by half
 * the round trip, so that timestamps meet §5 rule 9 even when the local clock is off.
 */
import { LIMITS } from '../catalog/limits';

export interface ClockSample {
  /** serverTime − local time at the middle of the round trip. Positive: the server is ahead. */
  readonly offsetMs: number;
  readonly roundTripMs: number;
  readonly measuredAt: number;
}

/** `t0` and `t1` are the local times the request left and the answer came back. */
export function sampleFrom(serverTime: number, t0: number, t1: number): ClockSample {
  return { offsetMs: Math.round(serverTime - (t0 + t1) / 2), roundTripMs: t1 - t0, measuredAt: t1 };
}

/** A measurement older than this is taken again before the next signed request. */
export const CLOCK_MAX_AGE_MS = 10 * 60_000;

/** The 700003 explanation with the rule and the measured offset. */
export function explainTimestampError(
  sample: ClockSample | undefined,
  recvWindow: number = LIMITS.recvWindow.defaultMs,
): string {
  const rule = `The service processes a request only when timestamp < serverTime + ${LIMITS.timestampAheadMs} and serverTime − timestamp ≤ recvWindow (${recvWindow} ms) (spec §5 rule 9).`;
  if (!sample) return `${rule} No clock offset has been measured: turn clock sync on, or check the system clock.`;
  const direction =
    sample.offsetMs >= 0
      ? `your clock is ${sample.offsetMs} ms behind the server`
      : `your clock is ${-sample.offsetMs} ms ahead of the server`;
  return `${rule} Measured offset: ${direction} (round trip ${sample.roundTripMs} ms, ${new Date(sample.measuredAt).toISOString()}).`;
}
