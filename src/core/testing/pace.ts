/**
 * Paced test runs (`tradereq test --pace`, the Testing view's `tradereq.testing.pace`): before each
 * request the run waits until its weight fits under a fraction of its counter's budget
 * (docs/service.md §8: 500 weight per rolling 10 s, IP and account counted apart) instead of being
 * refused by the gate; after each answer it reads what the service said of that counter (its used-weight header, a
 * 429, a 418). A 429 that happens anyway is reported as what it is (rejected; never sent again) and
 * the run waits its Retry-After before the next request, or stops there with --bail; a 418 (a ban)
 * stops the run. Clock and sleep are injected, so a test can move the sandbox's clock instead of waiting.
 */
import { BOUNDS } from '../bounds';
import type { Budget, BudgetView, CounterView } from '../budget/budget';
import { accountId, stateKey } from '../budget/state';
import { LIMITS, USED_WEIGHT_HEADER } from '../catalog/limits';
import type { RateLimitMode } from '../catalog/types';
import type { ResolvedRequest } from '../format/resolve';
import type { RoundTripReport } from '../net/round-trip';
import type { PipelineResult } from '../request/pipeline';
import type { KeySource } from '../request/prepare';
import type { TestCase } from './cases';
import { CANCELLED, without, type Judged } from './judge';
import type { PaceSummary } from './verdict';

/** `--pace` without a fraction: 80 % of each budget, room for a clock measurement and another client's stray request. */
export const DEFAULT_PACE = 0.8;

export interface PaceOptions {
  /** Of each counter's limit, more than 0 and at most 1; absent: no pacing, only --bail. */
  readonly fraction?: number;
  /** Stop the run at the first 429 instead of waiting its Retry-After. */
  readonly bail?: boolean;
  readonly budget: Budget;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly cancelled?: () => boolean;
}

/** Before a request: it goes (with the key source the pipeline is to use: asked once), or it is not run. */
export type Paced =
  | { readonly go: true; readonly key: KeySource; readonly waitedMs: number }
  | { readonly go: false; readonly judged: Judged };

/** What a test run asks of a pacer: one hook before a request is sent, one after its answer. */
export interface RunPace {
  before(c: TestCase, resolved: ResolvedRequest, key: KeySource): Promise<Paced>;
  /** Why the run stops after this answer (a 418; a 429 with --bail), if it does. */
  after(result: PipelineResult): string | undefined;
}

/** Weight the service reported in a counter beyond what the budget counted (another client's): it counts until `until`. */
interface Unseen {
  readonly weight: number;
  readonly until: number;
}

/**
 * Milliseconds until `weight` fits under `fraction` of `counter`'s limit, counting what the budget
 * counted and the weight only the service saw (0: it fits now). A request heavier than the
 * fraction of the limit waits for an empty counter.
 */
export function waitForRoom(
  counter: CounterView,
  unseen: Unseen | undefined,
  weight: number,
  fraction: number,
  now: number,
): number {
  const cap = Math.max(weight, Math.floor(counter.limit * fraction));
  const extra = unseen !== undefined && unseen.until > now ? unseen.weight : 0;
  if (counter.used + extra + weight <= cap) return 0;
  // Room comes as the oldest counted request leaves the window, or as the unseen weight does.
  const oldest = counter.used > 0 ? counter.freesInMs : Infinity;
  const stray = extra > 0 && unseen !== undefined ? unseen.until - now : Infinity;
  return Math.max(1, Math.min(oldest, stray));
}

export class Pacer implements RunPace {
  private waitedMs = 0;
  private retryAfterMs = 0;
  private rateLimited = 0;
  /** Why the rest of the run is not run (a ban, --bail), once something stopped it. */
  private stopped: string | undefined;
  /** Per counter, what the last answer of that counter said beyond the budget's count. */
  private readonly unseen = new Map<string, Unseen>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: PaceOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async before(c: TestCase, resolved: ResolvedRequest, key: KeySource): Promise<Paced> {
    if (this.stopped !== undefined) return { go: false, judged: without(c, 'after-refusal', this.stopped) };
    const fraction = this.options.fraction;
    if (fraction === undefined) return { go: true, key, waitedMs: 0 };
    // The account's counter needs the key: asked here, and the pipeline is given the same answer.
    let answer: ReturnType<KeySource> | undefined;
    const once: KeySource = (r) => (answer ??= key(r));
    const choice = resolved.signed ? await once(resolved) : undefined;
    const account = choice?.ok ? accountId(choice.value.key.apiKey) : undefined;
    const before = this.waitedMs;
    const why = await this.untilRoom(resolved, account, fraction);
    if (why === 'cancelled') return { go: false, judged: without(c, 'cancelled', CANCELLED) };
    if (why !== undefined) return { go: false, judged: without(c, 'after-refusal', why) };
    return { go: true, key: once, waitedMs: this.waitedMs - before };
  }

  after(result: PipelineResult): string | undefined {
    const report = result.ok ? result.value.report : undefined;
    const status = report?.response?.status;
    if (report === undefined || status === undefined) return undefined;
    const origin = report.prepared.origin;
    if (status === 418) return this.stop(banned(origin, report.decoded?.retryAfterSeconds));
    if (status === 429) {
      this.rateLimited++;
      return this.options.bail ? this.stop(`not run: the run stopped at a 429 from ${origin} (--bail)`) : undefined;
    }
    this.read(report);
    return undefined;
  }

  /** What the reports say of the pacing; undefined when the run was not paced (only --bail). */
  summary(): PaceSummary | undefined {
    const { fraction } = this.options;
    if (fraction === undefined) return undefined;
    return { fraction, waitedMs: this.waitedMs, retryAfterMs: this.retryAfterMs, rateLimited: this.rateLimited };
  }

  /** Waits until `r` may go; why it may not (a ban, a wait past the bound, cancelled), if so. */
  private async untilRoom(
    r: ResolvedRequest,
    account: string | undefined,
    fraction: number,
  ): Promise<string | undefined> {
    const started = this.now();
    for (;;) {
      if (this.options.cancelled?.()) return 'cancelled';
      const view = this.options.budget.view(r.origin, account);
      // A damaged state is the gate's to refuse, with its own message.
      if (view.damaged !== undefined) return undefined;
      if (view.blocked?.status === 418) return this.stop(banned(r.origin, view.blocked.remainingMs / 1000));
      const wait = view.blocked ? view.blocked.remainingMs : this.roomIn(view, r, account, fraction);
      if (wait <= 0) return undefined;
      if (this.now() - started + wait > BOUNDS.paceWaitMs) return this.stop(tooLong(r.origin, wait, view));
      await this.pause(wait, view.blocked !== undefined);
    }
  }

  private roomIn(view: BudgetView, r: ResolvedRequest, account: string | undefined, fraction: number): number {
    const counter = r.mode === 'ip' ? view.ip : view.uid;
    if (counter === undefined) return 0;
    return waitForRoom(counter, this.unseen.get(counterKey(r.origin, r.mode, account)), r.weight, fraction, this.now());
  }

  private async pause(ms: number, retryAfter: boolean): Promise<void> {
    const start = this.now();
    await this.sleep(ms);
    const waited = Math.max(0, this.now() - start);
    this.waitedMs += waited;
    if (retryAfter) this.retryAfterMs += waited;
  }

  /**
   * The used-weight header of an answer: what it counts beyond the budget's own count at that
   * moment (the larger of the two) is another client's, and stays in the counter for at most a window.
   */
  private read(report: RoundTripReport): void {
    const header = report.response?.headers[USED_WEIGHT_HEADER.toLowerCase()];
    // Hostile input: digits only, and what it claims leaves the counter within a window anyway.
    if (header === undefined || !/^\d{1,9}$/.test(header)) return;
    const { mode, origin } = report.prepared;
    const counted = mode === 'ip' ? report.budget.ip : report.budget.uid;
    if (counted === undefined) return;
    const weight = Math.max(0, Number(header) - counted.used);
    const until = this.now() + LIMITS.rate[mode].intervalMs;
    this.unseen.set(counterKey(origin, mode, report.budget.account), { weight, until });
  }

  private stop(why: string): string {
    this.stopped ??= why;
    return why;
  }
}

function counterKey(origin: string, mode: RateLimitMode, account: string | undefined): string {
  return `${stateKey(origin)} ${mode === 'ip' ? 'ip' : `uid ${account ?? ''}`}`;
}

function banned(origin: string, seconds: number | undefined): string {
  const left = seconds === undefined ? '' : ` for ${Math.ceil(seconds)} s`;
  return `not run: ${origin} banned this IP (418)${left}: the run stops, since sending during a ban extends it (§8 rules 2–3)`;
}

function tooLong(origin: string, waitMs: number, view: BudgetView): string {
  const what = view.blocked ? 'its Retry-After' : 'room in its rate-limit budget';
  return `not run: the next request to ${origin} would wait ${Math.ceil(waitMs / 1000)} s for ${what}, longer than a paced run waits (${BOUNDS.paceWaitMs / 1000} s): the run stops; run it again later`;
}
