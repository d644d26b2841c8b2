/**
 * Hostile text never reaches the terminal raw: escape and control bytes from shared files and
 * server answers are shown as \u escapes on every line the command line prints, because every
 * line goes through one writer. A closed pipe ends the command quietly.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { CLI, cleanEnv, describeRun, tradereq, type Run } from '../support/cli';

const ESC = '\u001b';
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** No raw control character in what was printed; `quoted`: the hostile text was printed, escaped. */
function assertSafe(r: Run, quoted = true): void {
  const out = r.stdout + r.stderr;
  assert.doesNotMatch(out, RAW_CONTROL, `a raw control character was printed: ${JSON.stringify(out.slice(0, 500))}`);
  if (quoted) assert.ok(out.includes('\\u001b'), `the escape is shown as \\u001b: ${describeRun(r)}`);
}

describe('hostile text never reaches the terminal raw', function () {
  this.timeout(60_000);
  let dir: string;
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(() => sandbox.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-terminal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    writeFileSync(join(dir, name), text);
    return name;
  }
  const run = (args: string[]): Promise<Run> =>
    tradereq(args, { cwd: dir, env: { TRADEREQ_STATE_DIR: join(dir, 'state') } });

  it('the tradereq.env.json parse error, which quotes the file', async () => {
    file('tradereq.env.json', `{"live": ${ESC}]0;pwned\u0007}`);
    assertSafe(await run(['check', file('a.tradereq', 'GET /api/v3/ping\n')]));
  });

  it('check messages naming a section and a variable that hold ESC', async () => {
    const r = await run([
      'check',
      file('a.tradereq', `GET /api/v3/ping\n[${ESC}[31mquery]\n\n###\nGET /api/v3/ping?x={{${ESC}[2Jname}}\n`),
    ]);
    assertSafe(r);
    assert.match(r.stdout, /Unknown section/);
  });

  it('the path and a header value in sign, and # @name in the request list', async () => {
    assertSafe(await run(['sign', file('p.tradereq', `GET /api/v3/${ESC}[2Jping\n`)]));
    // A header value with a control character is refused, and the refusal does not echo it.
    assertSafe(await run(['sign', file('h.tradereq', `GET /api/v3/ping\nX-Note: a${ESC}[2J\n`)]), false);
    assertSafe(
      await run(['sign', file('n.tradereq', `###\n# @name a${ESC}[2J\nGET /api/v3/ping\n###\nGET /api/v3/time\n`)]),
    );
  });

  it('# @expect text and the server answer in send', async () => {
    const text = `# @expect json serverTime == ${ESC}[2Jnever\nGET /api/v3/time\n`;
    const r = await run(['send', file('e.tradereq', text), '--base-url', sandbox.baseUrl, '--no-clock-sync']);
    assert.equal(r.status, 1, describeRun(r));
    assertSafe(r);
  });

  it('writing into a closed pipe (check | head -1) ends quietly, without an EPIPE stack', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `### ${i}\nGET /api/v3/nowhere${i}\n`).join('');
    file('big.tradereq', big);
    const errFile = join(dir, 'stderr.txt');
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" check big.tradereq 2>"${errFile}" | head -1`], {
      cwd: dir,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^big\.tradereq:2:5: warning: /);
    assert.equal(readFileSync(errFile, 'utf8'), '', 'nothing on standard error');
  });
});
