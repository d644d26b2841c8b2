// Starts the real VS Code server (from setup.js's cache) and a headless Chromium to open it.
// Shared by the extension-host test runner and by UI tests that drive the workbench.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const CHROMIUM_ARGS = [
  '--no-sandbox', // we may run as root in a container
  '--disable-gpu',
  '--disable-background-networking', // the closed network refuses these connections anyway
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const mkTemp = (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const rmQuiet = (dir) => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });

/** Environment for the server: without the variables of a VS Code that may have launched us. */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Keeps the last lines of a stream for error messages. */
function tail(max) {
  const lines = [];
  return {
    push(line) {
      lines.push(line);
      if (lines.length > max) lines.shift();
    },
    text: () => lines.join('\n'),
  };
}

/** Retries a GET until the server answers 2xx/3xx, the process dies, or the deadline passes. */
async function waitForHttp(url, deadline, isDead) {
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    if (isDead()) throw new Error('VS Code server exited before it answered HTTP');
    try {
      const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status < 400) return;
      lastError = `HTTP ${res.status}`;
    } catch (e) {
      lastError = e.message;
    }
    await new Promise((r) => setTimeout(r, 100)); // short back-off between polls, bounded by deadline
  }
  throw new Error(`VS Code server did not answer ${url} in time (${lastError})`);
}

/**
 * Makes the unpacked extension at `extensionPath` an installed one: a link named
 * <publisher>.<name>-<version> in the server's fresh extensions folder, which the server scans at start.
 */
function linkExtension(extensionsDir, extensionPath) {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionPath, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}-${manifest.version}`;
  fs.symlinkSync(path.resolve(extensionPath), path.join(extensionsDir, id), 'dir');
}

/**
 * Makes `locale` the workbench's display language with no language pack to download: the server
 * finds it in languagepacks.json of its user-data folder (what VS Code's language pack service
 * writes when a pack is installed), whose translation of VS Code's own strings is empty, so the
 * workbench stays English while `vscode.env.language` is `locale`, the manifest reads
 * package.nls.<locale>.json and the extension its l10n/bundle.l10n.<locale>.json. Returns the
 * server's arguments for it (`--locale`, which the server prefers to the browser's language).
 */
function displayLanguage(dirs, locale) {
  if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/.test(locale)) throw new Error(`not a VS Code locale: ${locale}`);
  const translations = path.join(dirs.base, `vscode.${locale}.i18n.json`);
  fs.writeFileSync(translations, JSON.stringify({ contents: {} }));
  const pack = {
    hash: `tradereq-harness-${locale}`,
    extensions: [{ extensionIdentifier: { id: `tradereq-harness.language-${locale}` }, version: '0.0.0' }],
    translations: { vscode: translations },
    label: locale,
  };
  fs.writeFileSync(path.join(dirs.userData, 'languagepacks.json'), JSON.stringify({ [locale]: pack }));
  return ['--locale', locale];
}

/**
 * Starts `node out/server-main.js` (with the target's Node) on 127.0.0.1 with --port 0 (the kernel picks a free port; no race).
 * Resolves once the server answers HTTP. Returns { port, origin, authority, stop(), outputTail() }.
 * options: vscode (from ensureVscodeServer), extraArgs, readyTimeoutMs, onOutput(line), developmentPayload
 * (default true: the workbench will be opened with extensionDevelopmentPath/extensionTestsPath in its
 * payload; false for a plain workbench with installed extensions only), installExtension (an unpacked
 * extension folder the server loads as installed: no payload, so on VS Code 1.139 no smoke-test mode,
 * which hides notification toasts), locale (a display language other than English, e.g. `zh-cn`:
 * displayLanguage()).
 */
async function startVscodeServer({
  vscode,
  extraArgs = [],
  readyTimeoutMs = 60000,
  onOutput = () => {},
  installExtension,
  developmentPayload = !installExtension,
  locale,
  env = {},
}) {
  const base = mkTemp('tradereq-vscode-server-');
  const dirs = {
    base,
    userData: path.join(base, 'user-data'),
    serverData: path.join(base, 'server-data'),
    extensions: path.join(base, 'extensions'),
  };
  for (const d of [dirs.userData, dirs.serverData, dirs.extensions]) fs.mkdirSync(d);
  // The workbench's chat and agent features start with it on newer VS Code and take CPU the tests
  // need; no test uses them. An unknown setting is ignored by the versions without them.
  fs.mkdirSync(path.join(dirs.userData, 'User'));
  fs.writeFileSync(
    path.join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify({ 'chat.disableAIFeatures': true }),
  );
  if (installExtension) linkExtension(dirs.extensions, installExtension);
  const localeArgs = locale && locale !== 'en' ? displayLanguage(dirs, locale) : [];

  const args = [
    vscode.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--without-connection-token', // loopback only, fresh per run
    '--accept-server-license-terms',
    '--enable-remote-auto-shutdown', // safety net: an orphaned server exits 5 min after its last window closes
    '--user-data-dir',
    dirs.userData,
    '--server-data-dir',
    dirs.serverData,
    '--extensions-dir',
    dirs.extensions,
    ...(developmentPayload ? vscode.payloadServerArgs || [] : []),
    ...localeArgs,
    ...extraArgs,
  ];
  // detached: own process group, so stop() also reaches the extension host and pty host children.
  // vscode.node: the Node this server's native modules were built for (setup.js).
  const proc = spawn(vscode.node || process.execPath, args, {
    cwd: vscode.vscodeDir,
    env: cleanEnv(env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = tail(60);
  let exited = false;
  const exitPromise = new Promise((resolve) =>
    proc.once('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );
  proc.once('error', () => {
    exited = true;
  });

  let onPort;
  const portPromise = new Promise((resolve) => (onPort = resolve));
  const onLine = (line) => {
    out.push(line);
    onOutput(line);
    const m = /Extension host agent listening on (\d+)/.exec(line);
    if (m) onPort(Number(m[1]));
  };
  for (const stream of [proc.stdout, proc.stderr]) {
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      buf += chunk;
      const lines = buf.split('\n');
      buf = lines.pop();
      lines.forEach(onLine);
    });
  }

  let stopping;
  const stop = () =>
    (stopping ??= (async () => {
      const killGroup = (sig) => {
        try {
          process.kill(-proc.pid, sig);
        } catch {
          /* group already gone */
        }
      };
      if (proc.pid) {
        killGroup('SIGTERM');
        const late = setTimeout(() => killGroup('SIGKILL'), 5000); // the server may ignore SIGTERM while busy
        if (!exited) await exitPromise;
        clearTimeout(late);
        killGroup('SIGKILL'); // children that outlived the leader
      }
      rmQuiet(base);
    })());

  try {
    const deadline = Date.now() + readyTimeoutMs;
    const port = await Promise.race([
      portPromise,
      exitPromise.then(({ code, signal }) => {
        throw new Error(`VS Code server exited early (code ${code}, signal ${signal})`);
      }),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('VS Code server did not report its port in time')), readyTimeoutMs).unref(),
      ),
    ]);
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/`, deadline, () => exited);
    return { port, origin, authority: `127.0.0.1:${port}`, dirs, proc, stop, outputTail: out.text };
  } catch (e) {
    await stop();
    e.message += `\n--- last VS Code server output ---\n${out.text()}`;
    throw e;
  }
}

function requirePlaywright() {
  try {
    return require('playwright-core');
  } catch {
    throw new Error('playwright-core is not installed: run `npm install` (it is a devDependency)');
  }
}

/**
 * Launches headless Debian Chromium with a fresh profile. Returns { context, page, close() }.
 * Signal handling is left to the caller, who must call close().
 */
async function launchBrowser({ chromium, headless = true, extraArgs = [], viewport = { width: 1280, height: 800 } }) {
  if (!chromium) throw new Error('chromium not found on PATH: run node test/harness/setup.js');
  const { chromium: browserType } = requirePlaywright();
  const userDataDir = mkTemp('tradereq-chromium-');
  let context;
  try {
    context = await browserType.launchPersistentContext(userDataDir, {
      executablePath: chromium,
      headless,
      args: [...CHROMIUM_ARGS, ...extraArgs],
      viewport,
      handleSIGINT: false, // the caller stops everything in order
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (e) {
    rmQuiet(userDataDir);
    throw e;
  }
  const page = context.pages()[0] || (await context.newPage());
  let closing;
  const close = () =>
    (closing ??= (async () => {
      await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 10000).unref())]);
      rmQuiet(userDataDir);
    })());
  return { context, page, close };
}

/** vscode-remote URI for an absolute path on the server's machine. */
function remoteUri(authority, absPath) {
  return `vscode-remote://${authority}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`;
}

/**
 * Workbench URL for the server, opening a folder or a .code-workspace file; with extensionTestsPath it runs that
 * tests module in the extension host.
 * extensionDevelopmentPath loads an unpacked extension from disk.
 */
function workbenchUrl(server, { folder, workspace, extensionDevelopmentPath, extensionTestsPath } = {}) {
  const payload = [['skipWelcome', 'true']];
  if (extensionDevelopmentPath)
    payload.push(['extensionDevelopmentPath', remoteUri(server.authority, path.resolve(extensionDevelopmentPath))]);
  if (extensionTestsPath)
    payload.push(['extensionTestsPath', remoteUri(server.authority, path.resolve(extensionTestsPath))]);
  const query = [];
  if (folder) query.push(`folder=${encodeURIComponent(path.resolve(folder))}`);
  // A .code-workspace file: a multi-root workspace.
  if (workspace) query.push(`workspace=${encodeURIComponent(path.resolve(workspace))}`);
  query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${server.origin}/?${query.join('&')}`;
}

module.exports = { startVscodeServer, launchBrowser, workbenchUrl };
