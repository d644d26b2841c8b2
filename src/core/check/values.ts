/** The values the check step looks at: literal, or substituted when they use variables. */
import type { NamedEnvironment } from '../env/constants';
import type { Param } from '../format/model';
import type { ResolveContext, VariableScope } from '../format/variables';

/** Stands for a response field, known only at send time; values holding it are not checked. */
const RESPONSE_PLACEHOLDER = '\u0000response\u0000';

/**
 * Scope for checks: real values for file and environment variables, fixed ones for system
 * variables, and a placeholder for the response of any request the file names.
 */
export function checkContext(environment: NamedEnvironment, names: ReadonlySet<string>): ResolveContext {
  const placeholder = new Proxy({}, { get: () => RESPONSE_PLACEHOLDER });
  return {
    environment,
    now: () => Date.now(),
    uuid: () => '00000000-0000-4000-8000-000000000000',
    clientOrderId: () => 'X'.repeat(32),
    response: (name) => (names.has(name) ? placeholder : undefined),
  };
}

export interface CheckedValue {
  readonly value: string;
  /** Written as is in the file, so a quick fix may replace it (not when it comes through a variable). */
  readonly literal: boolean;
}

/** The value to check: the literal, or the substituted value when it uses variables. */
export function effectiveValue(p: Param, scope: VariableScope): CheckedValue | undefined {
  return effectiveText(p.value.text, scope);
}

/** A text to check (a value, a stream name): as written, or substituted when it uses variables. */
export function effectiveText(text: string, scope: VariableScope): CheckedValue | undefined {
  if (text.indexOf('{{') < 0) return { value: text, literal: true };
  const r = scope.substitute(text);
  // An unclosed `{{` is reported by the parser; the half-typed value is not checked.
  return r.ok && !r.value.includes(RESPONSE_PLACEHOLDER) && !r.value.includes('{{')
    ? { value: r.value, literal: false }
    : undefined;
}
