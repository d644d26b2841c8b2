/**
 * Clock sync: the offset of the server clock, measured with GET /api/v3/time and corrected by half
 * the round trip, so that timestamps meet §5 rule 9 even when the local clock is off.
 */
import { BOUNDS } from '../bounds';
import { LIMITS } from '../catalog/limits';
import { t } from '../l10n';

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

/** A measurement older than this is taken again before the next signed request (and at once after a 700003). */
export const CLOCK_MAX_AGE_MS = 10 * 60_000;

/** What a 700003 found when the clock was measured again at once (pipeline.ts). */
export interface ClockRecheck {
  /** The offset the refused request used, if one was stored. */
  readonly before?: ClockSample;
  /** The new measurement, kept for the next send; absent when GET /api/v3/time gave no serverTime. */
  readonly after?: ClockSample;
  /** Whether timestamps are corrected by the offset (false with --no-clock-sync). */
  readonly clockSync: boolean;
}

function timingRule(recvWindow: number): string {
  return t(
    'The service processes a request only when timestamp < serverTime + {0} and serverTime − timestamp ≤ recvWindow ({1} ms) (spec §5 rule 9).',
    LIMITS.timestampAheadMs,
    recvWindow,
  );
}

/** "N ms behind the server", or ahead of it: where this machine's clock is. */
function offsetWords(sample: ClockSample): string {
  return sample.offsetMs >= 0
    ? t('{0} ms behind the server', sample.offsetMs)
    : t('{0} ms ahead of the server', -sample.offsetMs);
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "about 365 days": an offset too large to read in milliseconds. */
function roughly(sample: ClockSample): string {
  const ms = Math.abs(sample.offsetMs);
  if (ms >= DAY_MS) return t('about {0} days', Math.round(ms / DAY_MS));
  if (ms >= HOUR_MS) return t('about {0} hours', Math.round(ms / HOUR_MS));
  return t('about {0} minutes', Math.round(ms / MINUTE_MS));
}

/**
 * Whether a request may be signed with `sample`'s offset: one within BOUNDS.clockOffsetMs either
 * way. A larger one (this machine's clock hours or years off, or a server or state file that says
 * so) would put the signature's time far from now.
 */
export function plausibleOffset(sample: ClockSample): boolean {
  return Math.abs(sample.offsetMs) <= BOUNDS.clockOffsetMs;
}

/** Why a signed request to `origin` is refused: `sample`'s offset is beyond the bound. */
export function implausibleOffset(origin: string, sample: ClockSample): string {
  return t(
    'Nothing was signed or sent: your clock is {0} ({1}, measured {2} against {3}), more than the {4} minutes TradeReq corrects a signed request by. Check this machine\'s clock, and that {3} is the server you mean; then run "tradereq state reset {3}" (or "TradeReq: Reset Rate-Limit State" in VS Code), and the next send measures the clock again.',
    offsetWords(sample),
    roughly(sample),
    new Date(sample.measuredAt).toISOString(),
    origin,
    BOUNDS.clockOffsetMs / MINUTE_MS,
  );
}

/** Whether the request refused with a 700003 may be sent again as it is: measured again, with clock sync, within the bound. */
export function maySendAgain(check: ClockRecheck): boolean {
  return check.after !== undefined && check.clockSync && plausibleOffset(check.after);
}

/** The 700003 explanation of the hover: the rule and the last measured offset. */
export function explainTimestampError(
  sample: ClockSample | undefined,
  recvWindow: number = LIMITS.recvWindow.defaultMs,
): string {
  const rule = timingRule(recvWindow);
  if (!sample) return t('{0} No clock offset has been measured yet: the first signed send measures it.', rule);
  return t(
    '{0} Last measured offset: your clock is {1} (round trip {2} ms, {3}).',
    rule,
    offsetWords(sample),
    sample.roundTripMs,
    new Date(sample.measuredAt).toISOString(),
  );
}

/** The note of a 700003: the rule, and the offset measured again at once, which the next send uses. */
export function explainRecheck(check: ClockRecheck, recvWindow: number = LIMITS.recvWindow.defaultMs): string {
  const rule = timingRule(recvWindow);
  const { before, after } = check;
  if (!after)
    return t(
      '{0} The server clock could not be measured again (GET /api/v3/time gave no serverTime): the next signed send measures it first.',
      rule,
    );
  if (check.clockSync && !plausibleOffset(after))
    return t(
      "{0} The server clock was measured again: your clock is {1} ({2}), more than the {3} minutes TradeReq corrects a signed request by: the next signed send is refused until this machine's clock (or the server) is set right.",
      rule,
      offsetWords(after),
      roughly(after),
      BOUNDS.clockOffsetMs / MINUTE_MS,
    );
  if (!check.clockSync)
    return t(
      "{0} Clock sync is off, so the timestamp came from this machine's clock as it is: your clock is {1}. Send without --no-clock-sync, or set the system clock.",
      rule,
      offsetWords(after),
    );
  return before
    ? t(
        '{0} The server clock was measured again: your clock is {1} (before: {2}); the next send uses the new offset.',
        rule,
        offsetWords(after),
        offsetWords(before),
      )
    : t(
        '{0} The server clock was measured again: your clock is {1}; the next send uses the new offset.',
        rule,
        offsetWords(after),
      );
}

/** The note of a 700003 to a request that writes its own timestamp, which clock sync leaves as it is. */
export function explainWrittenTimestamp(recvWindow: number = LIMITS.recvWindow.defaultMs): string {
  return t(
    '{0} The request writes its own timestamp, which clock sync does not correct: remove the timestamp line and TradeReq adds the current time, or write {{$timestamp}}.',
    timingRule(recvWindow),
  );
}
