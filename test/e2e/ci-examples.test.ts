/**
 * The CI workflows of examples/ci/ (GitHub Actions and GitLab CI) are ready to use: each installs
 * tradereq and runs `tradereq test --sandbox` with a JUnit report over examples/; that very command,
 * run here with the built CLI in a copy of the repository's layout, passes and writes a JUnit report
 * the reporters can read.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJUnit } from '../support/junit';
import { ROOT, describeRun, tradereq } from '../support/cli';

const WORKFLOWS = ['github-actions.yml', 'gitlab-ci.yml'];

/** The `tradereq test ...` command of a workflow, and its install step. */
function commands(file: string): { install: string[]; test: string[] } {
  const lines = readFileSync(join(ROOT, 'examples', 'ci', file), 'utf8').split('\n');
  const run = (prefix: RegExp): string[] =>
    lines.map((l) => l.replace(/^\s*(?:- |run: |- run: )/, '').trim()).filter((l) => prefix.test(l));
  return { install: run(/^npm install -g tradereq$/), test: run(/^tradereq test /) };
}

describe('the CI examples (examples/ci/)', function () {
  this.timeout(60_000);
  before(() => {
    const built = spawnSync(process.execPath, [join(ROOT, 'esbuild.js')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
  });

  for (const workflow of WORKFLOWS) {
    it(`${workflow}: installs tradereq, and its tradereq test --sandbox over examples/ passes with a JUnit report`, async () => {
      const { install, test } = commands(workflow);
      assert.equal(install.length, 1, 'one install step: npm install -g tradereq');
      assert.equal(test.length, 1, 'one tradereq test step');
      const args = test[0]!.split(/\s+/).slice(1);
      assert.ok(args.includes('--sandbox') && args.includes('--reporter'), test[0]);
      const dir = mkdtempSync(join(tmpdir(), 'tradereq-ci-'));
      try {
        cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
        const r = await tradereq(args, { cwd: dir, env: { TRADEREQ_STATE_DIR: join(dir, 'state') } });
        assert.equal(r.status, 0, describeRun(r));
        const junit = await parseJUnit(readFileSync(join(dir, 'reports', 'tradereq.xml'), 'utf8'));
        assert.deepEqual(
          junit.suites.map((s) => s.name),
          ['examples/market.tradereq', 'examples/orders.tradereq', 'examples/rejections.tradereq'],
        );
        assert.deepEqual([junit.tests, junit.failures, junit.errors], [15, 0, 0]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
