/**
 * Processes that change the shared rate-limit state at once lose none of each other's changes: each
 * read-modify-write runs under the state's lock file. Real processes, one real state folder.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
        "export { Budget } from './src/core/budget/budget'; export { FileStateStore } from './src/core/budget/state';",
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
    for (let k = 0; k < 5; k++) {
      // A lock wait that runs out (a busy machine) is reported, not dropped: try that change again, as a user would.
      const deadline = Date.now() + 60000;
      for (;;) {
        const view = budget.record({ origin: 'https://o${i}-' + k + '.example', mode: 'ip', weight: 1 }, { status: 200 });
        if (view.damaged === undefined) break;
        if (!view.damaged.includes('holds its lock') || Date.now() > deadline) { console.error(view.damaged); process.exit(75); }
      }
    }
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: 'inherit' });
    child.on('close', resolve);
  });
}

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
});
