/**
 * The CI workflows of examples/ci/ (GitHub Actions and GitLab CI) work as written: every command
 * of a workflow runs, exactly as written, in a clean folder laid out as the workflow says (the
 * request files of examples/ and the tarball of `npm run package` committed as tools/), with
 * nothing of this repository reachable (test/harness/clean-folder.js: npm's global folder is one of
 * the test's, since a runner installs globally and a test must not; PATH holds only that folder,
 * Node and the system's folders).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ROOT } from '../support/cli';
import { parseJUnit } from '../support/junit';
import { ensurePackages } from '../support/build';

const WORKFLOWS = {
  'github-actions.yml': /^\s*run: (.+)$/,
  'gitlab-ci.yml': /^\s*- (?!uses:|name:)(.+)$/,
} as const;

/** The shell commands of a workflow, in order: GitHub's `run:` steps, GitLab's `script:` lines. */
function commands(file: keyof typeof WORKFLOWS): string[] {
  return readFileSync(join(ROOT, 'examples', 'ci', file), 'utf8')
    .split('\n')
    .map((line) => WORKFLOWS[file].exec(line)?.[1]?.trim())
    .filter((c): c is string => c !== undefined && !c.startsWith('#') && !c.endsWith(':'))
    .filter((c) => !/^(?:reports\/|when:|junit:)/.test(c)); // GitLab's artifacts: paths, not commands
}

interface CleanFolder {
  cleanShellEnv: (tmp: string, options?: { extra?: Record<string, string> }) => NodeJS.ProcessEnv;
  runAsWritten: (line: string, options: { cwd: string; env: NodeJS.ProcessEnv }) => Ran;
}
interface Ran {
  readonly line: string;
  readonly status: number | null;
  readonly output: string;
}
const { cleanShellEnv, runAsWritten } = createRequire(__filename)('../harness/clean-folder.js') as CleanFolder;

/** True when bash runs here (not on every Windows machine). */
function hasBash(): boolean {
  return spawnSync('bash', ['-c', 'true']).status === 0;
}

describe('the CI examples (examples/ci/), run as written', function () {
  this.timeout(300_000);
  let tarball: string;
  before(function () {
    // The workflows' commands are bash, as on their runners (GitHub's ubuntu, GitLab's node image).
    if (!hasBash()) {
      console.log('      not run here: the workflows are bash scripts and there is no bash on PATH');
      this.skip();
    }
    ({ tarball } = ensurePackages());
  });

  for (const workflow of Object.keys(WORKFLOWS) as (keyof typeof WORKFLOWS)[]) {
    it(`${workflow}: each command, run as written in a clean folder, passes and the JUnit report holds every request of examples/`, async () => {
      const steps = commands(workflow);
      assert.deepEqual(
        steps.map((s) => s.split(' ').slice(0, 2).join(' ')),
        ['npm install', 'tradereq test'],
        `the commands of ${workflow}: ${steps.join(' | ')}`,
      );
      const dir = mkdtempSync(join(tmpdir(), 'tradereq-ci-'));
      try {
        const repo = join(dir, 'repo');
        cpSync(join(ROOT, 'examples'), join(repo, 'examples'), { recursive: true });
        mkdirSync(join(repo, 'tools'));
        copyFileSync(tarball, join(repo, 'tools', basename(tarball)));
        const env = cleanShellEnv(dir, { extra: { TRADEREQ_STATE_DIR: join(dir, 'state') } });
        for (const step of steps) {
          const r = runAsWritten(step, { cwd: repo, env });
          assert.equal(r.status, 0, `${r.line}\nexit ${r.status}\n${r.output.slice(0, 4000)}`);
        }
        const junit = await parseJUnit(readFileSync(join(repo, 'reports', 'tradereq.xml'), 'utf8'));
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
