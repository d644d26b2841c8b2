#!/usr/bin/env node
// `npm test`: every part in order, stopping at the first failure, with the time each took.
const { spawnSync } = require('node:child_process');

const parts = [
  ['type check', 'npm', ['run', '--silent', 'typecheck']],
  ['build', 'npm', ['run', '--silent', 'build']],
  ['unit tests', 'npm', ['run', '--silent', 'test:unit']],
];

const timings = [];
let failed;
for (const [name, cmd, args] of parts) {
  console.log(`\n▶ ${name}`);
  const start = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - start) / 1000).toFixed(1);
  timings.push(`${name}: ${seconds} s`);
  if (result.status !== 0) {
    failed = `${name} failed (exit ${result.status ?? result.signal})`;
    break;
  }
}
console.log('\nTimings: ' + timings.join(', '));
if (failed) {
  console.error(failed);
  process.exit(1);
}
