import assert from 'node:assert/strict';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../../src/core/env/schema';
import type { Diagnostic, Range, Severity } from '../../../src/core/format/model';
import { parse } from '../../../src/core/format/parser';
import { lookupError } from '../../../src/core/catalog/errors';

/** Lines joined with "\n"; line numbers in the tests are 0-based indexes into these arrays. */
function text(lines: readonly string[]): string {
  return lines.join('\n') + '\n';
}

function check(lines: readonly string[], environment: NamedEnvironment = BUILTIN_SANDBOX): Diagnostic[] {
  return checkDocument(parse(text(lines)), { environment });
}

function r(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { startLine, startChar, endLine, endChar };
}

/** The four positions of a range, whatever object carries them (a token may be its own range). */
function plain(range: Range): Range {
  return r(range.startLine, range.startChar, range.endLine, range.endChar);
}

/** The text a range covers, to show in failures what a range points at. */
function textAt(lines: readonly string[], range: Range): string {
  assert.equal(range.startLine, range.endLine, 'single-line range expected');
  return lines[range.startLine]!.slice(range.startChar, range.endChar);
}

function summary(ds: readonly Diagnostic[]): string {
  return JSON.stringify(
    ds.map((d) => ({ rule: d.rule, severity: d.severity, range: plain(d.range), message: d.message })),
    null,
    2,
  );
}

interface Expected {
  readonly rule: string;
  readonly severity: Severity;
  readonly range: Range;
  /** The service error code the diagnostic prevents, when it sets one. */
  readonly prevents?: number;
  /** The text under the range. */
  readonly covers?: string;
}

/**
 * Asserts that `ds` holds exactly one diagnostic, and that it is `expected`. When the diagnostic
 * sets `prevents`, its message must name that code (and the first meaning the catalog gives it).
 */
function assertOnly(lines: readonly string[], ds: readonly Diagnostic[], expected: Expected): Diagnostic {
  assert.equal(ds.length, 1, `expected exactly one diagnostic, got ${summary(ds)}`);
  return assertDiagnostic(lines, ds[0]!, expected);
}

function assertDiagnostic(lines: readonly string[], d: Diagnostic, expected: Expected): Diagnostic {
  assert.equal(d.rule, expected.rule, summary([d]));
  assert.equal(d.severity, expected.severity, summary([d]));
  assert.deepEqual(plain(d.range), expected.range, summary([d]));
  if (expected.covers !== undefined) assert.equal(textAt(lines, d.range), expected.covers);
  assert.equal(d.prevents, expected.prevents, `prevents of ${summary([d])}`);
  assertNamesPrevented(d);
  return d;
}

function assertNamesPrevented(d: Diagnostic): void {
  if (d.prevents === undefined) return;
  assert.match(
    d.message,
    new RegExp(`(^|\\D)${d.prevents}(\\D|$)`),
    `the message should name the service error ${d.prevents} it prevents: ${d.message}`,
  );
}

/** Same as assertNamesPrevented, and the message also says what the code means. */
function assertExplainsPrevented(d: Diagnostic): void {
  assertNamesPrevented(d);
  const info = lookupError(d.prevents!);
  assert.ok(info, `${d.prevents} is in the error catalog`);
  assert.ok(
    d.message.includes(info.meanings[0]!),
    `the message should give the meaning of ${d.prevents} ("${info.meanings[0]}"): ${d.message}`,
  );
}

/** A complete, clean LIMIT order; tests change or add one line. */
const ORDER = [
  'POST /api/v3/order',
  'symbol = BTCUSDT',
  'side = BUY',
  'type = LIMIT',
  'quantity = 0.001',
  'price = 30000',
] as const;

function order(replace: Partial<Record<number, string>> = {}, ...extra: string[]): string[] {
  const lines: string[] = ORDER.map((l, i) => replace[i] ?? l);
  return [...lines, ...extra];
}

function without(name: string, lines: readonly string[] = ORDER): string[] {
  return lines.filter((l) => !l.startsWith(name + ' '));
}

describe('check step (checkDocument)', () => {
  describe('a clean request', () => {
    it('a complete LIMIT order produces no diagnostics at all', () => {
      const lines = order({}, 'recvWindow = 5000');
      assert.deepEqual(check(lines), []);
    });

    it('the example of docs/format.md (variables, split placement, JSON body, @name) produces no diagnostics', () => {
      const lines = [
        '@symbol = BTCUSDT',
        '@qty = 0.001',
        '### Buy at a limit price',
        '# @name buy',
        'POST /api/v3/order',
        'symbol = {{symbol}}',
        'side = BUY',
        'type = LIMIT',
        'quantity = {{qty}}',
        'price = 30000',
        'recvWindow = 5000',
        '### Split',
        'POST /api/v3/order',
        '[query]',
        'symbol = {{symbol}}',
        'side = BUY',
        'type = LIMIT',
        '[body]',
        'quantity = {{qty}}',
        'price = 30000',
        '### JSON',
        'POST /api/v3/order',
        '[json]',
        '{"symbol": "{{symbol}}", "side": "BUY", "type": "LIMIT", "quantity": "{{qty}}", "price": "30000"}',
      ];
      assert.deepEqual(check(lines), []);
    });
  });

  describe('endpoints and parameters', () => {
    it('unknown-endpoint: a path outside the catalog is a warning on the path', () => {
      const lines = ['POST /api/v3/nope', 'a = 1'];
      const d = assertOnly(lines, check(lines), {
        rule: 'unknown-endpoint',
        severity: 'warning',
        range: r(0, 5, 0, 17),
        covers: '/api/v3/nope',
      });
      assert.match(d.message, /not in TradeReq's endpoint catalog/);
    });

    it('unknown-endpoint: a known path with a method it does not take names the methods it does take', () => {
      const lines = ['PUT /api/v3/order', 'a = 1'];
      const d = assertOnly(lines, check(lines), {
        rule: 'unknown-endpoint',
        severity: 'warning',
        range: r(0, 4, 0, 17),
        covers: '/api/v3/order',
      });
      assert.match(d.message, /POST/);
      assert.match(d.message, /GET/);
      assert.match(d.message, /DELETE/);
    });

    it('unknown-param: a parameter the endpoint does not know is a warning on its name (prevents 33333)', () => {
      const lines = order({}, 'colour = red');
      const d = assertOnly(lines, check(lines), {
        rule: 'unknown-param',
        severity: 'warning',
        range: r(6, 0, 6, 6),
        covers: 'colour',
        prevents: 33333,
      });
      assertExplainsPrevented(d);
    });

    it('missing-param: a parameter the endpoint requires (symbol) is an error on the request line (prevents 44444)', () => {
      const lines = without('symbol');
      const d = assertOnly(lines, check(lines), {
        rule: 'missing-param',
        severity: 'error',
        range: r(0, 0, 0, 18),
        covers: 'POST /api/v3/order',
        prevents: 44444,
      });
      assert.match(d.message, /"symbol"/);
      assertExplainsPrevented(d);
    });

    it('missing-param: a LIMIT order without price is an error on the type value', () => {
      const lines = without('price');
      const d = assertOnly(lines, check(lines), {
        rule: 'missing-param',
        severity: 'error',
        range: r(3, 7, 3, 12),
        covers: 'LIMIT',
        prevents: 44444,
      });
      assert.match(d.message, /LIMIT order needs "price"/);
    });

    it('missing-param: a MARKET order without quantity or quoteOrderQty is an error on the type value', () => {
      const lines = ['POST /api/v3/order', 'symbol = BTCUSDT', 'side = BUY', 'type = MARKET'];
      const d = assertOnly(lines, check(lines), {
        rule: 'missing-param',
        severity: 'error',
        range: r(3, 7, 3, 13),
        covers: 'MARKET',
        prevents: 44444,
      });
      assert.match(d.message, /quantity or quoteOrderQty/);
      // Either one is enough.
      assert.deepEqual(check([...lines, 'quoteOrderQty = 10']), []);
      assert.deepEqual(check([...lines, 'quantity = 0.5']), []);
    });

    it('missing-param: querying an order without orderId or origClientOrderId is an error (prevents 700004)', () => {
      const lines = ['GET /api/v3/order', 'symbol = BTCUSDT'];
      const d = assertOnly(lines, check(lines), {
        rule: 'missing-param',
        severity: 'error',
        range: r(0, 0, 0, 17),
        covers: 'GET /api/v3/order',
        prevents: 700004,
      });
      assert.match(d.message, /orderId or origClientOrderId/);
      assertExplainsPrevented(d);
      assert.deepEqual(check([...lines, 'orderId = 12345']), []);
      assert.deepEqual(check([...lines, 'origClientOrderId = myOrder1']), []);
    });

    it('missing-param: cancelling an order without orderId or origClientOrderId is an error (prevents 700004)', () => {
      const lines = ['DELETE /api/v3/order', 'symbol = BTCUSDT'];
      assertOnly(lines, check(lines), {
        rule: 'missing-param',
        severity: 'error',
        range: r(0, 0, 0, 20),
        covers: 'DELETE /api/v3/order',
        prevents: 700004,
      });
    });
  });

  describe('values', () => {
    it('enum-value: a value outside the allowed set is an error on the value, without a quick fix (prevents 33333)', () => {
      const lines = order({ 2: 'side = HOLD' });
      const d = assertOnly(lines, check(lines), {
        rule: 'enum-value',
        severity: 'error',
        range: r(2, 7, 2, 11),
        covers: 'HOLD',
        prevents: 33333,
      });
      assert.match(d.message, /BUY, SELL/);
      assert.equal(d.fix, undefined);
      assertExplainsPrevented(d);
    });

    it('enum-value: a value wrong only in case (side = buy) has a quick fix to the allowed value', () => {
      const lines = order({ 2: 'side = buy' });
      const d = assertOnly(lines, check(lines), {
        rule: 'enum-value',
        severity: 'error',
        range: r(2, 7, 2, 10),
        covers: 'buy',
        prevents: 33333,
      });
      assert.deepEqual(d.fix, { title: 'Change to BUY', replacement: 'BUY' });
    });

    it('symbol-case: a lower-case symbol is an error with the quick fix btcusdt → BTCUSDT (prevents 10007)', () => {
      const lines = order({ 1: 'symbol = btcusdt' });
      const d = assertOnly(lines, check(lines), {
        rule: 'symbol-case',
        severity: 'error',
        range: r(1, 9, 1, 16),
        covers: 'btcusdt',
        prevents: 10007,
      });
      assert.deepEqual(d.fix, { title: 'Change to BTCUSDT', replacement: 'BTCUSDT' });
      assertExplainsPrevented(d);
    });

    it('symbol-case: a bad symbol from a file variable is still an error (checked on the resolved value), but without a quick fix', () => {
      const lines = ['@sym = btcusdt', ...order({ 1: 'symbol = {{sym}}' })];
      const d = assertOnly(lines, check(lines), {
        rule: 'symbol-case',
        severity: 'error',
        range: r(2, 9, 2, 16),
        covers: '{{sym}}',
        prevents: 10007,
      });
      assert.match(d.message, /"btcusdt"/);
      assert.equal(d.fix, undefined);
    });

    it('symbol-case: a bad symbol from an environment variable is still an error, without a quick fix', () => {
      const lines = order({ 1: 'symbol = {{sym}}' });
      const environment: NamedEnvironment = { ...BUILTIN_SANDBOX, variables: { sym: 'btc-usdt' } };
      const d = assertOnly(lines, check(lines, environment), {
        rule: 'symbol-case',
        severity: 'error',
        range: r(1, 9, 1, 16),
        covers: '{{sym}}',
        prevents: 10007,
      });
      assert.equal(d.fix, undefined);
    });

    it('decimal: quantity and price that are not decimal text are errors on the values (prevents 33333)', () => {
      const lines = order({ 4: 'quantity = 1,5', 5: 'price = abc' });
      const ds = check(lines);
      assert.equal(ds.length, 2, summary(ds));
      assertDiagnostic(lines, ds[0]!, {
        rule: 'decimal',
        severity: 'error',
        range: r(4, 11, 4, 14),
        covers: '1,5',
        prevents: 33333,
      });
      assertDiagnostic(lines, ds[1]!, {
        rule: 'decimal',
        severity: 'error',
        range: r(5, 8, 5, 11),
        covers: 'abc',
        prevents: 33333,
      });
    });

    it('decimal-as-text: a JSON body with a number instead of a decimal text is a warning on the number', () => {
      const lines = [
        'POST /api/v3/order',
        '[json]',
        '{"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT", "quantity": 0.5, "price": "30000"}',
      ];
      const ds = check(lines);
      assert.equal(ds.length, 1, summary(ds));
      const d = ds[0]!;
      assert.equal(d.rule, 'decimal-as-text');
      assert.equal(d.severity, 'warning');
      assert.deepEqual(plain(d.range), r(2, 66, 2, 69));
      assert.equal(textAt(lines, d.range), '0.5');
      assert.match(d.message, /"0\.5" in quotes/);
      // The same order with the decimal quoted is clean.
      assert.deepEqual(check([lines[0]!, lines[1]!, lines[2]!.replace('0.5', '"0.5"')]), []);
    });

    // decimal-as-text prevents 33333, so its message names that error, as every rule with `prevents` does.
    it('decimal-as-text: the message names the service error it prevents (33333)', () => {
      const lines = [
        'POST /api/v3/order',
        '[json]',
        '{"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT", "quantity": 0.5, "price": "30000"}',
      ];
      const d = check(lines).find((x) => x.rule === 'decimal-as-text')!;
      assert.equal(d.prevents, 33333);
      assertExplainsPrevented(d);
    });

    it('recv-window: recvWindow above 60000 is an error (prevents 700005)', () => {
      const lines = order({}, 'recvWindow = 60001');
      const d = assertOnly(lines, check(lines), {
        rule: 'recv-window',
        severity: 'error',
        range: r(6, 13, 6, 18),
        covers: '60001',
        prevents: 700005,
      });
      assertExplainsPrevented(d);
    });

    it('recv-window: recvWindow of exactly 60000 is a warning (the spec words the boundary both ways)', () => {
      const lines = order({}, 'recvWindow = 60000');
      assertOnly(lines, check(lines), {
        rule: 'recv-window',
        severity: 'warning',
        range: r(6, 13, 6, 18),
        covers: '60000',
        prevents: 700005,
      });
    });

    it('recv-window: recvWindow above the recommended 5000 is information', () => {
      const lines = order({}, 'recvWindow = 5001');
      const d = assertOnly(lines, check(lines), {
        rule: 'recv-window',
        severity: 'information',
        range: r(6, 13, 6, 17),
        covers: '5001',
      });
      assert.match(d.message, /5000 or less is recommended/);
    });

    it('recv-window: recvWindow of 5000 produces nothing', () => {
      assert.deepEqual(check(order({}, 'recvWindow = 5000')), []);
    });

    it('timestamp-seconds: a timestamp in seconds is an error with a quick fix appending 000 (prevents 700003)', () => {
      const lines = order({}, 'timestamp = 1499827319');
      const d = assertOnly(lines, check(lines), {
        rule: 'timestamp-seconds',
        severity: 'error',
        range: r(6, 12, 6, 22),
        covers: '1499827319',
        prevents: 700003,
      });
      assert.deepEqual(d.fix, { title: 'Change to milliseconds', replacement: '1499827319000' });
      assertExplainsPrevented(d);
    });

    it('manual-signature: a hand-written signature is an error on the whole line (prevents 700002)', () => {
      const lines = order({}, 'signature = c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71');
      const d = assertOnly(lines, check(lines), {
        rule: 'manual-signature',
        severity: 'error',
        range: r(6, 0, 6, 76),
        prevents: 700002,
      });
      assertExplainsPrevented(d);
    });

    it('empty-value: a parameter with an empty value is a warning on the whole line (prevents 44444)', () => {
      const lines = order({}, 'newClientOrderId =');
      const d = assertOnly(lines, check(lines), {
        rule: 'empty-value',
        severity: 'warning',
        range: r(6, 0, 6, 18),
        covers: 'newClientOrderId =',
        prevents: 44444,
      });
      assertExplainsPrevented(d);
    });

    it('query-and-body: the same name in query and body is information on the body one', () => {
      const lines = [
        'POST /api/v3/order',
        '[query]',
        'symbol = BTCUSDT',
        'side = BUY',
        'type = LIMIT',
        'quantity = 0.001',
        'price = 30000',
        '[body]',
        'symbol = ETHUSDT',
      ];
      const d = assertOnly(lines, check(lines), {
        rule: 'query-and-body',
        severity: 'information',
        range: r(8, 0, 8, 6),
        covers: 'symbol',
      });
      assert.match(d.message, /line 3/);
      assert.match(d.message, /query value/);
    });

    // With [body] above [query] the service still uses the query value (§4.1 rule 5): reported in either order.
    it('query-and-body: the same name is reported on the body one also when [body] comes before [query]', () => {
      const lines = [
        'POST /api/v3/order',
        '[body]',
        'symbol = ETHUSDT',
        '[query]',
        'symbol = BTCUSDT',
        'side = BUY',
        'type = LIMIT',
        'quantity = 0.001',
        'price = 30000',
      ];
      assertOnly(lines, check(lines), {
        rule: 'query-and-body',
        severity: 'information',
        range: r(2, 0, 2, 6),
        covers: 'symbol',
      });
    });

    // Order-type requirements read the resolved `type`, as the symbol and enum checks read resolved values.
    it('missing-param: a LIMIT order type given through a variable still needs price', () => {
      const lines = [
        '@t = LIMIT',
        'POST /api/v3/order',
        'symbol = BTCUSDT',
        'side = BUY',
        'type = {{t}}',
        'quantity = 0.001',
      ];
      assertOnly(lines, check(lines), {
        rule: 'missing-param',
        severity: 'error',
        range: r(4, 7, 4, 12),
        covers: '{{t}}',
        prevents: 44444,
      });
    });
  });

  describe('variables', () => {
    it('undefined-variable: an undefined variable is an error on the name inside the braces', () => {
      const lines = order({ 1: 'symbol = {{ sym }}' });
      const d = assertOnly(lines, check(lines), {
        rule: 'undefined-variable',
        severity: 'error',
        range: r(1, 12, 1, 15),
        covers: 'sym',
      });
      assert.match(d.message, /\{\{sym\}\}/);
    });

    it("undefined-variable: a variable defined in the environment's variables is not an error", () => {
      const lines = order({ 1: 'symbol = {{sym}}' });
      const environment: NamedEnvironment = { ...BUILTIN_SANDBOX, variables: { sym: 'BTCUSDT' } };
      assert.deepEqual(check(lines, environment), []);
    });

    it('undefined-variable: a response reference to a request named in the file is not an error', () => {
      const lines = [
        '### Buy',
        '# @name buy',
        ...ORDER,
        '### Query it',
        'GET /api/v3/order',
        'symbol = BTCUSDT',
        'orderId = {{buy.response.orderId}}',
      ];
      assert.deepEqual(check(lines), []);
    });

    it('undefined-variable: a response reference to a request name that does not exist is an error on the name', () => {
      const lines = [
        '### Buy',
        '# @name buy',
        ...ORDER,
        '### Query it',
        'GET /api/v3/order',
        'symbol = BTCUSDT',
        'orderId = {{sell.response.orderId}}',
      ];
      const d = assertOnly(lines, check(lines), {
        rule: 'undefined-variable',
        severity: 'error',
        range: r(11, 12, 11, 33),
        covers: 'sell.response.orderId',
      });
      assert.match(d.message, /"sell"/);
    });

    // Issue 34, point 2: a `# @expect` line's value resolves as the request's variables do.
    it('undefined-variable: in the value of a # @expect line, an error on the name, as in the request', () => {
      const lines = ['# @expect json symbol == {{symbl}}', ...ORDER];
      const d = assertOnly(lines, check(lines), {
        rule: 'undefined-variable',
        severity: 'error',
        range: r(0, 27, 0, 32),
        covers: 'symbl',
      });
      assert.match(d.message, /Undefined variable \{\{symbl\}\}/);
    });

    it('undefined-variable: a # @expect line reading a variable the file, the environment or a named request defines is no finding', () => {
      const lines = [
        '@symbol = BTCUSDT',
        '### Buy',
        '# @name buy',
        '# @expect json symbol == {{symbol}}',
        '# @expect json side in [{{side}}, SELL]',
        ...ORDER,
        '### Query it',
        '# @expect json orderId == {{buy.response.orderId}}',
        'GET /api/v3/order',
        'symbol = BTCUSDT',
        'orderId = 1',
      ];
      const environment: NamedEnvironment = { ...BUILTIN_SANDBOX, variables: { side: 'BUY' } };
      assert.deepEqual(check(lines, environment), []);
    });

    it('undefined-variable: a # @expect line reading the answer of a request the file does not name', () => {
      const lines = [
        '# @expect json orderId == {{sell.response.orderId}}',
        'GET /api/v3/order',
        'symbol = BTCUSDT',
        'orderId = 1',
      ];
      const d = assertOnly(lines, check(lines), {
        rule: 'undefined-variable',
        severity: 'error',
        range: r(0, 28, 0, 49),
        covers: 'sell.response.orderId',
      });
      assert.match(d.message, /"sell"/);
    });

    it("undefined-variable: a file's # @expect line is reported once, not once per request", () => {
      const lines = ['# @expect json symbol == {{symbl}}', '', '### One', ...ORDER, '### Two', ...ORDER];
      assert.deepEqual(
        check(lines).map((d) => [d.rule, d.range.startLine, d.range.startChar]),
        [['undefined-variable', 0, 27]],
      );
    });
  });

  describe('headers, sections and directives', () => {
    it('api-key-header: an API key header written by hand is a warning on the header line', () => {
      const lines = [ORDER[0], 'X-SERVICE-APIKEY: abcdef', ...ORDER.slice(1)];
      assertOnly(lines, check(lines), {
        rule: 'api-key-header',
        severity: 'warning',
        range: r(1, 0, 1, 24),
        covers: 'X-SERVICE-APIKEY: abcdef',
      });
    });

    it('api-key-header: the header the environment names (apiKeyHeader) is recognised too', () => {
      const lines = [ORDER[0], 'X-MY-KEY: abcdef', ...ORDER.slice(1)];
      assert.deepEqual(check(lines), []);
      const environment: NamedEnvironment = { ...BUILTIN_SANDBOX, apiKeyHeader: 'X-MY-KEY' };
      assertOnly(lines, check(lines, environment), {
        rule: 'api-key-header',
        severity: 'warning',
        range: r(1, 0, 1, 16),
      });
    });

    it('get-body: GET with a [body] section is an error on the first body parameter', () => {
      const lines = ['GET /api/v3/order', '[body]', 'symbol = BTCUSDT', 'orderId = 1'];
      const d = assertOnly(lines, check(lines), {
        rule: 'get-body',
        severity: 'error',
        range: r(2, 0, 2, 16),
        covers: 'symbol = BTCUSDT',
      });
      assert.match(d.message, /query string/);
    });

    it('signature-placement: `# @signature body` without a form body is an error on the directive', () => {
      const lines = [
        '# @signature body',
        'POST /api/v3/order',
        '[query]',
        'symbol = BTCUSDT',
        'side = BUY',
        'type = LIMIT',
        'quantity = 0.001',
        'price = 30000',
      ];
      assertOnly(lines, check(lines), {
        rule: 'signature-placement',
        severity: 'error',
        range: r(0, 0, 0, 17),
        covers: '# @signature body',
      });
      // With a form body it is fine.
      assert.deepEqual(check(['# @signature body', ...ORDER]), []);
    });

    // File directives (above the first `###`) apply to every request, in check as in `tradereq sign`.
    it('signature-placement: a file-level `# @signature body` without a form body is an error too', () => {
      const lines = [
        '# @signature body',
        '###',
        'POST /api/v3/order',
        '[query]',
        'symbol = BTCUSDT',
        'side = BUY',
        'type = LIMIT',
        'quantity = 0.001',
        'price = 30000',
      ];
      const ds = check(lines);
      assert.equal(ds.filter((d) => d.rule === 'signature-placement' && d.severity === 'error').length, 1, summary(ds));
    });

    it('unknown-directive: an unknown directive is a warning on its name', () => {
      const lines = ['# @frobnicate now', ...ORDER];
      const d = assertOnly(lines, check(lines), {
        rule: 'unknown-directive',
        severity: 'warning',
        range: r(0, 3, 0, 13),
        covers: 'frobnicate',
      });
      assert.match(d.message, /@frobnicate/);
    });

    it('unknown-directive: an unknown file directive is reported once, not once per request', () => {
      const lines = ['# @frobnicate', '###', ...ORDER, '###', ...ORDER];
      assertOnly(lines, check(lines), {
        rule: 'unknown-directive',
        severity: 'warning',
        range: r(0, 3, 0, 13),
        covers: 'frobnicate',
      });
    });
  });
});

describe('check step: values being typed', () => {
  it("a value with an unclosed {{ gets the parser's error only, not a symbol error", () => {
    const rules = checkDocument(parse('POST /api/v3/order\nsymbol = {{\nside = BUY\ntype = MARKET\nquantity = 1\n'), {
      environment: BUILTIN_SANDBOX,
    }).map((d) => d.rule);
    assert.deepEqual(rules, ['unclosed-variable']);
  });
});
