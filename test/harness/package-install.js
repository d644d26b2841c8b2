#!/usr/bin/env node
// `npm run test:package`: the README's install lines, run as written in a clean folder that holds
// only the two files `npm run package` made (npm test makes them in a part of its own): the npm
// tarball installs the tradereq command, `code --install-extension` the .vsix. Then the ordinary
// workbench, with no extension under development, opens a .tradereq file in the TradeReq language
// with its Send code lens. Proves the packages are complete and the README's commands work.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureVscodeServer } = require('./setup');
const { cleanShellEnv, runAsWritten } = require('./clean-folder');
const { startVscodeServer, launchBrowser } = require('./vscode-server');

const REPO = path.resolve(__dirname, '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
const FILES = [path.join(REPO, 'tradereq.vsix'), path.join(REPO, `tradereq-${VERSION}.tgz`)];
const MARKER = '<!-- install: test/harness/package-install.js';

/** The lines of the README's install block: the sh block after MARKER. */
function installLines() {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md lacks the install block's marker (${MARKER})`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error('no ```sh block after the install marker of README.md');
  return block[1].split('\n').filter((l) => l.trim() !== '');
}

/**
 * A stand-in for the desktop `code` command, which cannot run here: it hands --install-extension to
 * the VS Code server's own command line, which takes the same option, installing into `extensionsDir`.
 */
function codeCommand(bin, vscode, extensionsDir) {
  fs.mkdirSync(bin, { recursive: true });
  const file = path.join(bin, 'code');
  const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      "# Stands in for VS Code's `code` command (not on this machine): the VS Code server installs the extension.",
      `exec ${q(vscode.node)} ${q(vscode.serverMain)} --accept-server-license-terms --extensions-dir ${q(extensionsDir)} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
}

/** Runs each install line with bash in a clean folder holding only the two packages; returns its output. */
function runInstallLines(vscode, extensionsDir) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-install-'));
  try {
    const folder = path.join(tmp, 'downloads');
    fs.mkdirSync(folder);
    for (const f of FILES) {
      if (!fs.existsSync(f)) throw new Error(`${f} is missing: run npm run package first`);
      fs.copyFileSync(f, path.join(folder, path.basename(f)));
    }
    codeCommand(path.join(tmp, 'bin'), vscode, extensionsDir);
    const env = cleanShellEnv(tmp, { extraPath: [path.join(tmp, 'bin')] });
    let output = '';
    for (const line of installLines()) {
      const r = runAsWritten(line, { cwd: folder, env });
      output += r.output;
      if (r.status !== 0) throw new Error(`README install line failed (exit ${r.status}): ${line}\n${r.output}`);
      console.log(`package: ran as written: ${line}`);
    }
    return output;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const started = Date.now();
  const vscode = ensureVscodeServer();
  const extensionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-installed-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-package-ws-'));
  let server;
  let browser;
  try {
    const output = runInstallLines(vscode, extensionsDir);
    assert.match(output, new RegExp(`^tradereq ${VERSION.replace(/\./g, '\\.')}$`, 'm'), 'tradereq --version');
    const installed = fs.readdirSync(extensionsDir).filter((d) => d.startsWith('tradereq.tradereq-'));
    assert.equal(installed.length, 1, `installed: ${fs.readdirSync(extensionsDir).join(', ')}`);
    for (const f of [
      'package.json',
      'dist/extension.js',
      'dist/lazy.js',
      'dist/tools.js',
      'dist/ws.js',
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
