/**
 * `# @data` files (docs/format.md, Data files): a CSV file whose header row names the variables, or
 * a JSON array of flat objects, read as rows of variables. A data file comes from a repository like
 * the request file: it is hostile. It is read only as a plain file of the request file's folder or
 * below (core/repo-file.ts: a link out of it, a FIFO or a device is refused), bounded in size (while
 * reading), rows, columns (counted as they are met) and value length, and its values are text that
 * is substituted like any variable, never run.
 */
import { parse } from 'csv-parse/sync';
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BOUNDS, clip, formatSize } from '../bounds';
import { looksLikeSecret } from '../env/secrets';
import type { NamedEnvironment } from '../env/constants';
import type { DataSource } from '../format/directives';
import { readOptions } from '../format/directives';
import { refsOfExpectations } from '../format/expect-variables';
import { isWebSocket, type Diagnostic, type TradeReqDocument } from '../format/model';
import { defaultContext, VariableScope } from '../format/variables';
import { t } from '../l10n';
import { fileProblemText, readRepoFileSync } from '../repo-file';
import { err, ok, type Result } from '../result';
import * as z from '../zod-mini';

/** The rows of a data file: its columns in order, and each row's values by column. */
export interface DataTable {
  readonly columns: readonly string[];
  readonly rows: readonly ReadonlyMap<string, string>[];
}

/** A file variable's name (docs/format.md, Variables) without the leading `$` of system variables. */
const COLUMN = /^[A-Za-z_][\w.-]*$/;

/** Reads `source` (relative to `requestFile`), or says in one line why its rows cannot be had. */
export function loadData(requestFile: string, source: DataSource): Result<DataTable, string> {
  const text = readBounded(requestFile, source.path);
  return text.ok ? parseData(text.value, source.format, source.path) : text;
}

/**
 * loadData for the `# @data` files of one request file, each file read once: a file is known by its
 * real path, so `d.csv`, `./d.csv` and a link to it inside the folder are one file.
 */
export function dataLoader(requestFile: string): (source: DataSource) => Result<DataTable, string> {
  const tables = new Map<string, Result<DataTable, string>>();
  return (source) => {
    const file = resolve(dirname(requestFile), ...source.path.split('/'));
    let key = file;
    try {
      key = realpathSync(file);
    } catch {
      // Not there (or a link to nothing): loadData says why, once for this spelling.
    }
    let table = tables.get(key);
    if (!table) tables.set(key, (table = loadData(requestFile, source)));
    return table;
  };
}

/** The file's text, when it is a plain file of the request file's folder or below (core/repo-file.ts), within the size bound. */
function readBounded(requestFile: string, path: string): Result<string, string> {
  const folder = dirname(requestFile);
  const file = readRepoFileSync(resolve(folder, ...path.split('/')), folder, BOUNDS.dataFileBytes);
  if (!file.ok) {
    const problem = file.error;
    if (problem.kind === 'missing')
      return err(t('{0} cannot be read ({1}): write the path relative to the request file', path, 'ENOENT'));
    if (problem.kind === 'too-large')
      return err(t('{0} is larger than TradeReq reads ({1}): split it', path, formatSize(BOUNDS.dataFileBytes)));
    return err(fileProblemText(path, problem));
  }
  try {
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(file.value.bytes));
  } catch {
    return err(t('{0} is not UTF-8 text', path));
  }
}

/** The rows of a data file's text; `name` names it in messages. */
export function parseData(text: string, format: 'csv' | 'json', name: string): Result<DataTable, string> {
  const table = format === 'csv' ? csvRows(text, name) : jsonRows(text.replace(/^\uFEFF/, ''), name);
  if (!table.ok) return table;
  if (table.value.rows.length === 0)
    return err(
      format === 'csv'
        ? t('{0} has no row: add one below its header', name)
        : t('{0} has no row: add one below its [', name),
    );
  return table;
}

function csvRows(text: string, name: string): Result<DataTable, string> {
  let records: string[][];
  try {
    // One record past the bound is enough to know there are too many.
    records = parse(text, { bom: true, skip_empty_lines: true, to: BOUNDS.dataRows + 2 });
  } catch (e) {
    return err(t('{0} is not valid CSV: {1}', name, clip(e instanceof Error ? e.message : String(e), 200)));
  }
  const [header, ...rows] = records;
  if (!header) return err(t('{0} is empty: its first line names the variables (symbol,side,quantity)', name));
  const columns = checkColumns(
    header.map((h) => h.trim()),
    name,
  );
  if (!columns.ok) return columns;
  if (rows.length > BOUNDS.dataRows) return err(tooManyRows(name));
  const out: Map<string, string>[] = [];
  for (const [i, row] of rows.entries()) {
    const values = new Map<string, string>();
    for (const [c, column] of columns.value.entries()) {
      const value = row[c] ?? '';
      if (value.length > BOUNDS.dataCellChars) return err(tooLong(name, i, column));
      values.set(column, value);
    }
    out.push(values);
  }
  return ok({ columns: columns.value, rows: out });
}

const ValueSchema = z.union([z.string(), z.number(), z.boolean()]);

function jsonRows(text: string, name: string): Result<DataTable, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return err(t('{0} is not valid JSON ({1})', name, clip(e instanceof Error ? e.message : String(e), 200)));
  }
  if (!Array.isArray(parsed)) return err(t('{0} is not a JSON array of objects ([{"symbol": "BTCUSDT"}, …])', name));
  if (parsed.length > BOUNDS.dataRows) return err(tooManyRows(name));
  // Columns in order of first use, each looked up in constant time: past the bound, the rest is not read.
  const columns = new Set<string>();
  const rows: Map<string, string>[] = [];
  for (const [i, item] of (parsed as unknown[]).entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return err(t('{0}: row {1} is not an object of names and values', name, i + 1));
    const values = new Map<string, string>();
    for (const column in item) {
      if (!Object.hasOwn(item, column)) continue;
      if (!columns.has(column) && columns.add(column).size > BOUNDS.dataColumns) return err(tooManyColumns(name));
      const value = ValueSchema.safeParse((item as Record<string, unknown>)[column]);
      if (!value.success)
        return err(t('{0}: row {1}: "{2}" is not a string, number or boolean', name, i + 1, clip(column, 40)));
      const v = String(value.data);
      if (v.length > BOUNDS.dataCellChars) return err(tooLong(name, i, column));
      values.set(column, v);
    }
    rows.push(values);
  }
  const checked = checkColumns([...columns], name);
  return checked.ok ? ok({ columns: checked.value, rows }) : checked;
}

/** Column names are variable names, each once, none that looks like a secret, at most BOUNDS.dataColumns. */
function checkColumns(columns: readonly string[], name: string): Result<readonly string[], string> {
  if (columns.length > BOUNDS.dataColumns) return err(tooManyColumns(name));
  const seen = new Set<string>();
  for (const column of columns) {
    const shown = JSON.stringify(clip(column, 40));
    if (!COLUMN.test(column) || column === '__proto__')
      return err(
        t(
          '{0}: the column {1} is not a variable name: a name starts with a letter or _ and goes on with letters, digits, _, - and .',
          name,
          shown,
        ),
      );
    if (looksLikeSecret(column))
      return err(
        t('{0}: the column {1} looks like a secret, but a data file is shared and holds no secret', name, shown),
      );
    if (seen.has(column)) return err(t('{0}: the column {1} is there twice', name, shown));
    seen.add(column);
  }
  return ok(columns);
}

function tooManyColumns(name: string): string {
  return t('{0} has more than {1} columns: TradeReq reads no more', name, BOUNDS.dataColumns);
}

function tooManyRows(name: string): string {
  return t('{0} has more than {1} rows: TradeReq runs no more; split it', name, BOUNDS.dataRows);
}

function tooLong(name: string, i: number, column: string): string {
  return t('{0}: row {1}: the value of {2} is longer than {3}', name, i + 1, column, formatSize(BOUNDS.dataCellChars));
}

/**
 * What the check step cannot see, since it reads no file: each `# @data` file of `doc` that gives
 * no rows (at its path), and each `{{name}}` of such a request that neither its data file's columns
 * nor the file or `environment` define. For the shells that check a file on disk (`tradereq check`,
 * the editor's diagnostics).
 */
export function dataDiagnostics(
  doc: TradeReqDocument,
  requestFile: string,
  environment: NamedEnvironment,
  load: (source: DataSource) => Result<DataTable, string> = dataLoader(requestFile),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const scope = new VariableScope(doc, defaultContext(environment, { now: () => 0 }));
  // Each file read once, and no more files than a test run reads (cases.ts, withRows).
  const tables = new Map<string, Result<DataTable, string>>();
  for (const request of doc.requests) {
    const { options } = readOptions(doc, request);
    const source = options.data;
    if (!source || isWebSocket(request)) continue;
    let table = tables.get(source.path);
    if (!table && tables.size >= BOUNDS.dataFilesPerFile) break;
    if (!table) tables.set(source.path, (table = load(source)));
    if (!table.ok) {
      out.push({ range: source.range, severity: 'error', message: table.error, rule: 'data-file' });
      continue;
    }
    // Its `# @expect` lines read the row too (format/expect-variables.ts).
    for (const ref of [...request.variableRefs, ...refsOfExpectations(options.expectations)]) {
      if (!scope.definedNowhere(ref.name) || table.value.columns.includes(ref.name)) continue;
      const message = t(
        'Undefined variable {{{0}}}: it is no column of {1}, and neither the file nor the environment "{2}" defines it',
        ref.name,
        source.path,
        environment.name,
      );
      out.push({ range: ref.nameRange, severity: 'error', message, rule: 'undefined-variable' });
    }
  }
  return out;
}
