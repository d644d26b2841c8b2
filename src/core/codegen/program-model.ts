/**
 * A request as a program must rebuild it at run time ("Copy as Code", `tradereq code`): every value
 * is literal text or a piece the program makes itself when it runs (the timestamp, a client order
 * id, a UUID, a field of an earlier response passed in as a program parameter). Secrets are never
 * here: the program reads its keys from environment variables.
 */

/**
 * One piece of a value. The run-time pieces (timestamp, clientOrderId, uuid) are made once per run
 * and are the same wherever they appear, as TradeReq resolves each variable once per request.
 */
export type Piece =
  | { readonly kind: 'text'; readonly text: string }
  /** Now in milliseconds, read when the program runs ({{$timestamp}}). */
  | { readonly kind: 'timestamp' }
  /** A fresh client order id: 32 characters of A-Z a-z 0-9 ({{$clientOrderId}}). */
  | { readonly kind: 'clientOrderId' }
  /** A random UUID ({{$uuid}}). */
  | { readonly kind: 'uuid' }
  /** A field of an earlier response ({{NAME.response.PATH}}): a parameter of the program, named `parameter`. */
  | { readonly kind: 'parameter'; readonly parameter: string };

/** A value: its pieces concatenated, in order. */
export type Value = readonly Piece[];

export interface NamedValue {
  readonly name: string;
  readonly value: Value;
}

/** A value the program takes on its command line (or from an environment variable of that name). */
export interface ProgramParameter {
  /**
   * An identifier safe in every target language: letters, digits and `_`, starting with a letter,
   * at most 64 characters, and not a variable the program reads itself (TRADEREQ_BASE_URL,
   * TRADEREQ_TIMESTAMP, the key variables).
   */
  readonly name: string;
  /** What to pass, e.g. "orderId from the response of the request named buy"; shown as one line. */
  readonly description: string;
}

export interface CodeRequest {
  /** For the program's first comment line ("Buy at a limit price"). */
  readonly title: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The origin and base path the program sends to by default; the program lets TRADEREQ_BASE_URL override it. */
  readonly baseUrl: string;
  /** The path after the base URL, starting with `/`, with no query. */
  readonly path: string;
  /** Query parameters in order (the inline `?a=1` ones first). */
  readonly query: readonly NamedValue[];
  /** Form body parameters in order (`application/x-www-form-urlencoded`). Empty when `json` is set. */
  readonly form: readonly NamedValue[];
  /** A JSON body sent byte for byte as written (after its pieces are joined). */
  readonly json?: Value;
  /**
   * Headers besides the API key header, in order, as the request writes them (a written
   * Content-Type replaces `contentType`; a name written twice keeps its last value, as send does).
   */
  readonly headers: readonly NamedValue[];
  /** Content-Type to send: application/json for a JSON body or no body, the form type for a form body. */
  readonly contentType: string;
  readonly signed: boolean;
  /** Where `signature=` goes: the end of the query string (default) or of the form body. */
  readonly signaturePlacement: 'query' | 'body';
  /**
   * True when the request writes its own `timestamp` parameter (then it is in `query` or `form`
   * and nothing is added); false: the program adds `timestamp` = now in ms at the end of the form
   * body when it holds form parameters, else at the end of the query string (docs/format.md, Signing).
   */
  readonly timestampWritten: boolean;
  /** The header that carries the API key, e.g. X-SERVICE-APIKEY. */
  readonly apiKeyHeader: string;
  /**
   * Environment variables the program reads the keys from (names only, never values): upper-case
   * letters, digits and `_` (TRADEREQ_<PROFILE>_API_KEY and _SECRET_KEY, docs/format.md), two different ones.
   */
  readonly keyEnv: { readonly apiKey: string; readonly secretKey: string };
  /** Values of earlier responses the program takes as parameters, in order. */
  readonly parameters: readonly ProgramParameter[];
  /**
   * Present when the request asks before it goes, as `tradereq send` asks (src/core/request/confirm.ts):
   * the program shows `order` and asks y/N in a terminal; without one it sends only with --yes.
   */
  readonly confirm?: Confirmation;
}

export interface Confirmation {
  /** Why it asks: "# @confirm", or 'environment "live" has "confirm": true'. */
  readonly reason: string;
  /** What it shows: "POST /api/v3/order: symbol BTCUSDT, side BUY, ...", with the run's own pieces. */
  readonly order: Value;
}

export type CodeLanguage = 'python' | 'python-requests' | 'node' | 'go' | 'shell';

export const CODE_LANGUAGES: readonly {
  readonly id: CodeLanguage;
  readonly label: string;
  readonly extension: string;
}[] = [
  { id: 'python', label: 'Python 3 (standard library)', extension: 'py' },
  { id: 'python-requests', label: 'Python 3 with requests', extension: 'py' },
  { id: 'node', label: 'JavaScript for Node 18+ (fetch, node:crypto)', extension: 'mjs' },
  { id: 'go', label: 'Go (standard library)', extension: 'go' },
  { id: 'shell', label: 'Shell (curl and openssl)', extension: 'sh' },
];
