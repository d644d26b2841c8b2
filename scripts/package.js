#!/usr/bin/env node
// `npm run package`: one production build, then both packages from it, with one version:
// - tradereq.vsix, the VS Code extension (@vscode/vsce, files allow-listed by .vscodeignore);
// - tradereq-VERSION.tgz, the npm package of the `tradereq` command (`npm pack`, files allow-listed
//   by "files" in package.json: the built CLI, README and licence), its manifest without what only VS
//   Code reads (`main`, the extension's entry, is the .vsix's: the npm package is a command, not a library).
// The repository has no public address (package.json's is example.invalid), so nothing can make the
// README's relative links absolute: the .vsix carries what they lead to (docs/, ARCHITECTURE.md).
// The production build goes to out/package/dist, not dist/: the development build there stays as it
// is for the tests, which run the development build and the packages alike. Each package is made
// from a staging folder holding that build: vsce refuses a package.json with "files" beside a
// .vscodeignore, so the extension's manifest has no "files" (and no scripts: nothing is built there).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'out', 'package');
const BUILD = path.join(OUT, 'dist');
const STATIC = ['media', 'l10n', 'README.md', 'LICENSE', 'CHANGELOG.md', '.vscodeignore'];
/** What the README links to and shows, which the .vsix carries (.vscodeignore allows it in). */
const README_PAGES = ['docs', 'ARCHITECTURE.md'];
/**
 * What only VS Code reads, left out of the npm package's manifest: the extension's entry and the
 * fields naming files only the .vsix holds (contributions, icon, translations), and its activation,
 * capabilities and gallery banner.
 */
const EXTENSION_ONLY = ['main', 'l10n', 'icon', 'galleryBanner', 'activationEvents', 'contributes', 'capabilities'];
/** The names vsce gives the README, changelog and licence inside the .vsix. */
const VSCE_NAMES = { 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md', LICENSE: 'LICENSE.txt' };
/** The manifest's translations (package.nls.json, package.nls.<locale>.json), beside package.json. */
const NLS = /^package\.nls(\.[\w-]+)?\.json$/;

function run(command, args, cwd) {
  // npm is a .cmd script on Windows, which only a shell starts.
  const r = spawnSync(command, args, {
    cwd,
    stdio: 'inherit',
    shell: process.platform === 'win32' && command === 'npm',
  });
  if (r.status !== 0) throw new Error(`${[command, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/**
 * vsce's packaging into `vsix`, its output shown: a warning fails it (the marketplace shows or refuses
 * what vsce warns about), and so does a question (with no input, vsce aborts). Its output is not a terminal,
 * so vsce does not ask the registry for its own newest version either.
 */
function vscePackage(vsce, args, cwd, vsix) {
  const r = spawnSync(process.execPath, [vsce, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  if (r.status !== 0) throw new Error(`vsce package failed (exit ${r.status ?? r.signal})`);
  if (/\bWARNING\b/.test(r.stdout + r.stderr)) {
    // Not left for a later run (or test) to take as up to date.
    fs.rmSync(vsix, { force: true });
    throw new Error('vsce warned (above): fix what it names');
  }
}

/** A folder holding the production build as dist/, the static files, `more` of the repository's and `manifest`. */
function stage(name, manifest, more = []) {
  const dir = path.join(OUT, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(BUILD, path.join(dir, 'dist'), { recursive: true });
  const nls = fs.readdirSync(ROOT).filter((f) => NLS.test(f));
  for (const entry of [...STATIC, ...nls, ...more])
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return dir;
}

/**
 * The Markdown pages of the staged .vsix (its README and the pages it links to), their links to the
 * README, changelog and licence under the names vsce gives them in the package (in lower case, …), so
 * that they lead there on a case-sensitive file system too.
 */
function linkVsceNames(dir) {
  // An inline link's target: `](`, `../` any number of times, the name, then its end or an anchor.
  const target = /(\]\(\s*<?(?:\.\.\/)*)(README\.md|CHANGELOG\.md|LICENSE)(?=[#)>\s])/g;
  const pages = ['README.md', 'ARCHITECTURE.md', ...fs.readdirSync(path.join(dir, 'docs')).map((f) => `docs/${f}`)];
  for (const page of pages.filter((p) => p.endsWith('.md'))) {
    const file = path.join(dir, page);
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace(target, (_, head, name) => head + VSCE_NAMES[name]),
    );
  }
}

/** The marketplace icon, a PNG made from media/icon.svg (its source; the PNG is not kept in the repository). */
function writeIcon(file) {
  const { Resvg } = require('@resvg/resvg-js');
  const svg = fs.readFileSync(path.join(ROOT, 'media', 'icon.svg'), 'utf8');
  // 256 px: the marketplace asks for at least 128, and shows it at 128 on high-density screens.
  fs.writeFileSync(file, new Resvg(svg, { fitTo: { mode: 'width', value: 256 } }).render().asPng());
}

/**
 * The manifest with its `%key%` strings in English (package.nls.json): npm shows the description
 * as written, and reads no translation.
 */
function inEnglish(manifest) {
  const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8'));
  const text = (v) => (typeof v === 'string' && /^%[^%]+%$/.test(v) ? (nls[v.slice(1, -1)] ?? v) : v);
  return JSON.parse(JSON.stringify(manifest), (_key, value) => text(value));
}

function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  fs.rmSync(BUILD, { recursive: true, force: true });
  run(process.execPath, [path.join(ROOT, 'esbuild.js'), '--production', `--outdir=${BUILD}`], ROOT);
  const { files: _files, scripts: _scripts, ...extension } = manifest;
  const command = Object.fromEntries(Object.entries(manifest).filter(([field]) => !EXTENSION_ONLY.includes(field)));
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  // The repository has no public address, so vsce cannot make the README's relative links absolute: kept
  // as written, leading to the pages the package carries.
  const vsix = path.join(ROOT, 'tradereq.vsix');
  const args = ['package', '--no-dependencies', '--no-rewrite-relative-links', '--out', vsix];
  const dir = stage('vsix', extension, README_PAGES);
  linkVsceNames(dir);
  writeIcon(path.join(dir, extension.icon));
  vscePackage(vsce, args, dir, vsix);
  // Built above: prepack need not build again.
  run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', ROOT], stage('npm', inEnglish(command)));
  console.log(`package: tradereq.vsix and tradereq-${manifest.version}.tgz (version ${manifest.version})`);
}

try {
  main();
} catch (e) {
  console.error(`package: ${e.message}`);
  process.exit(1);
}
