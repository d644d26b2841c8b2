/** What `tradereq test` runs and where its reports go: request files under the paths, reporters and their files. */
import { accessSync, constants, lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BOUNDS } from '../core/bounds';
import { REPORTERS, type ReporterName } from '../core/testing/reporters';
import { INPUT, TEST } from './messages';
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
      if (found.size > BOUNDS.testFiles) throw new UsageError(INPUT.tooManyFiles(BOUNDS.testFiles, paths));
    }
  };
  for (const p of paths) {
    const full = resolve(cwd, p);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) throw new UsageError(INPUT.noSuchPath(p));
    if (stat.isDirectory()) walk(full);
    else found.add(full);
  }
  if (found.size === 0) throw new UsageError(INPUT.noFiles(paths));
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
      if (!(REPORTERS as readonly string[]).includes(name!)) throw new UsageError(TEST.reporter(REPORTERS, t.value));
      const file = rest.join(':');
      specs.push({ name: name as ReporterName, file: file.length > 0 ? resolve(cwd, file) : undefined });
    } else if (t.name === 'output') {
      const last = specs[specs.length - 1];
      if (!last || last.file !== undefined) throw new UsageError(TEST.outputFollows);
      last.file = resolve(cwd, t.value);
    }
  }
  if (specs.length === 0) specs.push({ name: 'pretty' });
  if (specs.filter((s) => s.file === undefined).length > 1) throw new UsageError(TEST.oneToStdout);
  return specs;
}

const REQUEST_FILE = /\.tradereq$/i;
const ENV_FILE = /^tradereq\.env\.json$/i;

/**
 * Where the reports go, checked before anything is sent: a report never replaces a folder, a
 * request file (any .tradereq, those of the run first), an environment file or another report,
 * and its folder exists or can be made. The first problem is a UsageError (exit 2).
 */
export function checkReportPaths(specs: readonly ReporterSpec[], inputs: readonly FoundFile[]): void {
  const taken = new Set(inputs.map((f) => realPath(f.path) ?? f.path));
  const reports = new Set<string>();
  for (const spec of specs) {
    if (spec.file === undefined) continue;
    const problem = reportPathProblem(spec.file, taken, reports);
    if (problem !== undefined) throw new UsageError(TEST.reportPath(spec.name, problem));
  }
}

/** Why a report may not be written to `file`, if so; notes it among `reports`. */
function reportPathProblem(file: string, inputs: ReadonlySet<string>, reports: Set<string>): string | undefined {
  const link = statOf(file, lstatSync);
  const real = realPath(file);
  // A link is judged by what it points to: writing through it would replace that.
  if (link?.isSymbolicLink() && real === undefined) return TEST.linkToNothing(file);
  const target = real ?? file;
  if (statOf(target, statSync)?.isDirectory()) return TEST.isFolder(file);
  if (inputs.has(target) || REQUEST_FILE.test(target) || REQUEST_FILE.test(file)) return TEST.isRequestFile(file);
  if (ENV_FILE.test(basename(target)) || ENV_FILE.test(basename(file))) return TEST.isEnvFile(file);
  if (reports.has(target)) return TEST.givenTwice(file);
  reports.add(target);
  return link ? writable(target) : folderProblem(dirname(target));
}

/** The nearest folder of `dir` that exists is one (the rest can be made) and can be written. */
function folderProblem(dir: string): string | undefined {
  let at = dir;
  let stat = statOf(at, statSync);
  while (!stat && dirname(at) !== at) {
    at = dirname(at);
    stat = statOf(at, statSync);
  }
  if (stat && !stat.isDirectory()) return TEST.fileNotFolder(at);
  return writable(at);
}

function writable(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (e) {
    return TEST.notWritable(path, (e as NodeJS.ErrnoException).code);
  }
}

/** What is at `path`; undefined when nothing is (or a file stands where a folder of it should). */
function statOf(path: string, stat: (path: string) => Stats): Stats | undefined {
  try {
    return stat(path);
  } catch {
    return undefined;
  }
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
