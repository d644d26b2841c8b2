/** The measured clock offsets, kept with the rate-limit state so every front end shares them. */
import { originState, stateKey, type StateStore } from '../budget/state';
import { CLOCK_MAX_AGE_MS, type ClockSample } from './clock';

export class ClockSync {
  constructor(
    private readonly store: StateStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored sample for `origin`, if any (whatever its age). */
  sample(origin: string): ClockSample | undefined {
    return this.store.read().origins[stateKey(origin)]?.clock;
  }

  /**
   * Whether `origin` needs a (new) measurement before a signed request: none, one older than
   * CLOCK_MAX_AGE_MS, or one taken "later" than now (this machine's clock was set back since, so
   * the offset no longer holds).
   */
  stale(origin: string): boolean {
    const s = this.sample(origin);
    const age = s ? this.now() - s.measuredAt : Infinity;
    return age < 0 || age > CLOCK_MAX_AGE_MS;
  }

  /** Keeps the sample; one that cannot be kept is measured again next time (it guards nothing). */
  record(origin: string, sample: ClockSample): void {
    try {
      this.store.update((state) => {
        originState(state, stateKey(origin)).clock = sample;
      });
    } catch {
      // The state is unusable; the gate refuses sends on its own account.
    }
  }

  /** Drops the sample of `origin`, so that the next signed request measures first. */
  forget(origin: string): void {
    try {
      this.store.update((state) => {
        delete state.origins[stateKey(origin)]?.clock;
      });
    } catch {
      // As in record: an unusable state refuses sends on its own account.
    }
  }

  /** Now, corrected by the measured offset of `origin` (0 when none was measured). */
  correctedNow(origin: string): number {
    return this.now() + (this.sample(origin)?.offsetMs ?? 0);
  }
}
