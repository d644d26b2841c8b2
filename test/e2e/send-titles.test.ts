/**
 * `tradereq send` titles each request as `test` does (issue 19, point 6), in colour on a terminal
 * (bold title, green ok, red rejection), never when NO_COLOR is set, --no-color is given or the
 * output is piped. The built CLI against the sandbox; a terminal is made with `script` (util-linux:
 * Linux only, skipped where it is missing).
 */
/* eslint-disable no-control-regex -- the test reads the terminal's colour codes (ESC [ … m) */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { CLI, cleanEnv, describeRun, tradereq, type Run } from '../support/cli';

const FILE = `### Ping the service
# @name ping
GET /api/v3/ping

###
GET /api/v3/time

### A rejected order
POST /api/v3/order
symbol = NOPE
side = BUY
type = MARKET
quantity = 1
`;

/** The CLI with standard output on a terminal (`script`), its output as the terminal got it. */
function inTerminal(args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const start = Date.now();
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, env: cleanEnv(env), stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr: '', ms: Date.now() - start });
    });
  });
}

describe('send titles each request as test does, in colour on a terminal only', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    ensureBuilt();
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-titles-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ local: { baseUrl: sandbox.baseUrl, key: 'sandbox' } }),
    );
    writeFileSync(join(dir, 'three.tradereq'), FILE);
  });
  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('piped: the titles, and no colour', async () => {
    const r = await tradereq(['send', 'three.tradereq', '--all'], { cwd: dir, env });
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /^### 1\. Ping the service \(ping\): GET http:\/\/127\.0\.0\.1:\d+\/api\/v3\/ping\n/);
    assert.match(r.stdout, /\n### 2: GET http:\/\/127\.0\.0\.1:\d+\/api\/v3\/time\n/);
    assert.match(r.stdout, /\n### 3\. A rejected order: POST /);
    assert.doesNotMatch(r.stdout, /\x1b/);
  });

  it('on a terminal: bold titles, a green ok and a red rejection; none with NO_COLOR or --no-color', async function () {
    if (spawnSync('script', ['--version']).status !== 0) this.skip();
    const coloured = await inTerminal(['send', 'three.tradereq', '--all'], dir, env);
    assert.match(
      coloured.stdout,
      /\x1b\[1m### 1\. Ping the service \(ping\): GET [^\x1b]*\x1b\[0m/,
      describeRun(coloured),
    );
    assert.match(coloured.stdout, /\x1b\[32m→ 200 ok/);
    assert.match(coloured.stdout, /\x1b\[31m→ 400 /);
    const noColor = await inTerminal(['send', 'three.tradereq', '--all'], dir, { ...env, NO_COLOR: '1' });
    const flag = await inTerminal(['send', 'three.tradereq', '--all', '--no-color'], dir, env);
    for (const r of [noColor, flag]) {
      assert.match(r.stdout, /### 1\. Ping the service \(ping\)/, describeRun(r));
      assert.doesNotMatch(r.stdout, /\x1b\[/);
    }
  });
});
