/**
 * The opening handshake and its gate. undici's WebSocket follows the WHATWG API, which hides the
 * HTTP answer of a refused upgrade (an 'error' event and close 1006, nothing else). The client
 * therefore hands the WebSocket its own dispatcher (the `dispatcher` option of undici's
 * WebSocketInit) composed with an interceptor (Dispatcher.compose) that notes the status, the
 * Retry-After header and the start of the body of the one upgrade request it carries. So a 418 or
 * 429 on the upgrade (§7.1, §8 rules 1-4) is known with its Retry-After, from the same request.
 *
 * Before connecting, the rate-limit state is asked (Budget.gate) whether a ban or a Retry-After wait
 * is in force for the upgrade's origin (and the REST origin of the environment, since a ban is of
 * the IP): then nothing at all goes out.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { BOUNDS } from '../bounds';
import { t } from '../l10n';
import type { Budget, BudgetView } from '../budget/budget';
import { parseRetryAfter } from '../net/decode';
import { serverText } from './frames';
import { nodeCrypto } from '../node-lazy';
import type { WsFailure } from './types';

/** What the server answered to the upgrade request, as far as it got. */
export interface UpgradeAnswer {
  status?: number;
  retryAfter?: string;
  /** The start of a refusal's body (BOUNDS.messageChars), as text. */
  body: string;
  /** The code of a failure below HTTP (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT, ...). */
  errorCode?: string;
  /** The upgraded socket, so a server that never answers a close can be let go of (the WHATWG API has no terminate). */
  socket?: Duplex;
  /** What is wrong with a 101's handshake, when something is (undici refuses it without saying what). */
  handshake?: string;
}

/** RFC 6455 section 4.2.2: the Sec-WebSocket-Accept a server gives for the client's Sec-WebSocket-Key. */
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The client's Sec-WebSocket-Key, from the headers undici's WebSocket hands its dispatcher (a plain record). */
function requestKey(headers: unknown): string | undefined {
  const v: [string, unknown][] = headers !== null && typeof headers === 'object' ? Object.entries(headers) : [];
  const found = v.find(([k]) => k.toLowerCase() === 'sec-websocket-key')?.[1];
  return typeof found === 'string' ? found : undefined;
}

/** The first thing a client must refuse in a 101 (RFC 6455 section 4.1), for the message; undefined when none is seen. */
function handshakeProblem(key: string | undefined, headers: IncomingHttpHeaders): string | undefined {
  if (header(headers, 'upgrade')?.toLowerCase() !== 'websocket') return t('no "Upgrade: websocket" header');
  if (!/(^|,)\s*upgrade\s*(,|$)/i.test(header(headers, 'connection') ?? ''))
    return t('no "Connection: Upgrade" header');
  if (key === undefined) return undefined;
  const accept = nodeCrypto()
    .createHash('sha1')
    .update(key + WS_GUID)
    .digest('base64');
  return header(headers, 'sec-websocket-accept')?.trim() === accept
    ? undefined
    : t('a wrong Sec-WebSocket-Accept header');
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** An interceptor that notes the answer to the upgrade in `answer` and passes everything on unchanged. */
export function noteUpgrade(answer: UpgradeAnswer): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(options, {
      onRequestStart: (c, context: unknown) => handler.onRequestStart?.(c, context),
      onRequestUpgrade: (c, status, headers, socket) => {
        answer.status = status;
        answer.socket = socket;
        answer.handshake = handshakeProblem(requestKey(options.headers), headers);
        handler.onRequestUpgrade?.(c, status, headers, socket);
      },
      onResponseStart: (c, status, headers, message) => {
        answer.status = status;
        answer.retryAfter = header(headers, 'retry-after');
        handler.onResponseStart?.(c, status, headers, message);
      },
      onResponseData: (c, chunk) => {
        if (answer.body.length < BOUNDS.messageChars)
          answer.body += chunk.toString('utf8', 0, Math.min(chunk.length, BOUNDS.messageChars));
        handler.onResponseData?.(c, chunk);
      },
      onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
      onResponseError: (c, error) => {
        answer.errorCode = errorCode(error);
        handler.onResponseError?.(c, error);
      },
    });
}

function errorCode(error: unknown): string {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/** The service's msg of a JSON refusal body, if it has one. */
function msgOf(body: string): string | undefined {
  try {
    const json = JSON.parse(body) as unknown;
    const msg = json !== null && typeof json === 'object' ? (json as { msg?: unknown }).msg : undefined;
    return typeof msg === 'string' ? serverText(msg) : undefined;
  } catch {
    return undefined;
  }
}

/** A 418 ban or a 429 wait of `seconds` on the upgrade. */
function limited(status: 418 | 429, origin: string, seconds: number): string {
  return status === 418
    ? t(
        'The service banned this IP for repeated limit violations (418): no connection to {0} for {1} s (Retry-After). Connecting again earlier would extend the ban (§8 rules 2-3).',
        origin,
        seconds,
      )
    : t(
        'The service asked to back off (429): no connection to {0} for {1} s (Retry-After). Connecting again earlier would get this IP banned (§8 rule 2).',
        origin,
        seconds,
      );
}

/** What a refused upgrade means and what to do, as a failure; the ban or wait is not recorded here. */
export function describeRefusedUpgrade(answer: UpgradeAnswer, origin: string, withListenKey: boolean): WsFailure {
  const status = answer.status ?? 0;
  const said = msgOf(answer.body);
  // What the service said goes after the message.
  const tail = (message: string): string =>
    said === undefined ? message : t('{0} The service said: {1}', message, said);
  const seconds = parseRetryAfter(answer.retryAfter);
  switch (status) {
    case 418:
    case 429: {
      const what = limited(status, origin, seconds ?? (status === 418 ? 120 : 10));
      return { kind: 'upgrade', status, message: tail(what), retryAfterSeconds: seconds };
    }
    case 401:
      return {
        kind: 'upgrade',
        status,
        message: tail(
          withListenKey
            ? t(
                'The WebSocket endpoint {0} refused the listen key (401): it is unknown, closed or lapsed (60 minutes after its last keep-alive). Connect again to get a new one.',
                origin,
              )
            : t(
                'The WebSocket endpoint {0} refused the connection (401): it wants authentication; private streams need # @listenKey.',
                origin,
              ),
        ),
      };
    case 404:
      return {
        kind: 'upgrade',
        status,
        message: tail(
          t(
            "There is no WebSocket endpoint at that path on {0} (404): check the environment's wsUrl (by default the base URL with ws:// or wss:// and /ws).",
            origin,
          ),
        ),
      };
    default:
      return {
        kind: 'upgrade',
        status,
        message: tail(
          t('{0} answered HTTP {1} instead of opening the WebSocket (101 Switching Protocols).', origin, status),
        ),
      };
  }
}

/** A 101 that undici refused: no WebSocket server, whatever it says; the connection is given up. */
export function describeBadHandshake(answer: UpgradeAnswer, origin: string): WsFailure {
  return {
    kind: 'network',
    message: t(
      "{0} answered 101 Switching Protocols with {1}: that is no WebSocket server, and the connection was given up. Check the environment's wsUrl.",
      origin,
      answer.handshake ?? t('a handshake that is not valid'),
    ),
  };
}

/** A failure below HTTP (no answer to the upgrade), naming what to check. */
export function describeNetworkFailure(code: string | undefined, origin: string): WsFailure {
  const message = ((): string => {
    switch (code) {
      case 'ECONNREFUSED':
        return t(
          'Nothing answers at {0}: is the server running? For the sandbox, start it with "tradereq sandbox".',
          origin,
        );
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return t("The host of {0} cannot be found: check the environment's wsUrl.", origin);
      case 'UND_ERR_CONNECT_TIMEOUT':
        return t("Connecting to {0} timed out: check the network, or the environment's wsUrl.", origin);
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
        return t('The connection to {0} was closed before the WebSocket opened.', origin);
      default:
        return code === undefined
          ? t('The WebSocket connection to {0} failed before it opened.', origin)
          : t('The WebSocket connection to {0} failed before it opened ({1}).', origin, code);
    }
  })();
  return { kind: 'network', message, code };
}

/**
 * Asks the rate-limit state whether the upgrade may go to each of `origins` (weight 0: the upgrade is
 * no REST request, but a ban or a Retry-After wait of the IP holds it back).
 */
export function gateUpgrade(budget: Budget, origins: readonly string[]): WsFailure | undefined {
  for (const origin of origins) {
    const d = budget.gate({ origin, mode: 'ip', weight: 0 });
    if (!d.ok && d.error.reason !== 'budget')
      return { kind: 'gate', reason: d.error.reason, message: d.error.message, retryAtMs: d.error.retryAtMs };
  }
  return undefined;
}

/**
 * Records a 418 or 429 on the upgrade, so that the gate holds the next connect back; a failure when
 * it cannot. Waits for another process's lock with timers: the editor's thread never blocks.
 */
export async function recordRefusedUpgrade(
  budget: Budget,
  origin: string,
  failure: Extract<WsFailure, { kind: 'upgrade' }>,
): Promise<{ view?: BudgetView; failure?: WsFailure }> {
  const view = await budget.record(
    { origin, mode: 'ip', weight: 0 },
    { status: failure.status, retryAfterSeconds: failure.retryAfterSeconds },
  );
  if (view.damaged === undefined) return { view };
  const message = t(
    '{0} This could not be remembered ({1}): do not connect again before the Retry-After has passed.',
    failure.message,
    view.damaged,
  );
  return { failure: { kind: 'state', message } };
}
