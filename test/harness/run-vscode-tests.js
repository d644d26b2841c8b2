#!/usr/bin/env node
// Runs the integration suite inside a real VS Code extension host (code-server's VS Code server + headless Chromium).
// Usage: node test/harness/run-vscode-tests.js [--target minimum|newest|all] [--extension PATH] [--tests PATH]
//        [--workspace PATH] [--locale LOCALE] [--screenshot FILE] [--verbose]
//        (--target all, the default, runs minimum, then newest; --locale zh-cn runs the suite of that display language)
// Env:   TRADEREQ_VSCODE_TIMEOUT_MS (default 600000): overall deadline; TRADEREQ_VSCODE_VERBOSE=1: all browser/server output.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const { ensureVscodeServer, resolveTarget, targetsFromArg, SetupError } = require('./setup');
const { startVscodeServer, launchBrowser, workbenchUrl } = require('./vscode-server');
const { startTlsSandbox } = require('./tls-sandbox');

const REPO = path.resolve(__dirname, '..', '..');
const DEFAULTS = {
  extension: REPO,
  tests: path.join(REPO, 'out', 'test', 'integration', 'index.js'),
  workspace: path.join(REPO, 'test', 'fixtures', 'workspace'),
};
/**
 * The integration suite runs in a multi-root workspace: the fixture workspace first (tests use
 * workspaceFolders[0]), then these folders, each with its own tradereq.env.json.
 */
const SUITE_FOLDERS = ['alpha', 'beta'].map((f) => path.join(REPO, 'test', 'fixtures', 'multi-root', f));
const EXIT = { failed: 1, timeout: 124, SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
const SUMMARY_RE = /^(?:\w+: )?\d+ passed, \d+ failed(?:, \d+ skipped)?$/; // the suite's plain closing line
const HOST_RE = /^host: VS Code ([^,\s]+), Node ([^,\s]+)/; // printed by the entry module from inside the extension host
/** A test asks the harness to check what the workbench shows: this line, printed from the extension host. */
const SHOWS_RE = /^workbench shows: (.+)$/gm;
const USAGE =
  '[--target minimum|newest|all] [--extension PATH] [--tests PATH] [--workspace PATH] [--locale LOCALE] [--screenshot FILE] [--verbose]';

function parseArgs(argv) {
  const opts = {
    ...DEFAULTS,
    folders: SUITE_FOLDERS,
    verbose: process.env.TRADEREQ_VSCODE_VERBOSE === '1',
    targets: targetsFromArg('all'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const key = {
      '--extension': 'extension',
      '--tests': 'tests',
      '--workspace': 'workspace',
      '--screenshot': 'screenshot',
    }[a];
    if (key && argv[i + 1]) opts[key] = path.resolve(argv[++i]);
    else if (a === '--target' && argv[i + 1]) opts.targets = targetsFromArg(argv[++i]);
    else if (a === '--locale' && argv[i + 1]) opts.locale = argv[++i];
    else if (a === '--verbose') opts.verbose = true;
    else throw new Error(`unknown or incomplete argument: ${a} (usage: ${USAGE})`);
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
  // Newer VS Code (1.139): the chat/Copilot agent host and GitHub sign-in, which the suite does not use.
  /^\[(AgentHost|AgentHost:remote|RemoteAgentHostProtocol|AccountPolicyGate|ChatModelSelection)\]/,
  /^Timed out waiting for authentication provider 'github' to register/,
  /^Creation of workbench contribution '[\w.]+' took \d+ms/,
  /^\[reconnection-grace-time\]/,
];

/**
 * Writes, beside the tests module, an entry module that prints the VS Code and Node versions from
 * inside the extension host, then hands over to the tests module. Returns its path (remove it after).
 * Beside it, so that `require('vscode')` there resolves as it does for the tests.
 */
function writeHostEntry(tests) {
  const file = path.join(path.dirname(tests), `.host-entry-${process.pid}-${Date.now()}.js`);
  const source = [
    "'use strict';",
    '// Written by test/harness/run-vscode-tests.js for one run and removed after it.',
    "const vscode = require('vscode');",
    'console.log(`host: VS Code ${vscode.version}, Node ${process.versions.node}, remote ${vscode.env.remoteName}`);',
    `module.exports = require(${JSON.stringify(tests)});`,
    '',
  ].join('\n');
  fs.writeFileSync(file, source);
  return file;
}

/** The run's verdict: the suite's exit code, unless the host was not the VS Code the target names. */
function verdict(code, host, vscode) {
  if (code !== 0) return { code };
  if (!host) return { code: EXIT.failed, message: 'the extension host never reported its VS Code version' };
  if (host.vscode !== vscode.vscodeVersion)
    return { code: EXIT.failed, message: `the suite ran on VS Code ${host.vscode}, not ${vscode.vscodeVersion}` };
  return { code };
}

/**
 * Exposes the hooks the workbench calls in test mode and prints what it logs (noise only when verbose).
 * Returns { exitCode }: a promise of the suite's exit code (0 when run() resolves, 1 when it rejects).
 */
async function wireWorkbench(page, { verbose, muted, onLine, onCrash }) {
  let reportExit;
  const exitCode = new Promise((resolve) => (reportExit = resolve));
  await page.exposeFunction('codeAutomationExit', (code) => reportExit(Number(code)));
  // Every log entry of the workbench, the extension host's console included, comes through this hook.
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = util.format(...(Array.isArray(args) ? args : [args]));
    if (muted() || (!verbose && NOISE.some((re) => re.test(text)))) return;
    console.log(type === 'info' ? text : `[${type}] ${text}`);
    onLine(text.trim());
  });
  page.on('console', (msg) => verbose && console.log(`[browser:${msg.type()}] ${msg.text()}`));
  page.on('pageerror', (e) => verbose && console.error(`[browser:pageerror] ${e.message}`));
  page.on('crash', onCrash);
  return { exitCode };
}

/**
 * What the suite asked the harness to see (its `workbench shows: TEXT` lines): each text waited for
 * in the page's visible text, then the screenshot, if one was asked for. Resolves to the texts not seen.
 */
async function checkWorkbench(page, texts, screenshot, timeoutMs = 15000) {
  const missing = [];
  for (const text of texts) {
    const shown = `document.body.innerText.includes(${JSON.stringify(text)})`; // evaluated in the page
    const seen = await page.waitForFunction(shown, undefined, { timeout: timeoutMs }).then(
      () => true,
      () => false,
    );
    if (!seen) missing.push(text);
  }
  if (screenshot) {
    fs.mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
    console.log(`run-vscode-tests: screenshot of the workbench: ${screenshot}`);
  }
  return missing;
}

/**
 * Answers the workbench's POST /mint-key, as code-server and `code serve-web` do and this server
 * does not: the server's half of the key that seals SecretStorage in the browser profile, one per
 * run. Without it the workbench cannot seal what it stores (it retries the fetch for about 3 s)
 * and keeps secrets in the page's memory only, so a reload loses them; with it they persist in
 * the profile (its localStorage) across reloads.
 */
async function serveWebKey(page) {
  const key = require('node:crypto').randomBytes(32);
  await page.route('**/mint-key', (route) =>
    route.fulfill({ status: 200, contentType: 'application/octet-stream', body: key }),
  );
}

/**
 * Copies the workspace into `into`: alone, it is the folder to open; with more `folders`, each is
 * copied beside it and a .code-workspace file lists them all, the workspace first.
 */
function copyWorkspace(workspace, folders, into) {
  if (folders.length === 0) {
    fs.cpSync(workspace, into, { recursive: true });
    return { folder: into };
  }
  const names = [path.basename(workspace), ...folders.map((f) => path.basename(f))];
  if (new Set(names).size !== names.length)
    throw new Error(`workspace folders need distinct names: ${names.join(', ')}`);
  [workspace, ...folders].forEach((f, i) => fs.cpSync(f, path.join(into, names[i]), { recursive: true }));
  const file = path.join(into, 'suite.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: names.map((name) => ({ path: name })), settings: {} }, null, 2));
  return { workspace: file };
}

/**
 * Runs the tests module in a real VS Code extension host, on one target's server (setup.js).
 * Resolves to { code (0 = suite passed), summary (the suite's closing line or null), host ({ vscode, node } or null) }.
 * Server and browser are stopped before it resolves: on success, failure, deadline, SIGINT/SIGTERM/SIGHUP.
 * options: target ('minimum' | 'newest'; default TRADEREQ_VSCODE_TARGET, else minimum), extension, tests,
 * workspace (paths), folders (more workspace folders: a multi-root workspace), verbose, timeoutMs,
 * locale (the display language, e.g. 'zh-cn': vscode-server.js displayLanguage()), screenshot (a PNG
 * of the workbench when the suite ends, after what it asked to see: checkWorkbench()), serveWebKey
 * (true: SecretStorage persists in the browser profile, across a reload of the window: serveWebKey()).
 */
async function runOnTarget(options = {}) {
  const opts = {
    ...DEFAULTS,
    verbose: false,
    timeoutMs: Number(process.env.TRADEREQ_VSCODE_TIMEOUT_MS || 600000),
    ...options,
  };
  let vscode;
  try {
    checkInputs(opts);
    // Before the deadline starts: a first install takes a minute or more.
    vscode = ensureVscodeServer({ target: resolveTarget(opts.target) });
  } catch (e) {
    console.error(e instanceof SetupError ? e.message : `run-vscode-tests: ${e.message}`);
    return { code: EXIT.failed, summary: null, host: null };
  }
  const label = `VS Code ${vscode.vscodeVersion} (code-server ${vscode.version}, Node ${vscode.nodeVersion})`;
  const started = Date.now();
  const elapsed = () => ((Date.now() - started) / 1000).toFixed(1);
  let server;
  let browser;
  let starting; // server + browser start-up, awaited by cleanup so nothing starts after it
  let summary = null;
  let host = null;
  const shows = []; // what the suite asked the harness to see in the workbench
  let workspaceCopy;
  let hostEntry;
  let tlsSandbox; // the proxy test's TLS origin, its CA trusted by the extension host (tls-sandbox.js)
  let finishing;
  let settle;
  const result = new Promise((resolve) => (settle = resolve));

  // Stops browser and server whatever happened, says why, then settles with the exit code.
  const finish = (suiteCode, suiteMessage) =>
    (finishing ??= (async () => {
      const { code, message = suiteMessage } = verdict(suiteCode, host, vscode);
      if (message) console.error(`run-vscode-tests: ${message}`);
      const cleanup = (async () => {
        await starting;
        await browser?.close().catch(() => {}); // browser first, so the workbench does not log a lost connection
        await server?.stop().catch(() => {});
        tlsSandbox?.stop();
        if (workspaceCopy) fs.rmSync(workspaceCopy, { recursive: true, force: true });
        if (hostEntry) fs.rmSync(hostEntry, { force: true });
      })();
      const hung = await Promise.race([
        cleanup.then(() => false),
        new Promise((r) => setTimeout(() => r(true), 20000).unref()),
      ]);
      if (hung) console.error('run-vscode-tests: cleanup did not finish in 20s; exiting anyway');
      const ran = host ? `VS Code ${host.vscode} (code-server ${vscode.version}, Node ${host.node})` : label;
      console.log(
        `run-vscode-tests: ${ran}: ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} in ${elapsed()}s; server and browser stopped`,
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
    tlsSandbox = await startTlsSandbox(REPO);
    // Server and browser start in parallel; each is kept as soon as it exists, so finish() can stop it.
    starting = Promise.allSettled([
      startVscodeServer({
        vscode,
        env: tlsSandbox?.env,
        extraArgs: ['--disable-workspace-trust'], // restricted mode would keep the extension disabled
        locale: opts.locale,
        onOutput: (l) => opts.verbose && console.log(`[server] ${l}`),
      }).then((x) => (server = x)),
      launchBrowser({ chromium: vscode.chromium }).then((x) => (browser = x)),
    ]);
    const [s, b] = await starting;
    if (s.status === 'rejected') throw s.reason;
    if (b.status === 'rejected') throw new Error(`could not launch Chromium (${vscode.chromium}): ${b.reason.message}`);
    if (finishing) return; // a signal or the deadline came first
    const language = opts.locale ? `, display language ${opts.locale}` : '';
    console.log(`run-vscode-tests: ${label} on ${server.origin}${language}, Chromium up (${elapsed()}s)`);

    const { page } = browser;
    const { exitCode } = await wireWorkbench(page, {
      verbose: opts.verbose,
      muted: () => !!finishing,
      onLine: (text) => {
        const last = text.split('\n').pop();
        if (SUMMARY_RE.test(last)) summary = last;
        const m = HOST_RE.exec(text);
        if (m) host = { vscode: m[1], node: m[2] };
        for (const [, shown] of text.matchAll(SHOWS_RE)) shows.push(shown.trim());
      },
      onCrash: () => finish(EXIT.failed, 'the workbench page crashed'),
    });

    if (opts.serveWebKey) await serveWebKey(page);
    // A fresh copy of the workspace per run: tests may write files (tradereq.env.json) into it.
    workspaceCopy = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'tradereq-workspace-'));
    const opened = copyWorkspace(opts.workspace, opts.folders ?? [], workspaceCopy);
    hostEntry = writeHostEntry(opts.tests);
    const url = workbenchUrl(server, {
      ...opened,
      extensionDevelopmentPath: opts.extension,
      extensionTestsPath: hostEntry,
    });
    if (opts.verbose) console.log(`run-vscode-tests: opening ${url}`);
    await page.goto(url);
    const code = await exitCode;
    const missing = code === 0 || opts.screenshot ? await checkWorkbench(page, shows, opts.screenshot) : [];
    if (code === 0 && missing.length > 0)
      await finish(EXIT.failed, `the workbench never showed: ${missing.map((t) => JSON.stringify(t)).join(', ')}`);
    else await finish(code, code === 0 ? null : `the test suite reported exit code ${code}`);
  })().catch((e) => finish(EXIT.failed, (e && e.message) || String(e)));

  const code = await result;
  clearTimeout(deadline);
  for (const [event, fn] of Object.entries(handlers)) process.off(event, fn);
  return { code, summary, host };
}

/** One target (options.target, default TRADEREQ_VSCODE_TARGET, else minimum); resolves to the exit code. */
async function runVscodeTests(options = {}) {
  return (await runOnTarget(options)).code;
}

const SIGNAL_EXITS = new Set([EXIT.SIGHUP, EXIT.SIGINT, EXIT.SIGTERM]);

/**
 * Runs the suite on each target in turn (a signal stops the rest) and ends with one line for CI:
 * the total over all targets. Resolves to the first non-zero exit code, or 0.
 */
async function runOnTargets(targets, options = {}) {
  const runs = [];
  for (const target of targets) {
    if (runs.length) console.log('');
    const r = await runOnTarget({ ...options, target });
    runs.push({ target, ...r });
    if (SIGNAL_EXITS.has(r.code)) break;
  }
  if (targets.length > 1) {
    const total = { passed: 0, failed: 0 };
    const parts = runs.map(({ target, code, summary, host }) => {
      const m = /(\d+) passed, (\d+) failed/.exec(summary || '');
      if (m) total.passed += Number(m[1]);
      if (m) total.failed += Number(m[2]);
      if (code !== 0 && !(m && Number(m[2]) > 0)) total.failed += 1; // a failed run without failed tests counts once
      const name = host ? `VS Code ${host.vscode}` : target;
      return `${name}: ${summary ? summary.replace(/^\w+: /, '') : `no summary (exit code ${code})`}`;
    });
    console.log(`\nrun-vscode-tests: ${parts.join('; ')}`);
    console.log(`integration on ${runs.length} VS Code versions: ${total.passed} passed, ${total.failed} failed`);
  }
  return runs.find((r) => r.code !== 0)?.code ?? 0;
}

module.exports = { runVscodeTests, runOnTarget, runOnTargets, parseArgs, DEFAULTS };

if (require.main === module) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`run-vscode-tests: ${e.message}`);
    process.exit(2);
  }
  const { targets, ...rest } = opts;
  runOnTargets(targets, rest).then((code) => process.exit(code));
}
