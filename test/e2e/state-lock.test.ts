/**
 * Processes that change the shared rate-limit state at once lose none of each other's changes: each
 * read-modify-write runs under the state's lock file, and a stale lock is taken over by one process
 * alone. Real processes, one real state folder.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { FileStateStore } from '../../src/core/budget/state';
import { ROOT } from '../support/cli';

/**
 * Budget and FileStateStore as one JavaScript file in `dir`: compiled once here, since each child
 * compiling the TypeScript itself (tsx) cost more than its writes.
 */
function bundleState(dir: string): string {
  const outfile = join(dir, 'state-bundle.js');
  buildSync({
    stdin: {
      contents:
        "export { Budget } from './src/core/budget/budget'; export { FileStateStore } from './src/core/budget/state'; export { LockedFile } from './src/core/budget/locked-file';",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

/** One process that records a request to its own origin in the state at `dir`, with the bundle at `bundle`. */
function recordInChild(bundle: string, dir: string, i: number): Promise<number | null> {
  const script = `
    const { Budget, FileStateStore } = require(${JSON.stringify(bundle)});
    const budget = new Budget(new FileStateStore(${JSON.stringify(dir)}));
    (async () => {
      for (let k = 0; k < 5; k++) {
        // A lock wait that runs out (a busy machine) is reported, not dropped: try that change again, as a user would.
        const deadline = Date.now() + 60000;
        for (;;) {
          const view = await budget.record({ origin: 'https://o${i}-' + k + '.example', mode: 'ip', weight: 1 }, { status: 200 });
          if (view.damaged === undefined) break;
          if (!view.damaged.includes('holds its lock') || Date.now() > deadline) { console.error(view.damaged); process.exit(75); }
        }
      }
    })();
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: 'inherit' });
    child.on('close', resolve);
  });
}

/** A process running `script` (with `bundle` and `dir` defined), resolved with its exit code; its errors on this one's stderr. */
function child(bundle: string, dir: string, script: string): Promise<number | null> {
  const prelude = `const bundle = ${JSON.stringify(bundle)}; const dir = ${JSON.stringify(dir)};`;
  return new Promise((resolve) => {
    const c = spawn(process.execPath, ['-e', prelude + script], { cwd: ROOT, stdio: 'inherit' });
    c.on('close', resolve);
  });
}

/** The token of the stale locks LEAVE_STALE_LOCKS leaves. */
const STALE_TOKEN = 'ee'.repeat(16);

/**
 * A process slow to remove a stale lock (`slow` set): 20 ms between finding the lock there is a
 * stale one and removing it, as on a busy machine, so that it acts long after it looked.
 */
const SLOW_REMOVAL = `
  if (slow) {
    const fs = require('node:fs');
    const unlink = fs.unlinkSync;
    fs.unlinkSync = (path) => {
      let stale = false;
      try { stale = String(path).endsWith('state.lock') && fs.readFileSync(path, 'utf8').includes('${STALE_TOKEN}'); } catch {}
      if (stale) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      return unlink(path);
    };
  }
`;

/** Stale locks left while the counters run before they may stop: so many takeovers are always tried. */
const STALE_LOCKS = 20;

/**
 * Adds 1 to the number in `counter` under the lock of `state.json`, read and written apart with a
 * millisecond between (so two holders at once would lose an addition): 20 times, and on until
 * STALE_LOCKS stale locks were left (file `enough`); then writes how many times to `added-<i>`.
 */
const COUNT = `${SLOW_REMOVAL}
  const { existsSync, readFileSync, writeFileSync } = require('node:fs');
  const { join } = require('node:path');
  const { LockedFile } = require(bundle);
  const file = new LockedFile(dir, 'state.json');
  const counter = join(dir, 'counter');
  let k = 0;
  for (; k < 20 || (k < 5000 && !existsSync(join(dir, 'enough'))); k++) {
    // A lock wait that runs out (a busy machine, the others never letting go) is tried again, as a user would.
    const deadline = Date.now() + 60000;
    for (;;) {
      const r = file.update(() => {
        const n = Number(readFileSync(counter, 'utf8'));
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        writeFileSync(counter, String(n + 1));
        return { text: undefined, result: 0 };
      });
      if (r.ok) break;
      if (r.error.reason !== 'another TradeReq process holds its lock' || Date.now() > deadline) {
        console.error(JSON.stringify(r.error));
        process.exit(75);
      }
    }
  }
  writeFileSync(join(dir, 'added-' + i), String(k));
`;

/**
 * Leaves a stale lock again and again while the counters run, whenever the lock is free (made by
 * a hard link, so never over a held one): a lock of a process that does not run, ten minutes old, so
 * any reading of it takes it for stale. Writes \`enough\` after STALE_LOCKS, stops at \`stop\`.
 */
const LEAVE_STALE_LOCKS = `
  const { existsSync, linkSync, unlinkSync, utimesSync, writeFileSync } = require('node:fs');
  const { join } = require('node:path');
  let left = 0;
  for (let k = 0; !existsSync(join(dir, 'stop')); k++) {
    const text = JSON.stringify({ pid: 2147483646, host: require('node:os').hostname(), at: 0, token: '${STALE_TOKEN}' });
    const tmp = join(dir, 'stale-' + k);
    writeFileSync(tmp, text);
    const then = Date.now() / 1000 - 600;
    utimesSync(tmp, then, then);
    try { linkSync(tmp, join(dir, 'state.lock')); left++; } catch {}
    unlinkSync(tmp);
    if (left === ${STALE_LOCKS}) writeFileSync(join(dir, 'enough'), '');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }
  writeFileSync(join(dir, 'left'), String(left));
`;

describe('the rate-limit state under concurrent writers', function () {
  this.timeout(120_000);
  let bundleDir: string;
  let bundle: string;
  let dir: string;
  before(() => {
    bundleDir = mkdtempSync(join(tmpdir(), 'tradereq-lock-bundle-'));
    bundle = bundleState(bundleDir);
  });
  after(() => rmSync(bundleDir, { recursive: true, force: true }));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('20 processes writing 5 changes each at once: all 100 changes are kept', async () => {
    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => recordInChild(bundle, dir, i)));
    assert.deepEqual(
      codes,
      Array.from({ length: 20 }, () => 0),
    );
    const origins = Object.keys(new FileStateStore(dir).read().origins);
    assert.equal(origins.length, 100, `kept ${origins.length} of 100`);
  });

  it('stale locks left again and again: one process takes each over, and no two hold the lock at once', async () => {
    writeFileSync(join(dir, 'counter'), '0');
    const leaving = child(bundle, dir, LEAVE_STALE_LOCKS);
    // Half of them slow to remove a stale lock once they decided to.
    const counters = await Promise.all(
      Array.from({ length: 6 }, (_, i) => child(bundle, dir, `const i = ${i}; const slow = ${i % 2 === 0};${COUNT}`)),
    );
    writeFileSync(join(dir, 'stop'), '');
    assert.equal(await leaving, 0);
    assert.deepEqual(counters, [0, 0, 0, 0, 0, 0]);
    const left = Number(readFileSync(join(dir, 'left'), 'utf8'));
    assert.ok(left >= STALE_LOCKS, `only ${left} stale locks were left while the counters ran`);
    const added = [0, 1, 2, 3, 4, 5].reduce((sum, i) => sum + Number(readFileSync(join(dir, `added-${i}`), 'utf8')), 0);
    assert.equal(Number(readFileSync(join(dir, 'counter'), 'utf8')), added, `${left} stale locks were left`);
  });
});
