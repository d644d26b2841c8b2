/** Pure formatting for the panel: durations, sizes, times, labels, in the display language. No DOM. */
import { t } from '../core/l10n';
import type { LiveConnection, SendOutcome } from '../core/panel/protocol';

/** A wait or ban left, rounded up to the second: "12 s", "1 min 58 s", "2 h 5 min", "3 d 2 h". */
export function formatWait(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return t('{0} s', s);
  const min = Math.floor(s / 60);
  if (min < 60) return s % 60 === 0 ? t('{0} min', min) : t('{0} min {1} s', min, s % 60);
  const hours = Math.floor(min / 60);
  if (hours < 24) return min % 60 === 0 ? t('{0} h', hours) : t('{0} h {1} min', hours, min % 60);
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? t('{0} d', days) : t('{0} d {1} h', days, hours % 24);
}

/** A measured time: "95 ms", "1.24 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return t('{0} ms', Math.round(ms));
  return t('{0} s', (ms / 1000).toFixed(2));
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local time of a send: "14:02:11" today, "2025-03-01 14:02" another day. */
export function formatTime(at: number, now: number): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '–';
  const n = new Date(now);
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
  const sameDay = d.getFullYear() === n.getFullYear() && d.getMonth() === n.getMonth() && d.getDate() === n.getDate();
  return sameDay ? time : `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${time.slice(0, 5)}`;
}

export function isoTime(at: number): string | undefined {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The path of a URL as sent, without origin or query; the text itself when it is no URL. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

/** The origin of a URL as sent ("https://host:port"); the text itself when it is no URL. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The label of a 418 answer, in place of its outcome's (docs/service.md §7.1: the IP is banned). */
export function banned(): string {
  return t('Banned');
}

/** Each table gives a function, so the words are looked up when shown (the bundle loads after import). */
export const OUTCOME_LABEL: Readonly<Record<SendOutcome, () => string>> = {
  ok: () => t('OK'),
  rejected: () => t('Rejected'),
  unknown: () => t('Outcome unknown'),
  'not-sent': () => t('Not sent'),
  refused: () => t('Refused'),
};

/** Short form for the history list. */
export const OUTCOME_SHORT: Readonly<Record<SendOutcome, () => string>> = {
  ok: () => t('OK'),
  rejected: () => t('Rejected'),
  unknown: () => t('Unknown'),
  'not-sent': () => t('Not sent'),
  refused: () => t('Refused'),
};

/** §8: every counter is a 10 s window, so all that was counted at `now` is free 10 s later. */
const WINDOW_MS = 10_000;

export interface CounterView {
  /** What is certainly left now. */
  readonly remaining: number;
  /** True when more may be free than `remaining` says (the oldest request has left the window). */
  readonly atLeast: boolean;
  /** "frees in 7 s", "all free in 3 s", or "" when the counter is full. */
  readonly frees: string;
  /** Milliseconds until the label changes next, or undefined when it no longer changes. */
  readonly changesInMs: number | undefined;
}

/**
 * The counter at extension time `at`, from its reading at `stateNow`: before the oldest counted
 * request leaves the window the reading holds; after, some is free; a window later, all is.
 */
export function counterAt(
  c: { limit: number; remaining: number; freesInMs: number },
  stateNow: number,
  at: number,
): CounterView {
  const elapsed = at - stateNow;
  if (c.remaining >= c.limit) return { remaining: c.remaining, atLeast: false, frees: '', changesInMs: undefined };
  if (elapsed >= WINDOW_MS) return { remaining: c.limit, atLeast: false, frees: '', changesInMs: undefined };
  if (elapsed < c.freesInMs) {
    return {
      remaining: c.remaining,
      atLeast: false,
      frees: t('frees in {0}', formatWait(c.freesInMs - elapsed)),
      changesInMs: c.freesInMs - elapsed,
    };
  }
  return {
    remaining: c.remaining,
    atLeast: true,
    frees: t('all free in {0}', formatWait(WINDOW_MS - elapsed)),
    changesInMs: WINDOW_MS - elapsed,
  };
}

/** Under 10 % of the limit left: the warning style. */
export function isLow(remaining: number, limit: number): boolean {
  return limit > 0 && remaining < limit * 0.1;
}

// ---- The stream view -------------------------------------------------------------------------------

/** Local time of a push, to the millisecond: "14:02:11.042". */
export function formatClock(at: number): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '–';
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** A stream name without the family's fixed parts: "deals@BTCUSDT", "limit.depth@BTCUSDT@5", "private.orders". */
export function shortStream(name: string): string {
  return name
    .replace(/^spot@public\./, '')
    .replace(/^spot@/, '')
    .replace('.v3.api', '');
}

/** A count for people: "12,345". */
export function formatCount(n: number): string {
  // Not toLocaleString: it is slow, and this runs for every figure on every frame.
  return Number.isFinite(n) ? String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : '–';
}

/** Pushes a second: "0/s", "0.4/s", "120/s". */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return t('{0}/s', 0);
  return t('{0}/s', perSecond < 10 ? perSecond.toFixed(1) : Math.round(perSecond));
}

export const CONNECTION_LABEL: Readonly<Record<LiveConnection['status'], () => string>> = {
  idle: () => t('Not connected'),
  connecting: () => t('Connecting…'),
  open: () => t('Open'),
  closing: () => t('Closing…'),
  closed: () => t('Closed'),
};
