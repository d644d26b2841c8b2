/** The measured clock offsets, kept with the rate-limit state so every front end shares them. */
import { originState, own, stateKey, type StateStore } from '../budget/state';
import { err, ok, type Result } from '../result';
import { CLOCK_MAX_AGE_MS, implausibleOffset, plausibleOffset, type ClockSample } from './clock';

export class ClockSync {
  constructor(
    private readonly store: StateStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored sample for `origin`, if any (whatever its age). */
  sample(origin: string): ClockSample | undefined {
    return own(this.store.read().origins, stateKey(origin))?.clock;
  }

  /**
   * Whether `origin` needs a (new) measurement before a signed request: none, one older than
   * CLOCK_MAX_AGE_MS, or one taken "later" than now (this machine's clock was set back since, so
   * the offset no longer holds).
   */
  stale(origin: string): boolean {
    return this.staleSample(this.sample(origin));
  }

  /** Whether `s`, an origin's sample as sample() gave it, needs a new measurement (as stale). */
  staleSample(s: ClockSample | undefined): boolean {
    const age = s ? this.now() - s.measuredAt : Infinity;
    return age < 0 || age > CLOCK_MAX_AGE_MS;
  }

  /**
   * Keeps the sample (waiting for the state's lock without blocking the thread); one that cannot be
   * kept is measured again next time: it guards nothing, and an unusable state refuses sends itself.
   */
  async record(origin: string, sample: ClockSample): Promise<void> {
    await this.store.update((state) => {
      originState(state, stateKey(origin)).clock = sample;
    });
  }

  /** Drops the sample of `origin`, so that the next signed request measures first (as record). */
  async forget(origin: string): Promise<void> {
    await this.store.update((state) => {
      const entry = own(state.origins, stateKey(origin));
      if (entry) delete entry.clock;
    });
  }

  /**
   * The offset a signed request to `origin` is signed with, from `s`, its sample as sample() gave it
   * (none: this machine's clock as it is), or why it is refused (beyond BOUNDS.clockOffsetMs: never signed with).
   */
  usable(origin: string, s: ClockSample | undefined): Result<ClockSample | undefined, string> {
    return !s || plausibleOffset(s) ? ok(s) : err(implausibleOffset(origin, s));
  }

  /** Now, corrected by the measured offset of `origin` (0 when none was measured, or one beyond the bound). */
  correctedNow(origin: string): number {
    const offset = this.usable(origin, this.sample(origin));
    return offset.ok ? this.correctedBy(offset.value) : this.now();
  }

  /** Now, corrected by a sample usable() approved (none: this machine's clock as it is). */
  correctedBy(s: ClockSample | undefined): number {
    return this.now() + (s?.offsetMs ?? 0);
  }
}
