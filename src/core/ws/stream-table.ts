/**
 * The streams of one connection: what each is waiting for, its pushes, its last push and its push
 * rate over the last 10 s. Memory is bounded: at most the streams held (§8: 30, more only while
 * the server is refusing them) and the last MAX_REFUSED refusals.
 */
import { parseStreamName, type StreamKind } from '../catalog/streams';
import type { StreamStatus, StreamView } from './types';

/** Refused streams kept for the view; older refusals are forgotten. */
const MAX_REFUSED = 100;
/** The push rate is over this many seconds. */
const RATE_SECONDS = 10;

/** Pushes per whole second of the last RATE_SECONDS, in a ring. */
class RateBuckets {
  private readonly seconds = new Float64Array(RATE_SECONDS).fill(-1);
  private readonly counts = new Uint32Array(RATE_SECONDS);

  add(nowMs: number): void {
    const s = Math.floor(nowMs / 1000);
    const i = s % RATE_SECONDS;
    if (this.seconds[i] !== s) {
      this.seconds[i] = s;
      this.counts[i] = 0;
    }
    this.counts[i]!++;
  }

  perSecond(nowMs: number): number {
    const s = Math.floor(nowMs / 1000);
    let n = 0;
    for (let i = 0; i < RATE_SECONDS; i++) if (s - this.seconds[i]! < RATE_SECONDS) n += this.counts[i]!;
    return n / RATE_SECONDS;
  }
}

interface Entry {
  status: StreamStatus;
  readonly kind?: StreamKind;
  pushes: number;
  lastPushAt?: number;
  code?: number;
  msg?: string;
  readonly rate: RateBuckets;
}

export class StreamTable {
  private readonly entries = new Map<string, Entry>();

  /** Streams held or asked for (subscribed, awaiting a reply, being unsubscribed): §8's meter. */
  used(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.status !== 'refused') n++;
    return n;
  }

  status(stream: string): StreamStatus | undefined {
    return this.entries.get(stream)?.status;
  }

  /** Whether the stream is subscribed or on its way to it (a second subscription would add nothing). */
  holds(stream: string): boolean {
    const s = this.status(stream);
    return s === 'pending' || s === 'subscribed' || s === 'unsubscribing';
  }

  pending(stream: string): void {
    const parsed = parseStreamName(stream);
    this.entries.delete(stream);
    this.entries.set(stream, {
      status: 'pending',
      kind: parsed.ok ? parsed.value.stream.kind : undefined,
      pushes: 0,
      rate: new RateBuckets(),
    });
  }

  set(stream: string, status: 'subscribed' | 'unsubscribing'): void {
    const e = this.entries.get(stream);
    if (e === undefined) return;
    e.status = status;
    e.code = undefined;
    e.msg = undefined;
  }

  /** Marks a stream refused (by the server with `code`, or by the client without one). */
  refuse(stream: string, code: number | undefined, msg: string): void {
    const e = this.entries.get(stream) ?? { status: 'refused', pushes: 0, rate: new RateBuckets() };
    this.entries.delete(stream);
    e.status = 'refused';
    e.code = code;
    e.msg = msg;
    this.entries.set(stream, e);
    this.forgetOldRefusals();
  }

  remove(stream: string): void {
    this.entries.delete(stream);
  }

  /** Counts a push of `stream`; false when the connection holds no such stream. */
  push(stream: string, at: number): boolean {
    const e = this.entries.get(stream);
    if (e === undefined || e.status === 'refused') return false;
    e.pushes++;
    e.lastPushAt = at;
    e.rate.add(at);
    return true;
  }

  view(now: number): StreamView[] {
    return [...this.entries].map(([stream, e]) => ({
      stream,
      status: e.status,
      kind: e.kind,
      pushes: e.pushes,
      lastPushAt: e.lastPushAt,
      ratePerSecond: e.rate.perSecond(now),
      code: e.code,
      msg: e.msg,
    }));
  }

  private forgetOldRefusals(): void {
    let refused = 0;
    for (const e of this.entries.values()) if (e.status === 'refused') refused++;
    for (const [name, e] of this.entries) {
      if (refused <= MAX_REFUSED) return;
      if (e.status !== 'refused') continue;
      this.entries.delete(name);
      refused--;
    }
  }
}
