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

/** Sent without an id on purpose (check finds it: the runs that send it pass --no-check), for the service's 700004. */
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
      '--no-check',
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

  it('# @data: a request runs once per row of its CSV file, each row a JUnit testcase named by the row, a bad row failing alone', async () => {
    file(
      'data/orders.tradereq',
      '###\n# @name buy\n# @data cases/buy.csv\nPOST /api/v3/order\nsymbol = {{symbol}}\nside = {{side}}\ntype = LIMIT\nquantity = 0.001\nprice = {{price}}\n',
    );
    file(
      'data/cases/buy.csv',
      '\uFEFFsymbol,side,price\r\nBTCUSDT,BUY,20000\r\nNOSUCHPAIR,BUY,1\r\n"ETHUSDT",SELL,"1500"\r\n',
    );
    const r = await run(['--sandbox', '--reporter', 'pretty', '--reporter', 'junit:out/junit.xml', 'data']);
    assert.equal(r.status, 1, describeRun(r));
    const junit = await parseJUnit(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8'));
    assert.deepEqual(
      junit.suites[0]!.cases.map((c) => [c.name, c.failure?.type ?? 'passed']),
      [
        ['buy [row 1: symbol=BTCUSDT, side=BUY, price=20000]', 'passed'],
        ['buy [row 2: symbol=NOSUCHPAIR, side=BUY, price=1]', 'rejected'],
        ['buy [row 3: symbol=ETHUSDT, side=SELL, price=1500]', 'passed'],
      ],
    );
    assert.match(r.stdout, /\n {2}✘ buy \[row 2: symbol=NOSUCHPAIR, side=BUY, price=1\] · \d+ ms\n/);
    file('data/cases/buy.csv', 'symbol,side\nBTCUSDT\n');
    const bad = await run(['--sandbox', 'data']);
    assert.equal(bad.status, 2, describeRun(bad));
    assert.match(bad.stdout, /✘ buy · \d+ ms\n {6}not sent: cases\/buy\.csv is not valid CSV: .*\n/);
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
    const r = await run(['--sandbox', '--no-check']);
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

  it('snapshots: --update-snapshots writes them (masked, no key), a later run passes, a changed answer fails with a diff (exit 1), in JUnit too', async () => {
    const snapshot = join(dir, 'a', '__snapshots__', 'orders.tradereq.snap.json');
    file('a/orders.tradereq', `# @expect snapshot\n\n${PASSING}`);
    const written = await run(['--sandbox', '--update-snapshots']);
    assert.equal(written.status, 0, describeRun(written));
    assert.equal(
      written.stderr,
      `tradereq: snapshots written to ${join('a', '__snapshots__', 'orders.tradereq.snap.json')}: 3 new, 0 updated.\n`,
    );
    const snap = readFileSync(snapshot, 'utf8');
    assert.match(snap, /"transactTime": "<transactTime>"/);
    assert.ok(!snap.includes(DEMO.apiKey), 'no API key');
    const again = await run(['--sandbox']);
    assert.equal(again.status, 0, describeRun(again));
    assert.equal(again.stderr, '', 'nothing written');
    file('a/orders.tradereq', `# @expect snapshot\n\n${PASSING.replace('quantity = 0.001', 'quantity = 0.002')}`);
    const changed = await run(['--sandbox', '--reporter', 'pretty', '--reporter', 'junit:junit.xml']);
    assert.equal(changed.status, 1, describeRun(changed));
    assert.match(
      changed.stdout,
      / {2}✘ Buy \(buy\) · \d+ ms\n {6}expected @expect snapshot, got an answer unlike its snapshot \(name:buy in a[/\\]__snapshots__[/\\]orders\.tradereq\.snap\.json\); run tradereq test with --update-snapshots if the new answer is right:\n {6}--- snapshot\n {6}\+\+\+ answer\n/,
    );
    assert.match(changed.stdout, /\n {6}- {4}"origQty": "0\.00100000",\n {6}\+ {4}"origQty": "0\.00200000",\n/);
    const buy = (await parseJUnit(readFileSync(join(dir, 'junit.xml'), 'utf8'))).suites[0]!.cases[1]!;
    assert.match(buy.failure?.message ?? '', /^expected @expect snapshot, got an answer unlike its snapshot [^\n]*:$/);
    assert.match(buy.failure?.text ?? '', /\n- {4}"origQty": "0\.00100000",\n\+ {4}"origQty": "0\.00200000",\n/);
    assert.equal(readFileSync(snapshot, 'utf8'), snap, 'not written without --update-snapshots');
  });

  it('exit 2: bad input (an undefined variable) fails with its place and sends nothing; usage errors are one line', async () => {
    file('bad.tradereq', '### uses nothing defined\nGET /api/v3/exchangeInfo\nsymbol = {{nope}}\n');
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

    it('tradereq send on a # @data request sends one row: the first by default, said on standard error, or --row N', async () => {
      file('orders.tradereq', '### Price\n# @data cases.csv\nGET /api/v3/exchangeInfo\nsymbol = {{symbol}}\n');
      file('cases.csv', 'symbol\nBTCUSDT\nETHUSDT\n');
      const send = (args: string[]): Promise<Run> =>
        tradereq(['send', 'orders.tradereq', ...args], { cwd: dir, env: { ...env, ...keys(sandbox.baseUrl) } });
      const first = await send(['--env', 'local']);
      assert.equal(first.status, 0, describeRun(first));
      assert.equal(first.stderr, 'tradereq: # @data cases.csv: row 1 of 2; --row N sends another\n');
      const second = await send(['--env', 'local', '--row', '2']);
      assert.equal(second.status, 0, describeRun(second));
      assert.equal(second.stderr, 'tradereq: # @data cases.csv: row 2 of 2\n');
      const symbols = (r: Run): string[] => [...r.stdout.matchAll(/"symbol": "(\w+)"/g)].map((m) => m[1]!);
      assert.deepEqual([symbols(first), symbols(second)], [['BTCUSDT'], ['ETHUSDT']]);
    });

    it('exit 2: a request with errors that check finds fails unsent, naming them (place, rule, message) and --no-check; the rest of its file runs; a finding its # @expect anticipates runs', async () => {
      file(
        'orders.tradereq',
        '### Sell, lower case\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 0.001\n\n' +
          '### Sell, rejected on purpose\n# @expect code 33333\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 0.001\nprice = 1\n\n' +
          '### Ping\nGET /api/v3/ping\n',
      );
      const r = await run(['--env', 'local', '--no-clock-sync'], keys(sandbox.baseUrl));
      assert.equal(r.status, 2, describeRun(r));
      assert.match(
        r.stdout,
        / {2}✘ Sell, lower case · \d+ ms\n {6}not sent: check found 2 errors in this request, which the service would refuse \(--no-check sends it anyway\):\n/,
      );
      assert.match(r.stdout, /\n {8}orders\.tradereq:4:8: enum-value: side "sell" is not an allowed value/);
      assert.match(r.stdout, /\n {8}orders\.tradereq:5:8: missing-param: A LIMIT order needs "price"/);
      assert.match(r.stdout, / {2}✔ Sell, rejected on purpose · /);
      assert.match(r.stdout, /\n2 passed, 1 failed, /);
      assert.deepEqual(await reached(), ['POST /api/v3/order', 'GET /api/v3/ping'], 'the one with errors is not sent');

      const anyway = await run(
        ['--env', 'local', '--no-clock-sync', '--no-check', '--reporter', 'json'],
        keys(sandbox.baseUrl),
      );
      assert.equal(anyway.status, 1, describeRun(anyway));
      const [first] = (JSON.parse(anyway.stdout) as { files: { cases: { reason: string; summary: string }[] }[] })
        .files[0]!.cases;
      assert.equal(first!.reason, 'rejected');
      assert.match(first!.summary, /400 rejected: /);
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

    it('--pace --bail: a 429 that comes anyway (another client filled the counter) is reported rejected, and the run stops there', async () => {
      file('pings.tradereq', '### one\nGET /api/v3/ping\n\n### two\nGET /api/v3/ping\n');
      // Another client on this IP uses the whole IP budget (50 × weight 10) behind the run's back.
      for (let i = 0; i < 50; i++) assert.equal((await fetch(`${sandbox.baseUrl}/api/v3/exchangeInfo`)).status, 200);
      const r = await run(['--pace', 'pings.tradereq', '--bail'], keys(sandbox.baseUrl));
      assert.equal(r.status, 1, describeRun(r));
      assert.match(r.stdout, / {2}✘ one · \d+ ms\n(?: {6}.*\n)* {6}429 rejected: /);
      assert.match(
        r.stdout,
        / {2}- two\n {6}not run: the run stopped at a 429 from http:\/\/127\.0\.0\.1:\d+ \(--bail\)\n/,
      );
      assert.match(r.stdout, /; paced to 80 % of each rate-limit budget: waited [\d.]+ s \(1 answer 429\)\n$/);
      assert.equal((await reached()).filter((l) => l === 'GET /api/v3/ping').length, 1, 'the 429 is not sent again');
      for (const [pace, shown] of [
        ['0', '0'],
        ['1.5', '1.5'],
      ]) {
        const u = await run(['--pace', pace!, 'pings.tradereq']);
        assert.equal(u.status, 2, describeRun(u));
        assert.match(
          u.stderr,
          new RegExp(
            `^tradereq: --pace takes a fraction of each rate-limit budget, more than 0 and at most 1 .*not "${shown}"\n$`,
          ),
        );
      }
    });

    it('no secret and no full API key reaches any report or output', async () => {
      file('orders.tradereq', PASSING);
      file('rejections.tradereq', FAILING);
      const reports = ['junit:r/junit.xml', 'tap:r/report.tap', 'json:r/report.json', 'pretty:r/report.txt'];
      const r = await run(
        ['--no-check', '--reporter', 'pretty', ...reports.flatMap((x) => ['--reporter', x])],
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
