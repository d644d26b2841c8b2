/**
 * Where the WebSocket side lives and where a listen key may go. docs/websocket.md: one endpoint,
 * /ws, next to the REST base URL by default; an environment may name its own wsUrl (the real
 * service runs it on a host of its own). A listen key is a credential: it is sent only to the
 * environment's WebSocket origin, and shown only masked.
 */
import type { NamedEnvironment } from '../env/constants';
import { isLoopbackOrigin } from '../env/demo';
import { t } from '../l10n';
import { maskApiKey } from '../env/keys';
import { WS_RULES } from '../catalog/ws-limits';
import { checkBinding, type KeyBinding, type Unbound } from '../request/origin-binding';
import { err, ok, type Result } from '../result';
import * as z from '../zod-mini';

/** `http://h:p/base` → `ws://h:p/ws`, `https://…` → `wss://…/ws`; undefined when not an http(s) URL. */
export function defaultWsUrl(baseUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.host}${WS_RULES.path}`;
}

/** The environment's WebSocket endpoint: its wsUrl, else defaultWsUrl of its base URL. */
export function environmentWsUrl(environment: Pick<NamedEnvironment, 'baseUrl' | 'wsUrl'>): string | undefined {
  return environment.wsUrl ?? defaultWsUrl(environment.baseUrl);
}

/** A ws:// or wss:// URL, parsed; undefined otherwise (or with user:password in it). */
export function parseWsUrl(url: string): URL | undefined {
  try {
    const u = new URL(url.trim());
    if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return undefined;
    if (u.username !== '' || u.password !== '') return undefined;
    u.hash = '';
    return u;
  } catch {
    return undefined;
  }
}

/** `ws://h:p`: the scheme, host and port a listen key may be sent to. */
function wsOrigin(url: string): string | undefined {
  const u = parseWsUrl(url);
  return u === undefined ? undefined : `${u.protocol}//${u.host}`;
}

/**
 * The origin whose rate-limit state (bans, Retry-After) the upgrade is gated on: the WebSocket
 * origin in its HTTP form, since the upgrade is an HTTP request and a ban (§8) is of the IP. When
 * the WebSocket side shares the REST host (the default wsUrl, the sandbox), a REST ban and a
 * WebSocket ban are one entry.
 */
export function upgradeOrigin(url: string): string | undefined {
  const u = parseWsUrl(url);
  return u === undefined ? undefined : `${u.protocol === 'wss:' ? 'https' : 'http'}://${u.host}`;
}

/** Whether a listen key may go there; why not, as a message, when it may not. */
export type DestinationDecision = Result<void, string>;

/** Whether a listen key may be sent to `url`: only to the environment's WebSocket origin (`envWsUrl`). */
export function checkListenKeyDestination(url: string, envWsUrl: string): DestinationDecision {
  const to = wsOrigin(url);
  const allowed = wsOrigin(envWsUrl);
  if (allowed === undefined)
    return err(
      t(
        'The environment\'s wsUrl "{0}" is not a ws:// or wss:// URL, so no listen key is sent anywhere. Fix wsUrl in tradereq.env.json.',
        envWsUrl,
      ),
    );
  if (to === allowed) return ok(undefined);
  return err(
    to === undefined
      ? t(
          "A listen key is sent only to the environment's WebSocket origin {0}, not to this URL. Nothing was sent. Connect to {0} or change the environment's wsUrl.",
          allowed,
        )
      : t(
          "A listen key is sent only to the environment's WebSocket origin {0}, not to {1}. Nothing was sent. Connect to {0} or change the environment's wsUrl.",
          allowed,
          to,
        ),
  );
}

/**
 * Whether a listen key obtained with a key of `binding` may go to the WebSocket endpoint `url`:
 * never over plain ws:// to a host that is not loopback, and only to an origin the key profile
 * approves, through its http(s) form (wss://h by https://h, ws://h by http://h), refused as a
 * REST request to an unbound origin is (request/origin-binding.ts).
 */
export function checkListenKeyBinding(url: string | undefined, binding: KeyBinding): Result<void, Unbound> {
  const u = url === undefined ? undefined : parseWsUrl(url);
  if (u === undefined)
    return err({
      message: t(
        "The environment's wsUrl is not a ws:// or wss:// URL, so no listen key is sent anywhere. Nothing was sent. Fix wsUrl in tradereq.env.json.",
      ),
    });
  const origin = `${u.protocol}//${u.host}`;
  if (u.protocol === 'ws:' && !isLoopbackOrigin(u.href))
    return err({
      message: t(
        'A listen key is never sent over plain ws:// to {0}, which is not a loopback address: anyone on the way could read it. Nothing was sent. Use a wss:// wsUrl in tradereq.env.json.',
        origin,
      ),
    });
  const approval = upgradeOrigin(u.href)!;
  const bound = checkBinding(approval, binding, origin);
  return bound.ok ? bound : err({ message: bound.error, origin: approval });
}

/** A listen key as the service may give one: unreserved URL characters only, so it goes in a query string as it is. */
export const LISTEN_KEY_FORMAT = /^[A-Za-z0-9._~-]{1,256}$/;

/** The answer to POST /api/v3/userDataStream (docs/websocket.md). */
const ListenKeyAnswerSchema = z.object({ listenKey: z.string().check(z.regex(LISTEN_KEY_FORMAT)) });

/** The listen key of a POST /api/v3/userDataStream answer, or undefined when it has none usable. */
export function listenKeyOf(json: unknown): string | undefined {
  const r = ListenKeyAnswerSchema.safeParse(json);
  return r.success ? r.data.listenKey : undefined;
}

/** Shown like an API key: its last 4 characters. */
export function maskListenKey(listenKey: string): string {
  return maskApiKey(listenKey);
}

/** `url` with `?listenKey=KEY` set (docs/websocket.md: /ws?listenKey=...). */
export function withListenKey(url: URL, listenKey: string): string {
  const u = new URL(url.href);
  u.searchParams.set('listenKey', listenKey);
  return u.href;
}

/** A key's start shorter than this, left at a cut, is not masked: it tells nothing and would cut up ordinary words. */
const MIN_CUT_CHARS = 4;

/**
 * `text` with every occurrence of `secret` masked; for anything shown that could hold it. Also the
 * start of it left where a text was cut (its end, or before a `…`): a sample of a frame cut
 * before it was masked must not show most of the key.
 */
export function redact(text: string, secret: string | undefined): string {
  if (secret === undefined || secret.length === 0) return text;
  const whole = text.split(secret).join(maskListenKey(secret));
  let out = '';
  let from = 0;
  for (let at = whole.indexOf('…'); ; at = whole.indexOf('…', at + 1)) {
    const cut = at < 0 ? whole.length : at;
    const n = startLeftAt(whole, from, cut, secret);
    // The start of a key is masked showing none of it (maskApiKey of nothing): its last 4 characters would be inside the key.
    out += whole.slice(from, cut - n) + (n > 0 ? maskApiKey('') : '');
    from = cut;
    if (at < 0) return out + whole.slice(from);
  }
}

/** How many characters before `cut` (and after `from`) are the start of `secret`: the longest, 0 when fewer than MIN_CUT_CHARS. */
function startLeftAt(text: string, from: number, cut: number, secret: string): number {
  for (let n = Math.min(secret.length - 1, cut - from); n >= MIN_CUT_CHARS; n--)
    if (text.startsWith(secret.slice(0, n), cut - n)) return n;
  return 0;
}
