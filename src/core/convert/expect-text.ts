/**
 * The text of the `# @expect` lines the importers write (docs/format.md, Checks from other tools):
 * a check read from Postman or httpYac, as a subject (status, duration, a JSON path, a header) and
 * a test, becomes one line of the assertion language, or a reason why it has none.
 */
import { err, ok, type Result } from '../result';
import { compilePattern } from '../format/pattern';

/** A literal of the source: a string, or a number, boolean or null already written as JSON writes it. */
export type Literal =
  { readonly kind: 'string'; readonly value: string } | { readonly kind: 'json'; readonly text: string };

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
const COMPARE_OPS: readonly string[] = ['==', '!=', '<', '<=', '>', '>='];

/** What a check asks of the value its subject reads. */
export type Test =
  | { readonly op: CompareOp | 'contains' | 'startsWith'; readonly value: Literal }
  | { readonly op: 'matches'; readonly source: string; readonly flags: string }
  | { readonly op: 'in'; readonly values: readonly Literal[] }
  | {
      readonly op: 'exists' | 'not exists' | 'isString' | 'isNumber' | 'isBoolean' | 'isNull' | 'isArray' | 'isObject';
    }
  | { readonly op: 'count'; readonly compare: CompareOp; readonly n: number };

export type Subject =
  | { readonly kind: 'status' }
  | { readonly kind: 'duration' }
  | { readonly kind: 'json'; readonly path: string }
  | { readonly kind: 'header'; readonly name: string };

/** A JSON number as the assertion language reads it (no exponent beyond three digits, no leading `+`). */
const NUMBER = /^-?(?:0|[1-9]\d{0,19})(?:\.\d{1,20})?(?:[eE][+-]?\d{1,3})?$/;
/** A value written without quotes: one word the line cannot read as anything else. */
const BARE = /^[\w.:@+-]{1,200}$/;
/** `a.b[0].c`: names of letters, digits, `_`, `$` and `-`; a leading index for an answer that is an array; `$` the whole answer. */
const PATH = /^(?:\$|(?:[\w$-]{1,100}|\[\d{1,9}\])(?:\.[\w$-]{1,100}|\[\d{1,9}\]){0,31})$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;

const MAX_STRING = 200;
const MAX_LIST = 20;
const MAX_PATTERN = 200;
const MAX_COUNT = 1e9;
const MAX_DURATION = 3_600_000;

/**
 * A literal as the `VALUE` of a line: bare when one plain word, else in double quotes, which the
 * parser removes (in a list `in […]`, a JSON string); a quote or backslash in it would be read
 * differently by the two, so such a value is not written.
 */
function valueText(literal: Literal, inList = false): Result<string, string> {
  if (literal.kind === 'json')
    return NUMBER.test(literal.text) || ['true', 'false', 'null'].includes(literal.text)
      ? ok(literal.text)
      : err(`${literal.text} is not a number, true, false or null`);
  const s = literal.value;
  if (s.length > MAX_STRING) return err(`a value longer than ${MAX_STRING} characters`);
  if (CONTROL.test(s)) return err('a value with a line break or control character');
  if (BARE.test(s)) return ok(s);
  if (!inList && /["\\]/.test(s)) return err('a value with a double quote or backslash');
  return ok(inList ? JSON.stringify(s) : `"${s}"`);
}

/** `/source/flags`, a `/` of the source escaped; undefined when the pattern is not one `matches` runs. */
function regexText(source: string, flags: string): Result<string, string> {
  if (source.length === 0 || source.length > MAX_PATTERN || CONTROL.test(source))
    return err(`a regular expression that is empty, longer than ${MAX_PATTERN} characters or spans lines`);
  if (!/^[ims]*$/.test(flags)) return err(`the regular expression flags ${flags} (only i, m and s carry over)`);
  // The engine of `matches` decides: RE2 (linear time) runs no lookaround, backreference or huge program.
  if (!compilePattern(source, flags).ok)
    return err(
      'a regular expression that RE2, the linear-time engine of `matches`, cannot run (lookaround, backreferences or a program too large)',
    );
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') out += c + (source[++i] ?? '');
    else out += c === '/' ? '\\/' : c;
  }
  return ok(`/${out}/${flags}`);
}

/** The test's words after the subject: `== 200`, `exists`, `count > 0`, `matches /^BTC/`. */
function testText(test: Test): Result<string, string> {
  switch (test.op) {
    case 'matches': {
      const re = regexText(test.source, test.flags);
      return re.ok ? ok(`matches ${re.value}`) : re;
    }
    case 'in': {
      if (test.values.length === 0 || test.values.length > MAX_LIST)
        return err(`a list of no value or more than ${MAX_LIST}`);
      const values: string[] = [];
      for (const v of test.values) {
        const t = valueText(v, true);
        if (!t.ok) return t;
        values.push(t.value);
      }
      return ok(`in [${values.join(', ')}]`);
    }
    case 'count':
      return Number.isInteger(test.n) && test.n >= 0 && test.n <= MAX_COUNT
        ? ok(`count ${test.compare} ${test.n}`)
        : err('a length that is not a whole number');
    case 'exists':
    case 'not exists':
    case 'isString':
    case 'isNumber':
    case 'isBoolean':
    case 'isNull':
    case 'isArray':
    case 'isObject':
      return ok(test.op);
    default: {
      const v = valueText(test.value);
      return v.ok ? ok(`${test.op} ${v.value}`) : v;
    }
  }
}

/** A whole number from a literal, for a status or a duration. */
function wholeNumber(test: Test): number | undefined {
  if (!('value' in test)) return undefined;
  const text = test.value.kind === 'json' ? test.value.text : test.value.value;
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

function statusLine(test: Test): Result<string, string> {
  const n = wholeNumber(test);
  if (!COMPARE_OPS.includes(test.op) || n === undefined)
    return err('a status is compared with ==, !=, <, <=, > or >= and a whole number');
  if (test.op === '==') return n >= 100 && n <= 599 ? ok(`expect status ${n}`) : err(`${n} is not an HTTP status`);
  return n <= 999 ? ok(`expect status ${test.op} ${n}`) : err(`${n} is not an HTTP status`);
}

const DURATION_OPS: readonly string[] = ['<', '<=', '>', '>='];

function durationLine(test: Test): Result<string, string> {
  const n = wholeNumber(test);
  return DURATION_OPS.includes(test.op) && n !== undefined && n > 0 && n <= MAX_DURATION
    ? ok(`expect duration ${test.op} ${n}`)
    : err('a duration is compared with <, <=, > or >= and a whole number of milliseconds');
}

const HEADER_TESTS: readonly string[] = [...COMPARE_OPS, 'contains', 'startsWith', 'matches', 'exists', 'not exists'];

/** The `# @expect` line (without `# @`) for a check, or why it has none. */
export function expectLine(subject: Subject, test: Test): Result<string, string> {
  if (subject.kind === 'status') return statusLine(test);
  if (subject.kind === 'duration') return durationLine(test);
  if (subject.kind === 'header') {
    if (!HEADER_NAME.test(subject.name)) return err(`${subject.name} is not a header name`);
    if (!HEADER_TESTS.includes(test.op)) return err(`a header is not checked with ${test.op}`);
    const t = testText(test);
    return t.ok ? ok(`expect header ${subject.name} ${t.value}`) : t;
  }
  if (!PATH.test(subject.path)) return err(`${subject.path} is not a path of the answer TradeReq reads`);
  const t = testText(test);
  return t.ok ? ok(`expect json ${subject.path} ${t.value}`) : t;
}
