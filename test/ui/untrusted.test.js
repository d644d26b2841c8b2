// An untrusted workspace, as a person meets it: the VS Code server runs with Workspace Trust on, the
// person answers the trust prompt with "No, I don't trust the authors", and the workspace opens in
// Restricted Mode. Completion and checks work there; Send and Connect send nothing, and say why.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');
const {
  openWorkbench,
  openFile,
  goTo,
  screenshot,
  clickCodeLens,
  notification,
  clearNotifications,
  REPO,
} = require('./workbench');

/** `tradereq sandbox --port 0 --json` from the build: resolves to { baseUrl, stop() }. */
async function startSandboxProcess() {
  const child = spawn(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'sandbox', '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const first = await Promise.race([
      new Promise((resolve) => readline.createInterface({ input: child.stdout }).once('line', resolve)),
      exited.then((code) => Promise.reject(new Error(`the sandbox exited (${code}) before it printed its address`))),
    ]);
    return { baseUrl: JSON.parse(first).baseUrl, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

describe('an untrusted workspace (Restricted Mode), as a person meets it', function () {
  this.timeout(180_000);
  let sandbox;
  let folder;
  let wb;
  let page;

  const sandboxLog = async () => (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json();

  before(async () => {
    sandbox = await startSandboxProcess();
    // The fixture workspace, with a tradereq.env.json that points at the sandbox: what an untrusted folder could hold.
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-untrusted-'));
    fs.cpSync(path.join(REPO, 'test', 'fixtures', 'workspace'), folder, { recursive: true });
    fs.writeFileSync(
      path.join(folder, 'tradereq.env.json'),
      JSON.stringify({ local: { baseUrl: sandbox.baseUrl, key: 'sandbox' } }),
    );
    wb = await openWorkbench({ workspace: folder, serverArgs: [] }); // without --disable-workspace-trust
    page = wb.page;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page)
      await screenshot(
        page,
        `failed-untrusted-${this.currentTest.title.slice(0, 40).replace(/[^A-Za-z0-9]+/g, '-')}.png`,
      ).catch(() => {});
  });

  after(async () => {
    await wb?.close();
    await sandbox?.stop();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('asks whether to trust the folder; "No, I don\'t trust the authors" opens it in Restricted Mode', async () => {
    const dialog = page.locator('.monaco-dialog-box', {
      hasText: 'Do you trust the authors of the files in this folder?',
    });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /No, I don't trust the authors/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor();
  });

  it('Send on the code lens sends nothing and says that sending needs a trusted workspace', async () => {
    await openFile(page, 'sending.tradereq', 'Requests for the sending tests');
    await page.locator('#status\\.editor\\.mode').filter({ hasText: 'TradeReq' }).waitFor();
    await clickCodeLens(page, 'Buy at a limit price', 'Send');
    const warning = notification(
      page,
      'TradeReq: sending requests and using keys needs a trusted workspace. Nothing was sent.',
    );
    await warning.waitFor();
    await warning.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor();
    await page
      .locator('.notification-toast.notification-fade-in-done', { hasText: 'needs a trusted workspace' })
      .waitFor();
    await screenshot(page, 'untrusted-send-refused.png');
    assert.equal(await page.locator('iframe.webview').count(), 0, 'no response panel opened');
    assert.deepEqual(await sandboxLog(), [], 'nothing reached the sandbox');
  });

  it('completion and checks work in Restricted Mode, and nothing is fetched for them', async () => {
    // A new line in the exchangeInfo request (line 25): its parameter symbol, then a symbol the workspace's files use.
    await goTo(page, 25, 1);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('sy');
    const widget = page.locator('.suggest-widget.visible');
    await widget
      .locator('.monaco-list-row .label-name', { hasText: /^symbol$/ })
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.type('mbol = ');
    await page.keyboard.press('Control+Space'); // symbols: in a trusted workspace this would fetch exchangeInfo
    await widget
      .locator('.monaco-list-row .label-name', { hasText: /^BTCUSDT$/ })
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.type('btcusdt');
    // The check: a lower-case symbol (the service would answer 10007) is flagged as it is typed.
    const flagged = page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning');
    await flagged.first().waitFor();
    await page.keyboard.press('Control+Shift+K'); // Delete Line: the file as it was
    await page.locator('.monaco-editor .view-line', { hasText: 'symbol = btcusdt' }).waitFor({ state: 'detached' });
    await flagged.first().waitFor({ state: 'detached' }); // checked again: nothing left to flag
    assert.deepEqual(await sandboxLog(), [], 'no exchangeInfo was fetched for completion in an untrusted workspace');
  });

  it('Connect on a WebSocket request opens no connection and says that it needs a trusted workspace', async () => {
    await clearNotifications(page);
    await openFile(page, 'ws-diagnostics.tradereq', 'WebSocket requests for the ws-diagnostics tests');
    await clickCodeLens(page, 'A well-formed stream request', 'Connect');
    await notification(page, 'TradeReq: sending requests and using keys needs a trusted workspace. Nothing was sent.')
      .getByRole('button', { name: 'Manage Workspace Trust' })
      .waitFor();
    assert.equal(await page.locator('iframe.webview').count(), 0, 'no stream view opened');
    const ws = await (await fetch(`${sandbox.baseUrl}/_sandbox/ws`)).json();
    assert.equal(ws.connections, 0, 'no WebSocket connection');
    assert.deepEqual(await sandboxLog(), [], 'no upgrade reached the sandbox');
  });
});
