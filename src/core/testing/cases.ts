/**
 * A request file as tests: each request a test case, found from the parsed document alone (no
 * resolving, nothing sent), with the ranges the editor's Testing view and the reports need.
 */
import { readOptions } from '../format/directives';
import { isWebSocket, range, type Range, type RequestBlock, type TradeReqDocument } from '../format/model';

export interface TestCase {
  /** Stable within its file: `name:NAME` for a request with a unique `# @name`, else `#N` (1-based). */
  readonly id: string;
  /** Position among the file's requests, 0-based. */
  readonly index: number;
  /** The `###` title, else the `# @name`, else `METHOD PATH`. */
  readonly label: string;
  readonly title?: string;
  readonly name?: string;
  /** From the `###` line (or the request line of a first request without one) to the block's end. */
  readonly range: Range;
  /** The `# @expect` lines that apply to it (the file's and its own), in order. */
  readonly expectRanges: readonly Range[];
  /** Why it is not run as a test (a WebSocket request), when it is not. */
  readonly skip?: string;
}

export const WEBSOCKET_SKIP = 'a WebSocket request: not run as a test (tradereq listen runs it)';

/** Every request of `doc` as a test case, in file order. */
export function testCases(doc: TradeReqDocument): TestCase[] {
  const names = new Map<string, number>();
  for (const r of doc.requests) if (r.name) names.set(r.name.text, (names.get(r.name.text) ?? 0) + 1);
  return doc.requests.map((r) => {
    const name = r.name?.text;
    const title = r.title?.text.trim() || undefined;
    return {
      id: name !== undefined && names.get(name) === 1 ? `name:${name}` : `#${r.index + 1}`,
      index: r.index,
      label: title ?? name ?? `${r.requestLine.method.text} ${r.requestLine.target.text}`.trim(),
      title,
      name,
      range: caseRange(r),
      expectRanges: readOptions(doc, r).options.expectations.map((e) => e.directive.range),
      skip: isWebSocket(r) ? WEBSOCKET_SKIP : undefined,
    };
  });
}

function caseRange(r: RequestBlock): Range {
  const start = r.separator?.startLine ?? r.requestLine.range.startLine;
  return range(start, 0, r.range.endLine, r.range.endChar);
}

/** Whether `--grep PATTERN` selects the case: its title, name or label matches. */
export function matchesGrep(c: TestCase, pattern: RegExp): boolean {
  return [c.title, c.name, c.label].some((text) => text !== undefined && pattern.test(text));
}

/** "Buy at a limit price (buy)": the label, with the `# @name` when it says something more. */
export function caseTitle(c: TestCase): string {
  return c.name !== undefined && c.name !== c.label ? `${c.label} (${c.name})` : c.label;
}
