// Starts the real VS Code server with the extension under development and opens the workbench in
// headless Chromium, for UI tests that drive it as a person would. Always stopped by close().
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { ensureVscodeServer } = require('../harness/setup');
const { startVscodeServer, launchBrowser, workbenchUrl } = require('../harness/vscode-server');

const REPO = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(REPO, 'test-results');

/**
 * A workbench of its own for a test file. The shared one is closed first: one at a time, since an
 * idle workbench still takes its share of the machine.
 */
async function openWorkbench(options) {
  await closeSharedWorkbench();
  return start(options);
}

async function start({
  workspace = path.join(REPO, 'test', 'fixtures', 'workspace'),
  serverArgs = ['--disable-workspace-trust'],
} = {}) {
  const vscode = ensureVscodeServer();
  let server;
  let browser;
  // A fresh copy of the workspace, so a test may write into it.
  const copy = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'tradereq-ui-workspace-'));
  fs.cpSync(workspace, copy, { recursive: true });
  workspace = copy;
  const close = async () => {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    fs.rmSync(copy, { recursive: true, force: true });
  };
  try {
    [server, browser] = await Promise.all([
      startVscodeServer({ vscode, extraArgs: serverArgs }),
      launchBrowser({ chromium: vscode.chromium, viewport: { width: 1400, height: 860 } }),
    ]);
    const { page } = browser;
    await page.goto(workbenchUrl(server, { folder: workspace, extensionDevelopmentPath: REPO }));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The explorer lists the workspace once the workbench is connected to the server.
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    return { page, server, close, workspace };
  } catch (e) {
    await close();
    throw e;
  }
}

let shared; // the promise of the workbench the test files that need nothing special share

/**
 * The default workbench (openWorkbench() with no options), opened once for the UI test files that
 * change nothing of it but the files they type into: each start of a server and a browser costs
 * seconds. Its close() does nothing; closeSharedWorkbench() ends it (run-ui.js, after the run).
 */
async function sharedWorkbench() {
  shared ??= start();
  return { ...(await shared), close: async () => {} };
}

async function closeSharedWorkbench() {
  if (shared) await (await shared.catch(() => undefined))?.close();
  shared = undefined;
}

/**
 * Opens a file of the workspace with Quick Open and waits for its first line in the editor. `query`
 * is what is typed: the name by default; an absolute path finds a file written after the workbench
 * opened, which Quick Open's file index does not hold.
 */
async function openFile(page, name, firstLineText, query = name) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(query);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-lines').filter({ hasText: firstLineText }).first().waitFor();
}

/** Runs a command from the Command Palette by its title. */
async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill('>' + title);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Moves the cursor to line:column (1-based) with Go to Line. */
async function goTo(page, line, column) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

async function screenshot(page, name) {
  fs.mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, name);
  await page.screenshot({ path: file });
  return file;
}

/** The TradeReq response panel: a webview, whose content is in a frame inside its frame. */
function panelFrame(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

/**
 * Clicks the code lens `label` ("Send", "Sign only", "Copy as cURL") above the request whose
 * "### title" line is visible in the editor: the lens nearest above that line.
 */
async function clickCodeLens(page, title, label) {
  const lens = await lensAbove(page, title);
  // The label follows an icon (a glyph in the text), so it is matched at the end.
  await lens.locator('a', { hasText: new RegExp(`${label}$`) }).click();
}

/**
 * The code lens nearest above the "### title" line. The editor renders its lines again when lenses
 * arrive (they come once the provider's bundle has loaded), so a line or lens measured in between
 * has no box: it is measured again at the next frame, for 15 s at most.
 */
async function lensAbove(page, title) {
  const line = page.locator('.monaco-editor .view-line', { hasText: `### ${title}` }).first();
  const lenses = page.locator('.monaco-editor .codelens-decoration');
  const deadline = Date.now() + 15_000;
  for (;;) {
    await line.waitFor();
    await lenses.first().waitFor();
    const top = (await line.boundingBox())?.y;
    let best;
    for (const lens of top === undefined ? [] : await lenses.all()) {
      const box = await lens.boundingBox();
      if (box && box.y < top && (!best || box.y > best.y)) best = { lens, y: box.y };
    }
    if (best) return best.lens;
    if (Date.now() > deadline) throw new Error(`no code lens above "### ${title}"`);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
}

/** A notification toast whose text contains `text`. */
function notification(page, text) {
  return page.locator('.notification-toast', { hasText: text }).first();
}

/** "Notifications: Clear All Notifications", then waits until no toast is left (before a screenshot). */
async function clearNotifications(page) {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.locator('.notification-toast').first().waitFor({ state: 'hidden' });
}

/** Fails unless nothing listens on 127.0.0.1:`port` (polled up to `timeoutMs`). */
async function assertPortFree(port, timeoutMs = 0) {
  const net = require('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const error = await new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', resolve);
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(undefined)));
    });
    if (!error) return;
    if (error.code !== 'EADDRINUSE' || Date.now() > deadline) {
      throw new Error(
        `port ${port} is in use (${error.code}): stop what holds it (a "tradereq sandbox"?) before these tests`,
      );
    }
    await new Promise((r) => setTimeout(r, 100)); // poll interval, bounded by the deadline
  }
}

/** Every file under `dirs` that contains one of `needles`: [{ file, needle }]. */
function filesContaining(dirs, needles) {
  const found = [];
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const d of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!d.isFile()) continue;
      const file = path.join(d.parentPath, d.name);
      const text = fs.readFileSync(file, 'latin1');
      for (const needle of needles) if (text.includes(needle)) found.push({ file, needle });
    }
  }
  return found;
}

/** A mocha `afterEach` that keeps what the workbench looked like when a test failed. */
function screenshotOnFailure(page) {
  return async function () {
    const shown = page();
    if (this.currentTest?.state === 'failed' && shown)
      await screenshot(shown, `failed-${this.currentTest.title.slice(0, 40).replace(/[^A-Za-z0-9]+/g, '-')}.png`).catch(
        () => {},
      );
  };
}

module.exports = {
  openWorkbench,
  screenshotOnFailure,
  sharedWorkbench,
  closeSharedWorkbench,
  openFile,
  runCommand,
  goTo,
  screenshot,
  panelFrame,
  clickCodeLens,
  notification,
  clearNotifications,
  assertPortFree,
  filesContaining,
  REPO,
};
