/**
 * Issue 19, point 7: `tradereq init` as a new user runs it. It writes the starter of media/starter/
 * into a folder, and there `tradereq test --sandbox` passes as written, `check` finds no error and
 * the stream's expectation passes under `listen`; a second init refuses and writes nothing; --force
 * overwrites the starter's files and nothing else. (The npm package carrying it: tarball.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, cpSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_SANDBOX } from '../../src/core/env/constants';
import { DEMO_ACCOUNTS } from '../../src/core/env/demo';
import { parseEnvironmentFile } from '../../src/core/env/schema';
import { STARTER_FILES, STARTER_PATH, starterFiles } from '../../src/core/env/starter';
import { startSandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { describeRun, ROOT, tradereq, type Run } from '../support/cli';

const STARTER = join(ROOT, ...STARTER_PATH);
const text = (path: string): string => readFileSync(path, 'utf8');

describe('tradereq init', function () {
  this.timeout(60_000);
  let tmp: string;
  let first: Run;
  const run = (args: string[]): Promise<Run> =>
    tradereq(args, { cwd: tmp, env: { TRADEREQ_STATE_DIR: join(tmp, 'state') } });

  before(async () => {
    ensureBuilt();
    tmp = mkdtempSync(join(tmpdir(), 'tradereq-init-'));
    first = await run(['init', 'demo']);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes the starter into a new folder: the files of media/starter/ as they are, with \\n line endings and no key; prints them and the next commands', () => {
    assert.equal(first.status, 0, describeRun(first));
    const names = STARTER_FILES.map((f) => f.name).sort();
    const plain = readdirSync(STARTER, { withFileTypes: true }).filter((e) => e.isFile());
    assert.deepEqual(plain.map((e) => e.name).sort(), names, 'media/starter/ holds what core/env/starter.ts lists');
    assert.deepEqual(readdirSync(join(tmp, 'demo')).sort(), names);
    const secrets = DEMO_ACCOUNTS.flatMap((a) => [a.apiKey, a.secretKey]);
    for (const name of names) {
      const written = text(join(tmp, 'demo', name));
      assert.equal(written, text(join(STARTER, name)).replace(/\r\n?/g, '\n'), name);
      assert.ok(!written.includes('\r'), `${name} has \\n line endings`);
      for (const s of secrets) assert.ok(!written.includes(s), `${name} holds no key`);
    }
    const env = parseEnvironmentFile(text(join(tmp, 'demo', 'tradereq.env.json')));
    assert.ok(env.ok, String(!env.ok && env.error));
    assert.deepEqual(env.value['sandbox'], { baseUrl: BUILTIN_SANDBOX.baseUrl, key: BUILTIN_SANDBOX.key });
    assert.equal(env.value['live']?.confirm, true);
    assert.match(env.value['live']?.baseUrl ?? '', /^https:\/\//);
    assert.match(first.stdout, /^Wrote the starter into demo:\n {2}tradereq\.env\.json {4}environments: /);
    assert.match(first.stdout, /\nNext:\n {2}cd demo\n {2}tradereq test --sandbox {2,}/);
    assert.match(first.stdout, /TRADEREQ_MAIN_API_KEY, TRADEREQ_MAIN_SECRET_KEY and TRADEREQ_MAIN_ORIGINS/);
    assert.equal(first.stderr, '');
  });

  it('passes as written: test --sandbox in the folder (the stream skipped), check with no error, listen on the stream against a sandbox', async () => {
    const test = await tradereq(['test', '--sandbox'], {
      cwd: join(tmp, 'demo'),
      env: { TRADEREQ_STATE_DIR: join(tmp, 'state') },
    });
    assert.equal(test.status, 0, describeRun(test));
    assert.match(test.stdout, /\n7 passed, 0 failed, 0 unknown, 0 refused \(1 skipped\) in /);
    const check = await run(['check', 'demo']);
    assert.equal(check.status, 0, describeRun(check));
    assert.doesNotMatch(check.stdout, /: (error|warning): /);
    // The stream file as written, with the sandbox environment on the port of a sandbox started here.
    const sandbox = await startSandbox({ port: 0 });
    try {
      cpSync(join(tmp, 'demo'), join(tmp, 'listen'), { recursive: true });
      const envFile = join(tmp, 'listen', 'tradereq.env.json');
      writeFileSync(envFile, text(envFile).replace(BUILTIN_SANDBOX.baseUrl, sandbox.baseUrl));
      const listen = await run(['listen', join('listen', 'stream.tradereq')]);
      assert.equal(listen.status, 0, describeRun(listen));
      assert.match(listen.stdout, /✔ @expect message s == BTCUSDT/);
    } finally {
      await sandbox.close();
    }
  });

  it('a second init refuses (exit 2): one line naming the file that exists, nothing written; --force writes the starter files only', async () => {
    const market = join(tmp, 'demo', 'market.tradereq');
    writeFileSync(market, '# my own edit\n');
    writeFileSync(join(tmp, 'demo', 'mine.tradereq'), 'GET /api/v3/ping\n');
    const again = await run(['init', 'demo']);
    assert.equal(again.status, 2, describeRun(again));
    assert.match(
      again.stderr,
      /^tradereq: demo[\\/]tradereq\.env\.json exists \(and 4 more .*\): nothing was written\. .*--force/,
    );
    assert.equal(again.stderr.trim().split('\n').length, 1);
    assert.equal(text(market), '# my own edit\n');
    const forced = await run(['init', 'demo', '--force']);
    assert.equal(forced.status, 0, describeRun(forced));
    assert.equal(text(market), text(join(STARTER, 'market.tradereq')).replace(/\r\n?/g, '\n'));
    assert.equal(text(join(tmp, 'demo', 'mine.tradereq')), 'GET /api/v3/ping\n');
    const help = await run(['init', '--help']);
    assert.match(help.stdout, /^Usage: tradereq init \[DIR\] \[--deployment spec\|mexc\] \[--force\]\n/);
    assert.match(
      help.stdout,
      /\n {2}--force {10}overwrite .*\n[\s\S]*\nExit codes: 0 the starter was written; 2 bad input/,
    );
  });

  it('--deployment mexc writes environments of mexc (the sandbox on loopback, live at its own address) and a .pb stream file that checks clean', async () => {
    const mexc = await run(['init', 'mx', '--deployment', 'mexc']);
    assert.equal(mexc.status, 0, describeRun(mexc));
    const names = starterFiles('mexc')
      .map((f) => f.name)
      .sort();
    assert.deepEqual(readdirSync(join(tmp, 'mx')).sort(), names);
    for (const f of starterFiles('mexc'))
      assert.equal(
        text(join(tmp, 'mx', f.name)),
        text(join(ROOT, ...(f.from ?? STARTER_PATH), f.name)).replace(/\r\n?/g, '\n'),
        f.name,
      );
    const env = parseEnvironmentFile(text(join(tmp, 'mx', 'tradereq.env.json')));
    assert.ok(env.ok, String(!env.ok && env.error));
    assert.equal(env.value['sandbox']?.deployment, 'mexc');
    assert.equal(env.value['sandbox']?.baseUrl, BUILTIN_SANDBOX.baseUrl);
    assert.equal(env.value['live']?.deployment, 'mexc');
    assert.equal(env.value['live']?.baseUrl, 'https://api.mexc.com', "the deployment's own address");
    assert.equal(env.value['live']?.confirm, true);
    assert.match(
      text(join(tmp, 'mx', 'stream.tradereq')),
      /^spot@public\.aggre\.bookTicker\.v3\.api\.pb@100ms@\{\{symbol\}\}$/m,
    );
    assert.match(mexc.stdout, /tradereq sandbox --deployment mexc/);
    assert.match(mexc.stdout, /its address is the deployment mexc's own \(https:\/\/api\.mexc\.com\)/);
    const check = await run(['check', 'mx']);
    assert.equal(check.status, 0, describeRun(check));
    assert.doesNotMatch(check.stdout, /: (error|warning): /);
    const unknown = await run(['init', 'other', '--deployment', 'binance']);
    assert.equal(unknown.status, 2, describeRun(unknown));
    assert.match(unknown.stderr, /--deployment binance is not a deployment TradeReq knows: spec, mexc/);
  });
});
