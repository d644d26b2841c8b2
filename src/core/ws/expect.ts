/**
 * `# @expect message PATH OP VALUE` (docs/format.md, WebSocket requests): a check on the pushes that
 * passes when one push satisfies it. PATH goes into the whole push: a JSON push's {c, s, t, d}
 * (`d.deals[0].S`, `s`, `d.deals[*].p`), or a decoded Protocol Buffers push's {channel, symbol, …,
 * BODY} (`publicAggreDeals.deals[0].price`; docs/websocket.md, "Protocol Buffers pushes"); every operator of `# @expect json` applies, judged by the same rules
 * (src/core/request/expect.ts). Fed push by push, so nothing is kept but the last value seen.
 */
import { BOUNDS, clip } from '../bounds';
import { parsePath, readExpectationLine, written, type Check } from '../format/expectation';
import { jsonValueText, type PathStep } from '../format/json-value';
import { judgePath } from '../request/expect';

export interface MessageExpectation {
  readonly path: string;
  readonly value: string;
  /** As written after `@expect` (`message PATH OP VALUE`), read for its operator; default `message PATH == VALUE`. */
  readonly text?: string;
  /**
   * The line as read, its values' variables substituted (format/expect-variables.ts): judged as is,
   * `text` then only shown (a substituted value is never read again as the line's grammar).
   */
  readonly line?: { readonly check: Check; readonly steps: readonly PathStep[] };
}

export interface MessageExpectationResult {
  readonly text: string;
  readonly passed: boolean;
  /** What was seen: the passing push's value, or the last one, or that no push had PATH. */
  readonly actual: string;
}

/** Whether `found` (at a path of a JSON value) has the text `written` says (bare or in quotes): `==` as it always was. */
export function matchesWritten(found: unknown, written: string): boolean {
  if (found === undefined) return false;
  const wanted =
    written.length >= 2 && written.startsWith('"') && written.endsWith('"') ? written.slice(1, -1) : written;
  return jsonValueText(found) === wanted;
}

interface Tracked {
  readonly e: MessageExpectation;
  readonly check: Check;
  readonly steps: readonly PathStep[];
  passed: boolean;
  last?: string;
}

/** The check of an expectation: its line as written, else `PATH == VALUE`. */
function tracked(e: MessageExpectation): Tracked {
  if (e.line) return { e, check: e.line.check, steps: e.line.steps, passed: false };
  const line = e.text === undefined ? undefined : readExpectationLine(e.text);
  if (line?.ok && line.value.kind === 'message')
    return { e, check: line.value.check, steps: line.value.steps, passed: false };
  const steps = parsePath(e.path);
  return { e, check: { op: '==', value: written(e.value) }, steps: steps.ok ? steps.value : [e.path], passed: false };
}

/** Checks expectations against each push as it comes. */
export class MessageExpectations {
  private readonly tracked: Tracked[];
  private pushes = 0;

  constructor(expectations: readonly MessageExpectation[]) {
    this.tracked = expectations.map(tracked);
  }

  /** Whether every expectation has passed (a listen may stop early). */
  get allPassed(): boolean {
    return this.tracked.every((t) => t.passed);
  }

  /** Checks one push (the parsed JSON of the frame) against the expectations not yet passed. */
  observe(push: unknown): void {
    this.pushes++;
    for (const t of this.tracked) {
      if (t.passed) continue;
      const { judgement, found } = judgePath(t.check, t.e.path, t.steps, push);
      // A push without PATH says nothing about it, unless that is what passes (`not exists`).
      if (!found && !judgement.passed) continue;
      t.last = clip(judgement.actual, BOUNDS.messageChars);
      t.passed = judgement.passed;
    }
  }

  results(): MessageExpectationResult[] {
    return this.tracked.map(({ e, passed, last }) => ({
      text: `@expect ${e.text ?? `message ${e.path} == ${e.value}`}`,
      passed,
      actual:
        this.pushes === 0
          ? 'no push'
          : last === undefined
            ? `no push of ${this.pushes} had ${e.path}`
            : `${last}${passed ? '' : ` (the last of ${this.pushes} pushes)`}`,
    }));
  }
}

/** `# @expect message` lines over pushes already received. */
export function checkMessageExpectations(
  expectations: readonly MessageExpectation[],
  pushes: Iterable<unknown>,
): MessageExpectationResult[] {
  const m = new MessageExpectations(expectations);
  for (const p of pushes) m.observe(p);
  return m.results();
}
