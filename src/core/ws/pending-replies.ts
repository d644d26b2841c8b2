/**
 * Client messages awaiting their reply, matched by id (docs/websocket.md: a reply repeats the id of
 * its message; a message without one is answered with id 0, a PING with msg PONG). The server
 * answers in order, so messages sharing an id wait in a FIFO. Entries expire after the reply
 * timeout, so the table stays as small as the messages of the last few seconds (the pacer bounds those).
 */
import { PONG, type Reply } from '../catalog/streams';
import type { MessageOrigin, SentMessage, SubscriptionOutcome } from './types';

/** The client's own ids start here, so the small ids people write in [message] sections do not collide. */
export const FIRST_CLIENT_ID = 1_000_000;

export interface Pending extends SentMessage {
  /** Called once, with what became of each stream of a SUBSCRIPTION or UNSUBSCRIPTION. */
  readonly settle?: (outcomes: readonly SubscriptionOutcome[]) => void;
}

export class PendingReplies {
  private readonly byId = new Map<number, Pending[]>();
  private nextId = FIRST_CLIENT_ID;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** A fresh id for a client message. */
  allocate(): number {
    return this.nextId++;
  }

  add(p: Pending): void {
    const list = this.byId.get(p.id);
    if (list === undefined) this.byId.set(p.id, [p]);
    else list.push(p);
    this.count++;
  }

  /** The message `reply` answers, taken off the table; undefined when none waits for it. */
  take(reply: Reply): Pending | undefined {
    const list = this.byId.get(reply.id);
    if (list === undefined) return undefined;
    // With id 0 a PONG answers the oldest PING, anything else the oldest message that was no PING.
    const pong = reply.id === 0 && reply.code === 0 && reply.msg === PONG;
    const i = reply.id === 0 ? list.findIndex((p) => (p.method === 'PING') === pong) : 0;
    if (i < 0) return undefined;
    const [p] = list.splice(i, 1);
    if (list.length === 0) this.byId.delete(reply.id);
    this.count--;
    return p;
  }

  /** When the oldest message on the table was sent (Unix ms); undefined when none waits. */
  oldestSentAt(): number | undefined {
    let oldest: number | undefined;
    // Each list is in the order sent, so its first is its oldest.
    for (const list of this.byId.values())
      if (oldest === undefined || list[0]!.sentAt < oldest) oldest = list[0]!.sentAt;
    return oldest;
  }

  /** Takes every message sent before `before` (Unix ms) off the table and returns them. */
  expire(before: number): Pending[] {
    const out: Pending[] = [];
    for (const [id, list] of this.byId) {
      const kept = list.filter((p) => p.sentAt >= before);
      out.push(...list.filter((p) => p.sentAt < before));
      if (kept.length === 0) this.byId.delete(id);
      else this.byId.set(id, kept);
    }
    this.count -= out.length;
    return out;
  }

  /** Takes everything off the table (the connection closed). */
  clear(): Pending[] {
    const out = [...this.byId.values()].flat();
    this.byId.clear();
    this.count = 0;
    return out;
  }
}

/** A SentMessage without its callback, for events. */
export function sentMessage(p: Pending): SentMessage {
  const { method, id, streams, origin, sentAt } = p;
  return streams === undefined ? { method, id, origin, sentAt } : { method, id, streams, origin, sentAt };
}

export function pending(
  method: string,
  id: number,
  origin: MessageOrigin,
  sentAt: number,
  streams?: readonly string[],
  settle?: Pending['settle'],
): Pending {
  return { method, id, origin, sentAt, ...(streams && { streams }), ...(settle && { settle }) };
}
