#!/usr/bin/env node
// A test of the harness itself: an extension whose activate() throws must make the suite fail,
// so that a broken extension can never pass `npm test`.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runOnTarget } = require('./run-vscode-tests');

const REPO = path.resolve(__dirname, '..', '..');

async function main() {
  const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-broken-extension-'));
  try {
    // The real manifest and media, with an entry point whose activate() throws.
    fs.copyFileSync(path.join(REPO, 'package.json'), path.join(broken, 'package.json'));
    fs.cpSync(path.join(REPO, 'media'), path.join(broken, 'media'), { recursive: true });
    fs.mkdirSync(path.join(broken, 'dist'));
    fs.writeFileSync(
      path.join(broken, 'dist', 'extension.js'),
      "exports.activate = () => { throw new Error('deliberate activation failure (harness self-test)'); };\n",
    );
    // Only the activation tests: the rest would each wait out their deadline against a dead extension.
    const suite = path.join(REPO, 'out', 'test', 'selftest');
    fs.rmSync(suite, { recursive: true, force: true });
    fs.mkdirSync(suite, { recursive: true });
    for (const f of ['index.js', 'activation.test.js'])
      fs.copyFileSync(path.join(REPO, 'out', 'test', 'integration', f), path.join(suite, f));
    console.log('harness self-test: running the activation tests against an extension whose activate() throws');
    const { code, summary } = await runOnTarget({ extension: broken, tests: path.join(suite, 'index.js') });
    if (code === 0) {
      console.error('harness self-test: FAILED: the suite passed although activate() throws');
      process.exitCode = 1; // not process.exit(): the finally below removes the temp extension
      return;
    }
    // The suite must have run and failed its tests: a setup or start-up failure proves nothing.
    const failed = Number(/(\d+) failed/.exec(summary || '')?.[1] || 0);
    if (failed === 0) {
      console.error(`harness self-test: FAILED: the suite never ran its tests (exit code ${code}); see above`);
      process.exitCode = 1;
      return;
    }
    console.log(`harness self-test: passed: the broken extension made ${failed} test(s) fail (exit code ${code})`);
  } finally {
    fs.rmSync(broken, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`harness self-test: ${e.message}`);
  process.exit(1);
});
