/**
 * `# @expect message PATH == VALUE` (docs/format.md, WebSocket requests): a check on the pushes that
 * passes when one push matches. PATH goes into the whole push ({c, s, t, d}: `d.deals[0].S`, `s`);
 * VALUE follows the rules of `# @expect json` (src/core/request/expect.ts): written bare or as
 * JSON, compared with the value's text. Fed push by push, so nothing is kept but the last value seen.
 */
import { BOUNDS, clip } from '../bounds';
import { jsonPath, jsonValueText } from '../format/json-value';

export interface MessageExpectation {
  readonly path: string;
  readonly value: string;
  /** As written after `@expect`, for the result line; default `message PATH == VALUE`. */
  readonly text?: string;
}

export interface MessageExpectationResult {
  readonly text: string;
  readonly passed: boolean;
  /** What was seen: the matching push's value, or the last one, or that no push had PATH. */
  readonly actual: string;
}

/** Whether `found` (at a path of a JSON value) is what `written` says, by the rules of `# @expect json`. */
export function matchesWritten(found: unknown, written: string): boolean {
  if (found === undefined) return false;
  // VALUE may be written bare (BTCUSDT, 0.1) or as JSON ("BTCUSDT", 0.1, true).
  const wanted =
    written.length >= 2 && written.startsWith('"') && written.endsWith('"') ? written.slice(1, -1) : written;
  return jsonValueText(found) === wanted;
}

interface Tracked {
  readonly e: MessageExpectation;
  passed: boolean;
  last?: string;
}

/** Checks expectations against each push as it comes. */
export class MessageExpectations {
  private readonly tracked: Tracked[];
  private pushes = 0;

  constructor(expectations: readonly MessageExpectation[]) {
    this.tracked = expectations.map((e) => ({ e, passed: false }));
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
      const found = jsonPath(push, t.e.path);
      if (found === undefined) continue;
      t.last = clip(jsonValueText(found), BOUNDS.messageChars);
      t.passed = matchesWritten(found, t.e.value);
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
            : `${e.path} = ${last}${passed ? '' : ` (the last of ${this.pushes} pushes)`}`,
    }));
  }
}

/** `# @expect message PATH == VALUE` over pushes already received. */
export function checkMessageExpectations(
  expectations: readonly MessageExpectation[],
  pushes: Iterable<unknown>,
): MessageExpectationResult[] {
  const m = new MessageExpectations(expectations);
  for (const p of pushes) m.observe(p);
  return m.results();
}
