/**
 * The rate-limit budget (§8): per origin, an IP counter and a per-account counter, each 500 weight
 * per rolling 10 s, one counter shared by all endpoints of a mode (the stricter reading,
 * service-notes.md). After a 429 or 418 nothing goes to that origin until Retry-After has passed.
 */
import { LIMITS } from '../spec/limits';
import type { RateLimitMode } from '../spec/types';
import { originState, type OriginStateT, type StateStore } from './state';

export interface CounterView {
  readonly mode: RateLimitMode;
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (0 when nothing is counted). */
  readonly freesInMs: number;
}

export interface BudgetView {
  readonly origin: string;
  /** accountId() of the account counter shown, if any. */
  readonly account?: string;
  readonly ip: CounterView;
  /** Present when an account is known for the request. */
  readonly uid?: CounterView;
  /** A 429 wait or a 418 ban in force. */
  readonly blocked?: { readonly status: number; readonly untilMs: number; readonly remainingMs: number };
}

export type GateDecision =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: 'retry-after' | 'ban' | 'budget';
      readonly message: string;
      readonly retryAtMs: number;
    };

export interface Charge {
  readonly origin: string;
  readonly mode: RateLimitMode;
  readonly weight: number;
  /** accountId() of the key; needed for UID-mode requests. */
  readonly account?: string;
}

function prune(entries: [number, number][], now: number, windowMs: number): [number, number][] {
  return entries.filter(([t]) => now - t < windowMs);
}

function view(mode: RateLimitMode, entries: readonly [number, number][], now: number): CounterView {
  const { limit, intervalMs } = LIMITS.rate[mode];
  const live = entries.filter(([t]) => now - t < intervalMs);
  const used = live.reduce((sum, [, w]) => sum + w, 0);
  const oldest = live.length > 0 ? Math.min(...live.map(([t]) => t)) : undefined;
  return {
    mode,
    limit,
    used,
    remaining: Math.max(0, limit - used),
    freesInMs: oldest === undefined ? 0 : oldest + intervalMs - now,
  };
}

/** Milliseconds until `weight` fits in the counter again. */
function waitForRoom(entries: readonly [number, number][], mode: RateLimitMode, weight: number, now: number): number {
  const { limit, intervalMs } = LIMITS.rate[mode];
  const live = entries.filter(([t]) => now - t < intervalMs).sort((a, b) => a[0] - b[0]);
  let used = live.reduce((sum, [, w]) => sum + w, 0);
  for (const [t, w] of live) {
    if (used + weight <= limit) break;
    used -= w;
    if (used + weight <= limit) return t + intervalMs - now;
  }
  return 0;
}

export class Budget {
  constructor(
    private readonly store: StateStore,
    private readonly now: () => number = Date.now,
  ) {}

  view(origin: string, account?: string): BudgetView {
    const now = this.now();
    const s = this.store.read().origins[origin];
    return buildView(origin, s, account, now);
  }

  /** Whether `charge` may be sent now. Refuses during a Retry-After wait or ban, or when the counter is full. */
  gate(charge: Charge): GateDecision {
    const now = this.now();
    const s = this.store.read().origins[charge.origin];
    if (s?.blocked && s.blocked.until > now) {
      const seconds = Math.ceil((s.blocked.until - now) / 1000);
      const ban = s.blocked.status === 418;
      return {
        ok: false,
        reason: ban ? 'ban' : 'retry-after',
        retryAtMs: s.blocked.until,
        message: ban
          ? `The service banned this IP for repeated rate-limit violations (418): nothing is sent to ${charge.origin} for ${seconds} s more. Sending now would extend the ban (§8 rules 2–3).`
          : `The service asked to back off (429): nothing is sent to ${charge.origin} for ${seconds} s more (Retry-After). Sending now would get this IP banned (§8 rule 2).`,
      };
    }
    const entries =
      charge.mode === 'ip' ? (s?.ip ?? []) : ((charge.account ? s?.accounts[charge.account] : undefined) ?? []);
    const counter = view(charge.mode, entries, now);
    if (counter.used + charge.weight > counter.limit) {
      const wait = waitForRoom(entries, charge.mode, charge.weight, now);
      return {
        ok: false,
        reason: 'budget',
        retryAtMs: now + wait,
        message: `The ${charge.mode === 'ip' ? 'IP' : 'account'} budget of ${charge.origin} is used up (${counter.used} of ${counter.limit} weight in 10 s; this request weighs ${charge.weight}): room again in ${Math.ceil(wait / 1000)} s. Sending now would get a 429.`,
      };
    }
    return { ok: true };
  }

  /**
   * Records a request that went out, and what the service answered: its weight counts (429 and 418
   * answers do not, as the service did not process them), and Retry-After blocks the origin.
   */
  record(charge: Charge, answer: { status?: number; retryAfterSeconds?: number }): BudgetView {
    const now = this.now();
    return this.store.update((state) => {
      const s = originState(state, charge.origin);
      s.ip = prune(s.ip, now, LIMITS.rate.ip.intervalMs);
      for (const [id, entries] of Object.entries(s.accounts)) {
        const kept = prune(entries, now, LIMITS.rate.uid.intervalMs);
        if (kept.length > 0) s.accounts[id] = kept;
        else delete s.accounts[id];
      }
      const limited = answer.status === 429 || answer.status === 418;
      if (!limited) {
        if (charge.mode === 'ip') s.ip.push([now, charge.weight]);
        else if (charge.account) (s.accounts[charge.account] ??= []).push([now, charge.weight]);
      }
      if (limited) {
        // Without a Retry-After, wait the whole window (429) or the shortest ban (418).
        const seconds =
          answer.retryAfterSeconds ??
          (answer.status === 418 ? LIMITS.ban.minMs / 1000 : LIMITS.rate.ip.intervalMs / 1000);
        s.blocked = { until: now + seconds * 1000, status: answer.status!, since: now };
      } else if (s.blocked && s.blocked.until <= now) {
        delete s.blocked;
      }
      return buildView(charge.origin, s, charge.account, now);
    });
  }
}

function buildView(origin: string, s: OriginStateT | undefined, account: string | undefined, now: number): BudgetView {
  const blocked =
    s?.blocked && s.blocked.until > now
      ? { status: s.blocked.status, untilMs: s.blocked.until, remainingMs: s.blocked.until - now }
      : undefined;
  return {
    origin,
    account,
    ip: view('ip', s?.ip ?? [], now),
    uid: account ? view('uid', s?.accounts[account] ?? [], now) : undefined,
    blocked,
  };
}
