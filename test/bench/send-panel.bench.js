#!/usr/bin/env node
// Send → panel benchmark: the production bundle in a real VS Code extension host, the sandbox
// embedded in it. Prints the median and p90 of the time from the Send command to the panel's state
// being set and posted, minus the network time the sender recorded, with the clock offset already
// measured (target: median < 15 ms), and the first Send apart with the size of the bundles it loads.
// The extension is built into the benchmark's own folder (out/bench/send-panel/extension), dist/ is
// left to the tests.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const esbuild = require('esbuild');
const { runVscodeTests } = require('../harness/run-vscode-tests');

const REPO = path.resolve(__dirname, '..', '..');
const TARGET_MS = 15;
// Fresh extension hosts: each has one first Send.
const RUNS = Number(process.env.BENCH_SEND_RUNS || 3);

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** The extension as its package holds it, production build: package.json, media/ and dist/. */
function buildExtension(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const built = spawnSync(
    process.execPath,
    [path.join(REPO, 'esbuild.js'), '--production', `--outdir=${path.join(dir, 'dist')}`],
    {
      cwd: REPO,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) process.exit(1);
  fs.copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
  fs.cpSync(path.join(REPO, 'media'), path.join(dir, 'media'), { recursive: true });
}

const kib = (bytes) => `${bytes.toLocaleString('en-US')} bytes (${(bytes / 1024).toFixed(1)} KiB)`;

/** One line per moment: the bundles loaded by then, beyond dist/extension.js, and their sizes. */
function bundleLines({ activated, beforeSend, firstSend }) {
  const list = (b) =>
    Object.entries(b)
      .map(([file, bytes]) => `${file} ${kib(bytes)}`)
      .join(', ') || 'none';
  const total = Object.values(firstSend).reduce((a, b) => a + b, 0);
  return [
    `bundles loaded by the first Send, beyond dist/extension.js: ${list(firstSend)}; in all ${kib(total)}`,
    `  (of them, loaded at activation: ${list(activated)}; before the first Send, when the env files were read: ${list(beforeSend)})`,
  ];
}

async function main() {
  const extension = path.join(REPO, 'out', 'bench', 'send-panel', 'extension');
  buildExtension(extension);
  const out = path.join(REPO, 'out', 'bench', 'send-panel', 'index.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'send-panel', 'index.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const sessions = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await session(out, extension);
    sessions.push(r);
    console.log(
      `  session ${i + 1}: first Send ${r.coldMs.toFixed(1)} ms, first timed Send ${r.first.totalMs.toFixed(1)} ms`,
    );
  }
  report(sessions);
}

/** The figures of all sessions: the first Send, what it loaded and at what cost, then the warm Sends. */
function report(sessions) {
  const samples = sessions.flatMap((r) => r.samples);
  const own = samples.map((s) => s.panelMs - s.networkMs).sort((a, b) => a - b);
  const network = samples.map((s) => s.networkMs).sort((a, b) => a - b);
  const whole = samples.map((s) => s.panelMs).sort((a, b) => a - b);
  const median = quantile(own, 0.5);
  const cold = sessions.map((r) => r.coldMs).sort((a, b) => a - b);
  const first = sessions.map((r) => r.first.totalMs).sort((a, b) => a - b);
  console.log(
    `the session's first Send (its file open; refused for want of a key: resolving, the key store, the refusal): median ${quantile(cold, 0.5).toFixed(1)} ms over ${cold.length} sessions (min ${cold[0].toFixed(1)}, max ${cold[cold.length - 1].toFixed(1)}); the first timed Send: median ${quantile(first, 0.5).toFixed(1)} ms`,
  );
  for (const line of bundleLines(sessions[0].bundles)) console.log(line);
  for (const file of Object.keys(sessions[0].loads)) {
    const times = sessions.flatMap((r) => r.loads[file] ?? []).sort((a, b) => a - b);
    console.log(
      `  loading ${file} in the host (compiling it, running its top level): median ${quantile(times, 0.5).toFixed(1)} ms over ${times.length} fresh loads (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`,
    );
  }
  console.log(
    `Send → panel state posted, minus the network time: median ${median.toFixed(1)} ms, p90 ${quantile(own, 0.9).toFixed(1)} ms over ${own.length} sends (${median < TARGET_MS ? 'met' : 'MISSED'}: target median < ${TARGET_MS} ms)`,
  );
  console.log(
    `  (command → panel state: median ${quantile(whole, 0.5).toFixed(1)} ms; network time the sender recorded: median ${quantile(network, 0.5).toFixed(1)} ms)`,
  );
}

/** One fresh extension host: what the tests module printed. */
async function session(tests, extension) {
  const r = {};
  const log = console.log;
  console.log = (...args) => {
    const line = String(args[0]);
    const m = /^send-panel (samples|first|bundles|loads): (\{.*\}|\[.*\])/.exec(line);
    if (m) r[m[1]] = JSON.parse(m[2]);
    const c = /^send-panel cold: ([\d.]+) ms/.exec(line);
    if (c) r.coldMs = Number(c[1]);
  };
  const code = await runVscodeTests({ tests, extension });
  console.log = log;
  if (code !== 0 || !r.samples || !r.first || !r.bundles || !r.loads || r.coldMs === undefined) {
    console.error(`send-panel benchmark: the run failed (exit ${code})`);
    process.exit(1);
  }
  return r;
}

main();
