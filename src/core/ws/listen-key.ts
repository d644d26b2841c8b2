/**
 * A listen key for the private streams, held for one connection (`# @listenKey`, docs/websocket.md):
 * obtained first (signed POST /api/v3/userDataStream), kept alive while connected (PUT; the key
 * lapses 60 minutes after its last keep-alive, so every 30 minutes), closed at the end (DELETE).
 * The caller supplies the three signed calls, made through its own send pipeline (origin binding,
 * rate-limit gate), so this file needs no REST code.
 *
 * The key is a credential: it lives in a private field, and every text this class hands out
 * (failures, toString, JSON, inspection) shows it masked to its last 4 characters.
 */
import { inspect } from 'node:util';
import { BOUNDS, clip } from '../bounds';
import { t } from '../l10n';
import { WS_RULES } from '../catalog/ws-limits';
import type { WsFailure } from './types';
import { err, ok, type Result } from '../result';
import { NODE_TIMERS, type Timers } from './timers';
import { LISTEN_KEY_FORMAT, maskListenKey, redact, withListenKey } from './url';

/** The signed REST calls of a listen key, made by the caller's send pipeline. */
export interface ListenKeyApi {
  /** POST /api/v3/userDataStream with the request's key profile; resolves to the listenKey (see listenKeyOf). */
  create(): Promise<string>;
  /** PUT /api/v3/userDataStream with listenKey. */
  keepAlive(listenKey: string): Promise<void>;
  /** DELETE /api/v3/userDataStream with listenKey. */
  close(listenKey: string): Promise<void>;
}

/** Half the key's 60-minute validity (assumed, WS_RULES.listenKeyValidityMs): one failed keep-alive leaves time for another. */
const LISTEN_KEY_KEEP_ALIVE_MS = WS_RULES.listenKeyValidityMs / 2;
/** After a failed keep-alive, the next try comes this much sooner. */
const KEEP_ALIVE_RETRY_MS = 60_000;

export interface LeaseOptions {
  /** How often the key is extended: the deployment's listenKey.renewEveryMs (catalog/deployment.ts); default 30 minutes. */
  readonly keepAliveMs?: number;
  /** Default Node's; a test moves them by hand. */
  readonly timers?: Timers;
  /** Called with each failed keep-alive (the key masked in it). */
  readonly onError?: (failure: WsFailure) => void;
  /** Called after each keep-alive that succeeded. */
  readonly onKeepAlive?: () => void;
}

function reason(e: unknown): string {
  return clip(e instanceof Error ? e.message : String(e), BOUNDS.messageChars);
}

export class ListenKeyLease {
  readonly #key: string;
  readonly #api: ListenKeyApi;
  readonly #options: LeaseOptions;
  #cancel: (() => void) | undefined;
  #closing: Promise<WsFailure | undefined> | undefined;

  private constructor(key: string, api: ListenKeyApi, options: LeaseOptions) {
    this.#key = key;
    this.#api = api;
    this.#options = options;
    this.#schedule(options.keepAliveMs ?? LISTEN_KEY_KEEP_ALIVE_MS);
  }

  /** Obtains a listen key and starts keeping it alive; a failure says why none could be had. */
  static async open(api: ListenKeyApi, options: LeaseOptions = {}): Promise<Result<ListenKeyLease, WsFailure>> {
    let key: unknown;
    try {
      key = await api.create();
    } catch (e) {
      return err({
        kind: 'listen-key',
        message: t('No listen key could be had (POST /api/v3/userDataStream): {0}', reason(e)),
      });
    }
    if (typeof key !== 'string' || !LISTEN_KEY_FORMAT.test(key)) {
      // Never shown: a malformed key could still be a credential.
      if (typeof key === 'string') void api.close(key).catch(() => undefined);
      return err({
        kind: 'listen-key',
        message: t('POST /api/v3/userDataStream gave no usable listenKey (URL-safe characters, at most 256).'),
      });
    }
    return ok(new ListenKeyLease(key, api, options));
  }

  /** The key masked to its last 4 characters. */
  get masked(): string {
    return maskListenKey(this.#key);
  }

  /** `url` with ?listenKey=; to be handed to the WebSocket only, never shown (use redact on it). */
  urlFor(url: URL): string {
    return withListenKey(url, this.#key);
  }

  /** `text` with the key masked wherever it occurs. */
  redact(text: string): string {
    return redact(text, this.#key);
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** Stops the keep-alives and closes the key (DELETE); idempotent. Resolves with a failure if DELETE failed. */
  close(): Promise<WsFailure | undefined> {
    this.#closing ??= (async () => {
      this.#cancel?.();
      this.#cancel = undefined;
      try {
        await this.#api.close(this.#key);
        return undefined;
      } catch (e) {
        return {
          kind: 'listen-key',
          message: t(
            'The listen key {0} could not be closed (DELETE /api/v3/userDataStream): {1}. It lapses by itself 60 minutes after its last keep-alive.',
            this.masked,
            this.redact(reason(e)),
          ),
        };
      }
    })();
    return this.#closing;
  }

  #schedule(ms: number): void {
    if (this.#closing !== undefined) return;
    // The connection keeps the process alive, not its keep-alive timer.
    this.#cancel = (this.#options.timers ?? NODE_TIMERS).after(ms, () => void this.#keepAlive(), false);
  }

  async #keepAlive(): Promise<void> {
    const every = this.#options.keepAliveMs ?? LISTEN_KEY_KEEP_ALIVE_MS;
    try {
      await this.#api.keepAlive(this.#key);
      if (this.#closing !== undefined) return;
      this.#options.onKeepAlive?.();
      this.#schedule(every);
    } catch (e) {
      if (this.#closing !== undefined) return;
      const retry = Math.min(every, KEEP_ALIVE_RETRY_MS);
      this.#options.onError?.({
        kind: 'listen-key',
        message: t(
          'The listen key {0} could not be kept alive (PUT /api/v3/userDataStream): {1}. Trying again in {2} s; private pushes stop if it lapses (60 minutes after its last keep-alive).',
          this.masked,
          this.redact(reason(e)),
          Math.round(retry / 1000),
        ),
      });
      this.#schedule(retry);
    }
  }

  toString(): string {
    return `ListenKeyLease(${this.masked})`;
  }

  toJSON(): { listenKey: string } {
    return { listenKey: this.masked };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
