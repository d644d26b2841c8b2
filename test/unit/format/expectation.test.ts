/**
 * The `# @expect` language (src/core/format/expectation.ts): each form read into its check, with
 * the range of each part; today's forms read as before; what is wrong is a diagnostic of its own
 * rule, on the part that is wrong, saying how to write it (a fix for near misses).
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { readOptions } from '../../../src/core/format/directives';
import { parsePath, readExpectationLine, type ExpectationLine } from '../../../src/core/format/expectation';
import type { Range } from '../../../src/core/format/model';
import { parse } from '../../../src/core/format/parser';
import { cpuTime } from '../../support/cpu-time';

/** A line that carries a check (every kind but `snapshot`). */
function line(args: string): Exclude<ExpectationLine, { kind: 'snapshot' }> {
  const r = readExpectationLine(args);
  assert.ok(r.ok, `${args}: ${r.ok ? '' : r.error.message}`);
  assert.notEqual(r.value.kind, 'snapshot');
  return r.value as Exclude<ExpectationLine, { kind: 'snapshot' }>;
}

const at = (r: Range | undefined): string => (r ? `${r.startLine}:${r.startChar}-${r.endLine}:${r.endChar}` : 'none');

/** The request's options and diagnostics for `# @expect ARGS` above a GET. */
function options(...expects: string[]) {
  const text = [...expects.map((e) => `# @expect ${e}`), 'GET /api/v3/account', ''].join('\n');
  const doc = parse(text);
  return readOptions(doc, doc.requests[0]);
}

describe('# @expect: the grammar', () => {
  it("today's forms read as before: status N, code N, json PATH == VALUE (also PATH==VALUE), message PATH == VALUE", () => {
    assert.deepEqual(
      ['status 200', 'code -1121', 'json a.b[0] == x y', 'json a==b', 'json a ==', 'message d.s == "BTCUSDT"'].map(
        (a) => {
          const l = line(a);
          return [l.kind, l.check.op, 'value' in l.check ? l.check.value.text : '', 'path' in l ? l.path : ''];
        },
      ),
      [
        ['status', '==', '200', ''],
        ['code', '==', '-1121', ''],
        ['json', '==', 'x y', 'a.b[0]'],
        ['json', '==', 'b', 'a'],
        ['json', '==', '', 'a'],
        ['message', '==', 'BTCUSDT', 'd.s'],
      ],
    );
  });

  it('every operator: comparisons, contains, startsWith, matches, in, exists, not exists, type tests, count', () => {
    const ops = [
      'json p != 1',
      'json p < 0.1',
      'json p <= 1',
      'json p > -2',
      'json p >= 1e-7',
      'json s contains FILL',
      'json s startsWith BTC',
      'json s matches /^[A-Z]+USDT$/i',
      'json s in [NEW, FILLED, "PARTIALLY FILLED"]',
      'json s exists',
      'json s not exists',
      'json s isString',
      'json s isNumber',
      'json s isDecimal',
      'json s isBoolean',
      'json s isNull',
      'json s isArray',
      'json s isObject',
      'json fills count > 0',
      'json fills count 3',
      'status >= 400',
      'code != 700003',
      'duration < 1500',
      'header Content-Type contains json',
      'header X-Missing not exists',
    ].map((a) => line(a).check.op);
    assert.deepEqual(ops, [
      '!=', '<', '<=', '>', '>=', 'contains', 'startsWith', 'matches', 'in', 'exists', 'not exists',
      'isString', 'isNumber', 'isDecimal', 'isBoolean', 'isNull', 'isArray', 'isObject', 'count', 'count',
      '>=', '!=', '<', 'contains', 'not exists',
    ]); // prettier-ignore
    const list = line('json s in [NEW, FILLED, "PARTIALLY FILLED", "a, b"]').check;
    assert.deepEqual(list.op === 'in' && list.values.map((v) => v.text), ['NEW', 'FILLED', 'PARTIALLY FILLED', 'a, b']);
    const count = line('json fills count 3').check;
    assert.deepEqual(count.op === 'count' && [count.comparison, count.count.text], ['==', '3']);
    const header = line('header Content-Type contains json');
    assert.equal(header.kind === 'header' && header.name, 'content-type', 'header names are case-insensitive');
  });

  it('duration in milliseconds, 500ms or 2s; numbers written as decimals are kept exactly', () => {
    const ms = (a: string) => {
      const l = line(a);
      return l.kind === 'duration' ? l.ms : undefined;
    };
    assert.deepEqual([ms('duration < 1000'), ms('duration <= 500ms'), ms('duration > 2s')], [1000, 500, 2000]);
    const c = line('json price < 0.10000000').check;
    assert.deepEqual(c.op === '<' && c.value.decimal, { units: 10000000n, scale: 8 });
  });

  it('each part has its range: kind, path, operator (not exists whole), operand', () => {
    const doc = parse('# @expect json balances[*].free not exists\n# @expect json p matches /a/i\nGET /x\n');
    const [a, b] = readOptions(doc, doc.requests[0]).options.expectations;
    assert.deepEqual(
      [a!.parts.kind, a!.parts.subject, a!.parts.operator].map((t) => [t?.text, at(t?.range)]),
      [
        ['json', '0:10-0:14'],
        ['balances[*].free', '0:15-0:31'],
        ['not exists', '0:32-0:42'],
      ],
    );
    assert.deepEqual([b!.parts.operand?.text, at(b!.parts.operand?.range)], ['/a/i', '1:25-1:29']);
  });

  it('paths: a.b[0].c, a.b.0.c, [*] and .* over every element, $ for the whole answer', () => {
    const steps = (p: string) => {
      const r = parsePath(p);
      return r.ok ? r.value.map((s) => (typeof s === 'string' ? s : '*')) : r.error;
    };
    assert.deepEqual(steps('a.b[0].c'), ['a', 'b', '0', 'c']);
    assert.deepEqual(steps('a.b.0.c'), ['a', 'b', '0', 'c']);
    assert.deepEqual(steps('balances[*].free'), ['balances', '*', 'free']);
    assert.deepEqual(steps('fills.*.price'), ['fills', '*', 'price']);
    assert.deepEqual(steps('$'), []);
    assert.deepEqual(steps('$.symbols[0]'), ['symbols', '0']);
    assert.deepEqual(steps('$[1]'), ['1']);
    for (const bad of ['a..b', 'a.', 'a[', 'a[x]', 'a]', 'a[0]b', '.a'])
      assert.match(steps(bad) as string, /^The path ".*" .*: write member names separated by/, bad);
  });
});

describe('# @expect: diagnostics, each of its rule, on the part that is wrong', () => {
  const cases: [string, string, string, RegExp][] = [
    // line, rule, range (on `# @expect ` + args), message
    [
      'json price = 1',
      'expect-operator',
      '0:21-0:22',
      /Unknown operator "=" for `json`: did you mean ==\? The operators of `json` are ==, !=, <, <=, >, >=, contains, startsWith, matches, in, exists, not exists, isString/,
    ],
    ['json x like a', 'expect-operator', '0:17-0:21', /Unknown operator "like" for `json`\. The operators/],
    [
      'header x isDecimal',
      'expect-operator',
      '0:19-0:28',
      /The operators of `header` are ==, !=, <, <=, >, >=, contains, startsWith, matches, in, exists, not exists\.$/,
    ],
    ['code < 5', 'expect-operator', '0:15-0:16', /The operators of `code` are ==, !=\./],
    [
      'json x matches /(a)\\1/',
      'expect-pattern',
      '0:25-0:32',
      /RE2 cannot compile this pattern \(invalid escape sequence: `\\1`\)\. .*no backreferences/,
    ],
    ['json x matches /(?=a)b/', 'expect-pattern', '0:25-0:33', /RE2 cannot compile .*no lookaround/],
    ['json x matches /a/g', 'expect-pattern', '0:25-0:29', /The flags after a pattern are i, m and s/],
    ['json x matches a+', 'expect-pattern', '0:25-0:27', /Write the pattern between slashes/],
    [
      `json x matches /${'a'.repeat(513)}/`,
      'expect-pattern',
      '0:25-0:540',
      /513 characters long: TradeReq takes at most 512/,
    ],
    [
      'json x matches /.{200}.{200}/',
      'expect-pattern',
      '0:25-0:39',
      /too costly to match: its repeats make up to 402 RE2 instructions, TradeReq allows 300/,
    ],
    [
      'json price < abc',
      'expect-number',
      '0:23-0:26',
      /`<` compares numbers, and "abc" is not one: write a number such as 100/,
    ],
    ['json fills count many', 'expect-number', '0:27-0:31', /`count` takes a whole number, not "many"/],
    ['status ok', 'expect-number', '0:17-0:19', /`status` takes a whole number: write `# @expect status 200`/],
    ['duration < soon', 'expect-number', '0:21-0:25', /`duration` takes a whole number of milliseconds/],
    ['json a..b == 1', 'expect-path', '0:15-0:19', /The path "a\.\.b" has an empty part/],
    ['json a[x] exists', 'expect-path', '0:15-0:19', /has \[x\], neither an index nor \*/],
    ['json x in a, b', 'bad-directive', '0:20-0:24', /Write `in \[a, b, "c d"\]`/],
    ['json x exists 1', 'bad-directive', '0:24-0:25', /`exists` takes no value: remove "1"/],
  ];
  for (const [args, rule, range, message] of cases)
    it(`${args.length > 40 ? args.slice(0, 40) + '…' : args}: ${rule}`, () => {
      const o = options(args);
      assert.equal(o.diagnostics.length, 1);
      const d = o.diagnostics[0]!;
      assert.deepEqual([d.rule, d.severity, at(d.range)], [rule, 'error', range]);
      assert.match(d.message, message);
      assert.equal(
        o.options.expectations.length,
        0,
        'a line that is wrong checks nothing (and the request is not sent)',
      );
    });

  it('a near miss carries its fix: = is ==, <> is !=, Contains is contains, count = 3 is count == 3', () => {
    const fixes = ['json a = 1', 'json a <> 1', 'json a Contains b', 'json a count = 3', 'json a like b'].map(
      (a) => options(a).diagnostics[0]?.fix?.replacement,
    );
    assert.deepEqual(fixes, ['==', '!=', 'contains', '==', undefined]);
  });

  it('a line with no operator, or an unknown kind, is a bad-directive on the whole line, listing the forms', () => {
    for (const a of ['json price', 'status', 'jsn a == 1', '']) {
      const d = options(a).diagnostics[0]!;
      assert.equal(d.rule, 'bad-directive', a);
      assert.equal(at(d.range), `0:0-0:${`# @expect ${a}`.trimEnd().length}`, a);
      assert.match(d.message, /^Write `# @expect /, a);
    }
  });

  it('a {{variable}} after < is read: a send decides once it is substituted (format/expect-variables.ts); a word is still no number', () => {
    assert.deepEqual(options('json price < {{max}}').diagnostics, []);
    assert.equal(options('json price < max').diagnostics[0]?.rule, 'expect-number');
    assert.equal(options('json price < {{max').diagnostics[0]?.rule, 'expect-number');
  });
});

describe('# @expect … in [list]: read in one pass, bounded (issue 31)', () => {
  const values = (args: string): string[] | string => {
    const r = readExpectationLine(args);
    if (!r.ok) return r.error.message;
    const check = r.value.kind === 'snapshot' ? undefined : r.value.check;
    return check?.op === 'in' ? check.values.map((v) => v.text) : 'not a list';
  };

  it('values bare (spaces inside kept, ends trimmed) or JSON strings (commas, brackets, escapes); an empty value or a stray quote is no list', () => {
    assert.deepEqual(values('json s in [ NEW ,FILLED,  "a, b" , "x]y", "q\\"u", PARTIALLY FILLED ]'), [
      'NEW',
      'FILLED',
      'a, b',
      'x]y',
      'q"u',
      'PARTIALLY FILLED',
    ]);
    assert.deepEqual(values('json s in ["\\u00e9"]'), ['é']);
    for (const bad of [
      'json s in []',
      'json s in [a,,b]',
      'json s in [a, ]',
      'json s in [,a]',
      'json s in [a"b]',
      'json s in ["a" b]',
      'json s in ["a]',
      'json s in [a[b]',
      'json s in ["\\x"]',
    ])
      assert.match(values(bad) as string, /^Write `in \[a, b, "c d"\]`/, bad);
  });

  it('a hostile line is read in time linear in its length: 4 KiB and 32 KiB of spaces before a stray quote', function () {
    this.timeout(120_000);
    for (const n of [4 * 1024, BOUNDS.expectListChars - 2]) {
      const { value, ms } = cpuTime(() => values(`json s in [${' '.repeat(n)}"]`));
      assert.match(value as string, /^Write `in \[a, b, "c d"\]`/);
      // A backtracking reader took minutes on 4 KiB (cubic); one pass takes a millisecond (the ceiling is for busy machines).
      assert.ok(ms < 500, `${n} characters: ${Math.round(ms)} ms of CPU time`);
    }
  });

  it(`at most ${BOUNDS.expectListValues.toLocaleString('en-US')} values and ${BOUNDS.expectListChars / 1024} KiB between the brackets: past either, the line says so`, () => {
    const list = (n: number): string => `json s in [${Array.from({ length: n }, (_, i) => i).join(',')}]`;
    assert.equal((values(list(BOUNDS.expectListValues)) as string[]).length, BOUNDS.expectListValues);
    assert.match(
      values(list(BOUNDS.expectListValues + 1)) as string,
      /^The list holds more than 1000 values: TradeReq compares with at most 1000\./,
    );
    const long = `json s in ["${'x'.repeat(BOUNDS.expectListChars)}"]`;
    assert.match(values(long) as string, /^The list is 32770 characters long: TradeReq reads at most 32 KiB\./);
    const d = options(list(100_000)).diagnostics[0]!;
    assert.deepEqual([d.rule, at(d.range)], ['bad-directive', `0:20-0:${20 + list(100_000).length - 10}`]);
  });
});
