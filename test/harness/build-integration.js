#!/usr/bin/env node
// Compiles test/integration/*.ts to out/test/integration/*.js (one bundle per file) for the extension host.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const REPO = path.resolve(__dirname, '..', '..');
const SRC = path.join(REPO, 'test', 'integration');
const OUT = path.join(REPO, 'out', 'test', 'integration');

/** True when `mocha` resolves from the output folder, as the extension host will resolve it. */
function mochaResolvesFrom(dir) {
  try {
    require.resolve('mocha', { paths: [dir] });
    return true;
  } catch {
    return false;
  }
}

async function buildIntegration({ quiet = false } = {}) {
  const entryPoints = fs
    .readdirSync(SRC)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(SRC, f));
  fs.rmSync(OUT, { recursive: true, force: true }); // no stale *.test.js from deleted sources
  fs.mkdirSync(OUT, { recursive: true });
  // mocha stays external when node_modules is reachable from out/ (it is in the repo); else it is bundled in.
  const externalMocha = mochaResolvesFrom(OUT);
  await esbuild.build({
    entryPoints,
    outdir: OUT,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    logOverride: { 'require-resolve-not-external': 'silent' }, // bundled mocha: only its unused parallel mode warns
    // The extension's lazy bundles: a test that imports a helper of src/extension/ never loads them.
    external: [...(externalMocha ? ['vscode', 'mocha'] : ['vscode']), './lazy.js', './tools.js', './ws.js'],
  });
  if (!quiet)
    console.log(
      `build-integration: ${entryPoints.length} file(s) -> ${path.relative(REPO, OUT)} (mocha ${externalMocha ? 'external' : 'bundled'})`,
    );
  return OUT;
}

module.exports = { buildIntegration };

if (require.main === module) {
  buildIntegration().catch((e) => {
    console.error(`build-integration failed: ${e.message}`);
    process.exit(1);
  });
}
