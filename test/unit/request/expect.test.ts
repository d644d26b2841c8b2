/**
 * `# @expect` judged on an answer (src/core/request/expect.ts): every operator, decimals compared
 * exactly, `*` paths (every value passes, one at least exists, bounded), headers in any case, the
 * round trip's duration, and patterns run by RE2 in bounded time, each result saying what came.
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { readOptions } from '../../../src/core/format/directives';
import { parse } from '../../../src/core/format/parser';
import { decodeResponse } from '../../../src/core/net/decode';
import { checkExpectations, type AnswerFacts } from '../../../src/core/request/expect';

const ACCOUNT = {
  balances: [
    { asset: 'BTC', free: '0.10000000', locked: '0.00000000' },
    { asset: 'USDT', free: '1000.00000000', locked: '12.5' },
    { asset: 'ETH', free: 'abc', locked: '0' },
  ],
  permissions: ['SPOT'],
  canTrade: true,
  makerCommission: 0,
  note: null,
  fills: [],
};

/** Each `# @expect` line judged on `body` (and the answer's facts): [passed, actual]. */
function judge(body: unknown, lines: string[], facts: AnswerFacts = {}, status = 200): [boolean, string][] {
  const text = [...lines.map((l) => `# @expect ${l}`), 'GET /api/v3/account', ''].join('\n');
  const doc = parse(text);
  const o = readOptions(doc, doc.requests[0]);
  assert.deepEqual(
    o.diagnostics.map((d) => d.message),
    [],
  );
  return checkExpectations(o.options.expectations, decodeResponse(status, JSON.stringify(body)), facts).map((r) => [
    r.passed,
    r.actual,
  ]);
}

const passed = (body: unknown, lines: string[], facts?: AnswerFacts): boolean[] =>
  judge(body, lines, facts).map(([p]) => p);

describe('# @expect: judging an answer', () => {
  it('decimals compare exactly, as decimals: "0.10000000" == 0.1, < 0.1000000001, text still compares as text', () => {
    assert.deepEqual(
      passed(ACCOUNT, [
        'json balances[0].free == 0.1',
        'json balances[0].free == "0.10000000"',
        'json balances[0].free < 0.1000000001',
        'json balances[0].free > 0.0999999999999999999999',
        'json balances[0].free <= 0.1',
        'json balances[0].free >= 0.10',
        'json balances[0].free != 0.1',
        'json balances[1].locked > 12.4999999999999999999',
        'json makerCommission == 0.000',
        'json balances[0].asset == BTC',
        'json balances[0].asset != ETH',
      ]),
      [true, true, true, true, true, true, false, true, true, true, true],
    );
    // A float would say 0.1 + 0.2 == 0.30000000000000004; decimals do not.
    assert.deepEqual(passed({ p: '0.3' }, ['json p == 0.30000000000000004', 'json p < 0.30000000000000004']), [
      false,
      true,
    ]);
    assert.deepEqual(judge(ACCOUNT, ['json balances[2].free < 1']), [[false, 'balances[2].free = abc (not a number)']]);
  });

  it('contains (text, or an element of a list), startsWith, in [list], matches', () => {
    assert.deepEqual(
      passed(ACCOUNT, [
        'json balances[1].asset contains SD',
        'json permissions contains SPOT',
        'json permissions contains MARGIN',
        'json balances[1].asset startsWith US',
        'json balances[1].asset in [BTC, USDT]',
        'json balances[1].free in [1000, 2000]',
        'json balances[1].asset in ["US DT", ETH]',
        'json balances[0].free matches /^\\d+\\.\\d{8}$/',
        'json balances[0].asset matches /^btc$/i',
        'json balances[2].free matches /^\\d/',
      ]),
      [true, true, false, true, true, true, false, true, true, false],
    );
  });

  it('in [list] writes the value out once, however long the list: a lookup per value, not a pass per entry (issue 31)', () => {
    const list = Array.from({ length: BOUNDS.expectListValues }, (_, i) => `v${i}`).join(', ');
    const real = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof real>) => {
      calls++;
      return real(...args);
    }) as typeof real;
    let results: boolean[];
    try {
      // The whole answer (an object) and a list of 100 objects, each judged against the list.
      results = passed({ ...ACCOUNT, many: Array.from({ length: 100 }, () => ACCOUNT) }, [
        `json $ in [${list}]`,
        `json many[*] in [${list}]`,
      ]);
    } finally {
      JSON.stringify = real;
    }
    assert.deepEqual(results, [false, false]);
    // The answer's own text (decoding it for the test) aside, each value judged is written out once, and failed() once more.
    assert.ok(calls <= 10, `${calls} calls of JSON.stringify`);
    assert.deepEqual(
      passed({ p: '0.10000000', q: 5, r: 'NEW' }, [
        'json p in [1, 0.1, x]',
        'json p in [1e-1]',
        'json q in [5.000, 6]',
        'json q in ["5"]',
        'json r in [FILLED, NEW]',
        'json r in [new]',
        'json p in [0.10000001]',
      ]),
      [true, true, true, true, true, false, false],
    );
  });

  it('exists, not exists and the type tests; a type failure shows the value as JSON', () => {
    assert.deepEqual(
      passed(ACCOUNT, [
        'json canTrade exists',
        'json note exists',
        'json nothing not exists',
        'json canTrade not exists',
        'json balances[0].free isString',
        'json balances[0].free isDecimal',
        'json makerCommission isDecimal',
        'json makerCommission isNumber',
        'json canTrade isBoolean',
        'json note isNull',
        'json balances isArray',
        'json balances[0] isObject',
        'json balances isObject',
      ]),
      [true, true, true, false, true, true, true, true, true, true, true, true, false],
    );
    assert.deepEqual(judge(ACCOUNT, ['json balances[0].free isNumber']), [[false, 'balances[0].free = "0.10000000"']]);
  });

  it('* reaches every element: each must pass, one at least must exist; the first that fails is named', () => {
    assert.deepEqual(
      judge(ACCOUNT, [
        'json balances[*].free isDecimal',
        'json balances[*].locked isDecimal',
        'json balances.*.asset in [BTC, USDT, ETH]',
        'json fills[*].price > 0',
        'json fills[*] not exists',
        'json balances[*].asset exists',
      ]),
      [
        [false, 'balances[2].free = "abc"'],
        [true, '3 values at balances[*].locked, each as expected'],
        [true, '3 values at balances.*.asset, each as expected'],
        [false, 'no value at fills[*].price'],
        [true, 'no value at fills[*]'],
        [true, '3 values at balances[*].asset'],
      ],
    );
  });

  it('count: the length of a list, or how many values a * path reaches; $ is the whole answer', () => {
    assert.deepEqual(
      judge(ACCOUNT, [
        'json balances count 3',
        'json balances count > 2',
        'json fills count == 0',
        'json balances[*].asset count <= 2',
        'json canTrade count 1',
      ]),
      [
        [true, 'balances count 3'],
        [true, 'balances count 3'],
        [true, 'fills count 0'],
        [false, 'balances[*].asset count 3'],
        [false, 'canTrade = true, not an array'],
      ],
    );
    assert.deepEqual(passed([1, 2], ['json $ count 2', 'json $ isArray', 'json $[1] == 2']), [true, true, true]);
  });

  it('a * path that reaches more values than the bound fails, saying so, without walking the rest', () => {
    const list = Array.from({ length: BOUNDS.expectValues + 1 }, (_, i) => ({ p: String(i) }));
    const [[ok, actual]] = judge({ list }, ['json list[*].p isDecimal']) as [[boolean, string]];
    assert.equal(ok, false);
    assert.match(actual, /^list\[\*\]\.p reaches more than 1,000 values \(TradeReq checks at most 1,000\)$/);
    const nested = Array.from({ length: 40 }, () => Array.from({ length: 40 }, () => 1));
    assert.match(judge({ nested }, ['json nested[*][*] isNumber'])[0]![1], /reaches more than 1,000 values/);
  });

  it('status and code with operators; code != N passes on an answer without an error code', () => {
    const ok = decodeResponse(200, '{}');
    const rejected = decodeResponse(400, '{"code": 700003, "msg": "Timestamp outside recvWindow"}');
    const doc = parse('# @expect status < 300\n# @expect status >= 400\n# @expect code != 700003\nGET /x\n');
    const expectations = readOptions(doc, doc.requests[0]).options.expectations;
    assert.deepEqual(
      [ok, rejected].map((d) => checkExpectations(expectations, d).map((r) => r.passed)),
      [
        [true, false, true],
        [false, true, false],
      ],
    );
  });

  it('header NAME in any case, with every value operator; duration is the round trip as the report measured it', () => {
    const facts = {
      headers: { 'content-type': 'application/json', 'x-service-used-weight-10s': '12' },
      durationMs: 231.4,
    };
    assert.deepEqual(
      judge(
        {},
        [
          'header Content-Type contains json',
          'header CONTENT-TYPE == application/json',
          'header x-service-used-weight-10s < 100',
          'header x-service-used-weight-10s > 100',
          'header Retry-After not exists',
          'header Retry-After exists',
          'duration < 1000',
          'duration < 200',
          'duration >= 1s',
        ],
        facts,
      ),
      [
        [true, 'content-type = application/json'],
        [true, 'content-type = application/json'],
        [true, 'x-service-used-weight-10s = 12'],
        [false, 'x-service-used-weight-10s = 12'],
        [true, 'no value at retry-after'],
        [false, 'no value at retry-after'],
        [true, '231 ms'],
        [false, '231 ms'],
        [false, '231 ms'],
      ],
    );
  });

  it('a failed == on one value carries both texts for a side-by-side view; no answer fails every check', () => {
    const doc = parse('# @expect json symbol == ETHUSDT\n# @expect duration < 10\nGET /x\n');
    const expectations = readOptions(doc, doc.requests[0]).options.expectations;
    const [r] = checkExpectations(expectations, decodeResponse(200, '{"symbol":"BTCUSDT"}'));
    assert.deepEqual(r, {
      text: '@expect json symbol == ETHUSDT',
      passed: false,
      actual: 'symbol = BTCUSDT',
      diff: { expected: 'ETHUSDT', actual: 'BTCUSDT' },
    });
    assert.deepEqual(
      checkExpectations(expectations, undefined).map((x) => [x.passed, x.actual]),
      [
        [false, 'no response'],
        [false, 'no response'],
      ],
    );
  });

  it('patterns run in linear time: /(a+)+$/ on 16,383 "a"s and a "b" fails at once; longer text is not matched', () => {
    const subject = 'a'.repeat(BOUNDS.patternSubjectChars - 1) + 'b';
    const start = process.hrtime.bigint();
    const results = passed({ s: subject }, [
      'json s matches /(a+)+$/',
      'json s matches /^(a|a)*$/',
      'json s matches /a+b$/',
    ]);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    assert.deepEqual(results, [false, false, true]);
    // A backtracking engine would not end here in a lifetime; RE2 takes milliseconds (the ceiling is for busy machines).
    assert.ok(ms < 2_000, `${ms} ms`);
    const [[ok, actual]] = judge({ s: 'a'.repeat(BOUNDS.patternSubjectChars + 1) }, ['json s matches /a/']) as [
      [boolean, string],
    ];
    assert.equal(ok, false);
    assert.match(actual, /\(16385 characters; a pattern is matched against at most 16384\)$/);
  });

  it('the text one expectation matches in all is bounded: past it, the rest of a * path is not matched', () => {
    const chunk = 'x'.repeat(BOUNDS.patternSubjectChars);
    const list = Array.from({ length: BOUNDS.patternSubjectTotalChars / chunk.length + 1 }, () => chunk);
    const [[ok, actual]] = judge({ list }, ['json list[*] matches /x/']) as [[boolean, string]];
    assert.equal(ok, false);
    assert.match(
      actual,
      /^list\[16\] = x+… .*\(past the 262144 characters one expectation matches in all; nothing more was matched\)$/,
    );
  });
});
