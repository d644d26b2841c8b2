/**
 * What the tests run, made once for them all: the development build in dist/ (`npm run build`) and
 * the two packages of `npm run package` (tradereq.vsix and the npm tarball, from a production build
 * in out/package/dist). `npm test` makes both before its tests start; a test run alone makes them
 * when a source is newer. Test files run side by side (mocha --parallel), and a build rewrites
 * files that other tests run, so looking and making are guarded by a lock file: one process makes,
 * the others wait for it and then find the outputs up to date.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** What the builds are made from. */
const SOURCES = ['src', 'media', 'package.json', 'package-lock.json', 'tsconfig.json', 'esbuild.js', 'scripts'];

export interface Packages {
  readonly vsix: string;
  readonly tarball: string;
  /** The production build both were made from. */
  readonly build: string;
}

const PACKAGES: Packages = {
  vsix: join(ROOT, 'tradereq.vsix'),
  tarball: join(ROOT, `tradereq-${VERSION}.tgz`),
  build: join(ROOT, 'out', 'package', 'dist'),
};

/** dist/ as `npm run build` writes it, made first when missing or older than a source. */
export function ensureBuilt(): void {
  const outputs = ['cli.js', 'extension.js', 'lazy.js', 'tools.js', 'ws.js', 'webview/panel.js'].map((f) =>
    join(ROOT, 'dist', f),
  );
  makeOnce('build', outputs, SOURCES, 'esbuild.js');
}

/** The packages of `npm run package`, made first when missing or older than a source. */
export function ensurePackages(): Packages {
  const outputs = [PACKAGES.vsix, PACKAGES.tarball, join(PACKAGES.build, 'cli.js')];
  const nls = readdirSync(ROOT).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f)); // the manifest's translations
  // docs/ and ARCHITECTURE.md: what the README links to, which the .vsix carries.
  const sources = [
    ...SOURCES,
    'l10n',
    ...nls,
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    '.vscodeignore',
    'docs',
    'ARCHITECTURE.md',
  ];
  makeOnce('package', outputs, sources, 'scripts/package.js');
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

/** The process id a lock file names, or undefined while its owner is still writing it. */
function ownerOf(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // gone already
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock file `lock`, waiting while a live process holds it; a dead one's lock is taken over. */
function acquire(lock: string): void {
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = ownerOf(lock);
    // A run killed while it built left its lock: its process is gone (checked again just before).
    if (owner !== undefined && !alive(owner) && ownerOf(lock) === owner) rmSync(lock, { force: true });
    else pause(200); // polls for the owner's end: it removes the lock when done
  }
}

/** Runs the Node script `script` of the repository unless `outputs` are newer than `sources`. */
function makeOnce(name: string, outputs: readonly string[], sources: readonly string[], script: string): void {
  const lock = join(ROOT, 'out', `.${name}.lock`);
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  acquire(lock); // also to look: outputs another process is writing are not up to date yet
  try {
    if (upToDate(outputs, sources)) return;
    const r = spawnSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8', timeout: 5 * 60_000 });
    if (r.status !== 0) throw new Error(`node ${script} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  } finally {
    rmSync(lock, { force: true });
  }
}
