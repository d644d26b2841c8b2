/**
 * The gate holds when several `tradereq send` processes go at once, and when its state folder is
 * unusable or its file damaged: real processes, a real sandbox, a real state folder.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { describeRun, tradereq, type Run } from '../support/cli';

describe('the gate across processes and with an unusable state', function () {
  this.timeout(240_000);
  let sandbox: Sandbox;
  let dir: string;
  let stateDir: string;

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-race-'));
    stateDir = join(dir, 'state');
    writeFileSync(join(dir, 'ping.tradereq'), 'GET /api/v3/ping\n');
  });
  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (env: Record<string, string> = {}): Promise<Run> =>
    tradereq(['send', 'ping.tradereq', '--base-url', sandbox.baseUrl, '--no-clock-sync'], {
      cwd: dir,
      env: { TRADEREQ_STATE_DIR: stateDir, ...env },
      // Twenty processes starting at once on two cores take a while; a hang still fails.
      timeoutMs: 100_000,
    });

  async function pings(): Promise<number> {
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as { path: string }[];
    return log.filter((e) => e.path === '/api/v3/ping').length;
  }

  it('with 499 of 500 used, 10 processes at once put exactly one request on the wire', async () => {
    mkdirSync(stateDir, { recursive: true });
    const now = Date.now();
    const ip = Array.from({ length: 499 }, () => [now, 1]);
    writeFileSync(
      join(stateDir, 'state.json'),
      JSON.stringify({ version: 1, origins: { [sandbox.baseUrl]: { ip, accounts: {} } } }),
    );
    const runs = await Promise.all(Array.from({ length: 10 }, () => send()));
    const codes = runs.map((r) => r.status).sort();
    assert.deepEqual(codes, [0, 4, 4, 4, 4, 4, 4, 4, 4, 4], runs.map(describeRun).join('\n'));
    assert.equal(await pings(), 1);
  });

  it('20 processes at once with room for all: each is sent once, none refused by the lock it waited on', async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, () => send()));
    assert.ok(
      runs.every((r) => r.status === 0),
      runs.map(describeRun).join('\n'),
    );
    assert.equal(await pings(), 20);
  });

  it('a state folder that is a file: nothing is sent (exit 4) and the message says what to do', async () => {
    writeFileSync(stateDir, 'not a folder');
    const r = await send();
    assert.equal(r.status, 4, describeRun(r));
    assert.match(
      r.stdout + r.stderr,
      /rate-limit state cannot be kept in .*state.*nothing was sent.*TRADEREQ_STATE_DIR/s,
    );
    assert.equal(await pings(), 0);
  });

  it('a truncated state file: nothing is sent until "tradereq state reset"; then sending works again', async () => {
    assert.equal((await send()).status, 0);
    const path = join(stateDir, 'state.json');
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 10));
    const refused = await send();
    assert.equal(refused.status, 4, describeRun(refused));
    assert.match(refused.stdout, /could not be read .*sends nothing at all until it is reset.*tradereq state reset/);
    const shown = await tradereq(['state'], { cwd: dir, env: { TRADEREQ_STATE_DIR: stateDir } });
    assert.match(shown.stdout, /could not be read .*not valid JSON/, describeRun(shown));
    const reset = await tradereq(['state', 'reset'], { cwd: dir, env: { TRADEREQ_STATE_DIR: stateDir } });
    assert.equal(reset.status, 0, describeRun(reset));
    assert.equal((await send()).status, 0);
    assert.equal(await pings(), 2);
  });
});
