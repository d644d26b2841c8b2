/**
 * What the sandbox answers: a status, a JSON body already serialised, and the error code for the
 * request log. Error bodies are `{"code": N, "msg": "..."}` (docs/service.md, Assumptions), the msg starting
 * with the catalog's meaning of the code (§7.2).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Result } from '../core/result';
import { lookupError } from '../core/catalog/errors';

export interface Reply {
  readonly status: number;
  readonly body: string;
  /** The error code of the body, null for a success. */
  readonly code: number | null;
  readonly headers?: Readonly<Record<string, string>>;
}

// §7.1: 401 is the authentication or permission error; the rest of a sender's faults are 4XX.
const AUTH_CODES: ReadonlySet<number> = new Set([400, 401, 602, 10072, 700001, 700002, 700006, 700007]);

/** The HTTP status the sandbox gives an error code. */
function statusOfCode(code: number): number {
  if (AUTH_CODES.has(code)) return 401;
  if (code === 429) return 429;
  if (code === 403) return 403;
  if (code === 500 || code === 503 || code === 504) return code;
  return 400;
}

/** The catalog meaning of `code` (the `meaning`-th where §7.2 gives two), as a sentence. */
export function meaningOf(code: number, meaning = 0): string {
  const info = lookupError(code);
  if (info === undefined) throw new Error(`error code ${code} is not in the catalog`);
  return (info.meanings[meaning] ?? info.meanings[0]!) + '.';
}

function errorBody(code: number, msg: string): string {
  return `{"code":${code},"msg":${JSON.stringify(msg)}}`;
}

interface FailOptions {
  readonly status?: number;
  readonly meaning?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

const plain = new Map<number, Reply>();

/** An error reply: the catalog meaning of `code`, then `detail` when it helps the sender. */
export function fail(code: number, detail?: string, options?: FailOptions): Reply {
  if (detail === undefined && options === undefined) {
    const cached = plain.get(code);
    if (cached !== undefined) return cached;
    const reply: Reply = { status: statusOfCode(code), body: errorBody(code, meaningOf(code)), code };
    plain.set(code, reply);
    return reply;
  }
  const msg = meaningOf(code, options?.meaning) + (detail === undefined ? '' : ' ' + detail);
  const reply: Reply = { status: options?.status ?? statusOfCode(code), body: errorBody(code, msg), code };
  return options?.headers === undefined ? reply : { ...reply, headers: options.headers };
}

export function ok(body: string): Reply {
  return { status: 200, body, code: null };
}

export const EMPTY_OK: Reply = ok('{}');

/** The Content-Type of every answer. */
export const JSON_CONTENT_TYPE = 'application/json';

/** Writes `reply` as a whole HTTP answer on a bare socket (a request Node could not read, a refused upgrade), then closes it. */
export function endSocket(socket: Duplex, reply: Reply): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const headers = {
    ...reply.headers,
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': String(Buffer.byteLength(reply.body)),
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  socket.end(
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${reply.body}`,
  );
}

/** A value on the way to an answer, or the refusal that ends the request (its answer). */
export type Answer<T> = Result<T, Reply>;

export function value<T>(v: T): Answer<T> {
  return { ok: true, value: v };
}

export function refusal(code: number, detail?: string, options?: FailOptions): Answer<never> {
  return { ok: false, error: fail(code, detail, options) };
}
