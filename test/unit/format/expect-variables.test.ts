/**
 * `{{variables}}` in `# @expect` lines (issue 34, point 2; src/core/format/expect-variables.ts):
 * resolved as the request's own are (file variables, `# @data` row values, chained answers,
 * environment variables) when a send judges them, into the expected value only, after the line is
 * read into its parts, so that a value from a hostile answer is compared as text and never read as
 * an operator, a list or a pattern. An undefined one stops the send as one in the request does, and
 * what a failure line shows is the resolved value.
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../../src/core/env/schema';
import type { Expectation } from '../../../src/core/format/directives';
import { parse } from '../../../src/core/format/parser';
import { defaultContext, resolveRequest, type ResolveContext } from '../../../src/core/format/resolve';
import { decodeResponse } from '../../../src/core/net/decode';
import { checkExpectations } from '../../../src/core/request/expect';

const ENV: NamedEnvironment = { ...BUILTIN_SANDBOX, variables: { quote: 'USDT', minPrice: '100' } };

/** A query of one order with `lines` as its `# @expect` lines, after `head` (file variables). */
function file(lines: readonly string[], head = '@symbol = BTCUSDT'): string {
  return [
    head,
    '',
    '### Query',
    ...lines.map((l) => `# @expect ${l}`),
    'GET /api/v3/order',
    'symbol = BTCUSDT',
    '',
  ].join('\n');
}

function resolve(text: string, extra: Partial<ResolveContext> = { expectations: true }) {
  const doc = parse(text);
  return resolveRequest(doc, doc.requests[0]!, defaultContext(ENV, extra));
}

function expectations(text: string, extra?: Partial<ResolveContext>): readonly Expectation[] {
  const r = resolve(text, extra);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.error.map((d) => d.message)));
  return r.value.options.expectations;
}

/** The expected value of a comparison, as judged. */
function wanted(e: Expectation | undefined): string | undefined {
  return e && 'check' in e && 'value' in e.check ? e.check.value.text : undefined;
}

const ORDER = { orderId: '4711', symbol: 'BTCUSDT', price: '20000', status: 'NEW' };
const chained = (body: unknown): Partial<ResolveContext> => ({
  expectations: true,
  response: (name) => (name === 'place' ? body : undefined),
});

describe('# @expect with {{variables}}: resolved into the expected value', () => {
  it('a file variable, an environment variable, a # @data row value and a chained answer each resolve', () => {
    const [a, b, c, d] = expectations(
      file([
        'json symbol == {{symbol}}',
        'json price > {{minPrice}}',
        'json side == "{{side}}"',
        'json orderId == {{place.response.orderId}}',
      ]),
      { ...chained(ORDER), variables: new Map([['side', 'SELL']]) },
    );
    assert.deepEqual([wanted(a), wanted(b), wanted(c), wanted(d)], ['BTCUSDT', '100', 'SELL', '4711']);
    assert.equal(a?.kind === 'json' && a.shown, 'json symbol == BTCUSDT');
    assert.equal(d?.kind === 'json' && d.shown, 'json orderId == 4711');
  });

  it('a row value wins over the file and the environment, as in the request', () => {
    const [e] = expectations(file(['json symbol == {{symbol}}']), {
      expectations: true,
      variables: new Map([['symbol', 'ETHUSDT']]),
    });
    assert.equal(wanted(e), 'ETHUSDT');
  });

  it('judged against the answer: passes on the right value, and a failure shows the resolved value', () => {
    const resolved = expectations(
      file(['json orderId == {{place.response.orderId}}', 'json symbol == {{symbol}}', 'json symbol != {{quote}}']),
      chained(ORDER),
    );
    const right = checkExpectations(resolved, decodeResponse(200, JSON.stringify(ORDER)));
    assert.deepEqual(
      right.map((r) => [r.text, r.passed]),
      [
        ['@expect json orderId == 4711', true],
        ['@expect json symbol == BTCUSDT', true],
        ['@expect json symbol != USDT', true],
      ],
    );
    const [wrong] = checkExpectations(resolved, decodeResponse(200, JSON.stringify({ ...ORDER, orderId: '9' })));
    assert.deepEqual(
      { text: wrong!.text, passed: wrong!.passed, expected: wrong!.diff?.expected },
      { text: '@expect json orderId == 4711', passed: false, expected: '4711' },
    );
  });

  it('a decimal resolved is compared as a decimal; one that is no number for < is bad input at its line', () => {
    const [e] = expectations(file(['json price >= {{minPrice}}']));
    const [r] = checkExpectations([e!], decodeResponse(200, JSON.stringify({ price: '100.00' })));
    assert.equal(r!.passed, true);
    const bad = resolve(file(['json price > {{quote}}']));
    assert.ok(!bad.ok);
    assert.deepEqual(
      bad.error.map((d) => [d.rule, d.range.startLine]),
      [['expect-number', 3]],
    );
    assert.match(bad.error[0]!.message, /"USDT" is not one/);
  });

  it('an undefined variable, or an answer not yet received, stops the send with the undefined-variable rule at its name', () => {
    const r = resolve(file(['json symbol == {{symbl}}', 'json orderId == {{place.response.orderId}}']));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.error.map((d) => [d.rule, d.range.startLine, d.range.startChar, d.range.endChar]),
      [
        ['undefined-variable', 3, 27, 32],
        ['undefined-variable', 4, 28, 50],
      ],
    );
    assert.match(r.error[0]!.message, /Undefined variable \{\{symbl\}\}/);
    assert.match(r.error[1]!.message, /needs a response of the request named "place"/);
  });

  it('Copy as code, Sign only: the lines stay as written, and an undefined one is no reason to refuse', () => {
    const [e] = expectations(file(['json symbol == {{symbl}}']), {});
    assert.equal(wanted(e), '{{symbl}}');
  });

  it('a hostile answer cannot write the grammar: a value with quotes, commas, brackets or an operator is text', () => {
    const hostile = { v: 'x", "BTCUSDT"] exists', w: 'BTCUSDT, ETHUSDT' };
    const [eq, list] = expectations(
      file(['json symbol == {{place.response.v}}', 'json symbol in [{{place.response.w}}, XRPUSDT]']),
      chained(hostile),
    );
    assert.equal(wanted(eq), hostile.v);
    assert.ok(list?.kind === 'json' && list.check.op === 'in');
    assert.deepEqual(
      list.check.values.map((v) => v.text),
      [hostile.w, 'XRPUSDT'],
    );
    const judged = checkExpectations([eq!, list], decodeResponse(200, JSON.stringify(ORDER)));
    assert.deepEqual(
      judged.map((r) => r.passed),
      [false, false],
      'BTCUSDT is neither the hostile text nor one of the two values',
    );
  });

  it('a pattern is never written by a variable: `matches` keeps its {{ as written', () => {
    const [e] = expectations(file(['json symbol matches /^{{nothing}}$/']));
    assert.ok(e?.kind === 'json' && e.check.op === 'matches');
    assert.equal(e.shown, undefined);
    assert.deepEqual(
      checkExpectations([e], decodeResponse(200, JSON.stringify({ symbol: '{{nothing}}' }))).map((r) => r.passed),
      [true],
    );
  });

  it('a listen key of an answer never resolves into an expectation; a value past the bound is refused', () => {
    const lk = resolve(
      file(['json listenKey == {{place.response.listenKey}}']),
      chained({ listenKey: 'abc'.repeat(20) }),
    );
    assert.ok(!lk.ok);
    assert.match(lk.error[0]!.message, /listen key, a credential/);
    assert.ok(!lk.error[0]!.message.includes('abc'.repeat(20)), 'the key is not shown');
    const big = resolve(
      file(['json note == {{place.response.note}}']),
      chained({ note: 'x'.repeat(BOUNDS.variableChars + 1) }),
    );
    assert.ok(!big.ok);
    assert.deepEqual(
      big.error.map((d) => d.rule),
      ['variable-expansion'],
    );
  });

  it('what a failure line shows of a long resolved value is bounded', () => {
    const long = 'y'.repeat(BOUNDS.messageChars * 4);
    const [e] = expectations(file(['json note == {{place.response.note}}']), chained({ note: long }));
    assert.ok(wanted(e) === long, 'compared whole');
    const [r] = checkExpectations([e!], decodeResponse(200, JSON.stringify({ note: 'z' })));
    assert.ok(r!.text.length < BOUNDS.messageChars + 100, `shown in ${r!.text.length} characters`);
  });
});
