import { resolve } from 'node:path';
import { checkDocument } from '../core/check/check';
import type { NamedEnvironment } from '../core/env/constants';
import type { Diagnostic } from '../core/format/model';
import { parseCommand } from './args';
import { findRequestFiles } from './test-files';
import { readRequestFile, selectEnvironment, type LoadedFile } from './workspace';
import { CHECK, CLI } from './messages';
import { isUsageError, UsageError, type Io } from './usage';

export function checkCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('check', args, { env: { type: 'string' } });
  if (values.help) {
    io.out(CHECK.help);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError(CHECK.needsPath);
  const { files, unread } = requestFiles(positionals, io);
  let errors = 0;
  const lines: string[] = [];
  for (const { display, file } of files) {
    const environment = selectEnvironment(file.path, values.env, io.env);
    for (const d of [...checkDocument(file.doc, { environment }), ...dataFileProblems(file, environment)]) {
      if (d.severity === 'error') errors++;
      lines.push(`${display}:${d.range.startLine + 1}:${d.range.startChar + 1}: ${d.severity}: ${d.message}`);
    }
  }
  if (lines.length > 0) io.out(lines.join('\n'));
  // EXIT's numbers (send.ts), written out: importing send.ts would put its pipeline in this bundle.
  return unread ? 2 : errors > 0 ? 1 : 0;
}

/** What the check step cannot see: the `# @data` files (read from disk, loaded only for a file that names one). */
function dataFileProblems(file: LoadedFile, environment: NamedEnvironment): Diagnostic[] {
  if (!/#\s*@data\b/.test(file.text)) return [];
  const { dataDiagnostics } = require('../core/testing/data') as typeof import('../core/testing/data');
  return dataDiagnostics(file.doc, file.path, environment);
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
