/** What `tradereq test` runs and where its reports go: request files under the paths, reporters and their files. */
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BOUNDS } from '../core/bounds';
import { REPORTERS, type ReporterName } from '../core/testing/reporters';
import { UsageError } from './usage';

export interface FoundFile {
  readonly path: string;
  /** Relative to the folder the run started in, when inside it; as given otherwise. */
  readonly display: string;
}

/** Folders a walk does not enter: dependencies and hidden folders (.git and the like). */
function skipped(name: string): boolean {
  return name === 'node_modules' || name.startsWith('.');
}

/**
 * Every .tradereq file of `paths` (a file named is taken whatever its name; a folder is searched
 * below, without following links), sorted, each once.
 */
export function findRequestFiles(paths: readonly string[], cwd: string): FoundFile[] {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => compare(a.name, b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory() && !skipped(entry.name)) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.tradereq')) found.add(full);
      if (found.size > BOUNDS.testFiles)
        throw new UsageError(
          `more than ${BOUNDS.testFiles} request files under ${paths.join(', ')}: name fewer folders`,
        );
    }
  };
  for (const p of paths) {
    const full = resolve(cwd, p);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) throw new UsageError(`${p}: no such file or folder`);
    if (stat.isDirectory()) walk(full);
    else found.add(full);
  }
  if (found.size === 0) throw new UsageError(`no .tradereq file in ${paths.join(', ')}`);
  return [...found].sort(compare).map((path) => ({ path, display: displayPath(path, cwd) }));
}

function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel.length > 0 && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel) ? rel : path;
}

/** Code-point order: the same on every machine, whatever its locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface ReporterSpec {
  readonly name: ReporterName;
  /** Absolute; undefined for standard output. */
  readonly file?: string;
}

type Token =
  | { readonly kind: 'option'; readonly name: string; readonly value?: string }
  | { readonly kind: 'positional' | 'option-terminator' };

/**
 * The reports asked for, in order: `--reporter NAME`, `--reporter NAME:FILE`, and `--output FILE`
 * for the --reporter before it. Pretty on standard output when none is asked for; at most one
 * report may go to standard output.
 */
export function reporterSpecs(tokens: readonly Token[], cwd: string): ReporterSpec[] {
  const specs: { name: ReporterName; file?: string }[] = [];
  for (const t of tokens) {
    if (t.kind !== 'option' || t.value === undefined) continue;
    if (t.name === 'reporter') {
      const [name, ...rest] = t.value.split(':');
      if (!(REPORTERS as readonly string[]).includes(name!))
        throw new UsageError(`--reporter takes ${REPORTERS.join(', ')} (NAME or NAME:FILE), not "${t.value}"`);
      const file = rest.join(':');
      specs.push({ name: name as ReporterName, file: file.length > 0 ? resolve(cwd, file) : undefined });
    } else if (t.name === 'output') {
      const last = specs[specs.length - 1];
      if (!last || last.file !== undefined)
        throw new UsageError(
          '--output FILE follows the --reporter whose report it writes, e.g. --reporter junit --output report.xml',
        );
      last.file = resolve(cwd, t.value);
    }
  }
  if (specs.length === 0) specs.push({ name: 'pretty' });
  if (specs.filter((s) => s.file === undefined).length > 1)
    throw new UsageError('only one report can go to standard output: give the others --output FILE');
  return specs;
}
