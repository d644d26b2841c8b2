/**
 * The command-line habits users bring from curl, Hurl and newman (issue 34, point 10), and the one
 * line on a run that ran out of rate-limit budget (point 9): FORCE_COLOR, `check --json`, `check -`
 * and `test -` reading standard input, the HTML report. The built CLI, spawned, against the sandbox.
 */
/* eslint-disable no-control-regex -- the tests read the terminal's colour codes (ESC [ … m) */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { HtmlValidate } from 'html-validate';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { CLI, canFakeTerminal, cleanEnv, describeRun, inTerminal, type Run } from '../support/cli';
import { sandboxProject, type Project } from '../support/project';

/** The CLI run with `input` on its standard input (the shared helper gives it none). */
function withInput(args: readonly string[], input: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - start });
    });
    child.stdin.end(input);
  });
}

const PING = `### Ping the service
# @name ping
GET /api/v3/ping
`;

describe('the command-line habits of curl, Hurl and newman', function () {
  this.timeout(60_000);
  let p: Project;

  before(async () => {
    ensureBuilt();
    p = await sandboxProject('conventions', { 'ping.tradereq': PING });
  });
  after(() => p.close());

  describe('FORCE_COLOR', () => {
    it('piped: FORCE_COLOR=1 (and empty, and over NO_COLOR) colours; FORCE_COLOR=0 and none do not', async () => {
      const send = (env: Record<string, string>): Promise<Run> =>
        withInput(['send', 'ping.tradereq'], '', p.dir, { ...p.env, ...env });
      for (const env of [{ FORCE_COLOR: '1' }, { FORCE_COLOR: '' }, { FORCE_COLOR: '3', NO_COLOR: '1' }] as Record<
        string,
        string
      >[]) {
        const r = await send(env);
        assert.equal(r.status, 0, describeRun(r));
        assert.match(r.stdout, /\x1b\[32m→ 200 ok/, `${JSON.stringify(env)}: ${describeRun(r)}`);
      }
      for (const env of [{ FORCE_COLOR: '0' }, {}] as Record<string, string>[]) {
        const r = await send(env);
        assert.match(r.stdout, /→ 200 ok/, describeRun(r));
        assert.doesNotMatch(r.stdout, /\x1b\[/, JSON.stringify(env));
      }
      const flag = await withInput(['send', 'ping.tradereq', '--no-color'], '', p.dir, { ...p.env, FORCE_COLOR: '1' });
      assert.doesNotMatch(flag.stdout, /\x1b\[/, '--no-color wins over FORCE_COLOR');
    });

    it('on a terminal (Linux: script): FORCE_COLOR=0 turns colour off', async function () {
      if (!canFakeTerminal()) this.skip();
      const r = await inTerminal(['send', 'ping.tradereq'], { cwd: p.dir, env: { ...p.env, FORCE_COLOR: '0' } });
      assert.match(r.stdout, /→ 200 ok/, describeRun(r));
      assert.doesNotMatch(r.stdout, /\x1b\[/);
    });
  });

  describe('a run out of rate-limit budget', () => {
    it('says the refusal once, not under every request it kept back, and names --pace once', async () => {
      // 53 × weight 10 on the IP budget of 500: the 51st is refused, the 52nd and 53rd not run.
      const many = Array.from({ length: 53 }, (_, i) => `### info ${i + 1}\nGET /api/v3/exchangeInfo\n`).join('\n');
      writeFileSync(join(p.dir, 'many.tradereq'), many);
      const r = await p.run(['test', '--sandbox', 'many.tradereq']);
      assert.equal(r.status, 4, describeRun(r));
      assert.equal(
        r.stdout.match(/is used up/g)?.length,
        2,
        `the refusal and the first case not run: ${describeRun(r)}`,
      );
      assert.match(r.stdout, / {2}- info 52\n {6}not run: an earlier request was refused/);
      assert.match(r.stdout, / {2}- info 53\n\n/);
      assert.equal(r.stderr.match(/--pace/g)?.length, 1, describeRun(r));
      assert.match(
        r.stderr,
        /^tradereq: the rate-limit gate refused a request \(2 not run after it\): run with --pace/m,
      );
    });
  });

  describe('test -', () => {
    it("runs the request file of standard input, with the current folder's environment, shown as -", async () => {
      const r = await withInput(['test', '-', '--reporter', 'json'], PING, p.dir, p.env);
      assert.equal(r.status, 0, describeRun(r));
      const report = JSON.parse(r.stdout) as { files: { path: string; cases: { verdict: string }[] }[] };
      assert.deepEqual(
        report.files.map((f) => [f.path, f.cases.map((c) => c.verdict)]),
        [['-', ['passed']]],
      );
      assert.ok((await p.reached()).includes('GET /api/v3/ping'), 'sent to the environment of the current folder');
    });

    it('- refuses a # @data file, another PATH beside it, and --update-snapshots', async () => {
      writeFileSync(join(p.dir, 'rows.csv'), 'symbol\nBTCUSDT\n');
      const data = await withInput(
        ['test', '-'],
        '# @data rows.csv\nGET /api/v3/exchangeInfo\nsymbol = {{symbol}}\n',
        p.dir,
        p.env,
      );
      assert.equal(data.status, 2, describeRun(data));
      assert.match(data.stdout, /a request file read from standard input has no folder/);
      for (const args of [
        ['-', 'ping.tradereq'],
        ['-', '--update-snapshots'],
      ]) {
        const r = await withInput(['test', ...args], PING, p.dir, p.env);
        assert.equal(r.status, 2, describeRun(r));
        assert.equal(r.stdout, '');
      }
    });
  });

  describe('--reporter html', () => {
    it('one page that validates as HTML, holds every case, escapes a hostile title and loads nothing from outside', async () => {
      const hostile = `### <script>alert(1)</script> "quoted" & 'single'
GET /api/v3/ping

### A rejected order
POST /api/v3/order
symbol = NOPE
side = BUY
type = MARKET
quantity = 1
`;
      writeFileSync(join(p.dir, 'hostile.tradereq'), hostile);
      const r = await p.run([
        'test',
        'ping.tradereq',
        'hostile.tradereq',
        '--reporter',
        'html:report.html',
        '--reporter',
        'json',
      ]);
      assert.equal(r.status, 1, describeRun(r));
      const html = readFileSync(join(p.dir, 'report.html'), 'utf8');
      const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });
      const result = await validator.validateString(html);
      assert.ok(
        result.valid,
        JSON.stringify(result.results.flatMap((x) => x.messages.map((m) => `${m.ruleId}: ${m.message}`))),
      );
      const report = JSON.parse(r.stdout) as { files: { path: string; cases: { name: string; verdict: string }[] }[] };
      const cases = report.files.flatMap((f) => f.cases);
      assert.equal(cases.length, 3);
      assert.equal(html.match(/<tr><td>/g)?.length, cases.length, 'a row per case');
      for (const f of report.files) assert.ok(html.includes(`<h2>${f.path} `), f.path);
      assert.match(html, /<td class="failed">failed<\/td>/);
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &#39;single&#39;'));
      assert.doesNotMatch(html, /<script/i, 'no script element at all');
      assert.doesNotMatch(
        html,
        /\b(?:src|href)=|url\(|@import|https?:\/\/(?!127\.0\.0\.1)/i,
        'nothing loaded from outside',
      );
      assert.match(
        html,
        /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;[^"]*script-src &#39;none&#39;/,
      );
    });
  });
});
