#!/usr/bin/env node
// `npm test`: every part, each started once what it needs is ready, with the time each took and a
// total of the tests that ran. The parts run one at a time, in the order of the list: measured on
// two cores, mocha or a browser beside anything slows both down by as much as it saves, or more;
// mocha runs its files in two workers, whose waits overlap. The exception: the parts of one of the
// GROUPS, which leave a core idle, run two at a time. The setup steps (toolchains, VS Code and
// Chromium, which wait on the network on a new machine) run beside the parts. What a part prints is
// shown as it runs (interleaved in a group, each line whole); what a setup step prints, whole when
// it ends. The first failure stops new parts from starting.
// `npm test -- --quick` leaves out the parts that need a real VS Code or Chromium.
'use strict';

const { spawn } = require('node:child_process');
const os = require('node:os');

const { TARGETS } = require('./harness/setup');

const quick = process.argv.includes('--quick');
const VSCODE_VERSIONS = Object.values(TARGETS)
  .map((t) => t.vscode)
  .join(' and '); // run-vscode-tests runs the suite on each
const node = (...args) => [process.execPath, ...args];
/** The display language other than English whose suite runs, on one VS Code (the oldest supported). */
const LOCALE = { locale: 'zh-cn', target: 'minimum', screenshot: 'test-results/workbench-zh-cn.png' };
// The slow files first, so that the two workers end together.
const MOCHA_SPECS = ['test/e2e/**/*.test.ts', 'test/conformance/**/*.test.ts', 'test/unit/**/*.test.ts'];
/**
 * Parts that run two at a time, the longest first. `checks`: ESLint's type-checked rules keep one
 * core busy for 45 s and leave the other idle, where the builds, Prettier, knip and the type check
 * fit (measured on two shared cores: 51 to 61 s in all instead of 60 to 70 s one after another).
 * Not the browsers: the panel's tests beside the self-test and the install test took longer in all.
 */
const GROUPS = { checks: 2, browsers: 2, workbench: 2 };
// `browsers`: the integration suites beside the short workbench runs (zh-cn, the self-test, the
// install); `workbench`: the UI tests beside the panel's page, which needs no VS Code, port or state
// folder. Never the UI tests beside the integration suites: both may start the sandbox on 8780.
// Each part leaves part of a core idle while it waits on a workbench (measured: 15 to 20 %); two at
// once took 271 and 305 s in two clean runs, where one after another took 348 s (all on two shared cores).
/**
 * The parts: id, name, command, the ids it waits for, whether it runs beside the others (a setup
 * step), its group (GROUPS), how its tests are counted, and whether it needs the real VS Code or
 * Chromium.
 */
const PARTS = [
  {
    id: 'toolchains',
    name: "toolchains for Copy as Code's programs (Go, Python, shellcheck)",
    command: node('test/harness/toolchains.js'),
    beside: true,
  },
  {
    id: 'debian-packages',
    name: 'Debian packages of the tests (Chromium, tinyproxy, …), installed once per machine',
    command: node('test/harness/setup.js', '--debian-packages'),
    after: ['toolchains'], // both may run apt-get, which allows one at a time
    beside: true,
    browser: true, // --quick leaves it out: the proxy's tests run where tinyproxy is installed, skip elsewhere
  },
  {
    id: 'vscode-setup',
    name: `VS Code ${VSCODE_VERSIONS} and Chromium, installed once per machine`,
    command: node('test/harness/setup.js', '--target', 'all'),
    after: ['debian-packages'], // its own apt-get step then finds them installed
    beside: true,
    browser: true,
  },
  { id: 'lint', name: 'lint (ESLint)', command: ['npm', 'run', '--silent', 'lint:eslint'], group: 'checks' },
  { id: 'build', name: 'build', command: node('esbuild.js'), group: 'checks' },
  {
    id: 'package',
    name: 'package the .vsix and the npm tarball',
    command: node('scripts/package.js'),
    after: ['build'],
    group: 'checks',
  },
  {
    id: 'format',
    name: 'format, dead code (Prettier, knip)',
    command: ['npm', 'run', '--silent', 'lint:format'],
    group: 'checks',
  },
  { id: 'typecheck', name: 'type check', command: ['npm', 'run', '--silent', 'typecheck'], group: 'checks' },
  {
    id: 'grammar',
    name: 'grammar tests (vscode-tmgrammar-test)',
    command: ['npm', 'run', '--silent', 'test:grammar'],
    counting: 'grammar',
    group: 'checks',
  },
  {
    id: 'mocha',
    name: 'unit, end-to-end and conformance tests (mocha, 2 workers)',
    command: ['npx', '--no-install', 'mocha', '--parallel', '--jobs', '2', ...MOCHA_SPECS],
    after: ['build', 'package', 'toolchains', 'debian-packages'], // tinyproxy, for the proxy's tests
    counting: 'mocha',
  },
  {
    id: 'build-integration',
    name: 'build the integration tests for the extension host',
    command: node('test/harness/build-integration.js'),
    after: ['build'],
    browser: true,
  },
  {
    id: 'integration',
    name: `integration tests in real VS Code ${VSCODE_VERSIONS}`,
    command: node('test/harness/run-vscode-tests.js'),
    after: ['build-integration', 'vscode-setup'],
    counting: 'summary',
    browser: true,
    group: 'browsers',
  },
  {
    id: 'integration-zh-cn',
    name: `integration tests in VS Code ${TARGETS[LOCALE.target].vscode} with display language ${LOCALE.locale}`,
    command: node(
      'test/harness/run-vscode-tests.js',
      ...['--target', LOCALE.target, '--locale', LOCALE.locale, '--screenshot', LOCALE.screenshot],
    ),
    after: ['build-integration', 'vscode-setup'],
    counting: 'summary',
    browser: true,
    group: 'browsers',
  },
  {
    id: 'harness',
    name: 'harness self-test (a broken extension must fail)',
    command: node('test/harness/selftest.js'),
    after: ['build-integration', 'vscode-setup'], // runs the compiled activation tests
    counting: 'one',
    browser: true,
    group: 'browsers',
  },
  {
    id: 'package-install',
    name: "the README's install lines in a clean folder, then the installed .vsix in VS Code",
    command: node('test/harness/package-install.js'),
    after: ['package', 'vscode-setup'],
    counting: 'summary',
    browser: true,
    group: 'browsers',
  },
  {
    id: 'ui',
    name: 'UI tests in Chromium',
    command: node('test/ui/run-ui.js'),
    after: ['build', 'vscode-setup'],
    counting: 'mocha',
    browser: true,
    group: 'workbench',
  },
  {
    id: 'webview',
    name: 'response panel in Chromium (hostile input, CSP, keyboard, axe-core, the display language)',
    command: [
      'npx',
      '--no-install',
      'mocha',
      '--no-config',
      'test/webview/preview.test.js',
      'test/webview/live.test.js',
      'test/webview/a11y.test.js',
      'test/webview/l10n.test.js',
    ],
    after: ['build', 'vscode-setup'],
    counting: 'mocha',
    browser: true,
    group: 'workbench',
  },
].map((p) => ({ after: [], beside: false, group: undefined, counting: 'none', browser: false, ...p }));

/** Adds to `counts` what one line of a part's output says about its tests. */
function scan(line, counting, counts) {
  let m;
  if (counting === 'mocha') {
    if ((m = /^\s*(\d+) passing/.exec(line))) counts.passed += Number(m[1]);
    if ((m = /^\s*(\d+) failing/.exec(line))) counts.failed += Number(m[1]);
    if ((m = /^\s*(\d+) pending/.exec(line))) counts.pending += Number(m[1]);
  }
  // The last closing line counts: run-vscode-tests ends with its total over both VS Code versions.
  if (counting === 'summary' && (m = /^(?:[\w ]+: )?(\d+) passed, (\d+) failed/.exec(line))) {
    counts.passed = Number(m[1]);
    counts.failed = Number(m[2]);
  }
  if (counting === 'grammar' && /^✓ /.test(line)) counts.passed++;
  if (counting === 'grammar' && /^✖ /.test(line)) counts.failed++;
}

/** Runs one part with its output kept; resolves with its exit code, counts, output and time. */
function runPart(part) {
  return new Promise((resolve) => {
    const start = Date.now();
    const [command, ...args] = part.command;
    // npm and npx are .cmd scripts on Windows, which only a shell starts (Node's own path needs none).
    const shell = process.platform === 'win32' && command !== process.execPath;
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell });
    const counts = { passed: 0, failed: 0, pending: 0 };
    const chunks = [];
    let pending = '';
    let partial = ''; // an unfinished last line, held back so that two parts' lines do not mix
    const complete = (chunk) => {
      const text = partial + chunk.toString();
      const end = text.lastIndexOf('\n') + 1;
      partial = text.slice(end);
      return text.slice(0, end);
    };
    const take = (chunk) => {
      if (part.beside)
        chunks.push(chunk); // a setup step: shown whole when it ends
      else if (part.group)
        process.stdout.write(complete(chunk)); // beside another part of its group: whole lines
      else process.stdout.write(chunk); // the part: shown as it runs
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) scan(line, part.counting, counts);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => take(Buffer.from(`${command}: ${e.message}\n`)));
    child.on('close', (code, signal) => {
      if (partial) process.stdout.write(`${partial}\n`);
      if (pending) scan(pending, part.counting, counts);
      if (part.counting === 'one') counts[code === 0 ? 'passed' : 'failed'] = 1;
      const seconds = (Date.now() - start) / 1000;
      resolve({ code: code ?? 1, signal, counts, output: Buffer.concat(chunks).toString(), seconds });
    });
  });
}

function main() {
  const parts = PARTS.filter((p) => !(quick && p.browser));
  const done = new Map(); // id → result
  const running = new Set(); // ids
  const total = { passed: 0, failed: 0, pending: 0 };
  const timings = [];
  let failed;
  const started = Date.now();
  console.log(`npm test: ${parts.length} parts on ${os.availableParallelism?.() ?? os.cpus().length} cores`);

  const ready = (p) =>
    !done.has(p.id) &&
    !running.has(p.id) &&
    p.after.every((a) => done.get(a)?.code === 0 || !parts.some((q) => q.id === a));
  // One part at a time, or as many of one group as it allows; setup steps beside them.
  const room = (part) => {
    const others = parts.filter((p) => running.has(p.id) && !p.beside);
    if (others.length === 0) return true;
    return !!part.group && others.length < GROUPS[part.group] && others.every((p) => p.group === part.group);
  };

  const finish = (part, result) => {
    running.delete(part.id);
    done.set(part.id, result);
    const verdict = result.code === 0 ? 'passed' : `FAILED (exit ${result.signal ?? result.code})`;
    if (result.output) process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
    console.log(`\n◀ ${part.name}: ${verdict}, ${result.seconds.toFixed(1)} s`);
    timings.push(`${part.name}: ${result.seconds.toFixed(1)} s`);
    for (const k of Object.keys(total)) total[k] += result.counts[k];
    if (result.code !== 0) {
      failed ??= `${part.name} failed (exit ${result.signal ?? result.code})`;
      if (result.counts.failed === 0) total.failed++;
    }
    schedule();
  };

  const schedule = () => {
    if (!failed)
      for (const part of parts.filter(ready)) {
        if (!part.beside && !room(part)) continue;
        running.add(part.id);
        console.log(`\n▶ ${part.name} (at ${((Date.now() - started) / 1000).toFixed(0)} s)`);
        runPart(part).then((result) => finish(part, result));
      }
    if (running.size === 0) end();
  };

  const end = () => {
    const skipped = parts.filter((p) => !done.has(p.id)).map((p) => `${p.name}: not run`);
    if (quick) skipped.push('parts that need VS Code or Chromium: skipped (--quick)');
    const wall = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`\nTimings (${wall} s in all):\n  ${[...timings, ...skipped].join('\n  ')}`);
    if (failed) console.error(`\n${failed}`);
    console.log(`\nnpm test: ${total.passed} passed, ${total.failed} failed, ${total.pending} pending`);
    process.exit(failed ? 1 : 0);
  };

  schedule();
}

main();
