/**
 * The boundaries ARCHITECTURE.md states, checked on the sources: what each folder of src/ may
 * import, and that the activation bundle leaves zod, undici and the sandbox to the lazy one.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(__dirname, '..', '..');
const SRC = join(ROOT, 'src');

interface Import {
  readonly file: string;
  /** A repository path (src/...) for a relative import, the package name otherwise. */
  readonly target: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1]!;
    const target = spec.startsWith('.')
      ? relative(ROOT, resolve(dirname(file), spec)).replace(/\.js$/, '')
      : spec.startsWith('@')
        ? spec.split('/').slice(0, 2).join('/')
        : spec.split('/')[0]!;
    out.push({ file: relative(ROOT, file), target });
  }
  return out;
}

const ALL = sources(SRC).flatMap(importsOf);

function violations(from: string, allowed: (target: string) => boolean): string[] {
  return ALL.filter((i) => i.file.startsWith(from) && !allowed(i.target)).map((i) => `${i.file} → ${i.target}`);
}

const under = (folder: string) => (target: string) => target === folder || target.startsWith(folder + '/');

describe('architecture: the boundaries of ARCHITECTURE.md', () => {
  it('finds the imports it checks (the scan is not empty)', () => {
    assert.ok(ALL.length > 500, `only ${ALL.length} imports found`);
    assert.ok(ALL.some((i) => i.target === 'vscode'));
  });

  it('nothing under src/core/, src/sandbox/ or src/cli/ imports vscode', () => {
    const bad = ALL.filter((i) => i.target === 'vscode' && !i.file.startsWith('src/extension/'));
    assert.deepEqual(
      bad.map((i) => i.file),
      [],
    );
  });

  it('src/core/ imports no shell: not the extension, the command line, the sandbox or the webview', () => {
    const shells = ['src/extension', 'src/cli', 'src/sandbox', 'src/webview'].map(under);
    assert.deepEqual(
      violations('src/core/', (t) => !shells.some((s) => s(t))),
      [],
    );
  });

  it('src/webview/ imports only its own files, the panel protocol and zod', () => {
    const ok = (t: string): boolean => under('src/webview')(t) || t === 'src/core/panel/protocol' || t === 'zod';
    assert.deepEqual(violations('src/webview/', ok), []);
  });

  it('src/sandbox/ imports the core but no shell', () => {
    const shells = ['src/extension', 'src/cli', 'src/webview'].map(under);
    assert.deepEqual(
      violations('src/sandbox/', (t) => !shells.some((s) => s(t)) && t !== 'vscode'),
      [],
    );
  });

  it('src/cli/ imports neither the extension nor the webview', () => {
    const shells = ['src/extension', 'src/webview'].map(under);
    assert.deepEqual(
      violations('src/cli/', (t) => !shells.some((s) => s(t))),
      [],
    );
  });

  it('the activation bundle (dist/extension.js) holds no zod, undici or sandbox: they load on first use', async () => {
    const result = await build({
      entryPoints: [join(SRC, 'extension', 'extension.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode', './lazy.js', './tools.js'],
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
