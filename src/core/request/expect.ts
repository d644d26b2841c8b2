/**
 * `# @expect` checks on a response (docs/format.md, Expectations), and the one judge of a check on
 * the values a path reaches, which WebSocket pushes share (ws/expect.ts). A path with `*` passes when
 * every value it reaches passes, and at least one exists; each result says what was expected and
 * what came instead.
 */
import { BOUNDS, clip } from '../bounds';
import { compareDecimals, decimalOf, parseDecimal, type Decimal } from '../format/decimal';
import type { Expectation } from '../format/directives';
import { decimalKey, hasWildcard, type Check, type Comparison, type Written } from '../format/expectation';
import type { Pattern } from '../format/pattern';
import { jsonValueText, reachAll, type PathStep, type Reached } from '../format/json-value';
import type { Decoded } from '../net/decode';
import { t } from '../l10n';

export interface ExpectationResult {
  readonly text: string;
  readonly passed: boolean;
  readonly actual: string;
  /** A failed `==` on one value: the two texts, for a side-by-side view (the Testing view's diff). */
  readonly diff?: { readonly expected: string; readonly actual: string };
  /** Not compared here: `# @expect snapshot` is judged by a test run only, so a send shows no ✔ for it. */
  readonly checked?: false;
}

/** What an answer carries besides its decoded body: its headers and how long the round trip took. */
export interface AnswerFacts {
  readonly headers?: Readonly<Record<string, string>>;
  readonly durationMs?: number;
}

/** `decoded` is undefined when no answer came (refused, not sent, failed exchange): every check fails. */
export function checkExpectations(
  expectations: readonly Expectation[],
  decoded: Decoded | undefined,
  answer: AnswerFacts = {},
): ExpectationResult[] {
  return expectations.map((e) => {
    // What the line compared with: its values substituted (format/expect-variables.ts), else as written.
    const written = `@expect ${(e.kind !== 'snapshot' && e.shown) || (e.directive.args?.text ?? '')}`.trim();
    // Where `# @expect snapshot` is judged: not by a send, which has no snapshot file (docs/format.md, Snapshots).
    const text = e.kind === 'snapshot' ? t('{0} (compared by tradereq test and the Testing view)', written) : written;
    if (!decoded) return { text, passed: false, actual: t('no response') };
    return { text, ...judgeExpectation(e, decoded, answer), ...(e.kind === 'snapshot' && { checked: false as const }) };
  });
}

type Judgement = Omit<ExpectationResult, 'text'>;

function judgeExpectation(e: Expectation, decoded: Decoded, answer: AnswerFacts): Judgement {
  switch (e.kind) {
    case 'status':
      return { passed: holds(e.check, decoded.status), actual: `status ${decoded.status}` };
    case 'code':
      return {
        // `code != N` passes on an answer without an error code; `code N` does not.
        passed: decoded.code === undefined ? e.check.op === '!=' : holds(e.check, decoded.code),
        actual: decoded.code === undefined ? t('no error code') : `code ${decoded.code}`,
      };
    case 'json':
      return judgePath(e.check, e.path, e.steps, decoded.json).judgement;
    case 'header':
      return judgeReached(e.check, e.name, headerOf(answer.headers, e.name), false);
    case 'duration':
      return answer.durationMs === undefined
        ? { passed: false, actual: t('no time measured') }
        : { passed: holds(e.check, Math.round(answer.durationMs)), actual: `${Math.round(answer.durationMs)} ms` };
    case 'message':
      // A check on WebSocket pushes (tradereq listen); an HTTP response has none.
      return { passed: false, actual: t('an HTTP response, not WebSocket pushes') };
    case 'snapshot':
      // Compared with its file by a test run (core/testing/snapshot.ts); a send has no snapshot file.
      return { passed: decoded.outcome === 'ok', actual: `${decoded.outcome}, status ${decoded.status}` };
  }
}

/** A response header by name, in any case (names are case-insensitive, RFC 9110 §5.1). */
function headerOf(headers: AnswerFacts['headers'], name: string): Reached[] {
  for (const [n, v] of Object.entries(headers ?? {})) if (n.toLowerCase() === name) return [{ path: name, value: v }];
  return [];
}

/** Whether a whole number (a status, a code, milliseconds) passes a comparison. */
function holds(check: Check, n: number): boolean {
  return 'value' in check && compares(check.op as Comparison, parseDecimal(String(n)), check.value);
}

/**
 * `check` on the values `steps` reach in `root` (a JSON answer or push), `path` as written; and
 * whether the path reached a value at all (a push that lacks it says nothing).
 */
export function judgePath(
  check: Check,
  path: string,
  steps: readonly PathStep[],
  root: unknown,
): { judgement: Judgement; found: boolean } {
  const many = hasWildcard(steps);
  const { reached, overflow } = reachAll(root, steps, BOUNDS.expectValues);
  if (overflow) {
    const most = BOUNDS.expectValues.toLocaleString('en-US');
    return {
      judgement: {
        passed: false,
        actual: t('{0} reaches more than {1} values (TradeReq checks at most {1})', path, most),
      },
      found: true,
    };
  }
  // A path without `*` is shown as written, as before (`fills.0.price = 1`).
  const judgement = judgeReached(check, path, many ? reached : reached.map((r) => ({ ...r, path })), many);
  return { judgement, found: reached.length > 0 };
}

/** `check` on the values reached at `label`: each must pass, and one at least must exist. */
function judgeReached(check: Check, label: string, reached: readonly Reached[], many: boolean): Judgement {
  const first = reached[0];
  if (check.op === 'exists' || check.op === 'not exists') {
    const found =
      first === undefined ? t('no value at {0}', label) : many ? valuesAt(reached.length, label) : shown(first);
    return { passed: (first !== undefined) === (check.op === 'exists'), actual: found };
  }
  if (check.op === 'count') return judgeCount(check, label, reached, many);
  if (first === undefined) return { passed: false, actual: many ? t('no value at {0}', label) : missing(label) };
  const budget = { chars: BOUNDS.patternSubjectTotalChars };
  for (const r of reached) {
    const verdict = passes(check, r.value, budget);
    if (verdict !== true) return failed(check, r, many, verdict);
  }
  return { passed: true, actual: many ? eachAsExpected(reached.length, label) : shown(first) };
}

function failed(check: Check, r: Reached, many: boolean, why: false | string): Judgement {
  const typed = check.op.startsWith('is');
  const actual = `${typed ? shownTyped(r) : shown(r)}${why === false ? '' : ` (${why})`}`;
  if (check.op !== '==' || many) return { passed: false, actual };
  return { passed: false, actual, diff: { expected: check.value.text, actual: valueText(r.value) } };
}

function judgeCount(
  check: Extract<Check, { op: 'count' }>,
  label: string,
  reached: readonly Reached[],
  many: boolean,
): Judgement {
  const value = reached[0]?.value;
  const n = many ? reached.length : Array.isArray(value) ? value.length : undefined;
  if (n === undefined)
    return { passed: false, actual: reached[0] ? t('{0}, not an array', shownTyped(reached[0])) : missing(label) };
  return { passed: compares(check.comparison, parseDecimal(String(n)), check.count), actual: `${label} count ${n}` };
}

/** Whether one value passes `check`: true, false, or why it could not be checked. */
function passes(check: Check, value: unknown, budget: { chars: number }): boolean | string {
  switch (check.op) {
    case '==':
      return equals(value, check.value);
    case '!=':
      return !equals(value, check.value);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return (
        compares(check.op, decimalOf(value), check.value) ||
        (decimalOf(value) === undefined ? t('not a number') : false)
      );
    case 'contains':
      if (Array.isArray(value)) return value.some((v) => equals(v, check.value));
      return isScalar(value) && jsonValueText(value).includes(check.value.text);
    case 'startsWith':
      return isScalar(value) && jsonValueText(value).startsWith(check.value.text);
    case 'in':
      return isIn(value, check);
    case 'matches':
      return matches(check.pattern, value, budget);
    default:
      return isType(check.op, value);
  }
}

/** The rule of `==`: the value's text is VALUE (as always), or both are the same decimal ("0.10000000" == 0.1). */
function equals(value: unknown, wanted: Written): boolean {
  if (value === undefined) return false;
  if (jsonValueText(value) === wanted.text) return true;
  const d = wanted.decimal && decimalOf(value);
  return d !== undefined && compareDecimals(d, wanted.decimal!) === 0;
}

/** `==` against every value of the list at once: the value's text and decimal, each looked up once. */
function isIn(value: unknown, list: Extract<Check, { op: 'in' }>): boolean {
  if (value === undefined) return false;
  if (list.texts.has(jsonValueText(value))) return true;
  const d = list.decimals.size > 0 ? decimalOf(value) : undefined;
  return d !== undefined && list.decimals.has(decimalKey(d));
}

function compares(op: Comparison, found: Decimal | undefined, wanted: Written): boolean {
  if (found === undefined || wanted.decimal === undefined) return op === '!=';
  const c = compareDecimals(found, wanted.decimal);
  return { '==': c === 0, '!=': c !== 0, '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0 }[op];
}

function matches(pattern: Pattern, value: unknown, budget: { chars: number }): boolean | string {
  if (!isScalar(value)) return t('not text');
  const text = jsonValueText(value);
  if (text.length > BOUNDS.patternSubjectChars)
    return t('{0} characters; a pattern is matched against at most {1}', text.length, BOUNDS.patternSubjectChars);
  budget.chars -= text.length;
  if (budget.chars < 0)
    return t(
      'past the {0} characters one expectation matches in all; nothing more was matched',
      BOUNDS.patternSubjectTotalChars,
    );
  return pattern.test(text);
}

function isType(op: Check['op'], v: unknown): boolean {
  switch (op) {
    case 'isString':
      return typeof v === 'string';
    case 'isNumber':
      return typeof v === 'number';
    case 'isDecimal':
      return decimalOf(v) !== undefined;
    case 'isBoolean':
      return typeof v === 'boolean';
    case 'isNull':
      return v === null;
    case 'isArray':
      return Array.isArray(v);
    case 'isObject':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    default:
      return false;
  }
}

/** "3 values at fills[*].price". */
function valuesAt(n: number, label: string): string {
  return n === 1 ? t('1 value at {0}', label) : t('{0} values at {1}', n, label);
}

function eachAsExpected(n: number, label: string): string {
  return n === 1 ? t('1 value at {0}, each as expected', label) : t('{0} values at {1}, each as expected', n, label);
}

function missing(label: string): string {
  return t('{0} = missing', label);
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function valueText(v: unknown): string {
  return clip(jsonValueText(v), BOUNDS.messageChars);
}

/** `fills[2].price = 0.1`: a value as `# @expect json` has always shown it (text as it is). */
function shown(r: Reached): string {
  return `${r.path} = ${valueText(r.value)}`;
}

/** `balances[2].free = "abc"`: for a type test, text in quotes, so that "1" and 1 differ. */
function shownTyped(r: Reached): string {
  return `${r.path} = ${typeof r.value === 'string' ? clip(JSON.stringify(r.value), BOUNDS.messageChars) : valueText(r.value)}`;
}
