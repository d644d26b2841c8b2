/**
 * The client's own pace for its WebSocket messages (§8: at most 100 messages a second per
 * connection, beyond it the connection is cut and repeatedly cut IPs are banned). Subscriptions,
 * messages typed by the user and keep-alive PINGs of one connection all go through one pacer, so
 * the client never gets itself cut off.
 *
 * The pace is at most PACING.messages (80) in any PACING.windowMs (1250 ms): 20 below the limit in
 * any second, and the window is stretched by 250 ms so that two bursts a window apart, which the
 * network may deliver closer together than they were sent, still count under 100 at the server.
 */
import { LIMITS } from '../catalog/limits';
import { t } from '../l10n';

export const PACING = {
  /** Messages in one window: 80, a margin of 20 below §8's 100 a second. */
  messages: 80,
  /** 1000 ms (§8's second) plus 250 ms for delivery jitter. */
  windowMs: 1250,
  /** Sends waiting for their turn on one connection; more are refused at once. */
  maxQueued: 1000,
} as const;

const SECOND_MS = 1000;

/** The times of the last `messages` sends, in a ring: memory never grows with the traffic. */
export class SlidingWindow {
  private readonly times: Float64Array;
  private head = 0;
  private size = 0;

  constructor(
    readonly messages: number = PACING.messages,
    readonly windowMs: number = PACING.windowMs,
  ) {
    if (!Number.isInteger(messages) || messages < 1 || messages > LIMITS.webSocket.messagesPerSecond)
      throw new RangeError(`messages must be 1 to ${LIMITS.webSocket.messagesPerSecond}, not ${messages}`);
    if (!(windowMs >= SECOND_MS)) throw new RangeError(`windowMs must be at least ${SECOND_MS}, not ${windowMs}`);
    this.times = new Float64Array(messages);
  }

  /** Ms until one more message may go (0: now). */
  waitMs(now: number): number {
    if (this.size < this.messages) return 0;
    return Math.max(0, this.times[this.head]! + this.windowMs - now);
  }

  /** Counts one message sent at `now`; the caller has checked waitMs(now) === 0. */
  record(now: number): void {
    const tail = (this.head + this.size) % this.messages;
    this.times[tail] = now;
    if (this.size < this.messages) this.size++;
    else this.head = (this.head + 1) % this.messages;
  }

  /** Messages sent in the second before `now` (the meter of §8's rate). */
  inLastSecond(now: number): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (now - this.times[(this.head + i) % this.messages]! < SECOND_MS) n++;
    return n;
  }
}

export type PacerErrorReason = 'full' | 'closed';

export class PacerError extends Error {
  constructor(
    readonly reason: PacerErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'PacerError';
  }
}

interface Waiting {
  readonly send: () => void;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

export interface PacerOptions {
  readonly messages?: number;
  readonly windowMs?: number;
  readonly maxQueued?: number;
  /** A monotonic clock in ms. Default performance.now. */
  readonly now?: () => number;
}

/** A FIFO of sends, each run when the window has room; bounded, and emptied by close(). */
export class MessagePacer {
  private readonly window: SlidingWindow;
  private readonly maxQueued: number;
  private readonly now: () => number;
  private readonly queue: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closedWith: string | undefined;

  constructor(options: PacerOptions = {}) {
    this.window = new SlidingWindow(options.messages, options.windowMs);
    this.maxQueued = options.maxQueued ?? PACING.maxQueued;
    this.now = options.now ?? (() => performance.now());
  }

  /** Sends waiting for their turn. */
  get queued(): number {
    return this.queue.length;
  }

  /** Client messages sent in the last second, for the §8 meter. */
  inLastSecond(): number {
    return this.window.inLastSecond(this.now());
  }

  /**
   * Runs `send` when the pace allows (at once when it has room and nothing waits); resolves once it
   * ran. Rejects with PacerError when the queue is full or the pacer closed, or with what `send` threw.
   */
  submit(send: () => void): Promise<void> {
    if (this.closedWith !== undefined)
      return Promise.reject(new PacerError('closed', t('Nothing was sent: {0}.', this.closedWith)));
    if (this.queue.length >= this.maxQueued)
      return Promise.reject(
        new PacerError(
          'full',
          t(
            "Not sent: {0} messages already wait for their turn on this connection (the client keeps to {1} messages in {2} ms, under §8's {3} a second). Send again once they have gone.",
            this.queue.length,
            this.window.messages,
            this.window.windowMs,
            LIMITS.webSocket.messagesPerSecond,
          ),
        ),
      );
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ send, resolve, reject });
      this.drain();
    });
  }

  /** Refuses every waiting send with `reason` (one sentence, no full stop) and any later one. */
  close(reason: string): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = reason;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.queue.splice(0)) w.reject(new PacerError('closed', t('Not sent: {0}.', reason)));
  }

  private drain(): void {
    if (this.timer !== undefined) return;
    while (this.queue.length > 0) {
      const now = this.now();
      const wait = this.window.waitMs(now);
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.drain();
        }, Math.ceil(wait));
        return;
      }
      const w = this.queue.shift()!;
      this.window.record(now);
      try {
        w.send();
        w.resolve();
      } catch (e) {
        w.reject(e);
      }
    }
  }
}
