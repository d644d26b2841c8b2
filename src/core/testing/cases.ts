/**
 * A request file as tests: each request a test case, found from the parsed document alone (no
 * resolving, nothing sent), with the ranges the editor's Testing view and the reports need.
 */
import { BOUNDS } from '../bounds';
import { readOptions, type DataSource } from '../format/directives';
import { refsReadBy } from '../format/expect-variables';
import { responsesReadBy } from '../format/variables';
import { isWebSocket, range, type Range, type RequestBlock, type TradeReqDocument } from '../format/model';
import type { Result } from '../result';
import type { DataTable } from './data';

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
  /** Not selected (`--grep`), but run because these selected cases read its answer (their labels). */
  readonly neededBy?: readonly string[];
  /** `# @data FILE`: the request runs once per row (withRows makes a case of each). */
  readonly data?: DataSource;
  /** One row of its request's `# @data` file: its id is the request's with `#rowN`, its label ends with `[row N: …]`. */
  readonly row?: DataRow;
  /** Why its `# @data` file gives no rows: the case fails as bad input, and nothing is sent. */
  readonly dataProblem?: string;
}

interface DataRow {
  /** 1-based, the header not counted. */
  readonly number: number;
  readonly values: ReadonlyMap<string, string>;
  /** `row 3: side=SELL, price=1500`: the columns that differ between the rows, values clipped. */
  readonly text: string;
  /** The request's own label, without the row. */
  readonly requestLabel: string;
}

export const WEBSOCKET_SKIP = 'a WebSocket request: not run as a test (tradereq listen runs it)';

/** Every request of `doc` as a test case, in file order. */
export function testCases(doc: TradeReqDocument): TestCase[] {
  const names = new Map<string, number>();
  for (const r of doc.requests) if (r.name) names.set(r.name.text, (names.get(r.name.text) ?? 0) + 1);
  return doc.requests.map((r) => {
    const name = r.name?.text;
    const title = r.title?.text.trim() || undefined;
    const { options } = readOptions(doc, r);
    return {
      id: name !== undefined && names.get(name) === 1 ? `name:${name}` : `#${r.index + 1}`,
      index: r.index,
      label: title ?? name ?? `${r.requestLine.method.text} ${r.requestLine.target.text}`.trim(),
      title,
      name,
      range: caseRange(r),
      expectRanges: options.expectations.map((e) => e.directive.range),
      skip: isWebSocket(r) ? WEBSOCKET_SKIP : undefined,
      data: isWebSocket(r) ? undefined : options.data,
    };
  });
}

/** Columns a row's label shows, and characters of each value (a data file is hostile: labels stay one short line). */
const LABEL_COLUMNS = 3;
const LABEL_VALUE_CHARS = 24;

/**
 * `cases` with each `# @data` request's case replaced by one case per row of its file, in order, or
 * kept with the reason `rowsOf` gives why there are none (the case then fails as bad input). Each
 * file is read once; past BOUNDS.dataFilesPerFile files or BOUNDS.dataCasesPerFile rows in all, the
 * rest is not read (a hostile file may name thousands).
 */
export function withRows(
  cases: readonly TestCase[],
  rowsOf: (source: DataSource) => Result<DataTable, string>,
): TestCase[] {
  const tables = new Map<string, Result<DataTable, string>>();
  let rows = 0;
  return cases.flatMap((c) => {
    if (!c.data) return [c];
    let table = tables.get(c.data.path);
    if (!table && tables.size >= BOUNDS.dataFilesPerFile)
      return [
        {
          ...c,
          dataProblem: `this file names more than ${BOUNDS.dataFilesPerFile} data files: TradeReq reads no more`,
        },
      ];
    if (!table) tables.set(c.data.path, (table = rowsOf(c.data)));
    if (!table.ok) return [{ ...c, dataProblem: table.error }];
    rows += table.value.rows.length;
    if (rows > BOUNDS.dataCasesPerFile)
      return [
        {
          ...c,
          dataProblem: `the data files of this file hold more than ${BOUNDS.dataCasesPerFile} rows in all: TradeReq runs no more; split the file`,
        },
      ];
    return rowCases(c, table.value);
  });
}

/** The cases of a `# @data` request's rows: ids `name:buy#row3`, labels `buy [row 3: symbol=ETHUSDT]`. */
function rowCases(c: TestCase, table: DataTable): TestCase[] {
  return table.rows.map((values, i) => {
    const text = rowText(table, i);
    const row: DataRow = { number: i + 1, values, text, requestLabel: c.label };
    return { ...c, id: `${c.id}#row${i + 1}`, label: `${c.label} [${text}]`, row };
  });
}

/**
 * `row 3: side=SELL, price=1500`: row `i` (0-based) by the columns whose values differ between the
 * rows (those that tell it from the others; a column all rows share says nothing), else by the first
 * columns (one row, or rows alike).
 */
export function rowText(table: DataTable, i: number): string {
  const values = table.rows[i] ?? new Map<string, string>();
  const columns = labelColumns(table);
  const shown = columns.slice(0, LABEL_COLUMNS).filter((col) => values.has(col));
  const cells = shown.map((col) => `${col}=${labelValue(values.get(col)!)}`);
  if (columns.length > LABEL_COLUMNS) cells.push('…');
  return `row ${i + 1}${cells.length > 0 ? `: ${cells.join(', ')}` : ''}`;
}

/** The label columns of each table, found once: every row's label reads them (up to BOUNDS.dataRows × BOUNDS.dataColumns values). */
const LABEL_COLUMNS_OF = new WeakMap<DataTable, readonly string[]>();

/** The columns whose values differ between the rows of `table`, else all of its columns. */
function labelColumns(table: DataTable): readonly string[] {
  let columns = LABEL_COLUMNS_OF.get(table);
  if (columns === undefined) {
    const [first, ...rest] = table.rows;
    const differing = table.columns.filter((col) => rest.some((row) => row.get(col) !== first?.get(col)));
    columns = differing.length > 0 ? differing : table.columns;
    LABEL_COLUMNS_OF.set(table, columns);
  }
  return columns;
}

/** One line, at most LABEL_VALUE_CHARS characters. */
function labelValue(value: string): string {
  // eslint-disable-next-line no-control-regex -- line breaks and controls of a hostile file, out of a one-line label
  const line = value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return line.length <= LABEL_VALUE_CHARS ? line : `${line.slice(0, LABEL_VALUE_CHARS - 1)}…`;
}

function caseRange(r: RequestBlock): Range {
  const start = r.separator?.startLine ?? r.requestLine.range.startLine;
  return range(start, 0, r.range.endLine, r.range.endChar);
}

/** Whether `--grep PATTERN` selects the case: its title, name or label matches. */
export function matchesGrep(c: TestCase, pattern: RegExp): boolean {
  return [c.title, c.name, c.label].some((text) => text !== undefined && pattern.test(text));
}

/** A request as `tradereq send` titles it, as caseTitle does: its ### title with its # @name, or either; none without both. */
export function requestTitle(request: RequestBlock): string | undefined {
  const title = request.title?.text.trim() || undefined;
  return title === undefined ? request.name?.text : withName(title, request.name?.text);
}

/** "Buy at a limit price (buy)": the label, with the `# @name` when it says something more (and a data row's `[row N: …]` after it). */
export function caseTitle(c: TestCase): string {
  return c.row ? `${withName(c.row.requestLabel, c.name)} [${c.row.text}]` : withName(c.label, c.name);
}

function withName(label: string, name: string | undefined): string {
  return name !== undefined && name !== label ? `${label} (${name})` : label;
}

/** The cases `pattern` selects (all without one), with the requests they read answers from (withNeeded). */
export function selectCases(doc: TradeReqDocument, all: readonly TestCase[], pattern: RegExp | undefined): TestCase[] {
  return pattern ? withNeeded(doc, all, (c) => matchesGrep(c, pattern)) : [...all];
}

/**
 * The cases `picked` picks (`--grep`, the Testing view's selection), with the requests they read
 * answers from (`{{NAME.response.PATH}}`: the nearest earlier request of that name, and what it
 * reads in turn), in file order. An added case says which picked ones need it.
 */
export function withNeeded(
  doc: TradeReqDocument,
  all: readonly TestCase[],
  picked: (c: TestCase) => boolean,
): TestCase[] {
  const neededBy = new Map<number, Set<string>>();
  const selected = all.filter(picked);
  const chosen = new Set(selected.map((c) => c.index));
  const labels = new Map(all.map((c) => [c.index, c.label]));
  const stack = selected.map((c) => c.index);
  const nearestNamed = namedAt(doc);
  // Each case names the one that reads it directly: "Cancel it" reads "Buy", which reads "Quote".
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    // What its `# @expect` lines read counts too: `orderId == {{buy.response.orderId}}` needs buy's answer.
    const request = doc.requests[next]!;
    for (const name of responsesReadBy(doc, { variableRefs: refsReadBy(doc, request) })) {
      const source = nearestNamed(name, next);
      if (source === undefined || chosen.has(source)) continue;
      const by = neededBy.get(source) ?? new Set<string>();
      if (by.size === 0) stack.push(source);
      neededBy.set(source, by.add(labels.get(next) ?? `#${next + 1}`));
    }
  }
  return all
    .filter((c) => chosen.has(c.index) || neededBy.has(c.index))
    .map((c) => (neededBy.has(c.index) ? { ...c, neededBy: [...neededBy.get(c.index)!] } : c));
}

/** '"Cancel it", "Close" reads its answer': why a case that --grep did not select runs. */
export function neededByText(neededBy: readonly string[]): string {
  return `${neededBy.map((l) => `"${l}"`).join(', ')} reads its answer`;
}

/** Where each `# @name` occurs, in file order: the nearest earlier one is found by bisection (a file may hold 20,000). */
function namedAt(doc: TradeReqDocument): (name: string, before: number) => number | undefined {
  const at = new Map<string, number[]>();
  for (const r of doc.requests) {
    if (!r.name) continue;
    const list = at.get(r.name.text);
    if (list) list.push(r.index);
    else at.set(r.name.text, [r.index]);
  }
  return (name, before) => {
    const list = at.get(name) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < before) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? list[lo - 1] : undefined;
  };
}
