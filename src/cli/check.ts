import { resolve } from 'node:path';
import { checkDocument } from '../core/check/check';
import type { NamedEnvironment } from '../core/env/constants';
import type { Diagnostic } from '../core/format/model';
import { parseCommand } from './args';
import { findRequestFiles } from './test-files';
import { readRequestFile, selectEnvironment, type LoadedFile } from './workspace';
import { CHECK, CLI, INPUT } from './messages';
import { readRequestStdin, stdinDataRefused, STDIN_PATH } from './stdin';
import { isUsageError, UsageError, type Io } from './usage';

/**
 * `check --json`'s document (docs/cli.md, "Commands"): its version goes up only when a field changes
 * meaning or goes away; a new field keeps it.
 */
const CHECK_JSON_VERSION = 1;

/** One finding of `check --json`: lines and columns from 1, as the text form prints them. */
interface Finding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: Diagnostic['severity'];
  readonly rule: string;
  readonly message: string;
}

export async function checkCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('check', args, { env: { type: 'string' }, json: { type: 'boolean' } });
  if (values.help) {
    io.out(CHECK.help);
    return 0;
  }
  const paths: readonly string[] = positionals;
  if (paths.length === 0) throw new UsageError(CHECK.needsPath);
  if (paths.includes(STDIN_PATH) && paths.length > 1) throw new UsageError(INPUT.onlyStdin);
  const { files, unread } =
    paths[0] === STDIN_PATH ? { files: [await stdinFile(io)], unread: false } : requestFiles(paths, io);
  const findings: Finding[] = [];
  for (const { display, file } of files) {
    const environment = selectEnvironment(file.path, values.env, io.env);
    for (const d of [...checkDocument(file.doc, { environment }), ...dataFileProblems(file, environment)])
      findings.push(findingOf(display, d));
  }
  if (values.json) io.out(JSON.stringify({ version: CHECK_JSON_VERSION, findings }, null, 2));
  else if (findings.length > 0)
    io.out(findings.map((f) => `${f.file}:${f.line}:${f.column}: ${f.severity}: ${f.message}`).join('\n'));
  // EXIT's numbers (send.ts), written out: importing send.ts would put its pipeline in this bundle.
  return unread ? 2 : findings.some((f) => f.severity === 'error') ? 1 : 0;
}

function findingOf(file: string, d: Diagnostic): Finding {
  const { startLine, startChar, endLine, endChar } = d.range;
  return {
    file,
    line: startLine + 1,
    column: startChar + 1,
    endLine: endLine + 1,
    endColumn: endChar + 1,
    severity: d.severity,
    rule: d.rule,
    message: d.message,
  };
}

/** `check -`: the request file on standard input, shown as "-" (stdin.ts: its environment is the current folder's). */
async function stdinFile(io: Io): Promise<Named> {
  return { display: STDIN_PATH, file: await readRequestStdin(io) };
}

/** What the check step cannot see: the `# @data` files (read from disk, loaded only for a file that names one). */
function dataFileProblems(file: LoadedFile, environment: NamedEnvironment): Diagnostic[] {
  if (!/#\s*@data\b/.test(file.text)) return [];
  const { dataDiagnostics } = require('../core/testing/data') as typeof import('../core/testing/data');
  // A file from standard input has no folder to read a data file from: each is a finding.
  const fromStdin = file.displayPath === STDIN_PATH;
  return fromStdin
    ? dataDiagnostics(file.doc, file.path, environment, stdinDataRefused)
    : dataDiagnostics(file.doc, file.path, environment);
}
interface Named {
  readonly display: string;
  readonly file: LoadedFile;
}

/**
 * The request files of every path (a folder's as for `test`), each once and read; a path that
 * names none or cannot be read is one line on stderr, and the other paths are still checked.
 */
function requestFiles(paths: readonly string[], io: Io): { files: Named[]; unread: boolean } {
  const seen = new Set<string>();
  const files: Named[] = [];
  let unread = false;
  for (const p of paths) {
    const found = orSay(io, () => findRequestFiles([p], io.cwd)) ?? [];
    if (found.length === 0) unread = true;
    for (const f of found) {
      if (seen.has(f.path)) continue;
      seen.add(f.path);
      // A file named is shown as it was named; a folder's files relative to where check runs.
      const display = f.path === resolve(io.cwd, p) ? p : f.display;
      const file = orSay(io, () => readRequestFile(display, io.cwd));
      if (file) files.push({ display, file });
      else unread = true;
    }
  }
  return { files, unread };
}

/** What `read` gives, or undefined after its UsageError's one line on stderr. */
function orSay<T>(io: Io, read: () => T): T | undefined {
  try {
    return read();
  } catch (e) {
    if (!isUsageError(e)) throw e;
    io.err(CLI.said(e.message));
    return undefined;
  }
}
