/**
 * `tradereq completion bash|zsh|fish` (issue 34, point 10): the bash script passes `bash -n`, and
 * bash itself completes with it: the script sourced, COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT
 * set and the completion function called, COMPREPLY read back. Request names and environment names
 * come from `tradereq __complete`, and a hostile file's names never reach the shell as syntax.
 * zsh and fish (Debian's, which test/harness/setup.js installs) are checked where installed, else skipped.
 * bash is on Linux and macOS; the tests skip where it is missing (Windows).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { CLI, cleanEnv } from '../support/cli';

function has(program: string): boolean {
  return spawnSync(program, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

function script(shell: string): string {
  const r = spawnSync(process.execPath, [CLI, 'completion', shell], { encoding: 'utf8', env: cleanEnv() });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/**
 * What bash offers for `line` (the cursor at its end), in `cwd`: the script sourced into a bash
 * whose `tradereq` is the built CLI, the words split on spaces as COMP_WORDS.
 */
function complete(line: string, cwd: string, scriptFile: string): string[] {
  const words = line.split(' ');
  const program = [
    `tradereq() { ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"; }`,
    `source ${JSON.stringify(scriptFile)}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE='${line}'`,
    `COMP_POINT=${line.length}`,
    '_tradereq',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { cwd, encoding: 'utf8', env: cleanEnv() });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('tradereq completion', function () {
  this.timeout(60_000);
  let dir: string;
  let bashFile: string;

  before(function () {
    if (!has('bash')) this.skip();
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'tradereq-completion-'));
    bashFile = join(dir, 'tradereq.bash');
    writeFileSync(bashFile, script('bash'));
    writeFileSync(
      join(dir, 'orders.tradereq'),
      '### Buy\n# @name buy\nGET /api/v3/ping\n\n### Cancel\n# @name cancel\nGET /api/v3/time\n\n### Book\n# @name book\nGET /api/v3/ping\n',
    );
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ sandbox: { baseUrl: 'http://127.0.0.1:8780' }, staging: { baseUrl: 'http://127.0.0.1:8781' } }),
    );
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('bash: the script passes bash -n', () => {
    const r = spawnSync('bash', ['-n', bashFile], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('bash completes a command, an option, a sub-command, a request name of the file and an environment name', () => {
    assert.deepEqual(complete('tradereq se', dir, bashFile), ['send']);
    assert.deepEqual(complete('tradereq send orders.tradereq --req', dir, bashFile), ['--request']);
    assert.deepEqual(complete('tradereq state r', dir, bashFile), ['reset']);
    assert.deepEqual(complete('tradereq send orders.tradereq --request ', dir, bashFile), ['buy', 'cancel', 'book']);
    assert.deepEqual(complete('tradereq send orders.tradereq --request b', dir, bashFile), ['buy', 'book']);
    assert.deepEqual(complete('tradereq send orders.tradereq --env st', dir, bashFile), ['staging']);
  });

  it("the options of a command are its --help's: check offers --json, test its --reporter", () => {
    assert.ok(complete('tradereq check --', dir, bashFile).includes('--json'));
    assert.ok(complete('tradereq test --rep', dir, bashFile).includes('--reporter'));
    assert.deepEqual(complete('tradereq completion ', dir, bashFile), ['bash', 'zsh', 'fish']);
  });

  it('names of a hostile file are offered only when plain, and nothing in them runs', () => {
    const marker = join(dir, 'ran');
    writeFileSync(
      join(dir, 'hostile.tradereq'),
      [`$(touch ${marker})`, `\`touch ${marker}\``, 'a;touch${IFS}ran', "it's", 'fine']
        .map((n, i) => `### ${i}\n# @name ${n}\nGET /api/v3/ping\n`)
        .join('\n'),
    );
    const offered = complete('tradereq send hostile.tradereq --request ', dir, bashFile);
    assert.deepEqual(offered, ['fine']);
    assert.equal(existsSync(marker), false, 'no name was run');
    assert.equal(existsSync(join(dir, 'ran')), false);
  });

  it('zsh: the script passes zsh -n and completes (where zsh is installed)', function () {
    if (!has('zsh')) this.skip();
    const file = join(dir, 'tradereq.zsh');
    writeFileSync(file, script('zsh'));
    const r = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    // zsh completes with it too: the function called as bashcompinit calls it (ksharrays on).
    const offered = (words: string[]): string => {
      const program = [
        `tradereq() { ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"; }`,
        `source ${JSON.stringify(file)}`,
        'setopt ksharrays',
        `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
        `COMP_CWORD=${words.length - 1}`,
        'COMPREPLY=()',
        '_tradereq',
        'print -r -- "${COMPREPLY[*]}"',
      ].join('\n');
      const run = spawnSync('zsh', ['-f', '-c', program], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout.trim();
    };
    assert.equal(offered(['tradereq', 'se']), 'send');
    assert.equal(offered(['tradereq', 'send', 'orders.tradereq', '--req']), '--request');
    assert.equal(offered(['tradereq', 'send', 'orders.tradereq', '--request', 'b']), 'buy book');
  });

  it('fish: the script passes fish --no-execute (where fish is installed)', function () {
    if (!has('fish')) this.skip();
    const file = join(dir, 'tradereq.fish');
    writeFileSync(file, script('fish'));
    const r = spawnSync('fish', ['--no-execute', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    // fish completes with it too: `complete -C` prints what a Tab would offer.
    const offered = (line: string): string[] => {
      const program = `function tradereq; ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} $argv; end; source ${JSON.stringify(file)}; complete -C ${JSON.stringify(line)}`;
      const run = spawnSync('fish', ['--no-config', '-c', program], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[0]!);
    };
    assert.deepEqual(offered('tradereq se'), ['send']);
    assert.deepEqual(offered('tradereq send orders.tradereq --request b'), ['book', 'buy']);
  });

  it('zsh and fish scripts name every command and call back for request names', () => {
    for (const shell of ['zsh', 'fish']) {
      const text = script(shell);
      for (const command of ['send', 'check', 'test', 'completion'])
        assert.match(text, new RegExp(`\\b${command}\\b`), shell);
      assert.match(text, /tradereq __complete /, shell);
    }
  });
});
