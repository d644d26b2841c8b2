/**
 * What every generated program does, decided once for all languages: the model checked (a shared
 * request file is hostile), the final header list, where `timestamp` goes, which run-time pieces
 * the program must make. The language files only render this plan.
 */
import { BOUNDS } from '../bounds';
import { headerNameProblem, isHeaderValue, headerValueRule } from '../format/headers';
import type { CodeRequest, NamedValue, Piece, Value } from './program-model';

/** The model cannot become a program; the message says what to change. */
export class CodegenError extends Error {
  override readonly name = 'CodegenError';
}

/** A header of the program in its final order; `apiKey` stands for the key read from the environment. */
interface PlannedHeader {
  readonly name: string;
  readonly value: Value | 'apiKey';
}

export interface Plan {
  readonly request: CodeRequest;
  /** Normalised, without trailing `/`. */
  readonly baseUrl: string;
  /** Where the program appends `timestamp` = now (docs/format.md, Signing step 1); undefined: it does not. */
  readonly addTimestamp: 'query' | 'form' | undefined;
  readonly body: 'none' | 'form' | 'json';
  /** Known when generating: whether a body goes on the wire. */
  readonly sendsBody: boolean;
  readonly headers: readonly PlannedHeader[];
  /** The one clock reading of the run is needed (an added timestamp or a {{$timestamp}} piece). */
  readonly usesTimestamp: boolean;
  readonly usesClientOrderId: boolean;
  readonly usesUuid: boolean;
  /** A value the program sends holds one of the program's parameters. */
  readonly usesParameters: boolean;
}

/** Names the programs read themselves: a parameter of the same name would be read from them. */
export const BASE_URL_ENV = 'TRADEREQ_BASE_URL';
/** Documented for tests only: a fixed timestamp in milliseconds instead of now. */
export const TIMESTAMP_ENV = 'TRADEREQ_TIMESTAMP';
/** The answer kept in memory and printed, as `tradereq send` keeps (src/core/net/send.ts). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
/** The whole exchange, connection to last byte, as `tradereq send`'s deadline. */
export const DEADLINE_SECONDS = 20;
export const CONNECT_TIMEOUT_SECONDS = 5;
/** What a program says after a 5xx or no answer (spec §7.1: the outcome of a 5xx is unknown). */
export const UNKNOWN_OUTCOME =
  'the outcome is unknown: the request may have been carried out. Check (for an order: GET /api/v3/openOrders) before sending it again; this program never retries.';

/** A program that asks and was not confirmed sent nothing: `tradereq send`'s exit code for it (src/cli/send.ts, EXIT.refused). */
export const NOT_CONFIRMED_EXIT = 4;

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE']);
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
// Upper case, as POSIX names the environment's variables: the shell variant reads the keys into
// lower-case variables before anything else, which no such name can shadow.
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
// RFC 3986 path characters: a path is sent as written, so it must already be a valid one.
const PATH = /^(\/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)+$/;

function fail(message: string): never {
  throw new CodegenError(message);
}

function checkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(`the base URL ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('the base URL must start with http:// or https://');
  if (url.username || url.password) fail('the base URL holds a user name or password: a program holds no secret');
  if (url.search || url.hash) fail('the base URL must not hold a query string or a fragment');
  return url.href.replace(/\/+$/, '');
}

function checkPieces(value: Value, parameters: ReadonlySet<string>, where: string): void {
  for (const piece of value) {
    if (piece.kind === 'parameter' && !parameters.has(piece.parameter)) {
      fail(`${where} uses the parameter "${piece.parameter}", which the request does not declare`);
    }
    // A shell variable cannot hold NUL, and nothing the service takes needs it.
    if (piece.kind === 'text' && piece.text.includes('\0')) fail(`${where} holds a NUL character`);
  }
}

function checkParameters(request: CodeRequest): Set<string> {
  const names = new Set<string>();
  const reserved = new Set([BASE_URL_ENV, TIMESTAMP_ENV, request.keyEnv.apiKey, request.keyEnv.secretKey]);
  for (const p of request.parameters) {
    if (!PARAMETER_NAME.test(p.name)) {
      fail(`the program parameter ${JSON.stringify(p.name)} must be letters, digits and _, starting with a letter`);
    }
    if (names.has(p.name)) fail(`the program parameter "${p.name}" is declared twice`);
    if (reserved.has(p.name)) fail(`the program parameter "${p.name}" has the name of a variable the program reads`);
    names.add(p.name);
  }
  return names;
}

/** A program sends at most BOUNDS.paramsPerRequest parameters and BOUNDS.headersPerRequest headers. */
function checkSize(request: CodeRequest): void {
  const params = request.query.length + request.form.length;
  if (params > BOUNDS.paramsPerRequest)
    fail(
      `the request has ${params} parameters, more than the ${BOUNDS.paramsPerRequest} a program sends: split it into smaller requests`,
    );
  if (request.headers.length > BOUNDS.headersPerRequest)
    fail(
      `the request has ${request.headers.length} headers, more than the ${BOUNDS.headersPerRequest} a program sends: send fewer`,
    );
}

function checkRequest(request: CodeRequest): Set<string> {
  checkSize(request);
  if (!METHODS.has(request.method))
    fail(`the method ${JSON.stringify(request.method)} is not GET, POST, PUT or DELETE`);
  if (!PATH.test(request.path)) fail(`the path ${JSON.stringify(request.path)} is not a URL path starting with /`);
  for (const name of [request.keyEnv.apiKey, request.keyEnv.secretKey]) {
    if (!ENV_NAME.test(name)) {
      fail(`${JSON.stringify(name)} is not an environment variable name: upper-case letters, digits and _`);
    }
  }
  if (request.signed && request.keyEnv.apiKey === request.keyEnv.secretKey) {
    fail('the API key and the secret key must come from two different environment variables');
  }
  const parameters = checkParameters(request);
  const lists: [string, readonly NamedValue[]][] = [
    ['the query parameter', request.query],
    ['the form parameter', request.form],
    ['the header', request.headers],
  ];
  for (const [what, list] of lists) {
    for (const p of list) {
      if (p.name.includes('\0')) fail(`${what} name ${JSON.stringify(p.name)} holds a NUL character`);
      checkPieces(p.value, parameters, `${what} ${JSON.stringify(p.name)}`);
    }
  }
  if (request.json) checkPieces(request.json, parameters, 'the JSON body');
  if (request.confirm) {
    checkPieces([{ kind: 'text', text: request.confirm.reason }], parameters, 'the reason to ask');
    checkPieces(request.confirm.order, parameters, 'the order shown before sending');
  }
  if (request.json && request.form.length > 0) fail('a request has one body: a JSON body or form parameters, not both');
  return parameters;
}

function checkHeader(name: string, value: Value | undefined): void {
  const problem = headerNameProblem(name);
  if (problem) fail(problem);
  for (const piece of value ?? []) {
    if (piece.kind === 'text' && !isHeaderValue(piece.text)) fail(`the value of header ${name}: ${headerValueRule()}`);
  }
}

/** Headers as `tradereq send` builds them (src/core/request/build.ts): written ones, Content-Type, the key. */
function planHeaders(request: CodeRequest): PlannedHeader[] {
  const headers: { name: string; value: Value | 'apiKey' }[] = [];
  const set = (name: string, value: Value | 'apiKey'): void => {
    const at = headers.findIndex((h) => h.name.toLowerCase() === name.toLowerCase());
    if (at >= 0) headers[at] = { name: headers[at]!.name, value };
    else headers.push({ name, value });
  };
  for (const h of request.headers) {
    checkHeader(h.name, h.value);
    set(h.name, h.value);
  }
  if (!headers.some((h) => h.name.toLowerCase() === 'content-type')) {
    checkHeader('Content-Type', [{ kind: 'text', text: request.contentType }]);
    headers.push({ name: 'Content-Type', value: [{ kind: 'text', text: request.contentType }] });
  }
  if (request.signed) {
    checkHeader(request.apiKeyHeader, undefined);
    set(request.apiKeyHeader, 'apiKey');
  }
  return headers;
}

function allPieces(request: CodeRequest): Piece[] {
  const values = [...request.query, ...request.form, ...request.headers].map((p) => p.value);
  return [...values, request.json ?? []].flat();
}

/** The plan of the program, or a CodegenError saying why the model cannot become one. */
export function planProgram(request: CodeRequest): Plan {
  checkRequest(request);
  const baseUrl = checkBaseUrl(request.baseUrl);
  const { signed, form, json } = request;
  if (signed && request.signaturePlacement === 'body' && (json !== undefined || form.length === 0)) {
    fail('`# @signature body` needs a form body: add a [body] section with parameters, or remove the directive');
  }
  const addTimestamp = signed && !request.timestampWritten ? (form.length > 0 ? 'form' : 'query') : undefined;
  const pieces = allPieces(request);
  const body = json !== undefined ? 'json' : form.length > 0 ? 'form' : 'none';
  return {
    request,
    baseUrl,
    addTimestamp,
    body,
    sendsBody: body !== 'none',
    headers: planHeaders(request),
    usesTimestamp: addTimestamp !== undefined || pieces.some((p) => p.kind === 'timestamp'),
    usesClientOrderId: pieces.some((p) => p.kind === 'clientOrderId'),
    usesUuid: pieces.some((p) => p.kind === 'uuid'),
    usesParameters: pieces.some((p) => p.kind === 'parameter'),
  };
}
