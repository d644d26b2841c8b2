/**
 * Files a repository names are plain files inside its folder (the rule of docs/security.md), as the
 * built command line meets them: a `__snapshots__` linked out of the folder, a
 * `tradereq.env.json` linked to /dev/zero, a request file or an env file that is a FIFO. Each run is
 * killed at a deadline, so a regression (a read without end, an open that waits for a writer) fails
 * instead of stalling the suite.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { describeRun, tradereq, type Run } from '../support/cli';
import { madeFifo } from '../support/fifo';

/** Generous on a busy machine: each of these ends in well under a second once fixed. */
const DEADLINE_MS = 20_000;
/** /dev/zero is Linux's (and macOS's, but the tests were written for Linux's). */
const LINUX = process.platform === 'linux';
const PING = '# @expect snapshot\nGET /api/v3/ping\n';

describe('files a repository names: plain files inside its folder', function () {
  this.timeout(120_000);
  let dir: string;
  let repo: string;

  before(() => ensureBuilt());
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'tradereq-repofiles-')));
    repo = join(dir, 'repo');
    mkdirSync(repo);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[]): Promise<Run> =>
    tradereq(args, { cwd: repo, env: { TRADEREQ_STATE_DIR: join(dir, 'state') }, timeoutMs: DEADLINE_MS });

  it('tradereq test --update-snapshots refuses to write through a __snapshots__ linked out of the folder (exit 2); the file out there is untouched', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    const target = join(outside, 'ping.tradereq.snap.json');
    const text = '{"version": 1, "snapshots": {}}\n';
    writeFileSync(target, text);
    symlinkSync(outside, join(repo, '__snapshots__'), 'junction');
    writeFileSync(join(repo, 'ping.tradereq'), PING);
    const r = await run(['test', '--sandbox', '--update-snapshots', 'ping.tradereq']);
    assert.equal(r.status, 2, describeRun(r));
    const shown = join('__snapshots__', 'ping.tradereq.snap.json');
    assert.ok(r.stderr.includes(`tradereq: ${shown} leads out of its folder ${repo} (to ${target}): `), describeRun(r));
    assert.match(r.stderr, /: not written\.\n/);
    assert.doesNotMatch(r.stderr, /snapshots written/);
    assert.equal(readFileSync(target, 'utf8'), text, 'the file out there is untouched');
  });

  (LINUX ? it : it.skip)(
    'tradereq check and send with a tradereq.env.json linked to /dev/zero (Linux only) end at once with exit 2',
    async () => {
      writeFileSync(join(repo, 'ping.tradereq'), 'GET /api/v3/ping\n');
      symlinkSync('/dev/zero', join(repo, 'tradereq.env.json'));
      for (const command of ['check', 'send']) {
        const r = await run([command, 'ping.tradereq']);
        assert.equal(r.status, 2, `${command}: ${describeRun(r)}`);
        assert.ok(
          r.stderr.includes(`${join(repo, 'tradereq.env.json')} leads out of its folder ${repo} (to /dev/zero)`),
          `${command}: ${describeRun(r)}`,
        );
      }
    },
  );

  it('a request file or a tradereq.env.json that is a FIFO: check ends at once with exit 2, saying so (skipped without mkfifo)', async function () {
    if (!madeFifo(join(repo, 'fifo.tradereq'))) this.skip();
    const file = await run(['check', 'fifo.tradereq']);
    assert.equal(file.status, 2, describeRun(file));
    assert.match(file.stderr, /fifo\.tradereq is not a plain file but a named pipe \(FIFO\)/);
    writeFileSync(join(repo, 'ping.tradereq'), 'GET /api/v3/ping\n');
    assert.ok(madeFifo(join(repo, 'tradereq.env.json')));
    const env = await run(['check', 'ping.tradereq']);
    assert.equal(env.status, 2, describeRun(env));
    assert.match(env.stderr, /tradereq\.env\.json is not a plain file but a named pipe \(FIFO\)/);
  });

  it('a request file linked out of the folder it is named in is not read (exit 2)', async () => {
    const outside = join(dir, 'outside.tradereq');
    writeFileSync(outside, 'GET /api/v3/ping\n');
    symlinkSync(outside, join(repo, 'link.tradereq'));
    const r = await run(['check', 'link.tradereq']);
    assert.equal(r.status, 2, describeRun(r));
    assert.ok(r.stderr.includes(`link.tradereq leads out of its folder ${repo} (to ${outside})`), describeRun(r));
  });
});
