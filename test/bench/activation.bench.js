#!/usr/bin/env node
// Activation benchmark: the production bundle in a real VS Code extension host, several fresh starts;
// prints the time from loading the bundle to the end of activate() (target < 20 ms), the bundles
// loaded by then and the size of each bundle, beside the previous build's (issue 34's final tree, or
// --base REV; --no-base: this build alone; test/bench/previous-build.js), started in alternation.
// The extensions are built into the benchmark's own folder, dist/ is left to the tests.
// BENCH_RUNS sets the number of starts (default 5), BENCH_LOCALE the display language (default English).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');
const { runVscodeTests } = require('../harness/run-vscode-tests');

const { REPO, baseRevision, buildRevision, describe } = require('./previous-build.js');
const RUNS = Number(process.env.BENCH_RUNS || 5);
/** BENCH_LOCALE=zh-cn: the host in that display language, its bundle loaded (test/harness/README.md). */
const LOCALE = process.env.BENCH_LOCALE;

/** The extension as its package holds it, production build: package.json, media/ and dist/. */
function buildExtension(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const dist = path.join(dir, 'dist');
  const built = spawnSync(process.execPath, [path.join(REPO, 'esbuild.js'), '--production', `--outdir=${dist}`], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(1);
  fs.copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
  fs.cpSync(path.join(REPO, 'media'), path.join(dir, 'media'), { recursive: true });
  // The manifest's words and the translations, as the .vsix carries them.
  for (const f of fs.readdirSync(REPO).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f)))
    fs.copyFileSync(path.join(REPO, f), path.join(dir, f));
  if (fs.existsSync(path.join(REPO, 'l10n')))
    fs.cpSync(path.join(REPO, 'l10n'), path.join(dir, 'l10n'), { recursive: true });
}

/** The extension's bundles (dist/*.js) and their sizes, the activation bundle first. */
function bundleSizes(dist) {
  const files = fs.readdirSync(dist).filter((f) => f.endsWith('.js') && f !== 'cli.js');
  files.sort((a, b) => (a === 'extension.js' ? -1 : b === 'extension.js' ? 1 : a.localeCompare(b)));
  return files.map((f) => `dist/${f} ${(fs.statSync(path.join(dist, f)).size / 1024).toFixed(0)} KiB`).join(', ');
}

/** One fresh host on `extension`: activation's figure (ms) and the bundles loaded by then. */
async function start(tests, extension) {
  const log = console.log;
  const r = {};
  console.log = (...args) => {
    const line = String(args[0]);
    const m = /^activation: ([\d.]+) ms/.exec(line);
    if (m) r.ms = Number(m[1]);
    if (m) r.line = line;
    const l = /^activation loaded: (\{.*\})/.exec(line);
    if (l) r.loaded = JSON.parse(l[1]);
    const g = /^activation language: (\{.*\})/.exec(line);
    if (g) r.language = JSON.parse(g[1]);
  };
  const code = await runVscodeTests({ tests, extension, ...(LOCALE ? { locale: LOCALE } : {}) });
  console.log = log;
  if (code !== 0 || r.ms === undefined) throw new Error(`activation benchmark: a start failed (exit ${code})`);
  return r;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * The figures of one build's starts: activation's median and range, what activate() itself loads
 * (dist/extension.js; test/unit/repo/activation-bundle.test.ts holds it to its budget), and what
 * the open request file loads next (dist/language.js, where the build has one) with its cost.
 */
function summary(name, runs) {
  const ms = runs.map((r) => r.ms);
  const loaded = runs[0].loaded ?? {};
  const later = Object.entries(loaded).filter(([f]) => f !== 'extension.js');
  const range = (xs) =>
    `median ${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
  const lines = [
    `${name}: activation ${range(ms)} over ${ms.length} fresh starts, loading dist/extension.js ${kib(loaded['extension.js'] ?? 0)}`,
  ];
  const language = runs.filter((r) => r.language).map((r) => r.language);
  if (language.length)
    lines.push(
      `    then, the request file open, ${later.map(([f, b]) => `dist/${f} ${kib(b)}`).join(', ')}: loading its code ${range(language.map((c) => c.loadMs))}, making its services ${range(language.map((c) => c.openMs))}`,
    );
  return lines.join('\n');
}

async function main() {
  const root = path.join(REPO, 'out', 'bench', 'activation');
  const extension = path.join(root, 'extension');
  buildExtension(extension);
  const rev = baseRevision();
  const previous = rev && buildRevision(rev, path.join(root, 'previous'));
  const out = path.join(root, 'index.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'activation', 'index.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const builds = { now: extension, ...(previous && { previous }) };
  const runs = Object.fromEntries(Object.keys(builds).map((b) => [b, []]));
  // In alternation, this build then the previous one, so that a busy moment falls on both.
  for (let i = 0; i < RUNS; i++)
    for (const [name, dir] of Object.entries(builds)) {
      const r = await start(out, dir);
      runs[name].push(r);
      console.log(`  run ${i + 1}, ${name}: ${r.line}`);
    }
  console.log(
    `activation in the real host, production bundles, loading the code + activate() (target < 20 ms, loaded ≤ 100 KiB):`,
  );
  console.log(`  ${summary('this build', runs.now)}`);
  if (previous) console.log(`  ${summary(`previous build (${describe(rev)})`, runs.previous)}`);
  console.log(`  bundles (production): ${bundleSizes(path.join(extension, 'dist'))}`);
  if (previous) console.log(`  previous build's: ${bundleSizes(path.join(previous, 'dist'))}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
