/**
 * The send step: one HTTP exchange with connect, headers and body timeouts, an overall deadline, a
 * cap on the response size kept in memory, and timings. It never retries: a request that may have
 * reached the service is not sent twice. node:http's sender (node-http-sender.ts) is the command
 * line's and the editor's: it starts in a fraction of undici's time. The pipeline and its tests
 * see only this interface.
 */
import type { Method } from '../format/model';
import { BOUNDS } from '../bounds';
import { t } from '../l10n';
import type { RateLimitMode } from '../catalog/types';

/** A request built and signed (request/build.ts), exactly as it goes on the wire: what a Sender sends. */
export interface PreparedRequest {
  readonly method: Method;
  /** Full URL with the final query string. */
  readonly url: string;
  readonly origin: string;
  readonly path: string;
  /** The query string as sent (with the signature when it goes there), without `?`. */
  readonly query: string;
  /** The body as sent. */
  readonly body: string;
  /** Header names as written; the API key header holds the real key: mask it before showing. */
  readonly headers: readonly (readonly [string, string])[];
  readonly signed: boolean;
  readonly apiKeyHeader?: string;
  readonly totalParams?: string;
  readonly signature?: string;
  readonly timestamp?: string;
  readonly weight: number;
  readonly mode: RateLimitMode;
}

export interface SendSettings {
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** Response bytes kept in memory, counted while they are read; the rest is read and dropped (BOUNDS.responseBytes). */
  readonly maxResponseBytes: number;
  /** The whole exchange, connection to last byte: a body that trickles in is not waited on for ever. */
  readonly deadlineMs: number;
}

export const DEFAULT_SEND_SETTINGS: SendSettings = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  maxResponseBytes: BOUNDS.responseBytes,
  deadlineMs: 20_000,
};

interface Timings {
  /** Time to open the connection; 0 when a kept-alive connection was reused. */
  readonly connectMs: number;
  readonly firstByteMs: number;
  readonly totalMs: number;
}

export type SendResult =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly bodyText: string;
      readonly bodyBytes: number;
      readonly truncated: boolean;
      readonly timings: Timings;
    }
  | {
      readonly kind: 'failure';
      /** `connect`: nothing was sent. `sent`: the request may have reached the service. */
      readonly phase: 'connect' | 'sent';
      readonly code: string;
      readonly message: string;
      /** The proxy that carried (or would have carried) the connection, as shown: never its credentials. */
      readonly via?: string;
      readonly timings: Timings;
    };

/** What a failure is described from. */
export type Failure = Pick<Extract<SendResult, { kind: 'failure' }>, 'code' | 'message' | 'via'>;

/** One HTTP exchange at a time per call, connections kept alive between calls until close(). */
export interface Sender {
  readonly settings: SendSettings;
  send(p: PreparedRequest): Promise<SendResult>;
  close(): Promise<void>;
}

/** The codes every sender gives its own failures (undici's names, which messages and logs already use). */
export const FAILURE_CODES = {
  deadline: 'DEADLINE',
  connectTimeout: 'UND_ERR_CONNECT_TIMEOUT',
  headersTimeout: 'UND_ERR_HEADERS_TIMEOUT',
  bodyTimeout: 'UND_ERR_BODY_TIMEOUT',
  /** The request cannot be written as it is (a header value, the URL): refused before connecting. */
  invalidRequest: 'UND_ERR_INVALID_ARG',
  /** The connection was closed before the whole answer came. */
  closed: 'ECONNRESET',
  /** The route was refused (proxy.ts): a signed request would cross a proxy in plain http, or the proxy is not usable. */
  routeRefused: 'ROUTE_REFUSED',
} as const;

/** The origin's certificate is not one Node trusts (a company CA, a self-signed certificate). */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** A failure to reach the proxy itself, named as the proxy's (`PROXY_ECONNREFUSED`); other codes as they are. */
export function proxyFailureCode(code: string): string {
  return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)
    ? `PROXY_${code}`
    : code;
}

/** Failures of opening the connection: when no connection was made, no byte of the request went out. */
const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  FAILURE_CODES.connectTimeout,
  'ECONNABORTED',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  ...UNTRUSTED_CERTIFICATE,
]);

/**
 * `connect` when nothing can have been written: the request was refused as invalid, or opening the
 * connection failed and none was made for it. Anything later may have reached the service (§7.1).
 */
export function failurePhase(code: string, connected: boolean): 'connect' | 'sent' {
  // A proxy's failure (its refusal, its CONNECT answer) comes before the tunnel: nothing went through it.
  const before =
    code === FAILURE_CODES.invalidRequest || code === FAILURE_CODES.routeRefused || code.startsWith('PROXY_');
  return before || (CONNECT_ERRORS.has(code) && !connected) ? 'connect' : 'sent';
}

/** Milliseconds to one decimal, as timings are shown. */
export function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** What to tell the user about a failure, naming what to check. */
export function describeFailure(f: Failure, origin: string): string {
  if (f.code === FAILURE_CODES.routeRefused) return f.message;
  if (f.code.startsWith('PROXY_')) return describeProxyFailure(f.code.slice('PROXY_'.length), origin, f.via ?? '');
  if (UNTRUSTED_CERTIFICATE.has(f.code))
    return t(
      'The certificate of {0} is not trusted ({1}). If a company CA signs it, trust that CA: NODE_EXTRA_CA_CERTS=FILE or --cacert FILE on the command line; in VS Code, add it to the system store (http.systemCertificates) or start VS Code with NODE_EXTRA_CA_CERTS.',
      origin,
      f.code,
    );
  switch (f.code) {
    case 'ECONNREFUSED':
      return t(
        'Nothing answers at {0}: is the server running? For the sandbox, start it with "tradereq sandbox" (or "TradeReq: Start Sandbox" in VS Code).',
        origin,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return t(
        "The host of {0} cannot be found: check the environment's baseUrl. If only a proxy reaches it, set HTTPS_PROXY or --proxy (in VS Code, http.proxy).",
        origin,
      );
    case FAILURE_CODES.connectTimeout:
      return f.via
        ? t(
            'Connecting to {0} through the proxy {1} timed out: check the proxy, or raise the connect timeout.',
            origin,
            f.via,
          )
        : t('Connecting to {0} timed out: check the network or raise the connect timeout.', origin);
    case FAILURE_CODES.deadline:
      return t(
        'The exchange with {0} took longer than the deadline (the answer came too slowly, or not at all): raise --timeout if the service is slow.',
        origin,
      );
    case FAILURE_CODES.headersTimeout:
    case FAILURE_CODES.bodyTimeout:
      return t(
        '{0} did not answer in time after the request was sent: raise the timeout if the service is slow.',
        origin,
      );
    case 'UND_ERR_SOCKET':
    case FAILURE_CODES.closed:
      return t('The connection to {0} was closed before the answer came.', origin);
    default:
      return t('The exchange with {0} failed ({1}).', origin, f.code);
  }
}

/** A proxy's failure, by what went wrong: `code` is a connect error's code or the status of its CONNECT answer. */
function describeProxyFailure(code: string, origin: string, via: string): string {
  switch (code) {
    case 'ECONNREFUSED':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return t(
        'Nothing answers at the proxy {0} ({1}): check HTTPS_PROXY, --proxy or http.proxy. Nothing was sent.',
        via,
        code,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return t(
        "The proxy's host {0} cannot be found: check HTTPS_PROXY, --proxy or http.proxy. Nothing was sent.",
        via,
      );
    case '407':
    case '401': // tinyproxy's answer to wrong credentials
      return t(
        'The proxy {0} wants credentials, or other ones ({1}): give them in its URL, http://USER:PASSWORD@HOST:PORT, in HTTPS_PROXY or --proxy (in VS Code, http.proxy or http.proxyAuthorization). Nothing was sent.',
        via,
        code,
      );
    case '403':
      return t(
        'The proxy {0} refused the tunnel to {1} (403): it does not allow this host or port. Ask its administrator, or reach the host directly (NO_PROXY). Nothing was sent.',
        via,
        origin,
      );
    default:
      return t(
        'The proxy {0} could not open a tunnel to {1} ({2}): check the host name and port, which the proxy resolves. Nothing was sent.',
        via,
        origin,
        code,
      );
  }
}
