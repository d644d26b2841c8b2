/**
 * Listen keys of the private streams (docs/websocket.md): POST /api/v3/userDataStream opens one
 * for the key's account, PUT keeps it alive, DELETE closes it, GET lists the live ones; it lapses
 * the deployment's `listenKey.validityMs` after the last keep-alive, on the server clock (so
 * POST /_sandbox/clock lapses it). The keys look like the deployment's (`listenKey.format`), an
 * account holds at most `maxPerAccount`. A listen key is a credential: it is never logged nor
 * written in a message.
 */
import { randomInt } from 'node:crypto';
import type { DeploymentId, ListenKeyRules } from '../../core/catalog/deployment';

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** The characters of the sandbox's listen keys per deployment: the spec's are hex, as before; mexc's lower-case letters and digits. */
const KEY_ALPHABET: Readonly<Record<DeploymentId, string>> = {
  spec: '0123456789abcdef',
  mexc: LOWER_ALNUM,
};
/** The length of the sandbox's listen keys (the family's documented example is 64). */
const KEY_LENGTH = 64;

/** A new listen key of deployment `id`, 64 characters drawn uniformly from its alphabet. */
export function newListenKey(id: string): string {
  const alphabet = KEY_ALPHABET[id as DeploymentId] ?? LOWER_ALNUM;
  let key = '';
  for (let i = 0; i < KEY_LENGTH; i++) key += alphabet[randomInt(alphabet.length)];
  return key;
}

/** Why a listen key is refused, on REST (730002) and on the WebSocket upgrade (401); it never repeats the key. */
export function listenKeyLapsed(rules: ListenKeyRules): string {
  return `The listenKey is unknown, closed or lapsed (${rules.validityMs / 60_000} minutes after its last keep-alive); get one with POST /api/v3/userDataStream.`;
}

/** The close reason of a connection whose listen key lapsed. */
export function listenKeyLapsedClose(rules: ListenKeyRules): string {
  return `listenKey lapsed: ${rules.validityMs / 60_000} minutes with no keep-alive`;
}

interface Entry {
  readonly account: string;
  expires: number;
}

export class ListenKeys {
  private keys = new Map<string, Entry>();

  constructor(
    private readonly id: string,
    readonly rules: ListenKeyRules,
  ) {}

  reset(): void {
    this.keys = new Map();
  }

  /** A new key for `account`, or undefined when it already holds the most it may. */
  open(account: string, now: number): string | undefined {
    if (this.live(account, now).length >= this.rules.maxPerAccount) return undefined;
    const key = newListenKey(this.id);
    this.keys.set(key, { account, expires: now + this.rules.validityMs });
    return key;
  }

  /** The live keys of `account` (GET /api/v3/userDataStream). */
  live(account: string, now: number): string[] {
    this.sweep(now);
    const held: string[] = [];
    for (const [key, e] of this.keys) if (e.account === account) held.push(key);
    return held;
  }

  /** Whether `key` has the form of this deployment's keys (a malformed one is refused before any look-up). */
  wellFormed(key: string): boolean {
    return this.rules.format.test(key);
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
    this.keys.get(key)!.expires = now + this.rules.validityMs;
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
