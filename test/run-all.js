#!/usr/bin/env node
// `npm test`: every part in order, stopping at the first failure, with the time each took and a
// total of the tests that ran. `npm test -- --quick` leaves out the parts that need a real VS Code.
const { spawn } = require('node:child_process');

const { TARGETS } = require('./harness/setup');

const quick = process.argv.includes('--quick');
const VSCODE_VERSIONS = Object.values(TARGETS)
  .map((t) => t.vscode)
  .join(' and '); // test:vscode runs the suite on each

/** [name, npm script, needs a real VS Code, how its tests are counted] */
const parts = [
  ['lint and format (ESLint, Prettier)', 'lint', false, 'none'],
  ['type check', 'typecheck', false, 'none'],
  ['build', 'build', false, 'none'],
  ['unit, end-to-end and conformance tests (mocha)', 'test:unit', false, 'mocha'],
  ['grammar tests (vscode-tmgrammar-test)', 'test:grammar', false, 'grammar'],
  [`integration tests in real VS Code ${VSCODE_VERSIONS}`, 'test:vscode', true, 'summary'],
  ['harness self-test (a broken extension must fail)', 'test:harness', true, 'one'],
  ['response panel in Chromium (hostile input, CSP, keyboard)', 'test:webview', true, 'mocha'],
  ['UI tests in Chromium', 'test:ui', true, 'mocha'],
  ['package the .vsix and install it into VS Code', 'test:package', true, 'summary'],
];

function runPart(script, counting) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['inherit', 'pipe', 'pipe'] });
    const counts = { passed: 0, failed: 0 };
    let pending = '';
    const scan = (line) => {
      let m;
      if (counting === 'mocha' && (m = /^\s*(\d+) passing/.exec(line))) counts.passed += Number(m[1]);
      if (counting === 'mocha' && (m = /^\s*(\d+) failing/.exec(line))) counts.failed += Number(m[1]);
      // The last closing line counts: test:vscode ends with its total over both VS Code versions.
      if (counting === 'summary' && (m = /^(?:[\w ]+: )?(\d+) passed, (\d+) failed/.exec(line))) {
        counts.passed = Number(m[1]);
        counts.failed = Number(m[2]);
      }
      if (counting === 'grammar' && /^✓ /.test(line)) counts.passed++;
      if (counting === 'grammar' && /^✖ /.test(line)) counts.failed++;
    };
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop();
      lines.forEach(scan);
    });
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    child.on('close', (code, signal) => {
      if (pending) scan(pending);
      if (counting === 'one') counts[code === 0 ? 'passed' : 'failed'] = 1;
      resolve({ code: code ?? 1, signal, counts });
    });
  });
}

async function main() {
  const timings = [];
  const total = { passed: 0, failed: 0 };
  let failed;
  for (const [name, script, needsVscode, counting] of parts) {
    if (quick && needsVscode) {
      timings.push(`${name}: skipped (--quick)`);
      continue;
    }
    console.log(`\n▶ ${name}`);
    const start = Date.now();
    const { code, signal, counts } = await runPart(script, counting);
    timings.push(`${name}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
    total.passed += counts.passed;
    total.failed += counts.failed;
    if (code !== 0) {
      failed = `${name} failed (exit ${signal ?? code})`;
      if (counts.failed === 0) total.failed++;
      break;
    }
  }
  console.log('\nTimings:\n  ' + timings.join('\n  '));
  if (failed) console.error(`\n${failed}`);
  console.log(`\nnpm test: ${total.passed} passed, ${total.failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
