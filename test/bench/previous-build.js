// The build a benchmark prints its figures beside: "the previous build", a commit's tree exported
// with `git archive` into the benchmark's folder (the working tree and dist/ are left alone), its
// node_modules linked to this checkout's, and built by its own esbuild.js --production, as its
// package would hold it. `--base REV` picks another commit; `--no-base` measures this tree alone.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const REPO = path.resolve(__dirname, '..', '..');

/** Issue 34's final tree, before issue 35's work on speed (docs/performance.md). */
const PREVIOUS = 'ca8970d8654b6dc28c45aab88a1f5f2ed4b5647c';

function option(argv, name) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** The commit to compare with, from argv (--base REV, --no-base), or undefined when there is none. */
function baseRevision(argv = process.argv) {
  if (argv.includes('--no-base')) return undefined;
  const rev = option(argv, '--base') ?? PREVIOUS;
  const r = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`--base ${rev}: no such commit in ${REPO} (a shallow clone? fetch it, or pass --no-base)`);
  return r.stdout.trim();
}

/** Runs `node esbuild.js --production --outdir=<outdir>` in `root`; throws when the build fails. */
function build(root, outdir) {
  const built = spawnSync(process.execPath, [path.join(root, 'esbuild.js'), '--production', `--outdir=${outdir}`], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error(`the build in ${root} failed (see above)`);
}

/**
 * The tree of `rev` in `dir` (package.json, media/, l10n/ as the package carries them), built into
 * dir/dist; resolves to `dir`, the extension's folder (its CLI is dir/dist/cli.js).
 */
function buildRevision(rev, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', rev], { cwd: REPO, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${rev} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  // Its dependencies are this checkout's (a benchmark compares code, not library versions).
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
  build(dir, path.join(dir, 'dist'));
  return dir;
}

/** A short name for a commit: its abbreviated hash and subject's first words. */
function describe(rev) {
  const r = spawnSync('git', ['log', '-1', '--format=%h %s', rev], { cwd: REPO, encoding: 'utf8' });
  const line = r.stdout.trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

module.exports = { REPO, PREVIOUS, baseRevision, build, buildRevision, describe };
