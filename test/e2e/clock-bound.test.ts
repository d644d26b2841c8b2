/**
 * `tradereq send` when the server clock is a year off (issue 31, point 5), as a user runs it: the
 * offset is measured and named, nothing is signed or sent (exit 4), and a 700003 that measures
 * such an offset does not say to run the command again. A state file that holds such an offset is
 * refused the same way, until `tradereq state reset ORIGIN`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { describeRun, tradereq, type Run } from '../support/cli';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

describe('tradereq send with a server clock a year off', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;

  before(() => {
    ensureBuilt();
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-clock-bound-'));
    writeFileSync(join(dir, 'account.tradereq'), 'GET /api/v3/account\n');
  });

  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]): Promise<Run> =>
    tradereq(args, { cwd: dir, env: { TRADEREQ_STATE_DIR: join(dir, 'state') } });
  const send = (): Promise<Run> => run('send', 'account.tradereq', '--base-url', sandbox.baseUrl);

  async function shiftServerClock(offsetMs: number): Promise<void> {
    const r = await fetch(`${sandbox.baseUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs }),
    });
    assert.equal(r.status, 200, await r.text());
  }

  async function reached(): Promise<string[]> {
    return ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as { path: string }[]).map(
      (e) => e.path,
    );
  }

  it('the first signed send: the offset is named, nothing signed is sent (exit 4)', async () => {
    await shiftServerClock(YEAR_MS);
    const r = await send();
    assert.equal(r.status, 4, describeRun(r));
    assert.match(r.stdout + r.stderr, /your clock is \d+ ms behind the server \(about 365 days, measured /);
    assert.match(r.stdout + r.stderr, /more than the 15 minutes.*Check this machine's clock/s);
    assert.match(r.stdout + r.stderr, new RegExp(`tradereq state reset ${sandbox.baseUrl.replaceAll('.', '\\.')}`));
    assert.deepEqual(await reached(), ['/api/v3/time']);
  });

  it('a 700003 that measures such an offset does not say to run the command again', async () => {
    assert.equal((await send()).status, 0);
    await shiftServerClock(YEAR_MS);
    const r = await send();
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /700003/);
    assert.match(r.stdout, /more than the 15 minutes TradeReq corrects a signed request by/);
    assert.doesNotMatch(r.stdout, /Run the command again/);
    const again = await send();
    assert.equal(again.status, 4, describeRun(again));
  });

  it('an offset a year off in a hand-edited state file: refused until state reset ORIGIN', async () => {
    mkdirSync(join(dir, 'state'));
    const clock = { offsetMs: -YEAR_MS, roundTripMs: 1, measuredAt: Date.now() };
    writeFileSync(
      join(dir, 'state', 'state.json'),
      JSON.stringify({ version: 1, origins: { [sandbox.baseUrl]: { ip: [], accounts: {}, clock } } }),
    );
    const refused = await send();
    assert.equal(refused.status, 4, describeRun(refused));
    assert.match(refused.stdout + refused.stderr, /your clock is 31536000000 ms ahead of the server \(about 365 days/);
    assert.deepEqual(await reached(), [], 'nothing went out');
    const reset = await run('state', 'reset', sandbox.baseUrl);
    assert.equal(reset.status, 0, describeRun(reset));
    const sent = await send();
    assert.equal(sent.status, 0, describeRun(sent));
  });
});
