#!/usr/bin/env node
// Installs, once per machine, the real VS Code server (from npm's code-server) and what it needs.
// Cache: ${XDG_CACHE_HOME:-~/.cache}/tradereq-vscode/<version>/ — outside the checkout, shared by runs.
// Usage: node test/harness/setup.js          (or require it and call ensureVscodeServer())
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const CODE_SERVER_VERSION = '4.100.3'; // carries VS Code 1.100.3, the last line that runs on Node 20
const APT_PACKAGES = ['chromium', 'ripgrep', 'libkrb5-dev']; // browser, search, kerberos headers
const NATIVE_MODULES = ['kerberos', 'node-pty', '@vscode/spdlog', 'native-watchdog'];
const STEP_TIMEOUT_MS = 15 * 60 * 1000; // a hung npm or apt must not hang CI forever

/** Every path the harness needs, derived from the cache root. */
function cachePaths(version = CODE_SERVER_VERSION) {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const root = path.join(cacheHome, 'tradereq-vscode', version);
  const codeServerDir = path.join(root, 'node_modules', 'code-server');
  const vscodeDir = path.join(codeServerDir, 'lib', 'vscode');
  return {
    version,
    root,
    codeServerDir,
    vscodeDir,
    serverMain: path.join(vscodeDir, 'out', 'server-main.js'),
    rgPath: path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'),
    asarLink: path.join(vscodeDir, 'node_modules.asar'),
    marker: path.join(root, '.tradereq-setup-complete.json'),
    log: path.join(root, 'setup.log'),
    lockDir: path.join(root, '.setup.lock'),
  };
}

/** Thrown by a step: printed as one line, then the process exits non-zero. */
class SetupError extends Error {
  constructor(step, fix) {
    super(`setup failed at step "${step}": ${fix}`);
    this.step = step;
  }
}

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not in this PATH entry
    }
  }
  return null;
}

/** Runs a command with its output appended to the setup log (kept quiet unless it fails). */
function run(step, cmd, args, opts, fix, logFile) {
  fs.appendFileSync(logFile, `\n$ (cd ${opts.cwd}) ${cmd} ${args.join(' ')}\n`);
  const fd = fs.openSync(logFile, 'a');
  try {
    const r = spawnSync(cmd, args, { ...opts, stdio: ['ignore', fd, fd], timeout: STEP_TIMEOUT_MS });
    if (r.error || r.status !== 0) {
      const why = r.error ? r.error.message : `exit code ${r.status}`;
      throw new SetupError(step, `${cmd} ${args.join(' ')} failed (${why}); see ${logFile}; ${fix}`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function missingAptPackages() {
  if (!which('dpkg-query')) return []; // not Debian: trust PATH checks in verify()
  return APT_PACKAGES.filter((p) => !dpkgInstalled(p));
}

function chromiumPath() {
  return process.env.CHROMIUM_PATH || which('chromium') || which('chromium-browser');
}

function builtNativeFiles(vscodeDir) {
  return NATIVE_MODULES.map((m) => {
    const dir = path.join(vscodeDir, 'node_modules', m, 'build', 'Release');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.node')) : [];
    return { module: m, file: files.length ? path.join(dir, files[0]) : null };
  });
}

/** Quick check that the cached install is whole; returns a list of problems (empty when fine). */
function verify(p) {
  const problems = [];
  if (!chromiumPath()) problems.push('chromium not on PATH');
  if (!which('rg')) problems.push('rg not on PATH');
  for (const f of [p.serverMain, p.rgPath, path.join(p.vscodeDir, 'node_modules', 'vscode-textmate')]) {
    if (!fs.existsSync(f)) problems.push(`missing ${f}`);
  }
  try {
    if (fs.readlinkSync(p.asarLink) !== 'node_modules') problems.push(`${p.asarLink} points elsewhere`);
  } catch {
    problems.push(`missing symlink ${p.asarLink}`);
  }
  for (const { module, file } of builtNativeFiles(p.vscodeDir)) {
    if (!file) problems.push(`native module ${module} not built`);
  }
  return problems;
}

function readMarker(p) {
  try {
    return JSON.parse(fs.readFileSync(p.marker, 'utf8'));
  } catch {
    return null;
  }
}

// Native modules are tied to the Node ABI: a different Node means a rebuild.
const markerKey = () => ({ codeServer: CODE_SERVER_VERSION, nodeAbi: process.versions.modules });

function markerValid(p) {
  const m = readMarker(p);
  const k = markerKey();
  return !!m && m.codeServer === k.codeServer && m.nodeAbi === k.nodeAbi;
}

// ---- steps ----------------------------------------------------------------------------------

function stepAptPackages(p) {
  const missing = missingAptPackages();
  if (!missing.length) return;
  const cmd = `apt-get update && apt-get install -y ${missing.join(' ')}`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new SetupError('debian-packages', `missing ${missing.join(', ')}; run: sudo sh -c '${cmd}'`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const fix = `run by hand: ${cmd}`;
  run('debian-packages', 'apt-get', ['update'], { cwd: p.root, env }, fix, p.log);
  run('debian-packages', 'apt-get', ['install', '-y', ...missing], { cwd: p.root, env }, fix, p.log);
}

function stepCodeServer(p) {
  const pkg = path.join(p.codeServerDir, 'package.json');
  if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).version === CODE_SERVER_VERSION) {
    if (fs.existsSync(p.serverMain)) return;
  }
  // Own package.json, so npm never climbs to a project above the cache folder.
  const own = path.join(p.root, 'package.json');
  if (!fs.existsSync(own)) fs.writeFileSync(own, '{ "name": "tradereq-vscode-cache", "private": true }\n');
  // --ignore-scripts: code-server's postinstall downloads binaries, which fails offline.
  run(
    'npm-code-server',
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: p.root },
    `check that the npm registry is reachable, or delete ${p.root} and retry`,
    p.log,
  );
}

function stepVscodeDeps(p) {
  if (fs.existsSync(path.join(p.vscodeDir, 'node_modules', 'vscode-textmate'))) {
    if (NATIVE_MODULES.every((m) => fs.existsSync(path.join(p.vscodeDir, 'node_modules', m, 'package.json')))) return;
  }
  run(
    'npm-vscode-deps',
    'npm',
    ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: p.vscodeDir },
    `check that the npm registry is reachable, or delete ${p.root} and retry`,
    p.log,
  );
}

function stepNativeModules(p) {
  const npmRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  const nodeGyp = path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (!fs.existsSync(nodeGyp)) {
    throw new SetupError(
      'native-modules',
      `npm's own node-gyp not found at ${nodeGyp}; reinstall npm (npm i -g npm@11)`,
    );
  }
  // Headers of the Node that runs us: nothing is downloaded.
  const nodeDir = path.dirname(path.dirname(process.execPath));
  if (!fs.existsSync(path.join(nodeDir, 'include', 'node', 'node.h'))) {
    throw new SetupError(
      'native-modules',
      `Node headers missing under ${nodeDir}/include/node; install Node with its headers`,
    );
  }
  for (const m of NATIVE_MODULES) {
    const dir = path.join(p.vscodeDir, 'node_modules', m);
    run(
      'native-modules',
      process.execPath,
      [nodeGyp, 'rebuild', `--nodedir=${nodeDir}`, '--jobs=max'],
      { cwd: dir },
      `building ${m} needs python3, make, g++ and libkrb5-dev`,
      p.log,
    );
  }
}

function stepRipgrep(p) {
  const rg = which('rg');
  if (!rg) throw new SetupError('ripgrep', 'rg not on PATH; run: apt-get install -y ripgrep');
  fs.mkdirSync(path.dirname(p.rgPath), { recursive: true });
  fs.copyFileSync(rg, p.rgPath);
  fs.chmodSync(p.rgPath, 0o755);
}

function stepAsarLink(p) {
  // VS Code looks for node_modules.asar; a plain folder behind a symlink serves it.
  try {
    if (fs.readlinkSync(p.asarLink) === 'node_modules') return;
    fs.rmSync(p.asarLink, { force: true });
  } catch {
    // absent: create below
  }
  fs.symlinkSync('node_modules', p.asarLink);
}

// ---- lock (two runs at once must not install over each other) -------------------------------

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Pid holding the lock, or 0 when stale (holder dead, or no pid written within 30s). */
function lockHolder(lockDir) {
  try {
    const pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
    return pid && pidAlive(pid) ? pid : 0;
  } catch {
    try {
      return Date.now() - fs.statSync(lockDir).mtimeMs > 30000 ? 0 : -1; // -1: just created, pid coming
    } catch {
      return -1; // lock vanished: retry
    }
  }
}

function withLock(p, fn) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    try {
      fs.mkdirSync(p.lockDir);
      fs.writeFileSync(path.join(p.lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = lockHolder(p.lockDir);
      if (holder === 0)
        fs.rmSync(p.lockDir, { recursive: true, force: true }); // stale
      else if (Date.now() > deadline)
        throw new SetupError('lock', `another setup (pid ${holder}) holds ${p.lockDir}; wait or remove it`);
      else sleepSync(1000);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(p.lockDir, { recursive: true, force: true });
  }
}

// ---- entry ----------------------------------------------------------------------------------

/**
 * Makes sure the VS Code server is installed and whole; fast (well under a second) when it is.
 * Returns { vscodeDir, serverMain, chromium, root, ... }. Throws SetupError with a one-line message.
 */
function ensureVscodeServer({ log = (s) => console.log(s) } = {}) {
  const started = Date.now();
  const p = cachePaths();
  const done = (how) => {
    log(
      `setup: VS Code server ${CODE_SERVER_VERSION} ${how} in ${((Date.now() - started) / 1000).toFixed(1)}s (${p.root})`,
    );
    return { ...p, chromium: chromiumPath() };
  };
  if (markerValid(p) && verify(p).length === 0) return done('ready');

  fs.mkdirSync(p.root, { recursive: true });
  return withLock(p, () => {
    if (markerValid(p) && verify(p).length === 0) return done('ready'); // another process finished it
    fs.rmSync(p.marker, { force: true });
    fs.writeFileSync(p.log, `setup started ${new Date().toISOString()}\n`);
    const steps = [
      ['debian packages', stepAptPackages],
      ['code-server from npm', stepCodeServer],
      ['VS Code dependencies', stepVscodeDeps],
      ['native modules', stepNativeModules],
      ['ripgrep binary', stepRipgrep],
      ['node_modules.asar link', stepAsarLink],
    ];
    for (const [name, step] of steps) {
      const t = Date.now();
      step(p);
      log(`setup: ${name} ok (${((Date.now() - t) / 1000).toFixed(1)}s)`);
    }
    const problems = verify(p);
    if (problems.length) throw new SetupError('verify', `${problems.join('; ')}; delete ${p.root} and rerun setup`);
    fs.writeFileSync(p.marker, JSON.stringify({ ...markerKey(), at: new Date().toISOString() }, null, 2) + '\n');
    return done('installed');
  });
}

module.exports = { ensureVscodeServer, cachePaths, SetupError, CODE_SERVER_VERSION };

if (require.main === module) {
  try {
    ensureVscodeServer();
  } catch (e) {
    console.error(e instanceof SetupError ? e.message : `setup failed unexpectedly: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  }
}
