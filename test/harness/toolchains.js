#!/usr/bin/env node
// The toolchains the "Copy as code" tests run the generated programs with: python3 (and a python3
// that imports `requests`), go (and gofmt), bash, curl, openssl, and shellcheck to lint the scripts. Idempotent, like setup.js for Chromium: when
// something is missing and we run as root, Debian's packages are installed (apt-get update once,
// then apt-get install of the missing ones); otherwise it prints the apt-get line and fails.
// Usage: node test/harness/toolchains.js   (prints what it found, as JSON)
//        or require it and call ensureToolchains() in a mocha before().
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const STEP_TIMEOUT_MS = 15 * 60 * 1000; // a hung apt must not hang the tests forever
const PROBE_TIMEOUT_MS = 30 * 1000;
// Debian's python3-requests installs into /usr/lib/python3/dist-packages, which only Debian's
// own interpreter reads: a pyenv python3 first on PATH does not see it.
const DEBIAN_PYTHON = '/usr/bin/python3';

/** What provides each tool, as a Debian package. */
const PACKAGE_OF = {
  python3: 'python3',
  requests: 'python3-requests',
  go: 'golang-go',
  gofmt: 'golang-go',
  bash: 'bash',
  curl: 'curl',
  openssl: 'openssl',
  shellcheck: 'shellcheck',
};

class ToolchainError extends Error {
  /** True when the machine lacks a tool and cannot install it here (not root, or no apt-get). */
  constructor(message, { installable = true } = {}) {
    super(message);
    this.installable = installable;
  }
}

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
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

function runs(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  return r.status === 0 ? (r.stdout || r.stderr).trim() : null;
}

/**
 * The python3 that runs the `requests` variant: on Debian, Debian's own interpreter with Debian's
 * python3-requests (whatever a pyenv or pip may have added elsewhere); on other systems, the
 * python3 on PATH when it imports requests.
 */
function pythonWithRequests(python3) {
  const candidate = which('dpkg-query') && fs.existsSync(DEBIAN_PYTHON) ? DEBIAN_PYTHON : python3;
  return candidate && runs(candidate, ['-c', 'import requests']) !== null ? candidate : null;
}

/**
 * The interpreter a `python3` on PATH runs, by its own word: a version manager's shim (pyenv's is
 * a shell script that starts two more) costs a quarter of a second on each of the hundreds of runs.
 */
function interpreter(python3) {
  const real = python3 && runs(python3, ['-c', 'import sys; print(sys.executable)']);
  return real && fs.existsSync(real) ? real : python3;
}

/**
 * The tools as found now: absolute paths (null when missing), versions, and the Debian packages
 * that would provide what is missing.
 */
function findToolchains() {
  const python3 = interpreter(which('python3'));
  const found = {
    node: process.execPath,
    python3,
    pythonRequests: pythonWithRequests(python3),
    go: which('go'),
    gofmt: which('gofmt'),
    bash: which('bash'),
    curl: which('curl'),
    openssl: which('openssl'),
    shellcheck: which('shellcheck'),
  };
  const missing = [];
  if (!found.python3) missing.push(PACKAGE_OF.python3);
  if (!found.pythonRequests) missing.push(PACKAGE_OF.requests);
  for (const tool of ['go', 'gofmt', 'bash', 'curl', 'openssl', 'shellcheck']) {
    if (!found[tool] && !missing.includes(PACKAGE_OF[tool])) missing.push(PACKAGE_OF[tool]);
  }
  const versions = {
    node: process.version,
    python3: found.python3 && runs(found.python3, ['--version']),
    pythonRequests:
      found.pythonRequests &&
      runs(found.pythonRequests, [
        '-c',
        'import sys, requests; print(sys.version.split()[0], "requests", requests.__version__)',
      ]),
    go: found.go && runs(found.go, ['version']),
    bash: found.bash && (runs(found.bash, ['--version']) || '').split('\n')[0],
    curl: found.curl && (runs(found.curl, ['--version']) || '').split('\n')[0],
    openssl: found.openssl && runs(found.openssl, ['version']),
    shellcheck: found.shellcheck && (runs(found.shellcheck, ['--version']) || '').split('\n')[1],
  };
  return { ...found, versions, missing };
}

function aptLine(missing) {
  return `apt-get update && apt-get install -y ${missing.join(' ')}`;
}

function apt(args) {
  // The lock timeout: another apt on the machine (or a parallel test run) is waited for, not failed on.
  const r = spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: STEP_TIMEOUT_MS,
  });
  if (r.error || r.status !== 0) {
    const why = r.error
      ? r.error.message
      : `exit code ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}`;
    throw new ToolchainError(`apt-get ${args.join(' ')} failed (${why})`);
  }
}

let ensured = null;

/**
 * The toolchains, installed first when missing (root only). Throws a ToolchainError whose message
 * holds the apt-get line to run when something is missing and cannot be installed here.
 * Runs apt at most once per process; later calls return the first answer.
 */
function ensureToolchains(options = {}) {
  if (ensured) return ensured;
  const log = options.log || ((line) => process.stderr.write(line + '\n'));
  let found = findToolchains();
  if (found.missing.length > 0) {
    const line = aptLine(found.missing);
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot || !which('apt-get')) {
      throw new ToolchainError(`missing ${found.missing.join(', ')}; run: sudo sh -c '${line}'`, {
        installable: false,
      });
    }
    log(`toolchains: installing ${found.missing.join(' ')} (${line})`);
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...found.missing]);
    found = findToolchains();
    if (found.missing.length > 0) {
      throw new ToolchainError(`still missing ${found.missing.join(', ')} after ${line}`);
    }
  }
  ensured = found;
  return found;
}

module.exports = { ensureToolchains, findToolchains, ToolchainError, DEBIAN_PYTHON };

if (require.main === module) {
  try {
    process.stdout.write(JSON.stringify(ensureToolchains(), null, 2) + '\n');
  } catch (e) {
    process.stderr.write(`${e instanceof ToolchainError ? e.message : e.stack}\n`);
    // Missing here and not installable here (a laptop): the suites that need them say so and are
    // skipped, the rest runs. A failed install (CI) fails.
    if (e instanceof ToolchainError && !e.installable) {
      process.stderr.write('toolchains: the Copy as Code suites that need them will be skipped\n');
    } else process.exit(1);
  }
}
