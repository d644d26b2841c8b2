/** What the check step found, collected with the severity its rule gives unless a case says otherwise. */
import { lookupError } from '../catalog/errors';
import type { Diagnostic, Range, Severity } from '../format/model';
import { RULES, type RuleId } from '../rules';

export interface FindingExtra {
  /** One of the rule's severities; its usual one by default. */
  readonly severity?: Severity;
  readonly prevents?: number;
  readonly fix?: Diagnostic['fix'];
}

export class Findings {
  readonly list: Diagnostic[] = [];

  add(rule: RuleId, range: Range, message: string, extra: FindingExtra = {}): void {
    const severity = extra.severity ?? RULES[rule].severities[0];
    this.list.push({ range, severity, message, rule, prevents: extra.prevents, fix: extra.fix });
  }

  /** Appends `items` one by one: a spread of a long list into push() overflows the stack. */
  addAll(items: readonly Diagnostic[]): void {
    for (const d of items) this.list.push(d);
  }
}

/** " (the service answers 700005: recvWindow must be less than 60000)". */
export function answers(code: number): string {
  const info = lookupError(code);
  return info ? ` (the service answers ${code}: ${info.meanings[0]})` : ` (the service answers ${code})`;
}
