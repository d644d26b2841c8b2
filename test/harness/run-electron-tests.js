#!/usr/bin/env node
// `npm run test:electron`: the same integration tests module under @vscode/test-electron, for desktop
// machines with internet (it downloads VS Code 1.100.3, the version the real-host harness runs).
// CI uses run-vscode-tests.js instead: it needs no download (see docs/development.md).
'use strict';

const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');

async function main() {
  let runTests;
  try {
    ({ runTests } = require('@vscode/test-electron'));
  } catch {
    console.error('test:electron: @vscode/test-electron is not installed: run npm install');
    process.exit(1);
  }
  try {
    const code = await runTests({
      version: process.env.TRADEREQ_VSCODE_VERSION || '1.100.3',
      extensionDevelopmentPath: REPO,
      extensionTestsPath: path.join(REPO, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        path.join(REPO, 'test', 'fixtures', 'workspace'),
        '--disable-extensions',
        '--disable-workspace-trust',
      ],
    });
    process.exit(code);
  } catch (e) {
    console.error(
      `test:electron: ${e.message}. This runner downloads VS Code; without internet use npm run test:vscode.`,
    );
    process.exit(1);
  }
}

main();
