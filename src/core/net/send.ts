/**
 * The send step: one HTTP exchange with undici through a shared Agent, with connect, headers and
 * body timeouts, a cap on the response size kept in memory, and timings. It never retries: a
 * request that may have reached the service is not sent twice.
 */
import { performance } from 'node:perf_hooks';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import type { PreparedRequest } from '../request/build';

export interface SendSettings {
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** Response bytes kept in memory; the rest is read and dropped. */
  readonly maxResponseBytes: number;
  /** The whole exchange, connection to last byte: a body that trickles in is not waited on for ever. */
  readonly deadlineMs: number;
}

export const DEFAULT_SEND_SETTINGS: SendSettings = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  maxResponseBytes: 1024 * 1024,
  deadlineMs: 20_000,
};

export interface Timings {
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
      readonly timings: Timings;
    };

const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNABORTED',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** A shared Agent whose connector records how long each new connection took. */
export class Sender {
  private readonly agent: Dispatcher;
  private connects = 0;
  private lastConnectMs = 0;

  constructor(readonly settings: SendSettings = DEFAULT_SEND_SETTINGS) {
    const connector = buildConnector({ timeout: settings.connectTimeoutMs });
    this.agent = new Agent({
      headersTimeout: settings.headersTimeoutMs,
      bodyTimeout: settings.bodyTimeoutMs,
      connect: (options, callback) => {
        const start = performance.now();
        connector(options, (err, socket) => {
          if (!err) {
            this.connects++;
            this.lastConnectMs = performance.now() - start;
          }
          // undici's callback overloads differ only in which argument is null.
          (callback as (e: Error | null, s: unknown) => void)(err, socket);
        });
      },
    });
  }

  async send(p: PreparedRequest): Promise<SendResult> {
    const start = performance.now();
    const connectsBefore = this.connects;
    const connectMs = (): number => (this.connects > connectsBefore ? round(this.lastConnectMs) : 0);
    let firstByte = 0;
    try {
      const response = await request(p.url, {
        method: p.method,
        headers: Object.fromEntries(p.headers),
        body: p.body.length > 0 ? p.body : undefined,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.settings.deadlineMs),
      });
      firstByte = performance.now() - start;
      const chunks: Buffer[] = [];
      let kept = 0;
      let total = 0;
      for await (const chunk of response.body) {
        const buf = chunk as Buffer;
        total += buf.length;
        if (kept < this.settings.maxResponseBytes) {
          const part = buf.subarray(0, this.settings.maxResponseBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        kind: 'response',
        status: response.statusCode,
        headers,
        bodyText: Buffer.concat(chunks).toString('utf8'),
        bodyBytes: total,
        truncated: total > kept,
        timings: { connectMs: connectMs(), firstByteMs: round(firstByte), totalMs: round(performance.now() - start) },
      };
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
      const code = err.name === 'TimeoutError' ? 'DEADLINE' : (err.code ?? err.cause?.code ?? 'UNKNOWN');
      // Connect failures happen before a byte of the request is written; anything later may have reached the
      // service. An invalid argument is refused by undici before it connects.
      const phase =
        code === 'UND_ERR_INVALID_ARG' || (CONNECT_ERRORS.has(code) && this.connects === connectsBefore)
          ? 'connect'
          : 'sent';
      return {
        kind: 'failure',
        phase,
        code,
        message: err.message,
        timings: { connectMs: connectMs(), firstByteMs: round(firstByte), totalMs: round(performance.now() - start) },
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** What to tell the user about a failure, naming what to check. */
export function describeFailure(code: string, origin: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `Nothing answers at ${origin}: is the server running? For the sandbox, start it with "tradereq sandbox" (or "TradeReq: Start Sandbox" in VS Code).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host of ${origin} cannot be found: check the environment's baseUrl.`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `Connecting to ${origin} timed out: check the network or raise the connect timeout.`;
    case 'DEADLINE':
      return `The exchange with ${origin} took longer than the deadline (the answer came too slowly, or not at all): raise --timeout if the service is slow.`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `${origin} did not answer in time after the request was sent: raise the timeout if the service is slow.`;
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
      return `The connection to ${origin} was closed before the answer came.`;
    default:
      return `The exchange with ${origin} failed (${code}).`;
  }
}
