/** Nothing re-routes a signed request, as a user meets it on the command line against the sandbox. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { describeRun, tradereq } from '../support/cli';

describe('nothing re-routes a signed request', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-reroute-'));
  });
  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function reached(): Promise<number> {
    return ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as unknown[]).length;
  }

  it('a Host header in a signed request: bad input, exit 2, nothing reaches the server', async () => {
    writeFileSync(join(dir, 'host.tradereq'), 'GET /api/v3/account\nHost: other.example\n');
    const r = await tradereq(['send', 'host.tradereq', '--no-clock-sync'], {
      cwd: dir,
      env: { TRADEREQ_STATE_DIR: join(dir, 'state'), TRADEREQ_ENV: 'sandbox' },
    });
    // The built-in sandbox environment is 127.0.0.1:8780; the file goes where --base-url says.
    const again = await tradereq(['send', 'host.tradereq', '--base-url', sandbox.baseUrl, '--no-clock-sync'], {
      cwd: dir,
      env: { TRADEREQ_STATE_DIR: join(dir, 'state') },
    });
    for (const run of [r, again]) {
      assert.equal(run.status, 2, describeRun(run));
      assert.match(run.stderr, /Host is not for request files/);
    }
    assert.equal(await reached(), 0);
  });

  it('after a 429 from 127.0.0.1:P, a request to localhost:P waits too (one origin for the gate)', async () => {
    const stateDir = join(dir, 'state');
    mkdirSync(stateDir);
    const now = Date.now();
    const blocked = { until: now + 60_000, status: 429, since: now };
    writeFileSync(
      join(stateDir, 'state.json'),
      JSON.stringify({ version: 1, origins: { [sandbox.baseUrl]: { ip: [], accounts: {}, blocked } } }),
    );
    writeFileSync(join(dir, 'ping.tradereq'), 'GET /api/v3/ping\n');
    const alias = sandbox.baseUrl.replace('127.0.0.1', 'localhost');
    const r = await tradereq(['send', 'ping.tradereq', '--base-url', alias, '--no-clock-sync'], {
      cwd: dir,
      env: { TRADEREQ_STATE_DIR: stateDir },
    });
    assert.equal(r.status, 4, describeRun(r));
    assert.match(r.stdout, /asked to back off \(429\)/);
    assert.equal(await reached(), 0);
  });
});
