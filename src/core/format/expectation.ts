/**
 * The `# @expect` language (docs/format.md, Expectations): a line read into its parts, each with its
 * range (kind, path or header name, operator, value), so that the editor completes, hovers and
 * diagnoses the part under the cursor, and one check shape that request/expect.ts judges for an
 * answer and ws/expect.ts for pushes. Today's forms (`status N`, `code N`, `json PATH == VALUE`,
 * `message PATH == VALUE`) read as they always did.
 */
import { BOUNDS, formatSize } from '../bounds';
import type { RuleId } from '../rules';
import { parseDecimal, type Decimal } from './decimal';
import type { PathStep } from './json-value';
import { range, type Range, type Token, type TradeReqDocument } from './model';
import { compilePattern, PatternBudget, type Pattern } from './pattern';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';

export const EXPECT_KINDS = ['status', 'code', 'json', 'header', 'duration', 'message', 'snapshot'] as const;
export type ExpectKind = (typeof EXPECT_KINDS)[number];

const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='] as const;
export type Comparison = (typeof COMPARISONS)[number];

const TYPE_TESTS = ['isString', 'isNumber', 'isDecimal', 'isBoolean', 'isNull', 'isArray', 'isObject'] as const;
type TypeTest = (typeof TYPE_TESTS)[number];

/** A value as written after an operator: bare, or in double quotes (removed); its decimal when it writes one. */
export interface Written {
  readonly text: string;
  readonly decimal?: Decimal;
}

export type Check =
  | { readonly op: Comparison; readonly value: Written }
  | { readonly op: 'contains' | 'startsWith'; readonly value: Written }
  | { readonly op: 'matches'; readonly pattern: Pattern }
  | {
      readonly op: 'in';
      readonly values: readonly Written[];
      /** The values' texts, and their decimals as decimalKey writes them: `in` looks a value up once in each. */
      readonly texts: ReadonlySet<string>;
      readonly decimals: ReadonlySet<string>;
    }
  | { readonly op: 'exists' | 'not exists' }
  | { readonly op: TypeTest }
  | { readonly op: 'count'; readonly comparison: Comparison; readonly count: Written };

/** The parts of a line as written, with their ranges: `operator` spans `not exists` whole. */
interface ExpectationParts {
  readonly kind: Token;
  /** The path (`json`, `message`) or the header name (`header`). */
  readonly subject?: Token;
  readonly operator?: Token;
  /** Everything after the operator: a value, `/re/flags`, `[a, b]`, `< 5` after `count`. */
  readonly operand?: Token;
  /** The budget a `matches` pattern is compiled in (the file's), when the line is read in a file. */
  readonly patterns?: PatternBudget;
}

interface Line<K extends ExpectKind> {
  readonly kind: K;
  readonly check: Check;
  readonly parts: ExpectationParts;
  /** The line after `@expect` with its `{{variables}}` substituted (format/expect-variables.ts); absent: as written. */
  readonly shown?: string;
}

interface PathFields {
  readonly path: string;
  readonly steps: readonly PathStep[];
  /** What follows the operator, as written (the VALUE of `PATH == VALUE`). */
  readonly value: string;
}

/** A `# @expect` line as read. */
export type ExpectationLine =
  | (Line<'status'> & { readonly status: number })
  | (Line<'code'> & { readonly code: number })
  | (Line<'json'> & PathFields)
  | (Line<'message'> & PathFields)
  | (Line<'header'> & { readonly name: string; readonly value: string })
  | (Line<'duration'> & { readonly ms: number })
  /** The whole answer against its snapshot file, compared by a test run (core/testing/snapshot.ts). */
  | { readonly kind: 'snapshot'; readonly parts: ExpectationParts };

/** What is wrong with a line: where, why (saying how to write it) and, for a near miss, the fix. */
export interface ExpectationProblem {
  /** Undefined: the whole directive. */
  readonly range?: Range;
  readonly message: string;
  readonly rule: RuleId;
  readonly fix?: { readonly title: string; readonly replacement: string };
}

const VALUE_OPERATORS = [...COMPARISONS, 'contains', 'startsWith', 'matches', 'in'] as const;

/** The operators each kind takes, in the order completion offers them. */
export const OPERATORS: Readonly<Record<ExpectKind, readonly string[]>> = {
  status: COMPARISONS,
  code: ['==', '!='],
  duration: ['<', '<=', '>', '>='],
  header: [...VALUE_OPERATORS, 'exists', 'not exists'],
  json: [...VALUE_OPERATORS, 'exists', 'not exists', ...TYPE_TESTS, 'count'],
  message: [...VALUE_OPERATORS, 'exists', 'not exists', ...TYPE_TESTS, 'count'],
  snapshot: [],
};

/** How to write a line of each kind, in the display language. */
const KIND_USAGE: Readonly<Record<ExpectKind, () => string>> = {
  status: () => t('`# @expect status 200` or `# @expect status < 300`'),
  code: () => t('`# @expect code 30002` or `# @expect code != 700003`'),
  json: () =>
    t(
      '`# @expect json PATH == VALUE`, `# @expect json PATH exists`, `# @expect json PATH isDecimal` or `# @expect json PATH count > 0`',
    ),
  header: () => t('`# @expect header NAME contains VALUE` or `# @expect header NAME exists`'),
  duration: () => t('`# @expect duration < 1000` (milliseconds; 500ms and 2s also work)'),
  message: () => t('`# @expect message PATH == VALUE` (or any operator of `# @expect json`)'),
  snapshot: () =>
    t(
      '`# @expect snapshot` alone (the answer against `__snapshots__/FILE.snap.json`, compared by `tradereq test` and the Testing view)',
    ),
};

/** How to write a line of `kind` (the message of a line that cannot be read, and completion's detail). */
export function kindUsage(kind: ExpectKind): string {
  return KIND_USAGE[kind]();
}

/** How to write a `# @expect` line of any kind. */
export function expectUsage(): string {
  return t(
    'Write `# @expect status 200`, `# @expect code 30002`, `# @expect json PATH == VALUE`, `# @expect header NAME contains VALUE`, `# @expect duration < 1000` or, for a WebSocket request, `# @expect message PATH == VALUE`.',
  );
}

/**
 * Reads the arguments of a `# @expect` line. `args` is the line after `@expect`, trimmed; ranges
 * are on `line`, from `startChar` where `args` begins. `patterns` is the budget of the file the
 * line is in (filePatterns), for a `matches` line.
 */
export function readExpectationLine(
  args: string,
  line = 0,
  startChar = 0,
  patterns?: PatternBudget,
): Result<ExpectationLine, ExpectationProblem> {
  const r = new Reader(args, line, startChar);
  const kind = r.word();
  if (!kind || !(EXPECT_KINDS as readonly string[]).includes(kind.text))
    return err({ message: expectUsage(), rule: 'bad-directive' });
  const k = kind.text as ExpectKind;
  if (k === 'snapshot')
    return r.rest()
      ? err({ message: t('Write {0}.', kindUsage('snapshot')), rule: 'bad-directive' })
      : ok({ kind: k, parts: { kind } });
  const subject = k === 'json' || k === 'message' || k === 'header' ? r.subject() : undefined;
  const operator = r.operator();
  const operand = r.rest();
  if ((subject === undefined && k !== 'status' && k !== 'code' && k !== 'duration') || (!operator && !operand))
    return err({ message: t('Write {0}.', kindUsage(k)), rule: 'bad-directive' });
  const parts: ExpectationParts = { kind, subject, operator, operand, patterns };
  switch (k) {
    case 'status':
    case 'code':
    case 'duration':
      return readNumberLine(k, parts);
    case 'header':
      return withCheck(k, parts, (check) => ({
        kind: k,
        check,
        parts,
        name: subject!.text.toLowerCase(),
        value: operand?.text ?? '',
      }));
    case 'json':
    case 'message':
      return readPathLine(k, parts);
  }
}

/** A line's check, or what is wrong with its operator or operand. */
function withCheck(
  kind: ExpectKind,
  parts: ExpectationParts,
  make: (check: Check) => ExpectationLine,
): Result<ExpectationLine, ExpectationProblem> {
  const check = readCheck(kind, parts);
  return check.ok ? ok(make(check.value)) : check;
}

function readPathLine(kind: 'json' | 'message', parts: ExpectationParts): Result<ExpectationLine, ExpectationProblem> {
  const subject = parts.subject!;
  const steps = parsePath(subject.text);
  if (!steps.ok) return err({ range: subject.range, message: steps.error, rule: 'expect-path' });
  return withCheck(kind, parts, (check) => ({
    kind,
    check,
    parts,
    path: subject.text,
    steps: steps.value,
    value: parts.operand?.text ?? '',
  }));
}

/** `status N`, `code N`, their operator forms, and `duration OP MS`. */
function readNumberLine(
  kind: 'status' | 'code' | 'duration',
  parts: ExpectationParts,
): Result<ExpectationLine, ExpectationProblem> {
  // `status 200` is `status == 200`: a word where the operator would stand is the number.
  const bare = parts.operator === undefined || !/^[=!<>]/.test(parts.operator.text);
  const operand = bare ? (parts.operator ?? parts.operand) : parts.operand;
  const op = bare ? '==' : parts.operator.text;
  if (!OPERATORS[kind].includes(op))
    return err(
      bare
        ? { range: operand?.range, message: t('Write {0}.', kindUsage(kind)), rule: 'expect-operator' }
        : unknownOperator(kind, parts.operator),
    );
  const n = operand && (kind === 'duration' ? readMs(operand.text) : readWhole(operand.text));
  if (n === undefined || (bare && parts.operand !== undefined))
    return err({
      range: n === undefined ? operand?.range : parts.operand?.range,
      message:
        kind === 'duration'
          ? t('`duration` takes a whole number of milliseconds: write {0}.', kindUsage(kind))
          : t('`{0}` takes a whole number: write {1}.', kind, kindUsage(kind)),
      rule: 'expect-number',
    });
  const check: Check = { op: op as Comparison, value: withDecimal(String(n)) };
  const p: ExpectationParts = { kind: parts.kind, operator: bare ? undefined : parts.operator, operand };
  if (kind === 'status') return ok({ kind, check, parts: p, status: n });
  if (kind === 'code') return ok({ kind, check, parts: p, code: n });
  return ok({ kind, check, parts: p, ms: n });
}

function readWhole(text: string): number | undefined {
  return /^-?\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** `1000`, `500ms`, `2s`: whole milliseconds. */
function readMs(text: string): number | undefined {
  const m = /^(\d{1,9})(ms|s)?$/.exec(text);
  return m ? Number(m[1]) * (m[2] === 's' ? 1000 : 1) : undefined;
}

/** The check of a `json`, `message` or `header` line from its operator and operand. */
function readCheck(kind: ExpectKind, parts: ExpectationParts): Result<Check, ExpectationProblem> {
  const operator = parts.operator!;
  const op = operator.text;
  if (!OPERATORS[kind].includes(op)) return err(unknownOperator(kind, operator));
  const operand = parts.operand;
  if (op === 'matches') return readMatches(operator, operand, parts.patterns);
  if (op === 'in') return readList(operator, operand);
  if (op === 'count') return readCount(kind, operator, operand);
  if (op !== 'exists' && op !== 'not exists' && !(TYPE_TESTS as readonly string[]).includes(op))
    return readValueCheck(op, operator, operand);
  if (operand !== undefined)
    return err({
      range: operand.range,
      message: t('`{0}` takes no value: remove "{1}".', op, operand.text),
      rule: 'bad-directive',
    });
  return ok({ op } as Check);
}

/** A comparison, `contains` or `startsWith` and its value. */
function readValueCheck(op: string, operator: Token, operand: Token | undefined): Result<Check, ExpectationProblem> {
  const value = written(operand?.text ?? '');
  // `== ` with nothing after it compares with empty text, as it always did.
  if (op === '==' || op === '!=') return ok({ op, value });
  if (operand === undefined)
    return err({ range: operator.range, message: t('`{0}` needs a value after it.', op), rule: 'bad-directive' });
  if (op === 'contains' || op === 'startsWith') return ok({ op, value });
  // A `{{variable}}` is a number or not once substituted, when a send resolves it (format/expect-variables.ts).
  if (value.decimal === undefined && !writesVariable(operand.text))
    return err({ range: operand.range, message: notANumber(op, operand.text), rule: 'expect-number' });
  return ok({ op: op as Comparison, value });
}

/** Why a value after `<`, `<=`, `>` or `>=` is refused: it is no number. */
export function notANumber(op: string, text: string): string {
  return t(
    '`{0}` compares numbers, and "{1}" is not one: write a number such as 100 or 0.001 (compared exactly, as decimals), or use == to compare text.',
    op,
    text,
  );
}

/** Whether `text` writes a `{{name}}` (closed): a value a send substitutes before judging. */
export function writesVariable(text: string): boolean {
  const open = text.indexOf('{{');
  return open >= 0 && text.indexOf('}}', open + 2) >= 0;
}

/** `count OP N`, or `count N` for `count == N`. */
function readCount(kind: ExpectKind, operator: Token, operand: Token | undefined): Result<Check, ExpectationProblem> {
  const text = operand?.text ?? '';
  const m = /^([=!<>]*)\s*/.exec(text)!;
  const comparison = m[1] || '==';
  const at = (from: number, to: number): Range | undefined => operand && slice(operand, from, to);
  if (!(COMPARISONS as readonly string[]).includes(comparison))
    return err({
      ...unknownOperator(kind, { text: comparison, range: at(0, m[1]!.length)! }),
      message: t(
        'After `count` comes {0} and a whole number: "{1}" is none of them.',
        COMPARISONS.join(', '),
        comparison,
      ),
    });
  const n = text.slice(m[0].length);
  if (!/^\d{1,9}$/.test(n))
    return err({
      range: n === '' ? operator.range : at(m[0].length, text.length),
      message: n
        ? t('`count` takes a whole number, not "{0}": write `count > 0` or `count == 3`.', n)
        : t('`count` takes a whole number: write `count > 0` or `count == 3`.'),
      rule: 'expect-number',
    });
  return ok({ op: 'count', comparison: comparison as Comparison, count: withDecimal(n) });
}

/** The range of `token.text.slice(from, to)` (a token is on one line). */
function slice(token: Token, from: number, to: number): Range {
  const r = token.range;
  return range(r.startLine, r.startChar + from, r.startLine, r.startChar + to);
}

function readMatches(
  operator: Token,
  operand: Token | undefined,
  patterns: PatternBudget | undefined,
): Result<Check, ExpectationProblem> {
  const written = operand && patternWritten(operand.text);
  if (!written)
    return err({
      range: operand?.range ?? operator.range,
      message: t(
        'Write the pattern between slashes, flags after it: `matches /^\\d+\\.\\d{8}$/` or `matches /filled/i`.',
      ),
      rule: 'expect-pattern',
    });
  const pattern = compilePattern(written.source, written.flags, patterns);
  if (!pattern.ok) return err({ range: operand.range, message: pattern.error, rule: 'expect-pattern' });
  return ok({ op: 'matches', pattern: pattern.value });
}

/** `/source/flags`: the pattern between the first and the last slash, and the letters after it. */
function patternWritten(text: string): { source: string; flags: string } | undefined {
  const m = /^\/(.*)\/([A-Za-z]*)$/.exec(text);
  return m ? { source: m[1]!, flags: m[2]! } : undefined;
}

/** The budget of each document's patterns, filled once per parse (filePatterns). */
const FILE_PATTERNS = new WeakMap<TradeReqDocument, PatternBudget>();

/**
 * The budget of `doc`'s patterns (BOUNDS.patternsPerFile, patternCostPerFile), offered every
 * `matches` pattern of the file in file order before any is compiled: the file's directives, then
 * each request's. So whether a pattern is compiled is the same for a check of the whole file and
 * for a send of one of its requests. One pass over the lines, nothing compiled.
 */
export function filePatterns(doc: TradeReqDocument): PatternBudget {
  let budget = FILE_PATTERNS.get(doc);
  if (budget === undefined) {
    budget = new PatternBudget();
    for (const directives of [doc.fileDirectives, ...doc.requests.map((r) => r.directives)])
      for (const d of directives) {
        const written = d.name.text === 'expect' && d.args ? matchesWritten(d.args.text) : undefined;
        if (written) budget.admits(written.source, written.flags);
      }
    FILE_PATTERNS.set(doc, budget);
  }
  return budget;
}

/** The pattern of a `… matches /re/` line, read as readExpectationLine reads it; undefined for any other line. */
function matchesWritten(args: string): { source: string; flags: string } | undefined {
  const r = new Reader(args, 0, 0);
  const kind = r.word()?.text;
  if (kind !== 'json' && kind !== 'message' && kind !== 'header') return undefined;
  r.subject();
  if (r.operator()?.text !== 'matches') return undefined;
  const operand = r.rest();
  return operand && patternWritten(operand.text);
}

function readList(operator: Token, operand: Token | undefined): Result<Check, ExpectationProblem> {
  const values = operand ? parseList(operand.text) : undefined;
  if (values === 'chars' || values === 'values')
    return err({
      range: operand!.range,
      message: listTooLong(values, operand!.text.length - 2),
      rule: 'bad-directive',
    });
  if (values === undefined)
    return err({
      range: operand?.range ?? operator.range,
      message: t(
        'Write `in [a, b, "c d"]`: one or more values between brackets, separated by commas (in double quotes when they hold a comma or a space).',
      ),
      rule: 'bad-directive',
    });
  return ok({ op: 'in', values, ...inSets(values) });
}

/** Why a list is refused: past BOUNDS.expectListChars (`chars` characters between its brackets) or BOUNDS.expectListValues. */
function listTooLong(fault: 'chars' | 'values', chars: number): string {
  return fault === 'chars'
    ? t(
        'The list is {0} characters long: TradeReq reads at most {1}. Check fewer values on this line.',
        chars,
        formatSize(BOUNDS.expectListChars),
      )
    : t(
        'The list holds more than {0} values: TradeReq compares with at most {0}. Check fewer values on this line.',
        BOUNDS.expectListValues,
      );
}

/**
 * `[a, b, "c d"]`: its values; undefined when it is not such a list, or which bound it is past. One
 * pass over the text, no regular expression that could backtrack: a shared file is hostile.
 */
function parseList(text: string): Written[] | 'chars' | 'values' | undefined {
  if (!text.startsWith('[') || !text.endsWith(']') || text.length < 2) return undefined;
  if (text.length - 2 > BOUNDS.expectListChars) return 'chars';
  const items: Written[] = [];
  for (let i = 1; ;) {
    const item = listItem(text, i, text.length - 1);
    if (item === undefined) return undefined;
    if (items.length === BOUNDS.expectListValues) return 'values';
    items.push(withDecimal(item.value));
    if (item.next === text.length - 1) return items;
    i = item.next + 1;
  }
}

/** The value that starts at `from` (white space before it skipped) and where it ends: at `end` or at its comma. */
function listItem(text: string, from: number, end: number): { value: string; next: number } | undefined {
  let i = from;
  while (i < end && isSpace(text, i)) i++;
  if (text[i] === '"') {
    let close = i + 1;
    while (close < end && text[close] !== '"') close += text[close] === '\\' ? 2 : 1;
    if (close >= end) return undefined;
    const value = jsonString(text.slice(i, close + 1));
    let next = close + 1;
    while (next < end && isSpace(text, next)) next++;
    return value !== undefined && (next === end || text[next] === ',') ? { value, next } : undefined;
  }
  let next = i;
  while (next < end && text[next] !== ',') {
    if (text[next] === '"' || text[next] === '[' || text[next] === ']') return undefined;
    next++;
  }
  const value = text.slice(i, next).trimEnd();
  return value === '' ? undefined : { value, next };
}

function isSpace(text: string, i: number): boolean {
  return /\s/.test(text[i]!);
}

function jsonString(text: string): string | undefined {
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}

/**
 * What `in` compares with, made once when the line is read: the values' texts, and their decimals
 * each in one spelling, so that a value is judged against the whole list in one look-up each.
 */
export function inSets(values: readonly Written[]): { texts: ReadonlySet<string>; decimals: ReadonlySet<string> } {
  const decimals = new Set<string>();
  for (const v of values) if (v.decimal) decimals.add(decimalKey(v.decimal));
  return { texts: new Set(values.map((v) => v.text)), decimals };
}

/** One text for every spelling of a decimal (0.10000000, 0.1, 1e-1): trailing zeros of the fraction dropped. */
export function decimalKey(d: Decimal): string {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return `${units}e-${scale}`;
}

/** VALUE written bare (BTCUSDT, 0.1) or as JSON ("BTCUSDT"): the quotes removed, as `# @expect json` always did. */
export function written(text: string): Written {
  return withDecimal(text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text);
}

export function withDecimal(text: string): Written {
  const decimal = parseDecimal(text);
  return decimal ? { text, decimal } : { text };
}

/** Operators written another way than TradeReq's (`=`, `<>`, `Contains`): the fix. */
const NEAR_MISSES: Readonly<Record<string, string>> = {
  '=': '==',
  '===': '==',
  '!==': '!=',
  '<>': '!=',
  '=<': '<=',
  '=>': '>=',
};

function unknownOperator(kind: ExpectKind, operator: Token): ExpectationProblem {
  const known = OPERATORS[kind];
  const near = NEAR_MISSES[operator.text] ?? known.find((o) => o.toLowerCase() === operator.text.toLowerCase());
  const fixable = near !== undefined && known.includes(near);
  return {
    range: operator.range,
    message: fixable
      ? t(
          'Unknown operator "{0}" for `{1}`: did you mean {2}? The operators of `{1}` are {3}.',
          operator.text,
          kind,
          near,
          known.join(', '),
        )
      : t('Unknown operator "{0}" for `{1}`. The operators of `{1}` are {2}.', operator.text, kind, known.join(', ')),
    rule: 'expect-operator',
    ...(fixable && { fix: { title: t('Write {0}', near), replacement: near } }),
  };
}

/**
 * `a.b[0].c`, `fills.0.price`, `balances[*].free`, `fills.*.price`, `$` (the whole answer) and
 * `$.a`: the steps, or why the path is malformed.
 */
export function parsePath(path: string): Result<PathStep[], string> {
  const text =
    path === '$' ? '' : path.startsWith('$.') || path.startsWith('$[') ? path.slice(path[1] === '.' ? 2 : 1) : path;
  const steps: PathStep[] = [];
  const bad = (fault: PathFault, inner = ''): Result<PathStep[], string> => err(pathProblem(path, fault, inner));
  let i = 0;
  while (i < text.length) {
    if (text[i] === '[') {
      const close = text.indexOf(']', i);
      if (close < 0) return bad('unclosed');
      const inner = text.slice(i + 1, close);
      if (inner !== '*' && !/^\d+$/.test(inner)) return bad('not-an-index', inner);
      steps.push(inner === '*' ? EVERY : inner);
      i = close + 1;
      if (i < text.length && text[i] !== '.' && text[i] !== '[') return bad('after-bracket');
      if (text[i] === '.') i++;
      if (i === text.length && text.endsWith('.')) return bad('trailing-dot');
      continue;
    }
    const end = nameEnd(text, i);
    const name = text.slice(i, end);
    if (name === '') return bad(text[i] === ']' ? 'stray-bracket' : 'empty-part');
    steps.push(name === '*' ? EVERY : name);
    i = end;
    if (text[i] === '.') {
      i++;
      if (i === text.length) return bad('trailing-dot');
    }
  }
  return ok(steps);
}

const EVERY: PathStep = { every: true };

type PathFault = 'unclosed' | 'not-an-index' | 'after-bracket' | 'trailing-dot' | 'stray-bracket' | 'empty-part';

/** What is wrong with `path` and how to write one; `inner` is what stands between the brackets. */
function pathProblem(path: string, fault: PathFault, inner: string): string {
  switch (fault) {
    case 'unclosed':
      return t(
        'The path "{0}" has a [ that is not closed: write member names separated by "." and elements as [0] or [*], e.g. balances[*].free.',
        path,
      );
    case 'not-an-index':
      return t(
        'The path "{0}" has [{1}], neither an index nor *: write member names separated by "." and elements as [0] or [*], e.g. balances[*].free.',
        path,
        inner,
      );
    case 'after-bracket':
      return t(
        'The path "{0}" goes on after a ] without a ".": write member names separated by "." and elements as [0] or [*], e.g. balances[*].free.',
        path,
      );
    case 'trailing-dot':
      return t(
        'The path "{0}" ends with a ".": write member names separated by "." and elements as [0] or [*], e.g. balances[*].free.',
        path,
      );
    case 'stray-bracket':
      return t(
        'The path "{0}" has a ] without its [: write member names separated by "." and elements as [0] or [*], e.g. balances[*].free.',
        path,
      );
    case 'empty-part':
      return t(
        'The path "{0}" has an empty part: write member names separated by "." and elements as [0] or [*], e.g. balances[*].free.',
        path,
      );
  }
}

function nameEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && text[i] !== '.' && text[i] !== '[' && text[i] !== ']') i++;
  return i;
}

/** Whether a path goes through `*`, so that it may reach many values (and `count` counts them). */
export function hasWildcard(steps: readonly PathStep[]): boolean {
  return steps.some((s) => typeof s !== 'string');
}

/** Reads the words of a line, each a token with its range. */
class Reader {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly line: number,
    private readonly startChar: number,
  ) {}

  private token(from: number, to: number): Token {
    return {
      text: this.text.slice(from, to),
      range: range(this.line, this.startChar + from, this.line, this.startChar + to),
    };
  }

  private skip(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
  }

  /** The next word, up to white space. */
  word(): Token | undefined {
    this.skip();
    const from = this.i;
    while (this.i < this.text.length && !/\s/.test(this.text[this.i]!)) this.i++;
    return this.i > from ? this.token(from, this.i) : undefined;
  }

  /** A path or header name: up to white space or an operator written against it (`a==b`, as always). */
  subject(): Token | undefined {
    this.skip();
    const from = this.i;
    while (this.i < this.text.length && !/[\s=!<>]/.test(this.text[this.i]!)) this.i++;
    return this.i > from ? this.token(from, this.i) : undefined;
  }

  /** `==`, `<`… (also written against the value), a word, or `not exists` as one operator. */
  operator(): Token | undefined {
    this.skip();
    const symbols = /^[=!<>]+/.exec(this.text.slice(this.i));
    if (symbols) {
      this.i += symbols[0].length;
      return this.token(this.i - symbols[0].length, this.i);
    }
    const word = this.word();
    if (word?.text !== 'not') return word;
    const at = this.i;
    const next = this.word();
    if (next?.text === 'exists') return { text: 'not exists', range: { ...word.range, endChar: next.range.endChar } };
    this.i = at;
    return word;
  }

  /** The rest of the line, trimmed; undefined when nothing is left. */
  rest(): Token | undefined {
    this.skip();
    const from = this.i;
    this.i = this.text.length;
    return from < this.text.length ? this.token(from, this.text.trimEnd().length) : undefined;
  }
}
