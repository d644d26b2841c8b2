/**
 * What the tests run, made once for them all: the development build in dist/ (`npm run build`) and
 * the two packages of `npm run package` (tradereq.vsix and the npm tarball, from a production build
 * in out/package/dist). `npm test` makes both before its tests start; a test run alone makes them
 * when a source is newer. Test files run side by side (mocha --parallel), and a build rewrites
 * files that other tests run, so making is guarded by a lock folder: one process makes, the others
 * wait for it and then find the outputs up to date.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** What the builds are made from. */
const SOURCES = ['src', 'media', 'package.json', 'esbuild.js', 'scripts'];
const LOCK_STALE_MS = 10 * 60_000; // a build takes seconds; a lock this old was left by a killed run

export interface Packages {
  readonly vsix: string;
  readonly tarball: string;
  /** The production build both were made from. */
  readonly build: string;
}

export const PACKAGES: Packages = {
  vsix: join(ROOT, 'tradereq.vsix'),
  tarball: join(ROOT, `tradereq-${VERSION}.tgz`),
  build: join(ROOT, 'out', 'package', 'dist'),
};

/** dist/ as `npm run build` writes it, made first when missing or older than a source. */
export function ensureBuilt(): void {
  const outputs = ['cli.js', 'extension.js', 'lazy.js', 'tools.js', 'webview/panel.js'].map((f) =>
    join(ROOT, 'dist', f),
  );
  makeOnce('build', outputs, SOURCES, 'esbuild.js');
}

/** The packages of `npm run package`, made first when missing or older than a source. */
export function ensurePackages(): Packages {
  const outputs = [PACKAGES.vsix, PACKAGES.tarball, join(PACKAGES.build, 'cli.js')];
  makeOnce('package', outputs, [...SOURCES, 'README.md', 'LICENSE', 'CHANGELOG.md'], 'scripts/package.js');
  return PACKAGES;
}

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((e) => newest(join(path, e))));
}

function upToDate(outputs: readonly string[], sources: readonly string[]): boolean {
  if (!outputs.every((f) => existsSync(f))) return false;
  const made = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  return sources.every((s) => !existsSync(join(ROOT, s)) || newest(join(ROOT, s)) <= made);
}

/** Blocks the thread for `ms`: the test process has nothing else to do while another one builds. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs the Node script `script` of the repository unless `outputs` are newer than `sources`. */
function makeOnce(name: string, outputs: readonly string[], sources: readonly string[], script: string): void {
  if (upToDate(outputs, sources)) return;
  const lock = join(ROOT, 'out', `.${name}.lock`);
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > LOCK_STALE_MS) rmdirSync(lock);
      else pause(200); // polls for the owner's end: it removes the lock when done
    }
  }
  try {
    if (upToDate(outputs, sources)) return;
    const r = spawnSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`node ${script} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  } finally {
    rmdirSync(lock);
  }
}
