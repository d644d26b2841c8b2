/**
 * Listen keys of the private streams (docs/websocket.md, assumed): POST /api/v3/userDataStream
 * opens one for the key's account, PUT keeps it alive, DELETE closes it; it lapses
 * WS_RULES.listenKeyValidityMs after the last keep-alive. A listen key is a credential: it is never
 * logged nor written in a message.
 */
import { randomBytes } from 'node:crypto';
import { WS_RULES } from '../../core/catalog/ws-limits';

/** Listen keys one account may hold at once (the family allows 60); bounds memory. */
export const MAX_LISTEN_KEYS_PER_ACCOUNT = 60;

/** 64 hex characters, as the family's keys. */
export const LISTEN_KEY_FORMAT = /^[0-9a-f]{64}$/;

const VALIDITY_MINUTES = WS_RULES.listenKeyValidityMs / 60_000;

/** Why a listen key is refused, on REST (730002) and on the WebSocket upgrade (401); it never repeats the key. */
export const LISTEN_KEY_LAPSED = `The listenKey is unknown, closed or lapsed (${VALIDITY_MINUTES} minutes after its last keep-alive); get one with POST /api/v3/userDataStream.`;

/** The close reason of a connection whose listen key lapsed. */
export const LISTEN_KEY_LAPSED_CLOSE = `listenKey lapsed: ${VALIDITY_MINUTES} minutes with no keep-alive`;

interface Entry {
  readonly account: string;
  expires: number;
}

export class ListenKeys {
  private keys = new Map<string, Entry>();

  constructor(private readonly validityMs: number = WS_RULES.listenKeyValidityMs) {}

  reset(): void {
    this.keys = new Map();
  }

  /** A new key for `account`, or undefined when it already holds the most it may. */
  open(account: string, now: number): string | undefined {
    this.sweep(now);
    let held = 0;
    for (const e of this.keys.values()) if (e.account === account) held++;
    if (held >= MAX_LISTEN_KEYS_PER_ACCOUNT) return undefined;
    const key = randomBytes(32).toString('hex');
    this.keys.set(key, { account, expires: now + this.validityMs });
    return key;
  }

  /** The account of a live key; a lapsed key is forgotten on the way. */
  accountOf(key: string, now: number): string | undefined {
    const e = this.keys.get(key);
    if (e === undefined) return undefined;
    if (now >= e.expires) {
      this.keys.delete(key);
      return undefined;
    }
    return e.account;
  }

  /** Extends a live key of `account` from now; false when it is unknown, lapsed or another account's. */
  keepAlive(account: string, key: string, now: number): boolean {
    if (this.accountOf(key, now) !== account) return false;
    this.keys.get(key)!.expires = now + this.validityMs;
    return true;
  }

  /** Closes a live key of `account`; false when it is unknown, lapsed or another account's. */
  close(account: string, key: string, now: number): boolean {
    if (this.accountOf(key, now) !== account) return false;
    this.keys.delete(key);
    return true;
  }

  /** Forgets lapsed keys and returns them (their connections are closed). */
  sweep(now: number): string[] {
    const lapsed: string[] = [];
    for (const [key, e] of this.keys) {
      if (now >= e.expires) {
        this.keys.delete(key);
        lapsed.push(key);
      }
    }
    return lapsed;
  }
}
