#!/usr/bin/env node
// Activation benchmark: the production bundle in a real VS Code extension host, several fresh starts;
// prints the time from loading the bundle to the end of activate() (target < 30 ms) and the bundle size.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');
const { runVscodeTests } = require('../harness/run-vscode-tests');

const REPO = path.resolve(__dirname, '..', '..');
const RUNS = Number(process.env.BENCH_RUNS || 5);

async function main() {
  const built = spawnSync(process.execPath, [path.join(REPO, 'esbuild.js'), '--production'], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(1);
  const size = fs.statSync(path.join(REPO, 'dist', 'extension.js')).size;
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
    const code = await runVscodeTests({ tests: out });
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
  // Leave a development build behind, as npm run build would.
  spawnSync(process.execPath, [path.join(REPO, 'esbuild.js')], { cwd: REPO, stdio: 'inherit' });
}

main();
