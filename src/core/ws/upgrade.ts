/**
 * The opening handshake and its gate. The `ws` client reports the HTTP answer of a refused upgrade
 * itself (its `unexpected-response` event: the status, the Retry-After header, the body, read here
 * up to BOUNDS.messageChars), so a 418 or 429 on the upgrade (§7.1, §8 rules 1-4) is known with its
 * Retry-After, from the same request. Through a proxy (net/network.ts), the proxy's answer to
 * CONNECT comes first (https-proxy-agent's `proxyConnect`): anything but 200 is the proxy's refusal,
 * whose answer that agent replays as if the origin had answered the upgrade; it is told as the
 * proxy's (net/send.ts describeFailure) and never recorded as the origin's.
 *
 * Before connecting, the rate-limit state is asked (Budget.gate) whether a ban or a Retry-After wait
 * is in force for the upgrade's origin (and the REST origin of the environment, since a ban is of
 * the IP): then nothing at all goes out.
 */
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { BOUNDS } from '../bounds';
import { t } from '../l10n';
import type { Budget, BudgetView } from '../budget/budget';
import { parseRetryAfter } from '../net/retry-after';
import { FAILURE_CODES, describeFailure, proxyFailureCode } from '../net/send';
import { serverText } from './frames';
import { nodeCrypto } from '../node-lazy';
import type { WsFailure } from './types';

/** What the server (or the proxy on the way) answered to the upgrade request, as far as it got. */
export interface UpgradeAnswer {
  status?: number;
  retryAfter?: string;
  /** The start of a refusal's body (BOUNDS.messageChars), as text. */
  body: string;
  /** The code of a failure below HTTP (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, ...). */
  errorCode?: string;
  /** What is wrong with a 101's handshake, when something is. */
  handshake?: string;
  /** The proxy carrying the upgrade, as shown (never its credentials). */
  via?: string;
  /** The proxy's answer to CONNECT: 200 opened the tunnel; anything else is the proxy's refusal. */
  proxyStatus?: number;
}

/** RFC 6455 section 4.2.2: the Sec-WebSocket-Accept a server gives for the client's Sec-WebSocket-Key. */
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

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

/**
 * Notes in `answer` what comes back for the upgrade request `req` of `ws` (its `finishRequest`):
 * the proxy's CONNECT answer, a 101's headers, a refusal's status and body start, a network error.
 * A 101 this client must refuse, a refusal read far enough and a proxy's refusal end the attempt.
 */
export function noteUpgrade(ws: WebSocket, req: ClientRequest, answer: UpgradeAnswer): void {
  const key = req.getHeader('sec-websocket-key');
  req.on('proxyConnect', (connect: { statusCode?: number }) => (answer.proxyStatus = connect.statusCode ?? 0));
  ws.on('upgrade', (res: IncomingMessage) => {
    answer.status = 101;
    // ws checks Upgrade and the accept value, not Connection (RFC 6455 section 4.1 wants all three).
    answer.handshake = handshakeProblem(typeof key === 'string' ? key : undefined, res.headers);
    if (answer.handshake === undefined) return;
    ws.terminate();
    res.socket.destroy();
  });
  ws.on('unexpected-response', (_req: ClientRequest, res: IncomingMessage) => {
    // The proxy's own answer, replayed as if the origin had given it: not the origin's, not read.
    if (refusedByProxy(answer)) return ws.terminate();
    answer.status = res.statusCode;
    answer.retryAfter = header(res.headers, 'retry-after');
    const done = (): void => ws.terminate();
    res.on('data', (chunk: Buffer) => {
      answer.body += chunk.toString('utf8', 0, Math.min(chunk.length, BOUNDS.messageChars - answer.body.length));
      if (answer.body.length >= BOUNDS.messageChars) done();
    });
    res.on('end', done);
    res.on('error', done);
  });
  ws.on('error', (e: Error & { code?: unknown }) => {
    if (typeof e.code === 'string') answer.errorCode ??= e.code;
  });
}

function refusedByProxy(answer: UpgradeAnswer): boolean {
  return answer.proxyStatus !== undefined && answer.proxyStatus !== 200;
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

/** A 101 this client refused: no WebSocket server, whatever it says; the connection is given up. */
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

/**
 * A failure with no answer from the origin, naming what to check: the proxy's (its refusal of the
 * CONNECT, or no connection to it), an untrusted certificate, or the network below HTTP.
 */
export function describeNetworkFailure(answer: UpgradeAnswer, origin: string): WsFailure {
  const via = answer.via;
  let code = answer.errorCode;
  if (via !== undefined && refusedByProxy(answer)) code = `PROXY_${answer.proxyStatus}`;
  // Before its tunnel opens, a failure is the proxy's (closed before its answer: reset).
  else if (via !== undefined && answer.proxyStatus === undefined) code = proxyFailureCode(code ?? 'ECONNRESET');
  const message = ((): string => {
    switch (code) {
      case undefined:
        return t('The WebSocket connection to {0} failed before it opened.', origin);
      case 'ECONNREFUSED':
        return t(
          'Nothing answers at {0}: is the server running? For the sandbox, start it with "tradereq sandbox".',
          origin,
        );
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return t("The host of {0} cannot be found: check the environment's wsUrl.", origin);
      case 'ECONNRESET':
        return t('The connection to {0} was closed before the WebSocket opened.', origin);
      default:
        // The proxy's failures, untrusted certificates and the rest: as REST words them (net/send.ts).
        return describeFailure({ code, message: '', via }, origin);
    }
  })();
  return { kind: 'network', message, ...(code !== undefined && { code }), ...(via !== undefined && { via }) };
}

/** No answer within the connect timeout: through a proxy whose tunnel never opened, the proxy's. */
export function describeTimeout(answer: UpgradeAnswer, origin: string, ms: number): WsFailure {
  const via = answer.via;
  if (via !== undefined && answer.proxyStatus === undefined)
    return {
      kind: 'timeout',
      message: describeFailure({ code: FAILURE_CODES.connectTimeout, message: '', via }, origin),
    };
  return {
    kind: 'timeout',
    message: t(
      "The WebSocket to {0} did not open within {1} s: check the network and the environment's wsUrl.",
      origin,
      ms / 1000,
    ),
  };
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
