/**
 * Request limits of §8: weight per request against a sliding 10-second window, one counter per IP
 * for unsigned endpoints and one per account for signed ones (IP and UID modes counted
 * independently, one counter shared by all endpoints of a mode: the stricter reading,
 * docs/service.md, Assumptions). Over the limit → 429 with Retry-After. The IP is then on notice until
 * that Retry-After has passed: any request from it in that time → 418 and an IP ban of
 * 2 min, 8 min, 32 min, … (×4 per offence) up to 3 days, all × banScale (§8 rules 1-4).
 * Refused requests consume no weight.
 */
import { LIMITS, type RateLimit } from '../core/catalog/limits';

/** The weights of a sliding window, oldest first, in a ring as large as the limit can need. */
export class SlidingCounter {
  private readonly times: Float64Array;
  private readonly weights: Int32Array;
  private head = 0;
  private size = 0;
  private used = 0;

  constructor(
    private readonly limit: number,
    private readonly intervalMs: number,
  ) {
    // Weights are at least 1, so at most `limit` entries are ever inside the window.
    this.times = new Float64Array(limit);
    this.weights = new Int32Array(limit);
  }

  private expire(now: number): void {
    const cap = this.times.length;
    while (this.size > 0 && this.times[this.head]! + this.intervalMs <= now) {
      this.used -= this.weights[this.head]!;
      this.head = (this.head + 1) % cap;
      this.size--;
    }
  }

  /** Weight used in the window ending now. */
  usedAt(now: number): number {
    this.expire(now);
    return this.used;
  }

  /** Takes `weight` and returns 0, or takes nothing and returns the ms until it would fit. */
  take(now: number, weight: number): number {
    this.expire(now);
    if (this.used + weight <= this.limit) {
      const cap = this.times.length;
      const tail = (this.head + this.size) % cap;
      this.times[tail] = now;
      this.weights[tail] = weight;
      this.size++;
      this.used += weight;
      return 0;
    }
    if (weight > this.limit) return this.intervalMs;
    // Room comes when enough of the oldest entries leave the window.
    let freed = 0;
    const cap = this.times.length;
    for (let i = 0; i < this.size; i++) {
      const j = (this.head + i) % cap;
      freed += this.weights[j]!;
      if (this.used - freed + weight <= this.limit) return Math.max(1, this.times[j]! + this.intervalMs - now);
    }
    return this.intervalMs;
  }
}

/** An IP's bans: the end of the current one, and how many it has had (each longer, §8 rule 3). */
export interface Bans {
  banUntil: number;
  offences: number;
}

interface IpState extends Bans {
  /** A request before this time is an offence: the IP was told to wait until then. */
  noticeUntil: number;
}

/** Whether one API request is let through under §8, and if not, what the client is told to wait. */
type Admission =
  | { readonly kind: 'admitted'; readonly used: number }
  | { readonly kind: 'limited'; readonly retryAfterS: number }
  | { readonly kind: 'banned'; readonly retryAfterS: number; readonly started: boolean };

/** Ban length of the n-th offence (1-based), before banScale. */
export function banDurationMs(offence: number): number {
  return Math.min(LIMITS.ban.minMs * 4 ** (offence - 1), LIMITS.ban.maxMs);
}

/** Starts the ban of the IP's next offence, `banScale` times its length; returns that length (ms). */
export function startBan(bans: Bans, now: number, banScale: number): number {
  bans.offences++;
  const duration = banDurationMs(bans.offences) * banScale;
  bans.banUntil = now + duration;
  return duration;
}

/** Whole seconds, rounded up, at least 1 (§8 rule 4: Retry-After is a number of seconds). */
export function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The §8 limit of a counter: "uid:<account>" counts an account, "ip:<address>" an IP. */
export function rateOf(counterKey: string): RateLimit {
  return counterKey.startsWith('uid:') ? LIMITS.rate.uid : LIMITS.rate.ip;
}

// Counters and IP states idle this long are dropped when the maps grow large.
const PRUNE_AT = 10_000;

export class RateLimiter {
  private counters = new Map<string, SlidingCounter>();
  private ips = new Map<string, IpState>();

  constructor(private readonly banScale: number) {}

  reset(): void {
    this.counters = new Map();
    this.ips = new Map();
  }

  /**
   * Admits one API request from `ip`, charging `weight` on the counter `counterKey`
   * ("ip:<address>" or "uid:<account>"), or says why not (429 or ban).
   */
  admit(ip: string, counterKey: string, weight: number, now: number): Admission {
    let state = this.ips.get(ip);
    if (state !== undefined) {
      if (now < state.banUntil)
        return { kind: 'banned', retryAfterS: wholeSeconds(state.banUntil - now), started: false };
      if (now < state.noticeUntil) {
        // §8 rule 2: continuing after 429 results in an automated IP ban.
        const duration = startBan(state, now, this.banScale);
        state.noticeUntil = 0;
        return { kind: 'banned', retryAfterS: wholeSeconds(duration), started: true };
      }
    }
    let counter = this.counters.get(counterKey);
    if (counter === undefined) {
      if (this.counters.size >= PRUNE_AT) this.prune(now);
      const rate = rateOf(counterKey);
      counter = new SlidingCounter(rate.limit, rate.intervalMs);
      this.counters.set(counterKey, counter);
    }
    const wait = counter.take(now, weight);
    if (wait === 0) return { kind: 'admitted', used: counter.usedAt(now) };
    const retryAfterS = wholeSeconds(wait);
    if (state === undefined) {
      if (this.ips.size >= PRUNE_AT) this.prune(now);
      state = { noticeUntil: 0, banUntil: 0, offences: 0 };
      this.ips.set(ip, state);
    }
    state.noticeUntil = now + retryAfterS * 1000;
    return { kind: 'limited', retryAfterS };
  }

  private prune(now: number): void {
    for (const [key, counter] of this.counters) if (counter.usedAt(now) === 0) this.counters.delete(key);
    // An IP with offences keeps its record so repeat bans keep growing.
    for (const [ip, s] of this.ips) if (s.offences === 0 && now >= s.noticeUntil) this.ips.delete(ip);
  }
}
