/**
 * The command line loads what a command uses, when it runs: dist/cli.js is a small entry, each
 * command a bundle of its own that holds none of the heavy parts it does not use, and the bundles
 * load through V8's code cache, kept in the state folder for the exact bundle, and only when no one
 * else can write it. The development build of dist/ (ensureBuilt, made once for every test file),
 * run as a user runs it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { cleanEnv, ROOT } from '../support/cli';

describe('the command line: a bundle per command, loaded through the code cache', function () {
  this.timeout(120_000);
  const dist = join(ROOT, 'dist');
  let state: string;

  before(() => ensureBuilt());
  beforeEach(() => (state = mkdtempSync(join(tmpdir(), 'tradereq-cli-state-'))));
  afterEach(() => rmSync(state, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(dist, 'cli.js'), ...args], {
      cwd: state,
      encoding: 'utf8',
      env: cleanEnv({ TRADEREQ_STATE_DIR: state, ...env }),
    });
  /** A command whose bundle is worth a cache (code-cache.ts CACHE_FROM_CHARS), run without network or files. */
  const CACHED = ['check', '--help'];
  /** Node's own modules a run loaded, as process.moduleLoadList names them ("NativeModule crypto"). */
  const nodeModulesOf = (args: string[]): string[] => {
    const list = join(state, 'modules.txt');
    const preload = join(state, 'modules.js');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, join(dist, 'cli.js'), ...args], {
      cwd: state,
      encoding: 'utf8',
      env: cleanEnv({ TRADEREQ_STATE_DIR: state }),
    });
    assert.equal(r.status, 0, r.stderr);
    return readFileSync(list, 'utf8').split('\n');
  };
  const bundle = (name: string): string => readFileSync(join(dist, 'cli', `${name}.js`), 'utf8');
  const cacheDir = (): string => join(state, 'code-cache');
  const cacheOf = (name: string): string => {
    const source = bundle(name);
    return join(cacheDir(), `${name}-${createHash('sha256').update(source).digest('hex').slice(0, 32)}.bin`);
  };

  it('dist/cli.js is a small entry; every row of the COMMANDS table has its bundle', () => {
    assert.ok(statSync(join(dist, 'cli.js')).size < 20_000, `cli.js is ${statSync(join(dist, 'cli.js')).size} bytes`);
    const main = readFileSync(join(ROOT, 'src', 'cli', 'main.ts'), 'utf8');
    const rows = [...main.matchAll(/require\('\.\/([\w-]+)'\)/g)].map((m) => m[1]!);
    assert.ok(rows.length >= 7, rows.join(', '));
    for (const name of rows) assert.ok(existsSync(join(dist, 'cli', `${name}.js`)), `dist/cli/${name}.js`);
  });

  it('a bundle holds only what its command uses: no undici, zod or ws where they are not needed', () => {
    const holds = (name: string, pkg: string): boolean => new RegExp(`node_modules/${pkg}/`).test(bundle(name));
    for (const name of ['send', 'errors', 'sign', 'check', 'state']) {
      assert.equal(holds(name, 'undici'), false, `${name} holds undici`);
      assert.equal(holds(name, 'ws'), false, `${name} holds ws`);
      assert.equal(/node_modules\/zod\/v4\/classic\//.test(bundle(name)), false, `${name} holds zod's full form`);
    }
    assert.equal(holds('errors', 'zod'), false, 'errors holds zod');
    assert.match(readFileSync(join(dist, 'cli.js'), 'utf8'), /Usage: tradereq COMMAND/);
    assert.doesNotMatch(readFileSync(join(dist, 'cli.js'), 'utf8'), /node_modules\//, 'the entry bundles no package');
  });

  it("a send from a folder with a tradereq.env.json loads no zod full form: the env file's schema is zod/mini", () => {
    // The realistic send of bench:cli loads send.js and, for the env file, core-env-schema.js (issue 20).
    const schema = bundle('core-env-schema');
    assert.doesNotMatch(schema, /node_modules\/zod\/v4\/classic\//, "the env file's schema holds zod's full form");
    assert.doesNotMatch(schema, /node_modules\/zod\/v4\/locales\/(?!en\.js)/, "zod's messages other than English");
  });

  it('the first run keeps a cache for the exact bundle; the next run uses it as it is', () => {
    const first = run(CACHED);
    assert.equal(first.status, 0, first.stderr);
    const cache = cacheOf('check');
    assert.ok(existsSync(cache), readdirSync(cacheDir()).join(', '));
    assert.equal(statSync(cache).mode & 0o777, 0o600);
    assert.equal(statSync(cacheDir()).mode & 0o777, 0o700);
    const before = statSync(cache);
    const second = run(CACHED);
    assert.equal(second.stdout, first.stdout);
    const after = statSync(cache);
    // V8 took it: a rejected cache would have been written again.
    assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs]);
  });

  it('a damaged cache is refused by V8 and made again; the command works all the same', () => {
    const expected = run(CACHED).stdout;
    const cache = cacheOf('check');
    writeFileSync(cache, Buffer.alloc(statSync(cache).size, 7), { mode: 0o600 });
    const r = run(CACHED);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, expected);
    assert.notEqual(readFileSync(cache)[0], 7, 'written again');
  });

  it('a cache that others may write is not used, and is replaced by one of this user', () => {
    run(CACHED);
    const cache = cacheOf('check');
    chmodSync(cache, 0o666);
    const before = statSync(cache).ino;
    assert.equal(run(CACHED).status, 0);
    assert.notEqual(statSync(cache).ino, before, 'replaced');
    assert.equal(statSync(cache).mode & 0o777, 0o600);
  });

  it('caches of another version of the bundle are dropped; TRADEREQ_CODE_CACHE=off keeps none', () => {
    const stale = join(cacheDir(), `check-${'0'.repeat(32)}.bin`);
    const other = join(cacheDir(), `send-${'0'.repeat(32)}.bin`);
    run(CACHED);
    writeFileSync(stale, 'old');
    writeFileSync(other, 'old');
    rmSync(cacheOf('check'));
    run(CACHED);
    assert.deepEqual(
      readdirSync(cacheDir()).sort(),
      [`check-${cacheOf('check').split('-').pop()}`, `send-${'0'.repeat(32)}.bin`].sort(),
    );
    rmSync(cacheDir(), { recursive: true });
    const off = run(CACHED, { TRADEREQ_CODE_CACHE: 'off' });
    assert.equal(off.status, 0, off.stderr);
    assert.equal(existsSync(cacheDir()), false);
  });

  it('a small bundle (tradereq errors) is compiled without a cache, and the command loads no node:crypto', () => {
    const modules = nodeModulesOf(['errors', '700003']);
    assert.ok(modules.includes('NativeModule vm'), 'the bundle was loaded through the code cache module');
    assert.equal(modules.includes('NativeModule crypto'), false, 'node:crypto was loaded');
    assert.equal(existsSync(cacheDir()), false, readdirSync(state).join(', '));
    assert.equal(run(['errors', '700003']).stdout, run(['errors', '700003'], { TRADEREQ_CODE_CACHE: 'off' }).stdout);
  });

  it('--help and an unknown command load no command bundle', () => {
    assert.equal(run(['--help']).status, 0);
    assert.equal(run(['nope']).status, 2);
    assert.equal(existsSync(cacheDir()), false, 'nothing was loaded, so nothing was cached');
  });
});
