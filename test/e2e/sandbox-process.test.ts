/**
 * `tradereq sandbox` as a process: it runs until SIGTERM, then exits 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { ensureBuilt } from '../support/build';
import { CLI, cleanEnv, ROOT } from '../support/cli';

describe('sandbox command, as a process', () => {
  let state: string;
  before(() => {
    ensureBuilt();
    state = mkdtempSync(join(tmpdir(), 'tradereq-sandbox-process-'));
  });
  after(() => rmSync(state, { recursive: true, force: true }));

  it('runs until SIGTERM, then exits 0 (child process)', async function () {
    this.timeout(30_000);
    // The built command line, as a user runs it (no TypeScript compiled on the way).
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--json'], {
      cwd: ROOT,
      env: cleanEnv({ TRADEREQ_STATE_DIR: state }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', () => reject(new Error('exited before printing')));
      });
      const info = JSON.parse(line) as { baseUrl: string };
      const res = await request(info.baseUrl + '/api/v3/time');
      assert.equal(res.statusCode, 200);
      await res.body.text();
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); // a failure above left it running
    }
  });
});
