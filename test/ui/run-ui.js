#!/usr/bin/env node
// `npm run test:ui`: the UI checks in headless Chromium against the real VS Code server.
'use strict';
const path = require('node:path');
const Mocha = require('mocha');
const { ensureVscodeServer, SetupError } = require('../harness/setup');

try {
  ensureVscodeServer();
} catch (e) {
  console.error(e instanceof SetupError ? e.message : `test:ui: ${e.message}`);
  process.exit(1);
}
const { closeSharedWorkbench } = require('./workbench');

const mocha = new Mocha({ timeout: 180_000, reporter: 'spec', rootHooks: { afterAll: closeSharedWorkbench } });
for (const f of require('node:fs')
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.test.js'))
  .sort())
  mocha.addFile(path.join(__dirname, f));
mocha.run((failures) => {
  process.exitCode = failures > 0 ? 1 : 0;
});
