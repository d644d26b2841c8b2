/**
 * A small typed emitter: events are delivered synchronously, in order, and kept nowhere, so memory
 * does not grow with a slow or absent listener. A listener that throws does not stop the others
 * nor the connection; its error is reported as an uncaught exception, as an EventTarget would.
 */
import type { WsEvent, WsEventOf, WsEventType } from './types';

export type Unsubscribe = () => void;

export class WsEmitter {
  private readonly listeners = new Set<(e: WsEvent) => void>();

  /** Calls `listener` with every event; returns the function that stops it. */
  onEvent(listener: (e: WsEvent) => void): Unsubscribe {
    // A wrapper per call, so the same function added twice is called twice and removed once each.
    const wrapped = (e: WsEvent): void => listener(e);
    this.listeners.add(wrapped);
    return () => this.listeners.delete(wrapped);
  }

  /** Calls `listener` with every event of `type`. */
  on<T extends WsEventType>(type: T, listener: (e: WsEventOf<T>) => void): Unsubscribe {
    return this.onEvent((e) => {
      if (e.type === type) listener(e as WsEventOf<T>);
    });
  }

  /**
   * The first event from now on that `match` accepts; rejects after `timeoutMs` with an Error that
   * says `what` did not come.
   */
  waitFor<T extends WsEventType>(
    type: T,
    match: (e: WsEventOf<T>) => boolean = () => true,
    timeoutMs = 10_000,
    what = `a ${type} event`,
  ): Promise<WsEventOf<T>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`No ${what} within ${timeoutMs} ms.`));
      }, timeoutMs);
      const stop = this.on(type, (e) => {
        if (!match(e)) return;
        clearTimeout(timer);
        stop();
        resolve(e);
      });
    });
  }

  emit(event: WsEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }
}
