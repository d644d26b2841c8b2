// Commands a user copies from the README or a CI example, run as written in a clean folder: npm's
// global folder is one of the run's (a test must not install into the machine), HOME is fresh,
// PATH holds only that folder's commands, `extraPath`, Node and the system's own folders, and no
// variable of this repository's npm or of TradeReq leaks in. Shared by the CI examples' test
// (test/e2e/ci-examples.test.ts) and the install test (test/harness/package-install.js).
'use strict';

const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** The environment of a clean shell whose scratch folders live under `tmp`. */
function cleanShellEnv(tmp, { extraPath = [], extra = {} } = {}) {
  const prefix = path.join(tmp, 'npm-global');
  // npm puts a global package's commands in PREFIX/bin, on Windows in PREFIX itself.
  const bin = process.platform === 'win32' ? prefix : path.join(prefix, 'bin');
  const system =
    process.platform === 'win32' ? [process.env.SystemRoot ?? 'C:\\Windows'] : ['/usr/local/bin', '/usr/bin', '/bin'];
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(?:npm_|tradereq_|PATH$|HOME$|INIT_CWD$)/i.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    PATH: [...extraPath, bin, path.dirname(process.execPath), ...system].join(path.delimiter),
    HOME: path.join(tmp, 'home'),
    USERPROFILE: path.join(tmp, 'home'),
    npm_config_prefix: prefix,
    npm_config_cache: path.join(tmp, 'npm-cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** Runs one line with bash (as the workflows' runners and the README's readers do); never throws. */
function runAsWritten(line, { cwd, env, timeoutMs = 180_000 }) {
  const r = spawnSync('bash', ['-e', '-c', line], { cwd, env, encoding: 'utf8', timeout: timeoutMs });
  return { line, status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}` };
}

module.exports = { cleanShellEnv, runAsWritten };
