/**
 * Issue 31, point 4: JSON from outside nested 10,000 levels deep, through every reader of the core
 * that walks it. JSON.parse reads it (it does not recurse); everything after it either walks it
 * without recursion or stops at BOUNDS.prettyJsonDepth: nothing throws RangeError, and a value too
 * deep to write out is never written into a request in place of itself.
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { answerPaths } from '../../../src/core/editor/expectation-help';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { credentialsIn } from '../../../src/core/format/credentials';
import { readOptions } from '../../../src/core/format/directives';
import { jsonOrText, nestsDeeperThan, prettyBody, textNestsDeeperThan } from '../../../src/core/format/json-value';
import { parse } from '../../../src/core/format/parser';
import { defaultContext, resolveRequest } from '../../../src/core/format/resolve';
import { decodeResponse } from '../../../src/core/net/decode';
import { checkExpectations } from '../../../src/core/request/expect';
import { hideListenKeys } from '../../../src/core/request/listen-keys';
import { maskVolatile } from '../../../src/core/testing/mask';
import { checkMessageExpectations } from '../../../src/core/ws/expect';

const LEVELS = 10_000;
const LISTEN_KEY = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';
/** An order's answer with a listen key and a member nested LEVELS deep (objects and lists in turn). */
const TEXT = `{"orderId":42,"listenKey":"${LISTEN_KEY}","x":${'{"a":['.repeat(LEVELS / 2)}1${']}'.repeat(LEVELS / 2)}}`;
const parsed = (): unknown => JSON.parse(TEXT) as unknown;

describe('JSON nested 10,000 deep from outside, through every reader (issue 31)', () => {
  it('its depth is found without recursion, from the value or from the text (a bracket in a string is text)', () => {
    assert.equal(nestsDeeperThan(parsed(), BOUNDS.prettyJsonDepth), true);
    assert.equal(textNestsDeeperThan(TEXT, BOUNDS.prettyJsonDepth), true);
    assert.equal(textNestsDeeperThan(`{"a":"${'['.repeat(LEVELS)}"}`, BOUNDS.prettyJsonDepth), false);
    assert.equal(textNestsDeeperThan(`{"a":"\\"${'['.repeat(LEVELS)}"}`, BOUNDS.prettyJsonDepth), false);
    const edge = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
    assert.deepEqual(
      [BOUNDS.prettyJsonDepth, BOUNDS.prettyJsonDepth + 1].map((n) => [
        textNestsDeeperThan(edge(n), BOUNDS.prettyJsonDepth),
        nestsDeeperThan(JSON.parse(edge(n)), BOUNDS.prettyJsonDepth),
      ]),
      [
        [false, false],
        [true, true],
      ],
    );
  });

  it('shown as the text received; its listen key found and masked; its paths offered; masked for a snapshot', () => {
    assert.equal(prettyBody(parsed(), TEXT), TEXT);
    assert.equal(jsonOrText(parsed(), TEXT), TEXT);
    assert.deepEqual(credentialsIn(parsed()), [LISTEN_KEY]);
    assert.ok(!hideListenKeys(TEXT, credentialsIn(parsed())).includes(LISTEN_KEY));
    assert.deepEqual(
      answerPaths(parsed())
        .slice(0, 3)
        .map((p) => p.path),
      ['orderId', 'listenKey', 'x'],
    );
    const masked = maskVolatile(parsed());
    assert.deepEqual(masked.paths, ['orderId', 'listenKey']);
  });

  it('# @expect on it and on its pushes: each judged, the deep value said to be too deep to write out', () => {
    const text = ['json orderId in [41, 42]', 'json x in [1]', 'json x isObject', 'json x == 1', 'json x.a count > 0']
      .map((l) => `# @expect ${l}`)
      .join('\n');
    const doc = parse(`${text}\nGET /api/v3/order\n`);
    const results = checkExpectations(
      readOptions(doc, doc.requests[0]).options.expectations,
      decodeResponse(200, TEXT),
    );
    assert.deepEqual(
      results.map((r) => r.passed),
      [true, false, true, false, true],
    );
    assert.match(results[1]!.actual, /^x = \(a JSON value nested too deeply to write out\)$/);
    const pushes = checkMessageExpectations(
      [{ path: 'orderId', value: '42', text: 'message x in [1, 2]' }],
      [parsed()],
    );
    assert.equal(pushes[0]!.passed, false);
  });

  it('{{buy.response.x}} of an answer nested too deeply is refused, never sent as a note in its place; a shallow field of it resolves', () => {
    const doc = parse(
      '### a\nGET /api/v3/order?orderId={{buy.response.orderId}}&symbol=BTCUSDT\n\n### b\nGET /api/v3/order?x={{buy.response.x}}&symbol=BTCUSDT\n',
    );
    const ctx = defaultContext(BUILTIN_SANDBOX, { response: (name) => (name === 'buy' ? parsed() : undefined) });
    const shallow = resolveRequest(doc, doc.requests[0]!, ctx);
    assert.ok(shallow.ok, shallow.ok ? '' : shallow.error.map((d) => d.message).join('; '));
    assert.deepEqual(
      shallow.value.params.map((p) => `${p.name}=${p.value}`),
      ['orderId=42', 'symbol=BTCUSDT'],
    );
    const deep = resolveRequest(doc, doc.requests[1]!, ctx);
    assert.ok(!deep.ok, 'a request with the deep value is not made');
    assert.match(
      deep.error.map((d) => d.message).join('\n'),
      /The field x of the last response of "buy" nests deeper than 256 levels: TradeReq does not write it into a request/,
    );
  });
});
