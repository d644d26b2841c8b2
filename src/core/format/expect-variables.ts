/**
 * `{{variables}}` in `# @expect` lines (docs/format.md, Expectations): substituted when a send judges
 * the lines, into the expected values only, after the line is read into its parts (expectation.ts).
 * So a value, from a data row or a hostile answer, is compared as text (or as the decimal it writes)
 * and never read as an operator, a list, a path or a pattern. Substituted in the request's own scope
 * (variables.ts): the same order, the same bounds and the same refusals (a listen key of an answer
 * never resolves), and an undefined one stops the send as one in the request does.
 */
import { BOUNDS, clip } from '../bounds';
import { readOptions, type Expectation } from './directives';
import { inSets, notANumber, withDecimal, writesVariable, type Check, type Written } from './expectation';
import { range, type RequestBlock, type Token, type TradeReqDocument, type VariableRef } from './model';
import type { Problems } from './resolve-begin';
import { unresolvedRefs, type VariableScope } from './variables';

const COMPARED_AS_NUMBERS: ReadonlySet<string> = new Set(['<', '<=', '>', '>=']);

/** The operand a send substitutes into: a value of `json`, `header` or `message` lines; never a pattern or a count. */
function valueOperand(e: Expectation): Token | undefined {
  if (e.kind !== 'json' && e.kind !== 'header' && e.kind !== 'message') return undefined;
  return 'value' in e.check || e.check.op === 'in' ? e.parts.operand : undefined;
}

/** The `{{name}}`s of an expectation's value, with their ranges, read as the resolver reads them (variables.ts expand). */
function expectationRefs(e: Expectation): VariableRef[] {
  const operand = valueOperand(e);
  if (operand === undefined || !writesVariable(operand.text)) return [];
  const { text } = operand;
  const { startLine: line, startChar: at } = operand.range;
  const out: VariableRef[] = [];
  for (let p = text.indexOf('{{'); p >= 0; p = text.indexOf('{{', p)) {
    const close = text.indexOf('}}', p + 2);
    if (close < 0) break;
    const raw = text.slice(p + 2, close);
    const name = raw.trim();
    const start = at + p + 2 + raw.length - raw.trimStart().length;
    if (name !== '')
      out.push({
        name,
        range: range(line, at + p, line, at + close + 2),
        nameRange: range(line, start, line, start + name.length),
      });
    p = close + 2;
  }
  return out;
}

/** The `{{name}}`s of every `# @expect` line in `expectations`. */
export function refsOfExpectations(expectations: readonly Expectation[]): VariableRef[] {
  return expectations.flatMap(expectationRefs);
}

/** What `request` reads: its own `{{name}}`s and those of its `# @expect` lines (the file's and its own). */
export function refsReadBy(doc: TradeReqDocument, request: RequestBlock): readonly VariableRef[] {
  const own = refsOfExpectations(readOptions(doc, request).options.expectations);
  return own.length === 0 ? request.variableRefs : [...request.variableRefs, ...own];
}

/**
 * `expectations` with their values' variables substituted in `scope`, for a send that judges them;
 * what cannot be is recorded in `problems` (nothing is sent then). Unchanged when none writes one.
 */
export function resolveExpectations(
  expectations: readonly Expectation[],
  scope: VariableScope,
  problems: Problems,
): readonly Expectation[] {
  if (!expectations.some((e) => expectationRefs(e).length > 0)) return expectations;
  return expectations.map((e) => resolveOne(e, scope, problems));
}

function resolveOne(e: Expectation, scope: VariableScope, problems: Problems): Expectation {
  const refs = expectationRefs(e);
  const operand = valueOperand(e);
  if (refs.length === 0 || operand === undefined || e.kind === 'snapshot') return e;
  const unresolved = unresolvedRefs(refs, scope);
  if (unresolved.length > 0) {
    problems.list.push(...unresolved);
    return e;
  }
  const value = (w: Written): Written | undefined => {
    if (!writesVariable(w.text)) return w;
    const r = scope.substitute(w.text);
    if (r.ok) return withDecimal(r.value);
    problems.add(operand.range, scope.notSentMessage(r.error), 'variable-expansion');
    return undefined;
  };
  const check = substitutedCheck(e.check, value, operand, problems);
  return check === undefined ? e : { ...e, check, shown: shownLine(e, check, operand) };
}

/** `check` with each of its values substituted; undefined when one cannot be (recorded in `problems`). */
function substitutedCheck(
  check: Check,
  value: (w: Written) => Written | undefined,
  operand: Token,
  problems: Problems,
): Check | undefined {
  if (check.op === 'in') {
    const values = check.values.map(value);
    if (!values.every((v): v is Written => v !== undefined)) return undefined;
    return { op: 'in', values, ...inSets(values) };
  }
  if (!('value' in check)) return check;
  const v = value(check.value);
  if (v === undefined) return undefined;
  if (COMPARED_AS_NUMBERS.has(check.op) && v.decimal === undefined) {
    problems.add(operand.range, notANumber(check.op, clip(v.text, BOUNDS.messageChars)), 'expect-number');
    return undefined;
  }
  return { ...check, value: v };
}

/** The line after `@expect` as a result shows it: the values substituted, bounded (a value may be 64 KiB). */
function shownLine(e: Expectation, check: Check, operand: Token): string {
  const args = e.directive.args!;
  const before = args.text.slice(0, operand.range.startChar - args.range.startChar);
  const quoted = operand.text.length >= 2 && operand.text.startsWith('"') && operand.text.endsWith('"');
  const shown =
    check.op === 'in'
      ? `[${check.values.map((v) => (/[\s,"[\]]/.test(v.text) ? JSON.stringify(v.text) : v.text)).join(', ')}]`
      : 'value' in check
        ? quoted
          ? `"${check.value.text}"`
          : check.value.text
        : operand.text;
  return before + clip(shown, BOUNDS.messageChars);
}
