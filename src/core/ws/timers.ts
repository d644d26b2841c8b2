/**
 * The waits of a long-lived connection (the reconnect back-off, the listen key's renewal) go through
 * this, so a test moves them by hand instead of sleeping.
 */
export interface Timers {
  /** Calls `f` once after `ms`; returns what cancels it. `keepAlive: false`: the wait alone does not hold the process open. */
  after(ms: number, f: () => void, keepAlive?: boolean): () => void;
}

/** Node's own timers. */
export const NODE_TIMERS: Timers = {
  after(ms, f, keepAlive = true) {
    const handle = setTimeout(f, ms);
    if (!keepAlive) handle.unref();
    return () => clearTimeout(handle);
  },
};
