// Starts the real VS Code server with the extension under development and opens the workbench in
// headless Chromium, for UI tests that drive it as a person would. Always stopped by close().
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { ensureVscodeServer } = require('../harness/setup');
const { startVscodeServer, launchBrowser, workbenchUrl } = require('../harness/vscode-server');

const REPO = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(REPO, 'test-results');

async function openWorkbench({ workspace = path.join(REPO, 'test', 'fixtures', 'workspace'), serverArgs = ['--disable-workspace-trust'] } = {}) {
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

/** Opens a file of the workspace with Quick Open and waits for its first line in the editor. */
async function openFile(page, name, firstLineText) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(name);
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

module.exports = { openWorkbench, openFile, runCommand, goTo, screenshot, REPO, RESULTS };
