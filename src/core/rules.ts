/**
 * Every diagnostic TradeReq reports, in one typed list: its id, its severity, the service errors it
 * prevents, whether it has a quick fix, and a line for the rules table of docs/guide.md
 * (generated from this list by `npm run docs`; a test keeps the two equal). The parser, resolve,
 * the check step and the editor's quick fixes all name rules from here.
 */

/** How grave a diagnostic is: here, so that format/model.ts imports the rules and never the reverse. */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface RuleInfo {
  /** The severities it is reported with, the usual first. */
  readonly severities: readonly [Severity, ...Severity[]];
  /** Service error codes (§7.2) a request with this problem would get. */
  readonly prevents: readonly number[];
  /** The editor offers a quick fix that replaces the range with the right text. */
  readonly fix?: true;
  /** What is wrong, for the rules table of docs/guide.md. */
  readonly problem: string;
  /** Reported while reading the file (so `send` refuses the request too), or by the check step. */
  readonly stage: 'parse' | 'check';
}

function rule(
  problem: string,
  severities: RuleInfo['severities'],
  prevents: readonly number[] = [],
  extra: { fix?: true; stage?: RuleInfo['stage'] } = {},
): RuleInfo {
  // A request whose own `# @expect code` names the error gets the finding as information (check/findings.ts).
  const all: RuleInfo['severities'] =
    prevents.length > 0 && !severities.includes('information') ? [...severities, 'information'] : severities;
  return { problem, severities: all, prevents, stage: extra.stage ?? 'check', ...(extra.fix ? { fix: true } : {}) };
}

const PARSE = { stage: 'parse' } as const;

export const RULES = {
  // The file as text (docs/format.md, Lines).
  'file-too-large': rule('a file over 4 MiB (not read at all)', ['error'], [], PARSE),
  'too-many-requests': rule('more than 20,000 requests in a file (the rest is not read)', ['error'], [], PARSE),
  'unreadable-line': rule('a line that is no parameter, section, header, directive or comment', ['error'], [], PARSE),
  'missing-request-line': rule('a request without a request line such as `POST /api/v3/order`', ['error'], [], PARSE),
  'second-request-line': rule('two request lines in one request', ['error'], [], PARSE),
  'method-case': rule('a method not in capitals (quick fix)', ['error'], [], { fix: true, stage: 'parse' }),
  'unknown-method': rule('a method other than GET, POST, PUT and DELETE (§4.1)', ['error'], [], PARSE),
  'bad-target': rule('a request target that is neither a path starting with `/` nor an http(s) URL', ['error']),
  'unknown-section': rule(
    'a section other than `[query]`, `[body]`, `[json]`, `[subscribe]` and `[message]`',
    ['error'],
    [],
    PARSE,
  ),
  'ws-section': rule(
    '`[subscribe]` or `[message]` in an HTTP request, or an HTTP section in a WebSocket one',
    ['error'],
    [],
    PARSE,
  ),
  'ws-line': rule('a WebSocket request line outside `[subscribe]` and `[message]`', ['error'], [], PARSE),
  'json-twice': rule('a second `[json]` section', ['error'], [], PARSE),
  'json-and-body': rule('`[json]` and `[body]` in one request (a request has one body)', ['error'], [], PARSE),
  'json-expected': rule('something other than one JSON object under `[json]`', ['error'], [], PARSE),
  'json-unclosed': rule('a JSON body that is not closed', ['error'], [], PARSE),
  'json-trailing': rule('text after the end of the JSON body', ['error'], [], PARSE),
  'json-invalid': rule(
    'a JSON body that is not valid JSON (before or after substituting variables)',
    ['error'],
    [],
    PARSE,
  ),
  'misplaced-header': rule(
    'a header below a parameter or section (headers go under the request line)',
    ['error'],
    [],
    PARSE,
  ),
  'missing-name': rule('a parameter line without a name', ['error'], [], PARSE),
  'bad-variable': rule('a file variable not written `@name = value`', ['error'], [], PARSE),
  'misplaced-variable': rule('a file variable below the first request', ['error'], [], PARSE),
  'duplicate-variable': rule('a file variable defined twice (the later one is used)', ['warning'], [], PARSE),
  'duplicate-name': rule('two requests with the same `# @name`', ['warning'], [], PARSE),
  'misplaced-directive': rule('`# @name` above the first request', ['warning'], [], PARSE),
  'bad-directive': rule('a directive with arguments it cannot take', ['error'], [], PARSE),
  'unknown-directive': rule('an unknown `# @directive`', ['warning'], [], PARSE),
  // `# @expect` lines (docs/format.md, Expectations).
  'expect-operator': rule(
    'an unknown `# @expect` operator, or one its kind does not take (quick fix for `=`, `<>`, `Contains`…)',
    ['error'],
    [],
    {
      fix: true,
      stage: 'parse',
    },
  ),
  'expect-pattern': rule(
    'a `matches /re/` pattern RE2 cannot compile (backreferences, lookaround), too long or too costly, or with flags other than `i`, `m`, `s`',
    ['error'],
    [],
    PARSE,
  ),
  'expect-number': rule(
    'a comparison (`<`, `>=`…) with a word instead of a number, or `status`, `code`, `duration`, `count` without a whole number',
    ['error'],
    [],
    PARSE,
  ),
  'expect-path': rule(
    'a malformed `# @expect` path (an empty part, an unclosed `[`, `[x]` neither an index nor `*`)',
    ['error'],
    [],
    PARSE,
  ),
  'unclosed-variable': rule('an unclosed `{{`', ['error'], [], PARSE),
  'empty-variable': rule('an empty `{{}}`', ['error'], [], PARSE),
  // Variables (docs/format.md, Variables).
  'undefined-variable': rule(
    'an undefined variable (in the request or in a `# @expect` value); one that refers to itself or goes through more than 32 variables',
    ['error'],
  ),
  'variable-expansion': rule('a value that grows past 64 KiB (or 4 MiB for a whole request) once substituted', [
    'error',
  ]),
  'secret-in-file': rule(
    'a file variable whose name looks like a secret (`secretKey`, `password`, `token`, `apiKey`, …)',
    ['error'],
  ),
  'credential-in-request': rule(
    'a `{{NAME.response.listenKey}}` reference: a listen key goes only through `# @listenKey`, never into a request',
    ['error'],
  ),
  // Endpoints and signing (§4, §5).
  'unknown-endpoint': rule('an endpoint the catalog does not know (its parameters are not checked)', ['warning']),
  'unsigned-signed-endpoint': rule('`# @unsigned` on a signed endpoint', ['warning'], [400]),
  'signature-placement': rule('`# @signature body` without a form body', ['error']),
  'get-body': rule('a body on a GET request (§4.1 rule 2)', ['error']),
  'manual-signature': rule('a hand-written `signature`', ['error'], [700002]),
  'api-key-header': rule('an API key header written by hand', ['warning']),
  'forbidden-header': rule('a `Host`, `Connection`, `Transfer-Encoding` or other connection header', ['error']),
  'header-value': rule('a header value that is not one line of Latin-1', ['error']),
  // Parameters (§2.1, §5, docs/service.md, Assumptions).
  'missing-param': rule(
    'a parameter the endpoint or the order type needs is missing (LIMIT: quantity and price), also in an order of `batchOrders`',
    ['error'],
    [44444, 700004],
  ),
  'unknown-param': rule('a parameter the endpoint does not know', ['warning'], [33333]),
  'duplicate-param': rule('the same parameter twice in the query or twice in the body', ['warning']),
  'query-and-body': rule('the same name in query and body (the query value is used, §4.1 rule 5)', ['information']),
  'empty-value': rule('an empty value (it is signed too)', ['warning'], [44444]),
  'enum-value': rule('a value not allowed (`side = buy`; quick fix when only the case differs)', ['error'], [33333], {
    fix: true,
  }),
  'symbol-case': rule('a symbol not in upper-case letters (quick fix)', ['error', 'warning'], [10007], { fix: true }),
  decimal: rule('quantity or price not a decimal written as text', ['error'], [33333]),
  'decimal-as-text': rule('a JSON decimal written as a number instead of text', ['warning'], [33333]),
  'recv-window': rule(
    'recvWindow above 60000 (error), exactly 60000 (warning), above 5000 (information), or not a whole number',
    ['error', 'warning', 'information'],
    [700005, 33333],
  ),
  timestamp: rule('a timestamp that is not whole milliseconds', ['error'], [700003]),
  'timestamp-seconds': rule('a timestamp in seconds (quick fix)', ['error'], [700003], { fix: true }),
  'timestamp-fixed': rule('a fixed timestamp on a signed request', ['information'], [700003]),
  'client-order-id': rule('a client order id of more than 32 letters and digits', ['warning'], [700008]),
  // WebSocket requests (docs/format.md, WebSocket requests; §6, §8, docs/websocket.md).
  'ws-streams': rule('more than 30 streams in one WebSocket request (§8: the service refuses those past the 30th)', [
    'error',
  ]),
  'ws-message-rate': rule(
    'a `[message]` list that, with its SUBSCRIPTION messages, passes 100 messages a second from the client (§8: the connection is cut, and IPs cut repeatedly are banned)',
    ['error'],
  ),
  'unknown-stream': rule(
    'an unknown stream kind, or a malformed stream name (parameters, depth levels, kline interval, rate, characters; a quick fix where the right text is plain): the subscription is refused',
    ['warning'],
    [],
    { fix: true },
  ),
  'stream-deployment': rule(
    "a stream name of another deployment than the environment's (a `.pb` name under `spec`, a JSON name under `mexc`; quick fix to the equivalent name): the subscription is refused",
    ['warning'],
    [],
    { fix: true },
  ),
  'stream-symbol-case': rule(
    'a symbol in a stream name not in upper-case (quick fix): the subscription is refused',
    ['error'],
    [],
    { fix: true },
  ),
  'private-stream': rule(
    'a private stream (`spot@private.…`) without `# @listenKey`: the subscription is refused without a listen key',
    ['error'],
  ),
  'ws-directive': rule(
    'a WebSocket directive (`@listenKey`, `@listen`, `@expect message`) on an HTTP request, or an HTTP one on a WebSocket request (it is ignored)',
    ['warning'],
  ),
  // Batch orders (POST /api/v3/batchOrders, assumed).
  'batch-size': rule('a `batchOrders` list of no order or more than 20', ['error'], [730002]),
  'batch-list': rule(
    '`batchOrders` that is not a JSON list of order objects whose values are text or numbers',
    ['error'],
    [33333],
  ),
  // Data-driven requests (docs/format.md, Data files).
  'data-file': rule(
    "a `# @data` file that is missing, unreadable, outside the request file's folder, over 1 MiB, 1,000 rows or 100 columns, with a column that is not a variable name or a bad row",
    ['error'],
  ),
  // The report itself.
  'too-many-problems': rule('more than 1,000 problems in a file (one line counts the rest)', ['error', 'information']),
} as const satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;

/** The rules table of docs/guide.md, generated from RULES (`npm run docs`). */
export function rulesTable(): string {
  const rows = Object.entries(RULES).map(([id, r]: [string, RuleInfo]) => {
    const severity = r.severities.join(' / ');
    return `| \`${id}\` | ${r.problem} | ${severity} | ${r.prevents.join(', ')} |`;
  });
  return ['| rule | problem | severity | prevents |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
