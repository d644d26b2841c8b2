#!/usr/bin/env node
// `npm run test:package`: `npm run package` makes the .vsix (npm test makes it in a part of its own), the VS Code server installs it into a
// fresh extensions folder (as a user's `code --install-extension` would), and the ordinary workbench,
// with no extension under development, opens a .tradereq file in the TradeReq language with its
// Send code lens. Proves the package is complete and installs.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ensureVscodeServer } = require('./setup');
const { startVscodeServer, launchBrowser } = require('./vscode-server');

const REPO = path.resolve(__dirname, '..', '..');
const VSIX = path.join(REPO, 'tradereq.vsix');

async function main() {
  const started = Date.now();
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing: run npm run package first`);
  console.log(`package: ${path.relative(REPO, VSIX)}, ${(fs.statSync(VSIX).size / 1024).toFixed(0)} KiB`);

  const vscode = ensureVscodeServer();
  const extensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-installed-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-package-ws-'));
  let server;
  let browser;
  try {
    const install = spawnSync(
      vscode.node, // the Node the server's native modules were built for
      [
        vscode.serverMain,
        '--accept-server-license-terms',
        '--extensions-dir',
        extensionsDir,
        '--install-extension',
        VSIX,
      ],
      { cwd: vscode.vscodeDir, encoding: 'utf8' },
    );
    if (install.status !== 0)
      throw new Error(`the VS Code server could not install the .vsix:\n${install.stdout}\n${install.stderr}`);
    const installed = fs.readdirSync(extensionsDir).filter((d) => d.startsWith('tradereq.tradereq-'));
    assert.equal(installed.length, 1, `installed: ${fs.readdirSync(extensionsDir).join(', ')}`);
    for (const f of [
      'package.json',
      'dist/extension.js',
      'dist/lazy.js',
      'dist/tools.js',
      'dist/webview/panel.js',
      'dist/webview/panel.css',
      'media/tradereq.tmLanguage.json',
      'media/tradereq.env.schema.json',
    ]) {
      assert.ok(fs.existsSync(path.join(extensionsDir, installed[0], f)), `the package holds ${f}`);
    }
    console.log(`package: installed as ${installed[0]}`);

    fs.copyFileSync(
      path.join(REPO, 'test', 'fixtures', 'workspace', 'example.tradereq'),
      path.join(workspace, 'example.tradereq'),
    );
    server = await startVscodeServer({
      vscode,
      extraArgs: ['--disable-workspace-trust', '--extensions-dir', extensionsDir],
      developmentPayload: false, // the installed package, as a user has it
    });
    browser = await launchBrowser({ chromium: vscode.chromium });
    const { page } = browser;
    await page.goto(`${server.origin}/?folder=${encodeURIComponent(workspace)}`);
    // Open the file from the explorer, as a person would.
    await page
      .locator('.explorer-folders-view .monaco-list-row')
      .filter({ hasText: 'example.tradereq' })
      .first()
      .click({ timeout: 60_000 });
    await page.locator('#status\\.editor\\.mode').filter({ hasText: 'TradeReq' }).waitFor({ timeout: 30_000 });
    await page.locator('.codelens-decoration').filter({ hasText: 'Send' }).first().waitFor({ timeout: 30_000 });
    console.log(
      `package: the installed extension opens example.tradereq in TradeReq mode with its Send code lens (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    console.log('package: 1 passed, 0 failed');
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    fs.rmSync(extensionsDir, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`package: FAILED: ${e.message}`);
  process.exit(1);
});
