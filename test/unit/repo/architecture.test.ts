/**
 * The boundaries ARCHITECTURE.md states, checked on the sources: each row of its Folders tables
 * (what a folder may import, read from the table itself), that the core's rows are its layers
 * (a folder imports only folders of rows above it), that no file imports itself round a cycle,
 * and that the activation bundle leaves zod, undici and the sandbox to the lazy one.
 */
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');
const MAP = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

interface Import {
  readonly file: string;
  /** A source file (src/....ts) for a relative import, the package name otherwise. */
  readonly target: string;
}

const posix = (p: string): string => p.split('\\').join('/');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The file a relative specifier names: its .ts file, the index.ts of a folder, or a JSON file as named. */
function sourceFile(from: string, spec: string): string {
  if (spec.endsWith('.json')) return posix(relative(ROOT, resolve(dirname(from), spec)));
  const p = resolve(dirname(from), spec.replace(/\.js$/, ''));
  const file = existsSync(p) && statSync(p).isDirectory() ? join(p, 'index.ts') : `${p}.ts`;
  return posix(relative(ROOT, file));
}

const packageOf = (spec: string): string =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;

/** Real imports only (the compiler's scan: static, dynamic, `require`, `import type`), not text in comments. */
function importsOf(file: string): Import[] {
  const scan = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return scan.importedFiles.map(({ fileName: spec }) => ({
    file: posix(relative(ROOT, file)),
    target: spec.startsWith('.') ? sourceFile(file, spec) : packageOf(spec),
  }));
}

const ALL = sources(SRC).flatMap(importsOf);
const isNode = (t: string): boolean => t.startsWith('node:') || builtinModules.includes(t);

interface Row {
  /** The folder as the table names it. */
  readonly name: string;
  /** What its files are: a path prefix; `core/*.ts` is the files directly in src/core/. */
  readonly holds: (file: string) => boolean;
  readonly specificity: number;
  readonly core: boolean;
  readonly allowed: readonly Allowed[];
  readonly order: number;
}

interface Allowed {
  readonly token: string;
  readonly matches: (target: string) => boolean;
  /** Marked `(up: reason)` in the table: a core folder of a row below, allowed with its reason. */
  readonly up: boolean;
  /** The core folder it names, for the layer order; undefined for a package or a shell. */
  readonly coreFolder?: string;
}

const ROW = /^\| `((?:core|src)\/[^`]*)` \|[^|]*\| ([^|]*) \|/gm;

const prefix =
  (p: string) =>
  (t: string): boolean =>
    t.startsWith(p);

function allowedOf(token: string, core: boolean, up: boolean, npm: boolean): Allowed {
  const base = core ? 'src/core/' : 'src/';
  const dir = join(ROOT, base, token);
  // `ws` (the package): a package named as a core folder is (the WebSocket client's library).
  if (!npm && existsSync(dir) && statSync(dir).isDirectory()) {
    const coreFolder = core ? token : undefined;
    return { token, up, coreFolder, matches: prefix(`${base}${token}/`) };
  }
  if (existsSync(`${dir}.ts`)) return { token, up, matches: (t) => t === `${base}${token}.ts` };
  if (token.endsWith('.json')) return { token, up, matches: (t) => t === token };
  return { token, up, matches: (t) => t === token };
}

function holdsOf(name: string): { holds: (file: string) => boolean; specificity: number; core: boolean } {
  if (name === 'core/*.ts') return { holds: (f) => /^src\/core\/[^/]+\.ts$/.test(f), specificity: 9, core: true };
  const path = name.startsWith('src/') ? name : `src/${name}`;
  return { holds: prefix(path), specificity: path.length, core: path.startsWith('src/core/') };
}

/** The rows of ARCHITECTURE.md's Folders tables, in their order. */
function readRows(): Row[] {
  return [...MAP.matchAll(ROW)].map((m, order) => {
    const { holds, specificity, core } = holdsOf(m[1]!);
    const allowed = [...m[2]!.matchAll(/`([^`]+)`( \(up:| \(the package\))?/g)].map((t) =>
      allowedOf(t[1]!, core, t[2] === ' (up:', t[2] === ' (the package)'),
    );
    return { name: m[1]!, holds, specificity, core, allowed, order };
  });
}

const ROWS = readRows();
const CORE_ROOT = ROWS.find((r) => r.name === 'core/*.ts');

function rowOf(file: string): Row | undefined {
  return ROWS.filter((r) => r.holds(file)).sort((a, b) => b.specificity - a.specificity)[0];
}

/** Whether `row` may import `target`: its own folder, Node's built-ins, the core's root files for the core, or a token. */
function permitted(row: Row, target: string): boolean {
  if (rowOf(target) === row || isNode(target)) return true;
  if (row.core && CORE_ROOT?.holds(target)) return true;
  return row.allowed.some((a) => a.matches(target));
}

/** Every cycle's first closing edge in the graph of src/'s files, as `a → b → … → a`. */
function cycles(): string[] {
  const edges = new Map<string, string[]>();
  for (const i of ALL) if (i.target.startsWith('src/')) edges.set(i.file, [...(edges.get(i.file) ?? []), i.target]);
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const visit = (f: string, path: string[]): void => {
    state.set(f, 'open');
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') found.push([...path.slice(path.indexOf(t)), t].join(' → '));
      else if (!state.has(t)) visit(t, [...path, t]);
    }
    state.set(f, 'done');
  };
  for (const f of edges.keys()) if (!state.has(f)) visit(f, [f]);
  return found;
}

describe('architecture: the boundaries of ARCHITECTURE.md', () => {
  it('finds the imports and the rows it checks (neither scan is empty)', () => {
    assert.ok(ALL.length > 500, `only ${ALL.length} imports found`);
    assert.ok(ALL.some((i) => i.target === 'vscode'));
    assert.ok(ROWS.length >= 20, `only ${ROWS.length} rows read: ${ROWS.map((r) => r.name).join(', ')}`);
  });

  it('every folder of src/ has a row, and every row a folder', () => {
    const files = sources(SRC).map((f) => posix(relative(ROOT, f)));
    assert.deepEqual(
      files.filter((f) => rowOf(f) === undefined),
      [],
    );
    assert.deepEqual(
      ROWS.filter((r) => !files.some((f) => r.holds(f))).map((r) => r.name),
      [],
    );
  });

  it("each folder imports only what its row's “may import” names", () => {
    const bad = ALL.filter((i) => !permitted(rowOf(i.file)!, i.target)).map((i) => `${i.file} → ${i.target}`);
    assert.deepEqual(bad, []);
  });

  it('each row names only what its folder imports (the map does not drift the other way)', () => {
    const unused = ROWS.flatMap((r) =>
      r.allowed
        .filter((a) => !ALL.some((i) => r.holds(i.file) && rowOf(i.file) === r && a.matches(i.target)))
        .map((a) => `${r.name}: ${a.token}`),
    );
    assert.deepEqual(unused, []);
  });

  it("the core's rows are its layers: a folder imports folders of rows above it, at most one arrow marked (up: why)", () => {
    const rank = new Map(ROWS.filter((r) => r.core).map((r) => [r.name.replace(/^core\/|\/$/g, ''), r.order]));
    const up = ROWS.filter((r) => r.core).flatMap((r) =>
      r.allowed.filter((a) => a.coreFolder !== undefined && rank.get(a.coreFolder)! > r.order).map((a) => ({ r, a })),
    );
    assert.deepEqual(
      up.filter(({ a }) => !a.up).map(({ r, a }) => `${r.name} → ${a.token}`),
      [],
      'an arrow up the table not marked (up: why)',
    );
    assert.ok(up.length <= 1, `more than one arrow up: ${up.map(({ r, a }) => `${r.name} → ${a.token}`).join(', ')}`);
  });

  it('no file of src/ imports itself round a cycle', () => {
    assert.deepEqual(cycles(), []);
  });

  it("no two files of src/core/ share a name, but the ones ARCHITECTURE.md allows (a folder's index.ts and types.ts, expect.ts)", () => {
    const names = sources(join(SRC, 'core')).map((f) => f.split(/[\\/]/).pop()!);
    const twice = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    assert.deepEqual(twice.filter((n) => !['index.ts', 'types.ts', 'expect.ts'].includes(n)).sort(), []);
  });

  it('the activation bundle (dist/extension.js) holds no zod, undici or sandbox: they load on first use', async () => {
    const result = await build({
      entryPoints: [join(SRC, 'extension', 'extension.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode', './language.js', './lazy.js', './tools.js', './ws.js'],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(
      inputs.some((p) => p.startsWith('src/extension/')),
      inputs.slice(0, 5).join(', '),
    );
    const heavy = inputs.filter((p) => /node_modules\/(zod|undici|ws)\//.test(p) || p.startsWith('src/sandbox/'));
    assert.deepEqual(heavy, []);
  });
});
