/**
 * `tradereq test` as a user and a CI job run it: the built CLI, spawned, against the sandbox over
 * real HTTP (its own with --sandbox, or one started here), every exit code, --grep, several
 * reporters at once, JUnit read back with a real XML parser, and no secret or full API key in any
 * report or output.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '../../src/core/env/demo';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { parseJUnit } from '../support/junit';
import { ROOT, describeRun, tradereq, type Run } from '../support/cli';
import { ensureBuilt } from '../support/build';

const EXAMPLES = join(ROOT, 'examples');
const DEMO = DEMO_ACCOUNTS[0]!;

const PASSING = `### Connectivity
GET /api/v3/ping

### Buy
# @name buy
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
quantity = 0.001
price = 20000

### The order placed by buy
# @expect status 200
GET /api/v3/order
symbol = BTCUSDT
orderId = {{buy.response.orderId}}
`;

const FAILING = `### Cancel without an id
# @expect code 30002
DELETE /api/v3/order
symbol = BTCUSDT
`;

/**
 * The forms of the assertion language (docs/format.md, Expectations): all pass on the account; a
 * rejection is not expected by a duration or a header alone; two fail on the time.
 */
const ASSERTIONS = `### Account, every new form
# @expect status < 300
# @expect code != 700003
# @expect header Content-Type contains json
# @expect duration < 60s
# @expect json balances[*].free isDecimal
# @expect json balances count > 1
# @expect json balances[*].asset matches /^[A-Z]+$/
# @expect json balances[0].asset in [BTC, ETH, USDT]
# @expect json canTrade == true
# @expect json nothing not exists
GET /api/v3/account

### Cancel, timed only
# @expect duration < 60s
# @expect header Content-Type contains json
DELETE /api/v3/order
symbol = BTCUSDT

### Server time
# @expect json serverTime > 1600000000000
# @expect json serverTime isString
# @expect json $ count > 0
GET /api/v3/time
`;

describe('tradereq test', function () {
  this.timeout(60_000);
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    ensureBuilt();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-test-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
    return name;
  }

  const run = (args: string[], extra: Record<string, string> = {}): Promise<Run> =>
    tradereq(['test', ...args], { cwd: dir, env: { ...env, ...extra } });

  it('--sandbox over examples/ from an unrelated folder: every request passes (exit 0), files sorted, a summary at the end', async () => {
    const r = await run(['--sandbox', EXAMPLES]);
    assert.equal(r.status, 0, describeRun(r));
    const headers = r.stdout.split('\n').filter((l) => l.endsWith('(sandbox)'));
    assert.deepEqual(
      headers.map((h) => h.replace(EXAMPLES + '/', '')),
      ['market.tradereq (sandbox)', 'orders.tradereq (sandbox)', 'rejections.tradereq (sandbox)'],
    );
    assert.match(r.stdout, /\n {2}✔ Buy at a limit price \(buy\) · \d+ ms\n/);
    assert.match(r.stdout, /\n15 passed, 0 failed, 0 unknown, 0 refused in \d+\.\d+ s\n$/);
    assert.equal(r.stderr, '', 'no progress line without a terminal');
  });

  it('several reporters at once: pretty on standard output, JUnit, TAP and JSON in files; JUnit read back with an XML parser', async () => {
    file('a/orders.tradereq', PASSING);
    file('b/rejections.tradereq', FAILING);
    const r = await run([
      '--sandbox',
      '--reporter',
      'pretty',
      '--reporter',
      'junit:out/junit.xml',
      '--reporter',
      'tap',
      '--output',
      'out/report.tap',
      '--reporter=json:out/report.json',
    ]);
    assert.equal(r.status, 1, describeRun(r));
    const junit = await parseJUnit(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8'));
    assert.deepEqual(
      junit.suites.map((s) => [s.name, s.tests, s.failures]),
      [
        ['a/orders.tradereq', 3, 0],
        ['b/rejections.tradereq', 1, 1],
      ],
    );
    assert.deepEqual(
      junit.suites[0]!.cases.map((c) => [c.name, c.line]),
      [
        ['Connectivity', 1],
        ['Buy (buy)', 4],
        ['The order placed by buy', 13],
      ],
    );
    const cancel = junit.suites[1]!.cases[0]!;
    assert.equal(cancel.failure?.type, 'expectation');
    assert.equal(cancel.failure?.message, 'expected @expect code 30002, got code 700004');
    assert.match(cancel.failure?.text ?? '', /400 rejected: 700004 origClientOrderId or orderId must be sent/);
    assert.match(
      cancel.systemOut ?? '',
      /^request:\nDELETE http:\/\/127\.0\.0\.1:\d+\/api\/v3\/order\?symbol=BTCUSDT&timestamp=/,
    );
    assert.match(cancel.systemOut ?? '', /\n\nresponse:\n400 /);
    const tap = readFileSync(join(dir, 'out', 'report.tap'), 'utf8');
    assert.match(tap, /^TAP version 14\n1\.\.4\nok 1 - a\/orders\.tradereq: Connectivity\n/);
    assert.match(tap, /\nnot ok 4 - b\/rejections\.tradereq: Cancel without an id\n/);
    const json = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as {
      summary: { passed: number; failed: number };
    };
    assert.deepEqual([json.summary.passed, json.summary.failed], [3, 1]);
    assert.match(r.stdout, /✘ Cancel without an id/);
  });

  it('JUnit on standard output is the XML alone; the summary goes to standard error', async () => {
    file('orders.tradereq', PASSING);
    const r = await run(['--sandbox', '--reporter', 'junit']);
    assert.equal(r.status, 0, describeRun(r));
    const junit = await parseJUnit(r.stdout);
    assert.equal(junit.tests, 3);
    assert.match(r.stderr, /^3 passed, 0 failed, 0 unknown, 0 refused in /);
  });

  it('--grep runs only the requests whose title or name matches (others are not sent)', async () => {
    file('orders.tradereq', PASSING);
    file('rejections.tradereq', FAILING);
    const r = await run(['--sandbox', '--grep', '^(buy|Connectivity)$', '--reporter', 'json']);
    assert.equal(r.status, 0, describeRun(r));
    const doc = JSON.parse(r.stdout) as { files: { path: string; cases: { title: string }[] }[] };
    assert.deepEqual(
      doc.files.map((f) => [f.path, f.cases.map((c) => c.title)]),
      [['orders.tradereq', ['Connectivity', 'Buy (buy)']]],
    );
    const none = await run(['--sandbox', '--grep', 'nothing like this']);
    assert.equal(none.status, 2, describeRun(none));
    assert.match(none.stderr, /^tradereq: no request matches --grep nothing like this in 2 file\(s\)\n$/);
  });

  it('exit 1: a request rejected against its # @expect line; the assertion language judged against the sandbox', async () => {
    file('rejections.tradereq', FAILING);
    file('assertions.tradereq', ASSERTIONS);
    const r = await run(['--sandbox']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, / {6}expected @expect code 30002, got code 700004\n {6}400 rejected: 700004 /);
    assert.match(r.stdout, /\n {2}✔ Account, every new form · \d+ ms\n/);
    assert.match(
      r.stdout,
      /\n {2}✘ Cancel, timed only · \d+ ms\n {6}expected the request to be accepted \(or # @expect lines for a rejection\)\n/,
    );
    assert.match(
      r.stdout,
      /\n {2}✘ Server time · \d+ ms\n {6}expected @expect json serverTime isString, got serverTime = \d{13}\n {6}expected @expect json \$ count > 0, got \$ = \{"serverTime":\d{13}\}, not an array\n/,
    );
  });

  it('exit 2: bad input (an undefined variable) fails with its place and sends nothing; usage errors are one line', async () => {
    file('bad.tradereq', '### uses nothing defined\nGET /api/v3/order\nsymbol = {{nope}}\n');
    const r = await run(['--sandbox', '--reporter', 'json']);
    assert.equal(r.status, 2, describeRun(r));
    const [c] = (JSON.parse(r.stdout) as { files: { cases: { reason: string; summary: string }[] }[] }).files[0]!.cases;
    assert.equal(c!.reason, 'bad-input');
    assert.match(c!.summary, /nope/);
    for (const [args, message] of [
      [['missing'], /^tradereq: missing: no such file or folder\n$/],
      [['--reporter', 'xml'], /^tradereq: --reporter takes pretty, junit, tap, json/],
      [['--reporter', 'junit', '--reporter', 'tap'], /^tradereq: only one report can go to standard output/],
      [['--output', 'x.xml'], /^tradereq: --output FILE follows the --reporter/],
      [['--grep', '('], /^tradereq: --grep takes a regular expression/],
      [['empty'], /^tradereq: no \.tradereq file in empty\n$/],
    ] as const) {
      mkdirSync(join(dir, 'empty'), { recursive: true });
      const u = await run([...args]);
      assert.equal(u.status, 2, describeRun(u));
      assert.match(u.stderr, message);
      assert.equal(u.stdout, '');
    }
  });

  describe('against a sandbox of the environment (not --sandbox)', () => {
    let sandbox: Sandbox;
    beforeEach(async () => {
      sandbox = await startSandbox({ port: 0 });
      file('tradereq.env.json', JSON.stringify({ local: { baseUrl: sandbox.baseUrl, key: 'desk' } }));
    });
    afterEach(() => sandbox.close());

    const control = async (what: string, body: unknown): Promise<void> => {
      const res = await fetch(`${sandbox.baseUrl}/_sandbox/${what}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200);
    };
    const reached = async (): Promise<string[]> =>
      ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as { method: string; path: string }[]).map(
        (e) => `${e.method} ${e.path}`,
      );
    const keys = (origins?: string): Record<string, string> => ({
      TRADEREQ_DESK_API_KEY: DEMO.apiKey,
      TRADEREQ_DESK_SECRET_KEY: DEMO.secretKey,
      ...(origins ? { TRADEREQ_DESK_ORIGINS: origins } : {}),
    });

    it('exit 3: a 5xx after the order went out is an unknown outcome', async () => {
      file('orders.tradereq', PASSING);
      await control('fault', { status: 503, count: 1, path: '/api/v3/order' });
      const r = await run(['--no-clock-sync'], keys(sandbox.baseUrl));
      assert.equal(r.status, 3, describeRun(r));
      assert.match(r.stdout, / {2}\? Buy \(buy\) · \d+ ms\n {6}503 outcome unknown: the operation may have succeeded/);
    });

    it('exit 4: a key not bound to the origin is refused; the rest of the file is not run, and says why', async () => {
      file('orders.tradereq', PASSING);
      const r = await run(['--no-clock-sync'], keys());
      assert.equal(r.status, 4, describeRun(r));
      assert.match(r.stdout, / {2}⊘ Buy \(buy\) · \d+ ms\n {6}refused: key profile "desk" may not be sent to/);
      assert.match(r.stdout, / {2}- The order placed by buy\n {6}not run: an earlier request was refused/);
      assert.deepEqual(
        await reached(),
        ['GET /api/v3/ping'],
        'only the request before the refusal reached the sandbox',
      );
    });

    it('exit 4: an order to a "confirm" environment without a terminal or --yes; sent with --yes', async () => {
      file('tradereq.env.json', JSON.stringify({ local: { baseUrl: sandbox.baseUrl, key: 'desk', confirm: true } }));
      file('orders.tradereq', PASSING);
      const refused = await run(['--no-clock-sync'], keys(sandbox.baseUrl));
      assert.equal(refused.status, 4, describeRun(refused));
      assert.match(refused.stdout, /needs confirmation/);
      const confirmed = await run(['--no-clock-sync', '--yes'], keys(sandbox.baseUrl));
      assert.equal(confirmed.status, 0, describeRun(confirmed));
    });

    it('no secret and no full API key reaches any report or output', async () => {
      file('orders.tradereq', PASSING);
      file('rejections.tradereq', FAILING);
      const reports = ['junit:r/junit.xml', 'tap:r/report.tap', 'json:r/report.json', 'pretty:r/report.txt'];
      const r = await run(
        ['--reporter', 'pretty', ...reports.flatMap((x) => ['--reporter', x])],
        keys(sandbox.baseUrl),
      );
      assert.equal(r.status, 1, describeRun(r));
      const texts = [
        r.stdout,
        r.stderr,
        ...['junit.xml', 'report.tap', 'report.json', 'report.txt'].map((f) => readFileSync(join(dir, 'r', f), 'utf8')),
      ];
      for (const text of texts) {
        assert.ok(!text.includes(DEMO.secretKey), 'no secret key');
        assert.ok(!text.includes(DEMO.apiKey), 'no full API key');
      }
      assert.match(
        readFileSync(join(dir, 'r', 'junit.xml'), 'utf8'),
        /X-SERVICE-APIKEY: \*\*\*\*0001/,
        'the key is shown masked',
      );
    });
  });
});
