/**
 * The rate-limit budget (§8): per origin, an IP counter and a per-account counter, each 500 weight
 * per rolling 10 s, one counter shared by all endpoints of a mode (the stricter reading,
 * docs/service.md, Assumptions). After a 429 or 418 nothing goes to that origin until Retry-After has passed.
 *
 * A send reserves its weight before it goes, under the state's lock (reserve), and settles it when
 * the answer is in (settle): processes sending at once can never together go over the budget.
 */
import { LIMITS, MAX_RETRY_AFTER_S } from '../catalog/limits';
import type { RateLimitMode } from '../catalog/types';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';
import {
  originState,
  own,
  setOwn,
  stateKey,
  unavailableMessage,
  type OriginState,
  type State,
  type StateStore,
} from './state';

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
  /** The state of this origin (or the whole file) could not be read: nothing is sent until it is reset. */
  readonly damaged?: string;
}

/** Why the gate keeps a request back; nothing is sent. */
export interface GateRefusal {
  /** A Retry-After wait, a ban, a full counter, a damaged state, or a state that cannot be kept at all. */
  readonly reason: 'retry-after' | 'ban' | 'budget' | 'damaged' | 'state';
  readonly message: string;
  /** When the refusal ends by itself; absent for a damaged or unusable state, which only the user ends. */
  readonly retryAtMs?: number;
}

export type GateDecision = Result<void, GateRefusal>;

export interface Charge {
  readonly origin: string;
  readonly mode: RateLimitMode;
  readonly weight: number;
  /** accountId() of the key; needed for UID-mode requests. */
  readonly account?: string;
}

/** Weight counted before sending, to be settled with the answer. */
export interface Reservation {
  readonly charge: Charge;
  readonly at: number;
}

/** What happened to a reserved request: whether it left this machine, and what the service said. */
export interface Answer {
  readonly sent: boolean;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
}

type Entries = [number, number][];

function live(entries: readonly (readonly [number, number])[], now: number, windowMs: number): [number, number][] {
  return entries.filter(([t]) => now - t < windowMs).map(([t, w]) => [t, w]);
}

function counterView(mode: RateLimitMode, entries: readonly (readonly [number, number])[], now: number): CounterView {
  const { limit, intervalMs } = LIMITS.rate[mode];
  const inWindow = live(entries, now, intervalMs);
  const used = inWindow.reduce((sum, [, w]) => sum + w, 0);
  let oldest: number | undefined;
  for (const [t] of inWindow) if (oldest === undefined || t < oldest) oldest = t;
  return {
    mode,
    limit,
    used,
    remaining: Math.max(0, limit - used),
    freesInMs: oldest === undefined ? 0 : oldest + intervalMs - now,
  };
}

/** Milliseconds until `weight` fits in the counter again. */
function waitForRoom(entries: Entries, mode: RateLimitMode, weight: number, now: number): number {
  const { limit, intervalMs } = LIMITS.rate[mode];
  const inWindow = live(entries, now, intervalMs).sort((a, b) => a[0] - b[0]);
  let used = inWindow.reduce((sum, [, w]) => sum + w, 0);
  for (const [t, w] of inWindow) {
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
    const state = this.store.read();
    return buildView(origin, state, own(state.origins, stateKey(origin)), account, this.now(), this.store.location);
  }

  /** Whether `charge` may be sent now, without counting it. */
  gate(charge: Charge): GateDecision {
    return decide(this.store.read(), charge, this.now(), this.store.location);
  }

  /**
   * Checks `charge` and, when it may go, counts its weight at once, in one step under the state's
   * lock (waited for without blocking the thread). A state that cannot be kept refuses too: a ban
   * the answer may bring could not be remembered.
   */
  async reserve(charge: Charge): Promise<Result<Reservation, GateRefusal>> {
    const now = this.now();
    const r = await this.store.update((state): Result<Reservation, GateRefusal> => {
      const decision = decide(state, charge, now, this.store.location);
      if (!decision.ok) return decision;
      const s = originState(state, stateKey(charge.origin));
      prune(s, now);
      counterOf(s, charge, true)?.push([now, charge.weight]);
      return ok({ charge, at: now });
    });
    if (r.ok) return r.value;
    const message = t(
      'The rate-limit state cannot be kept in {0} ({1}): nothing was sent, since a ban or a Retry-After wait could not be remembered. Make that folder writable, or set TRADEREQ_STATE_DIR to one that is.',
      r.error.location,
      r.error.reason,
    );
    return err({ reason: 'state', message });
  }

  /**
   * Settles a reservation with what happened: a request that never left, or was answered 429 or
   * 418 (not processed by the service), gives its weight back; Retry-After blocks the origin.
   */
  async settle(reservation: Reservation, answer: Answer): Promise<Result<BudgetView, string>> {
    const now = this.now();
    const { charge } = reservation;
    const r = await this.store.update((state) => {
      const s = originState(state, stateKey(charge.origin));
      const limited = answer.status === 429 || answer.status === 418;
      if (!answer.sent || limited) remove(counterOf(s, charge, false), [reservation.at, charge.weight]);
      applyAnswer(s, answer, now);
      prune(s, now);
      return buildView(charge.origin, state, s, charge.account, now, this.store.location);
    });
    return r.ok ? r : err(unavailableMessage(r.error));
  }

  /**
   * Counts a request that went out, and what the service answered (a reserve and settle in one),
   * waiting for another process's lock without blocking the thread (the editor's Connect). When the
   * state cannot be kept, the view says so in `damaged`.
   */
  async record(charge: Charge, answer: { status?: number; retryAfterSeconds?: number }): Promise<BudgetView> {
    const now = this.now();
    const r = await this.store.update((state) => {
      const s = originState(state, stateKey(charge.origin));
      prune(s, now);
      const limited = answer.status === 429 || answer.status === 418;
      if (!limited) counterOf(s, charge, true)?.push([now, charge.weight]);
      applyAnswer(s, { sent: true, ...answer }, now);
      return buildView(charge.origin, state, s, charge.account, now, this.store.location);
    });
    return r.ok ? r.value : { ...this.view(charge.origin, charge.account), damaged: unavailableMessage(r.error) };
  }

  /**
   * Forgets the state of `origin` (or of every origin): its counters, waits, bans and damage;
   * waiting for another process's lock without blocking the thread.
   */
  async reset(origin?: string): Promise<Result<void, string>> {
    const r = await this.store.update((state) => {
      if (origin === undefined) {
        state.origins = {};
        delete state.damaged;
      } else {
        const key = stateKey(origin);
        if (Object.hasOwn(state.origins, key)) delete state.origins[key];
      }
    });
    return r.ok ? r : err(unavailableMessage(r.error));
  }
}

function decide(state: State, charge: Charge, now: number, location: string): GateDecision {
  const s = own(state.origins, stateKey(charge.origin));
  const damaged = damageMessage(state, s, charge.origin, location);
  if (damaged) return err({ reason: 'damaged', message: damaged });
  if (s?.blocked && s.blocked.until > now) {
    const seconds = Math.ceil((s.blocked.until - now) / 1000);
    const ban = s.blocked.status === 418;
    return err({
      reason: ban ? 'ban' : 'retry-after',
      retryAtMs: s.blocked.until,
      message: ban
        ? t(
            'The service banned this IP for repeated rate-limit violations (418): nothing is sent to {0} for {1} s more. Sending now would extend the ban (§8 rules 2–3).',
            charge.origin,
            seconds,
          )
        : t(
            'The service asked to back off (429): nothing is sent to {0} for {1} s more (Retry-After). Sending now would get this IP banned (§8 rule 2).',
            charge.origin,
            seconds,
          ),
    });
  }
  const entries = s ? (counterOf(s, charge, false) ?? []) : [];
  const counter = counterView(charge.mode, entries, now);
  if (counter.used + charge.weight <= counter.limit) return ok(undefined);
  const wait = waitForRoom(entries, charge.mode, charge.weight, now);
  return err({
    reason: 'budget',
    retryAtMs: now + wait,
    message: usedUp(charge, counter, Math.ceil(wait / 1000)),
  });
}

/** Why a charge must wait for room in its counter. */
function usedUp(charge: Charge, counter: { used: number; limit: number }, seconds: number): string {
  const values = [charge.origin, counter.used, counter.limit, charge.weight, seconds] as const;
  return charge.mode === 'ip'
    ? t(
        'The IP budget of {0} is used up ({1} of {2} weight in 10 s; this request weighs {3}): room again in {4} s. Sending now would get a 429.',
        ...values,
      )
    : t(
        'The account budget of {0} is used up ({1} of {2} weight in 10 s; this request weighs {3}): room again in {4} s. Sending now would get a 429.',
        ...values,
      );
}

/** Why nothing may go to `origin` because its state (or the whole file) is damaged, if so. */
function damageMessage(state: State, s: OriginState | undefined, origin: string, location: string): string | undefined {
  const damage = state.damaged ?? s?.damaged;
  if (!damage) return undefined;
  const whole = state.damaged !== undefined;
  const reset = whole ? 'tradereq state reset' : `tradereq state reset ${origin}`;
  return whole
    ? t(
        'The rate-limit state in {0} could not be read ({1}): TradeReq sends nothing at all until it is reset, so that a ban or a Retry-After wait is never lifted by accident. Once you know no ban is in force, run "{2}" (or "TradeReq: Reset Rate-Limit State" in VS Code).',
        location,
        damage.reason,
        reset,
      )
    : t(
        'The rate-limit state of {0} in {1} could not be read ({2}): TradeReq sends nothing to it until it is reset, so that a ban or a Retry-After wait is never lifted by accident. Once you know no ban is in force, run "{3}" (or "TradeReq: Reset Rate-Limit State" in VS Code).',
        origin,
        location,
        damage.reason,
        reset,
      );
}

/** The counter a charge goes to; undefined for an account charge without an account. */
function counterOf(s: OriginState, charge: Charge, create: boolean): Entries | undefined {
  if (charge.mode === 'ip') return s.ip;
  if (!charge.account) return undefined;
  const entries = own(s.accounts, charge.account);
  return entries ?? (create ? setOwn(s.accounts, charge.account, []) : undefined);
}

function remove(entries: Entries | undefined, entry: [number, number]): void {
  if (!entries) return;
  const i = entries.findIndex(([t, w]) => t === entry[0] && w === entry[1]);
  if (i >= 0) entries.splice(i, 1);
}

function prune(s: OriginState, now: number): void {
  s.ip = live(s.ip, now, LIMITS.rate.ip.intervalMs);
  for (const [id, entries] of Object.entries(s.accounts)) {
    const kept = live(entries, now, LIMITS.rate.uid.intervalMs);
    if (kept.length > 0) setOwn(s.accounts, id, kept);
    else delete s.accounts[id];
  }
}

/** A 429 or 418 blocks the origin for Retry-After (capped at the longest ban); a past block is dropped. */
function applyAnswer(s: OriginState, answer: Answer, now: number): void {
  if (answer.status === 429 || answer.status === 418) {
    // Without a Retry-After, wait the whole window (429) or the shortest ban (418).
    const fallback = answer.status === 418 ? LIMITS.ban.minMs / 1000 : LIMITS.rate.ip.intervalMs / 1000;
    const seconds = Math.min(answer.retryAfterSeconds ?? fallback, MAX_RETRY_AFTER_S);
    s.blocked = { until: now + seconds * 1000, status: answer.status, since: now };
  } else if (s.blocked && s.blocked.until <= now) {
    delete s.blocked;
  }
}

function buildView(
  origin: string,
  state: State,
  s: OriginState | undefined,
  account: string | undefined,
  now: number,
  location: string,
): BudgetView {
  const blocked =
    s?.blocked && s.blocked.until > now
      ? { status: s.blocked.status, untilMs: s.blocked.until, remainingMs: s.blocked.until - now }
      : undefined;
  return {
    origin,
    account,
    ip: counterView('ip', s?.ip ?? [], now),
    uid: account ? counterView('uid', (s && own(s.accounts, account)) ?? [], now) : undefined,
    blocked,
    damaged: damageMessage(state, s, origin, location),
  };
}
