/**
 * Timers a test fires by hand (src/core/ws/timers.ts): a reconnect's back-off and a listen key's
 * renewal happen when the test says, so nothing sleeps. Reconnect waits hold the process
 * (keepAlive), renewals do not.
 */
import assert from 'node:assert/strict';
import type { Timers } from '../../src/core/ws';

interface Wait {
  readonly ms: number;
  readonly f: () => void;
  readonly keepAlive: boolean;
  live: boolean;
}

export class HandTimers implements Timers {
  readonly waits: Wait[] = [];

  after(ms: number, f: () => void, keepAlive = true): () => void {
    const w: Wait = { ms, f, keepAlive, live: true };
    this.waits.push(w);
    return () => (w.live = false);
  }

  pending(keepAlive: boolean): Wait[] {
    return this.waits.filter((w) => w.live && w.keepAlive === keepAlive);
  }

  /** Fires the one pending wait of that kind; its length. */
  fire(keepAlive: boolean): number {
    const [w, ...more] = this.pending(keepAlive);
    assert.ok(w !== undefined && more.length === 0, `one pending ${keepAlive ? 'reconnect' : 'renewal'} wait`);
    w.live = false;
    w.f();
    return w.ms;
  }
}
