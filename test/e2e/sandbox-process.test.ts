/**
 * `tradereq sandbox` as a process: it runs until SIGTERM, then exits 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';

const ROOT = path.resolve(__dirname, '../..');

describe('sandbox command, as a process', () => {
  it('runs until SIGTERM, then exits 0 (child process)', async function () {
    this.timeout(30_000);
    const script =
      "require('./src/cli/sandbox').sandboxCommand(['--port', '0', '--json'], require('./src/cli/usage').processIo).then((c) => { process.exitCode = c; })";
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
      cwd: ROOT,
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
