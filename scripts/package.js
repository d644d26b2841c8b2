#!/usr/bin/env node
// `npm run package`: one production build, then both packages from it, with one version:
// - tradereq.vsix, the VS Code extension (@vscode/vsce, files allow-listed by .vscodeignore);
// - tradereq-VERSION.tgz, the npm package of the `tradereq` command (`npm pack`, files allow-listed
//   by "files" in package.json: the built CLI, README and licence).
// vsce refuses a package.json with "files" beside a .vscodeignore, so the extension is packed from a
// staging folder holding the same built files and a manifest without "files" (and without scripts:
// nothing is built again there).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const STAGE = path.join(ROOT, 'out', 'vsix');

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${[command, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
}

function stageExtension(manifest) {
  fs.rmSync(STAGE, { recursive: true, force: true });
  fs.mkdirSync(STAGE, { recursive: true });
  for (const entry of ['dist', 'media', 'README.md', 'LICENSE', 'CHANGELOG.md', '.vscodeignore'])
    fs.cpSync(path.join(ROOT, entry), path.join(STAGE, entry), { recursive: true });
  const { files: _files, scripts: _scripts, ...extension } = manifest;
  fs.writeFileSync(path.join(STAGE, 'package.json'), JSON.stringify(extension, null, 2) + '\n');
}

function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  run(process.execPath, [path.join(ROOT, 'esbuild.js'), '--production'], ROOT);
  stageExtension(manifest);
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  // The repository is not on GitHub or GitLab, so vsce cannot make the README's relative links absolute: kept as written.
  const vsix = path.join(ROOT, 'tradereq.vsix');
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', vsix], STAGE);
  // Already built above: prepack need not build again.
  run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', ROOT], ROOT);
  console.log(`package: tradereq.vsix and tradereq-${manifest.version}.tgz (version ${manifest.version})`);
}

try {
  main();
} catch (e) {
  console.error(`package: ${e.message}`);
  process.exit(1);
}
