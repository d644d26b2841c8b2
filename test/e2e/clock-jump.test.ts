/**
 * `tradereq send` after the server clock jumps (issue 19, point 1), as a user runs it: the first
 * send measures the offset, the sandbox clock then moves by more than recvWindow, the next send is
 * refused with 700003 and names the offset measured again at once and says to run the command
 * again, and running it again goes through (no 10-minute wait for the old offset to age).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { describeRun, tradereq, type Run } from '../support/cli';

describe('tradereq send after the server clock jumps', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;

  before(() => {
    ensureBuilt();
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-clock-jump-'));
  });

  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function send(file: string, ...extra: string[]): Promise<Run> {
    return tradereq(['send', file, '--base-url', sandbox.baseUrl, ...extra], {
      cwd: dir,
      env: { TRADEREQ_STATE_DIR: join(dir, 'state') },
    });
  }

  async function shiftServerClock(offsetMs: number): Promise<void> {
    const r = await fetch(`${sandbox.baseUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs }),
    });
    assert.equal(r.status, 200, await r.text());
  }

  for (const [direction, shift, words] of [
    ['ahead', 30_000, 'behind the server'],
    ['behind', -30_000, 'ahead of the server'],
  ] as const) {
    it(`server clock 30 s ${direction}: 700003 names the new offset and says run again; running again succeeds`, async () => {
      writeFileSync(join(dir, 'account.tradereq'), 'GET /api/v3/account\n');
      const first = await send('account.tradereq');
      assert.equal(first.status, 0, describeRun(first));
      await shiftServerClock(shift);
      const refused = await send('account.tradereq');
      assert.equal(refused.status, 1, describeRun(refused));
      assert.match(refused.stdout, /700003/);
      assert.match(
        refused.stdout,
        new RegExp(
          `measured again: your clock is \\d+ ms ${words} \\(before: \\d+ ms [a-z ]+\\); the next send uses the new offset`,
        ),
      );
      assert.match(refused.stdout, /^ {2}Run the command again: it sends the request with the new offset\.$/m);
      const again = await send('account.tradereq');
      assert.equal(again.status, 0, describeRun(again));
    });
  }

  it('--all: the step names the request to send again alone', async () => {
    writeFileSync(join(dir, 'two.tradereq'), '### time\nGET /api/v3/time\n\n### account\nGET /api/v3/account\n');
    assert.equal((await send('two.tradereq', '--request', '2')).status, 0);
    await shiftServerClock(30_000);
    const refused = await send('two.tradereq', '--all');
    assert.equal(refused.status, 1, describeRun(refused));
    assert.match(
      refused.stdout,
      /Send it again with the new offset: run the command with --request 2 instead of --all\./,
    );
    assert.doesNotMatch(refused.stdout, /Run the command again/);
    await shiftServerClock(90_000);
    const json = await send('two.tradereq', '--all', '--json');
    const records = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { code: number | null; next: string | null });
    assert.deepEqual(
      records.map((r) => [r.code, r.next]),
      [
        [null, null],
        [700003, 'Send it again with the new offset: run the command with --request 2 instead of --all.'],
      ],
      describeRun(json),
    );
  });
});
