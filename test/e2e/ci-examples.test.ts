/**
 * The CI workflows of examples/ci/ (GitHub Actions and GitLab CI) work as written: every command
 * of a workflow runs, exactly as written, in a clean folder laid out as the workflow says (the
 * request files of examples/ and the tarball of `npm run package` committed as tools/), with
 * nothing of this repository reachable. What the CI service itself provides stands in as little as
 * possible: npm's global prefix is a folder of the test (a runner installs globally; a test must not),
 * and PATH holds only that prefix, Node and the system's folders.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { cleanEnv, ROOT } from '../support/cli';
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

interface Ran {
  readonly command: string;
  readonly status: number | null;
  readonly output: string;
}

/** Runs `command` with bash in `cwd`, as a CI runner does, killed after `timeoutMs`. */
function shell(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ command, status, output });
    });
  });
}

describe('the CI examples (examples/ci/), run as written', function () {
  this.timeout(300_000);
  let tarball: string;
  before(function () {
    // The workflows' commands are bash, as on their runners (GitHub's ubuntu, GitLab's node image).
    if (spawnSync('bash', ['-c', 'true']).status !== 0) {
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
        const prefix = join(dir, 'prefix');
        const env = cleanEnv({
          PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
          HOME: join(dir, 'home'),
          npm_config_prefix: prefix,
          npm_config_cache: join(dir, 'npm-cache'),
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          npm_config_update_notifier: 'false',
          TRADEREQ_STATE_DIR: join(dir, 'state'),
        });
        for (const step of steps) {
          const r = await shell(step, repo, env);
          assert.equal(r.status, 0, `${r.command}\nexit ${r.status}\n${r.output.slice(0, 4000)}`);
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
