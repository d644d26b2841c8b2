#!/usr/bin/env node
// Activation benchmark: the production bundle in a real VS Code extension host, several fresh starts;
// prints the time from loading the bundle to the end of activate() (target < 30 ms) and the size of
// each bundle. The extension is built into the benchmark's own folder, dist/ is left to the tests.
// BENCH_RUNS sets the number of starts (default 5), BENCH_LOCALE the display language (default English).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');
const { runVscodeTests } = require('../harness/run-vscode-tests');

const REPO = path.resolve(__dirname, '..', '..');
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

async function main() {
  const extension = path.join(REPO, 'out', 'bench', 'activation', 'extension');
  buildExtension(extension);
  const size = fs.statSync(path.join(extension, 'dist', 'extension.js')).size;
  const out = path.join(REPO, 'out', 'bench', 'activation', 'index.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'activation', 'index.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const figures = [];
  const log = console.log;
  for (let i = 0; i < RUNS; i++) {
    console.log = (...args) => {
      const m = /^activation: ([\d.]+) ms/.exec(String(args[0]));
      if (m) {
        figures.push(Number(m[1]));
        log(`  run ${figures.length}: ${args[0]}`);
      }
    };
    const code = await runVscodeTests({ tests: out, extension, ...(LOCALE ? { locale: LOCALE } : {}) });
    console.log = log;
    if (code !== 0) {
      console.error(`activation benchmark: run ${i + 1} failed (exit ${code})`);
      process.exit(1);
    }
  }
  figures.sort((a, b) => a - b);
  console.log(
    `activation (production bundle, ${(size / 1024).toFixed(0)} KiB): median ${figures[Math.floor(figures.length / 2)].toFixed(1)} ms (loading its code + activate()) over ${figures.length} fresh starts (min ${figures[0].toFixed(1)}, max ${figures[figures.length - 1].toFixed(1)}; target < 30 ms)`,
  );
  console.log(`  bundles (production): ${bundleSizes(path.join(extension, 'dist'))}`);
}

main();
