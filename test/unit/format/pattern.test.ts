/**
 * What `# @expect … matches` patterns cost (src/core/format/pattern.ts), issue 31: the cost of a
 * pattern is estimated from its text before RE2 compiles it (an upper bound of its program), a
 * pattern too costly is refused without compiling, and one file compiles at most
 * BOUNDS.patternsPerFile patterns and BOUNDS.patternCostPerFile of cost, the same whichever of its
 * requests is read. Counted in compiles, never timed: re2js's own compile is wrapped to count.
 */
import assert from 'node:assert/strict';
import type * as Re2 from 're2js';
import { BOUNDS } from '../../../src/core/bounds';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { readOptions } from '../../../src/core/format/directives';
import { parse } from '../../../src/core/format/parser';
import { compilePattern, patternCost } from '../../../src/core/format/pattern';

const { RE2JS } = require('re2js') as typeof Re2;

/** How many times RE2 compiled a pattern while `work` ran, and what it returned. */
function compiles<T>(work: () => T): { value: T; compiled: number } {
  const original = Object.getOwnPropertyDescriptor(RE2JS, 'compile')!;
  const real = RE2JS.compile.bind(RE2JS);
  let compiled = 0;
  RE2JS.compile = (...args: Parameters<typeof real>) => {
    compiled++;
    return real(...args);
  };
  try {
    return { value: work(), compiled };
  } finally {
    Object.defineProperty(RE2JS, 'compile', original);
  }
}

/** A suffix no other test used: compiled patterns are kept between tests. */
let runs = 0;
const fresh = (): string => `z${Date.now()}q${++runs}`;

/** A request file of one request per pattern, each `# @expect json s matches /PATTERN/`. */
function fileOf(patterns: readonly string[]): string {
  return patterns.map((p, i) => `### r${i}\n# @expect json s matches /${p}/\nGET /api/v3/time\n`).join('\n');
}

describe('# @expect … matches: the cost of a pattern, bounded before it is compiled (issue 31)', function () {
  this.timeout(60_000);

  it('a pattern whose repeats make too large a program is refused from its text alone: RE2 never compiles it', () => {
    const n = fresh();
    const costly = [`.{200}.{200}${n}`, `(?i)\\pL{1000}${n}`, `(a|b|c|d){1000}${n}`, `((a{30}){30}){30}${n}`];
    const { value, compiled } = compiles(() => costly.map((p) => compilePattern(p, 'i')));
    assert.equal(compiled, 0, 'no pattern was compiled');
    for (const r of value) {
      assert.ok(!r.ok);
      assert.match(
        r.error,
        /^This pattern is too costly to match: its repeats make up to \d+\+? RE2 instructions, TradeReq allows 300\./,
      );
    }
    const fine = compiles(() => compilePattern(`^\\d+\\.\\d{8}$${n}`, ''));
    assert.deepEqual([fine.value.ok, fine.compiled], [true, 1]);
  });

  it("the estimate is never below RE2's program: 5,000 patterns of every construct, drawn from a fixed seed", () => {
    const pieces = ['a', 'b', '(', ')', '|', '*', '+', '?', '{2}', '{1,3}', '{0,}', '{0}', '{3,}', '[a-z]', '[^]a]',
      '\\d', '\\pL', '\\p{Greek}', '\\x{41}', '\\Q', '\\E', '.', '(?:', '(?i)', '(?P<n>', '^', '$', '()', '[[:alpha:]]']; // prettier-ignore
    let seed = 31;
    const next = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    let checked = 0;
    for (let k = 0; k < 5_000; k++) {
      let p = '';
      for (let j = 1 + next(12); j > 0; j--) p += pieces[next(pieces.length)];
      let size: number;
      try {
        size = RE2JS.compile(p).programSize();
      } catch {
        continue; // RE2 refuses it: compilePattern says why
      }
      checked++;
      assert.ok(patternCost(p).instructions >= size, `${p}: estimated ${patternCost(p).instructions}, RE2 ${size}`);
    }
    assert.ok(checked > 1_000, `${checked} patterns compiled`);
    assert.deepEqual(
      ['^[A-Z]+USDT$', '.{200}.{200}', '(?i)\\pL{290}', '\\pL[\\pN\\p{Han}]x'].map((p) => {
        const c = patternCost(p);
        return [c.instructions, c.unicodeClasses, RE2JS.compile(p).programSize()];
      }),
      [
        [11, 0, 10],
        [402, 0, 402],
        [292, 1, 292],
        [5, 3, 5],
      ],
    );
  });

  it(`a file compiles at most ${BOUNDS.patternsPerFile} different patterns: the rest are refused uncompiled, and checking it again compiles none`, () => {
    const n = fresh();
    const patterns = Array.from({ length: 2_000 }, (_, i) => `^x${i}${n}$`);
    const text = fileOf(patterns);
    const first = compiles(() => checkDocument(parse(text), { environment: BUILTIN_SANDBOX }));
    assert.equal(first.compiled, BOUNDS.patternsPerFile);
    const past = first.value.filter((d) => d.rule === 'expect-pattern');
    assert.equal(past.length, BOUNDS.diagnosticsPerFile, 'the first 1,000 problems of the 1,744 are reported');
    assert.match(
      past[0]!.message,
      /^This file's patterns cost more to compile than TradeReq allows one file \(256 different patterns, a cost of 32,768 in all\), and this one is past it/,
    );
    assert.equal(past[0]!.range.startLine, 1 + 4 * BOUNDS.patternsPerFile, 'the first pattern past the budget');
    // The editor checks the file again on each edit, a new parse each time: the patterns admitted are compiled already.
    assert.equal(compiles(() => checkDocument(parse(text), { environment: BUILTIN_SANDBOX })).compiled, 0);
  });

  it(`and at most a cost of ${BOUNDS.patternCostPerFile.toLocaleString('en-US')}: some 120 patterns of about 270 instructions, then none`, () => {
    const n = fresh();
    const patterns = Array.from(
      { length: 200 },
      (_, i) => `a{${240 + (i % 10)}}${n}${String.fromCharCode(97 + (i % 26))}${i}`,
    );
    const costs = patterns.map((p) => patternCost(p).instructions);
    let admitted = 0;
    for (let spent = 0; spent + costs[admitted]! <= BOUNDS.patternCostPerFile; admitted++) spent += costs[admitted]!;
    const { value, compiled } = compiles(() =>
      checkDocument(parse(fileOf(patterns)), { environment: BUILTIN_SANDBOX }),
    );
    assert.equal(compiled, admitted);
    assert.ok(admitted > 100 && admitted < 140, `${admitted} admitted`);
    assert.equal(value.filter((d) => d.rule === 'expect-pattern').length, patterns.length - admitted);
  });

  it('a pattern past the budget is refused whichever request is read: a send of the last request alone says what the check says', () => {
    const n = fresh();
    const patterns = Array.from({ length: BOUNDS.patternsPerFile + 1 }, (_, i) => `^y${i}${n}$`);
    const doc = parse(fileOf(patterns));
    const { value, compiled } = compiles(() => readOptions(doc, doc.requests[BOUNDS.patternsPerFile]));
    assert.equal(compiled, 0);
    assert.deepEqual(
      value.diagnostics.map((d) => d.rule),
      ['expect-pattern'],
    );
    assert.equal(value.options.expectations.length, 0, 'the request is not sent');
    const firstOnly = readOptions(doc, doc.requests[0]);
    assert.deepEqual([firstOnly.diagnostics.length, firstOnly.options.expectations.length], [0, 1]);
  });
});
