/** What the check step found, collected with the severity its rule gives unless a case says otherwise. */
import { lookupError } from '../catalog/errors';
import type { Diagnostic, Range, Severity } from '../format/model';
import { t } from '../l10n';
import { RULES, type RuleId } from '../rules';

export interface FindingExtra {
  /** One of the rule's severities; its usual one by default. */
  readonly severity?: Severity;
  readonly prevents?: number;
  readonly fix?: Diagnostic['fix'];
}

/**
 * The findings in file order, at most `keep` of them: past twice that, the earliest `keep` are
 * kept and the rest only counted, so a hostile file of millions of problems costs no more memory
 * than a thousand (the order is the same as sorting them all: the sort is stable).
 */
export class Findings {
  private items: Diagnostic[] = [];
  /** Findings left out so far, and whether an error is among them. */
  private dropped = { count: 0, error: false };
  /** The codes of the request being checked's `# @expect code N` lines. */
  private expected: ReadonlySet<number> = new Set();

  constructor(private readonly keep: number = Infinity) {}

  add(rule: RuleId, range: Range, message: string, extra: FindingExtra = {}): void {
    const severity = extra.severity ?? RULES[rule].severities[0];
    this.push({ range, severity, message, rule, prevents: extra.prevents, fix: extra.fix });
  }

  /**
   * The service error codes the request checked next expects (`# @expect code N`): a finding that
   * leads to one of them is what the request tests, so it is information, not an error.
   */
  expecting(codes: ReadonlySet<number>): void {
    this.expected = codes;
  }

  /** Appends `items` one by one: a spread of a long list into push() overflows the stack. */
  addAll(items: readonly Diagnostic[]): void {
    for (const d of items) this.push(d);
  }

  /** The findings kept, in file order. */
  get list(): Diagnostic[] {
    this.items.sort(byStart);
    return this.items;
  }

  /** How many findings were left out, and whether an error is among them. */
  get left(): { readonly count: number; readonly error: boolean } {
    return this.dropped;
  }

  private push(d: Diagnostic): void {
    this.items.push(this.expected.size > 0 ? anticipated(d, this.expected) : d);
    if (this.items.length < 2 * this.keep) return;
    this.items.sort(byStart);
    for (const rest of this.items.splice(this.keep)) {
      this.dropped.count++;
      if (rest.severity === 'error') this.dropped.error = true;
    }
  }
}

/** `d` as information when the request expects the service error it leads to. */
function anticipated(d: Diagnostic, expected: ReadonlySet<number>): Diagnostic {
  if (d.severity === 'information' || d.severity === 'hint') return d;
  // The code this finding names when it names one, else every code its rule prevents.
  const codes = d.prevents !== undefined ? [d.prevents] : RULES[d.rule].prevents;
  const code = codes.find((c) => expected.has(c));
  if (code === undefined) return d;
  const message = t('{0} The request expects this rejection (# @expect code {1}): nothing to fix.', d.message, code);
  return { ...d, severity: 'information', message };
}

function byStart(a: Diagnostic, b: Diagnostic): number {
  return a.range.startLine - b.range.startLine || a.range.startChar - b.range.startChar;
}

/**
 * What goes in "(the service answers {N})" of a message: "700005: recvWindow must be less than
 * 60000", the code and its first meaning in the catalog (translated where the catalog's texts are).
 */
export function answer(code: number): string {
  const meaning = lookupError(code)?.meanings[0];
  return meaning === undefined ? String(code) : `${code}: ${t(meaning)}`;
}

/** "a or b or c": alternatives of the service's names, joined in the display language. */
export function either(names: readonly string[]): string {
  let all = names[0] ?? '';
  for (const name of names.slice(1)) all = t('{0} or {1}', all, name);
  return all;
}
