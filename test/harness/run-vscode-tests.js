#!/usr/bin/env node
// Runs the integration suite inside a real VS Code extension host (code-server's VS Code server + headless Chromium).
// Usage: node test/harness/run-vscode-tests.js [--extension PATH] [--tests PATH] [--workspace PATH] [--verbose]
// Env:   TRADEREQ_VSCODE_TIMEOUT_MS (default 600000): overall deadline; TRADEREQ_VSCODE_VERBOSE=1: all browser/server output.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const { ensureVscodeServer, SetupError } = require('./setup');
const { startVscodeServer, launchBrowser, workbenchUrl } = require('./vscode-server');

const REPO = path.resolve(__dirname, '..', '..');
const DEFAULTS = {
  extension: REPO,
  tests: path.join(REPO, 'out', 'test', 'integration', 'index.js'),
  workspace: path.join(REPO, 'test', 'fixtures', 'workspace'),
};
const EXIT = { failed: 1, timeout: 124, SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
const SUMMARY_RE = /^(?:\w+: )?\d+ passed, \d+ failed(?:, \d+ skipped)?$/; // the suite's plain closing line

function parseArgs(argv) {
  const opts = { ...DEFAULTS, verbose: process.env.TRADEREQ_VSCODE_VERBOSE === '1' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const key = { '--extension': 'extension', '--tests': 'tests', '--workspace': 'workspace' }[a];
    if (key && argv[i + 1]) opts[key] = path.resolve(argv[++i]);
    else if (a === '--verbose') opts.verbose = true;
    else
      throw new Error(
        `unknown or incomplete argument: ${a} (usage: [--extension PATH] [--tests PATH] [--workspace PATH] [--verbose])`,
      );
  }
  return opts;
}

/** Fails fast, with the fix, on inputs that would otherwise surface as a hang in the browser. */
function checkInputs({ extension, tests, workspace }) {
  const pkgFile = path.join(extension, 'package.json');
  if (!fs.existsSync(pkgFile)) throw new Error(`no package.json in --extension ${extension}`);
  const main = JSON.parse(fs.readFileSync(pkgFile, 'utf8')).main;
  if (main && !fs.existsSync(path.resolve(extension, main)) && !fs.existsSync(path.resolve(extension, `${main}.js`))) {
    throw new Error(`extension entry ${path.resolve(extension, main)} is missing: run npm run build`);
  }
  if (!fs.existsSync(tests))
    throw new Error(`tests module ${tests} is missing: run node test/harness/build-integration.js`);
  if (!fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`workspace folder ${workspace} is missing`);
}

// Workbench start-up chatter that says nothing about the suite (shown with --verbose).
const NOISE = [
  /^(Resolving|Resolved) connection token/,
  /^Creating a socket/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\] registration/, // code-server does not serve the service worker here
  /^ChatSessionStore:/,
  /ENOTFOUND open-vsx\.org/, // the extension gallery is unreachable offline
];

/**
 * Runs the tests module in a real VS Code extension host; resolves to the exit code (0 = suite passed).
 * Server and browser are stopped before it resolves: on success, failure, deadline, SIGINT/SIGTERM/SIGHUP.
 * options: extension, tests, workspace (paths), verbose, timeoutMs.
 */
async function runVscodeTests(options = {}) {
  const opts = {
    ...DEFAULTS,
    verbose: false,
    timeoutMs: Number(process.env.TRADEREQ_VSCODE_TIMEOUT_MS || 600000),
    ...options,
  };
  let vscode;
  try {
    checkInputs(opts);
    vscode = ensureVscodeServer(); // before the deadline starts: a first install takes about a minute
  } catch (e) {
    console.error(e instanceof SetupError ? e.message : `run-vscode-tests: ${e.message}`);
    return EXIT.failed;
  }
  const started = Date.now();
  const elapsed = () => ((Date.now() - started) / 1000).toFixed(1);
  let server;
  let browser;
  let starting; // server + browser start-up, awaited by cleanup so nothing starts after it
  let summary = null;
  let workspaceCopy;
  let finishing;
  let settle;
  const result = new Promise((resolve) => (settle = resolve));

  // Stops browser and server whatever happened, says why, then settles with the exit code.
  const finish = (code, message) =>
    (finishing ??= (async () => {
      if (message) console.error(`run-vscode-tests: ${message}`);
      const cleanup = (async () => {
        await starting;
        await browser?.close().catch(() => {}); // browser first, so the workbench does not log a lost connection
        await server?.stop().catch(() => {});
        if (workspaceCopy) fs.rmSync(workspaceCopy, { recursive: true, force: true });
      })();
      const hung = await Promise.race([
        cleanup.then(() => false),
        new Promise((r) => setTimeout(() => r(true), 20000).unref()),
      ]);
      if (hung) console.error('run-vscode-tests: cleanup did not finish in 20s; exiting anyway');
      console.log(
        `run-vscode-tests: ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} in ${elapsed()}s; server and browser stopped`,
      );
      if (summary) console.log(summary); // the plain "N passed, N failed" line last, for CI
      settle(code);
    })());

  const handlers = {
    SIGINT: () => finish(EXIT.SIGINT, 'received SIGINT; stopping VS Code server and browser'),
    SIGTERM: () => finish(EXIT.SIGTERM, 'received SIGTERM; stopping VS Code server and browser'),
    SIGHUP: () => finish(EXIT.SIGHUP, 'received SIGHUP; stopping VS Code server and browser'),
    uncaughtException: (e) => finish(EXIT.failed, `unexpected error: ${(e && e.stack) || e}`),
    unhandledRejection: (e) => finish(EXIT.failed, `unexpected error: ${(e && e.stack) || e}`),
  };
  for (const [event, fn] of Object.entries(handlers)) process.on(event, fn);
  const deadline = setTimeout(
    () =>
      finish(
        EXIT.timeout,
        `timed out after ${opts.timeoutMs / 1000}s (TRADEREQ_VSCODE_TIMEOUT_MS); the suite never reported an exit code`,
      ),
    opts.timeoutMs,
  );

  (async () => {
    // Server and browser start in parallel; each is kept as soon as it exists, so finish() can stop it.
    starting = Promise.allSettled([
      startVscodeServer({
        vscode,
        extraArgs: ['--disable-workspace-trust'], // restricted mode would keep the extension disabled
        onOutput: (l) => opts.verbose && console.log(`[server] ${l}`),
      }).then((x) => (server = x)),
      launchBrowser({ chromium: vscode.chromium }).then((x) => (browser = x)),
    ]);
    const [s, b] = await starting;
    if (s.status === 'rejected') throw s.reason;
    if (b.status === 'rejected') throw new Error(`could not launch Chromium (${vscode.chromium}): ${b.reason.message}`);
    if (finishing) return; // a signal or the deadline came first
    console.log(`run-vscode-tests: VS Code server on ${server.origin}, Chromium up (${elapsed()}s)`);

    const { page } = browser;
    let reportExit;
    const exitCode = new Promise((resolve) => (reportExit = resolve));
    // The workbench calls this with the suite's exit code: 0 when run() resolves, 1 when it rejects.
    await page.exposeFunction('codeAutomationExit', (code) => reportExit(Number(code)));
    // In test mode the workbench logs everything, the extension host's console included, through this hook.
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = util.format(...(Array.isArray(args) ? args : [args]));
      if (finishing || (!opts.verbose && NOISE.some((re) => re.test(text)))) return;
      console.log(type === 'info' ? text : `[${type}] ${text}`);
      const last = text.trim().split('\n').pop();
      if (SUMMARY_RE.test(last)) summary = last;
    });
    page.on('console', (msg) => opts.verbose && console.log(`[browser:${msg.type()}] ${msg.text()}`));
    page.on('pageerror', (e) => opts.verbose && console.error(`[browser:pageerror] ${e.message}`));
    page.on('crash', () => finish(EXIT.failed, 'the workbench page crashed'));

    // A fresh copy of the workspace per run: tests may write files (tradereq.env.json) into it.
    workspaceCopy = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'tradereq-workspace-'));
    fs.cpSync(opts.workspace, workspaceCopy, { recursive: true });
    const url = workbenchUrl(server, {
      folder: workspaceCopy,
      extensionDevelopmentPath: opts.extension,
      extensionTestsPath: opts.tests,
    });
    if (opts.verbose) console.log(`run-vscode-tests: opening ${url}`);
    await page.goto(url);
    const code = await exitCode;
    await finish(code, code === 0 ? null : `the test suite reported exit code ${code}`);
  })().catch((e) => finish(EXIT.failed, (e && e.message) || String(e)));

  const code = await result;
  clearTimeout(deadline);
  for (const [event, fn] of Object.entries(handlers)) process.off(event, fn);
  return code;
}

module.exports = { runVscodeTests, parseArgs, DEFAULTS };

if (require.main === module) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`run-vscode-tests: ${e.message}`);
    process.exit(2);
  }
  runVscodeTests(opts).then((code) => process.exit(code));
}
