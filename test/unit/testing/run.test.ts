/**
 * Request files as tests, in the core: discovering a file's requests as test cases (ranges,
 * expectations, ids), running them in order through the real pipeline against the sandbox over
 * HTTP (chaining, expectations, refusals that stop a file, cancellation, a run that sends only to
 * the sandbox), and what a result says (decoded code, the answer, never the API key).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import type { NamedEnvironment } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';
import type { Sender } from '../../../src/core/net/send';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import type { KeySource } from '../../../src/core/request/prepare';
import { err, ok } from '../../../src/core/result';
import {
  caseTitle,
  matchesGrep,
  selectCases,
  testCases,
  WEBSOCKET_SKIP,
  withNeeded,
  withRows,
} from '../../../src/core/testing/cases';
import { parseData } from '../../../src/core/testing/data';
import type { CaseResult } from '../../../src/core/testing/verdict';
import { runCases, type RunDeps } from '../../../src/core/testing/run';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { controlOk } from '../../support/sandbox-ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';

const FILE = `# Requests as tests
@symbol = BTCUSDT

### Buy at a limit price
# @name buy
POST /api/v3/order
symbol = {{symbol}}
side = BUY
type = LIMIT
quantity = 0.001
price = 20000

### Query it
# @expect status 200
# @expect json symbol == BTCUSDT
GET /api/v3/order
symbol = {{symbol}}
orderId = {{buy.response.orderId}}

### Cancel without an id
# @expect code 30002
DELETE /api/v3/order
symbol = BTCUSDT

### Cancel without an id, as expected
# @expect code 700004
DELETE /api/v3/order
symbol = BTCUSDT

### Trades
WS /ws
[subscribe]
spot@public.deals.v3.api@BTCUSDT
`;

describe('request files as tests: discovery', () => {
  const cases = testCases(parse(FILE));

  it('each request is a case, in file order, its range from the ### line to the end of its block', () => {
    assert.deepEqual(
      cases.map((c) => [c.id, c.label, c.range.startLine]),
      [
        ['name:buy', 'Buy at a limit price', 3],
        ['#2', 'Query it', 12],
        ['#3', 'Cancel without an id', 19],
        ['#4', 'Cancel without an id, as expected', 24],
        ['#5', 'Trades', 29],
      ],
    );
    assert.equal(cases[0]!.range.endLine, 10, 'the block of "buy" ends at its last line');
    assert.equal(caseTitle(cases[0]!), 'Buy at a limit price (buy)');
  });

  it('the # @expect lines of a case are known before it runs (where a failure is shown)', () => {
    assert.deepEqual(
      cases.map((c) => c.expectRanges.map((r) => r.startLine)),
      [[], [13, 14], [20], [25], []],
    );
  });

  it('a WebSocket request is a case that is skipped, with the reason', () => {
    assert.equal(cases[4]!.skip, WEBSOCKET_SKIP);
    assert.equal(cases[0]!.skip, undefined);
  });

  it('a request without a title is labelled by its # @name, else by its request line; two equal names fall back to positions', () => {
    const doc = parse('# @name a\nGET /api/v3/ping\n###\n# @name a\nGET /api/v3/time\n###\nGET /api/v3/account');
    assert.deepEqual(
      testCases(doc).map((c) => [c.id, c.label]),
      [
        ['#1', 'a'],
        ['#2', 'a'],
        ['#3', 'GET /api/v3/account'],
      ],
    );
  });

  it('--grep matches titles and names', () => {
    assert.deepEqual(
      cases.filter((c) => matchesGrep(c, /^buy$/)).map((c) => c.id),
      ['name:buy'],
    );
    assert.deepEqual(
      cases.filter((c) => matchesGrep(c, /Cancel|Query/)).map((c) => c.id),
      ['#2', '#3', '#4'],
    );
  });

  it('--grep adds what a selected request reads, each named by the one that reads it directly (issue 19, point 2)', () => {
    const doc = parse(
      [
        '@price = {{quote.response.price}}',
        '### Quote\n# @name quote\nGET /api/v3/ticker/price\nsymbol = BTCUSDT',
        '### Ping\nGET /api/v3/ping',
        '### Buy\n# @name buy\nPOST /api/v3/order\nsymbol = BTCUSDT\nprice = {{price}}',
        '### Cancel it\nDELETE /api/v3/order\nsymbol = BTCUSDT\norderId = {{buy.response.orderId}}',
      ].join('\n\n'),
    );
    const picked = selectCases(doc, testCases(doc), /cancel/i);
    assert.deepEqual(
      picked.map((c) => [c.label, c.neededBy]),
      [
        ['Quote', ['Buy']],
        ['Buy', ['Cancel it']],
        ['Cancel it', undefined],
      ],
    );
    // The Testing view picks by item, not by pattern: the same cases.
    assert.deepEqual(
      withNeeded(doc, testCases(doc), (c) => c.label === 'Cancel it'),
      picked,
    );
  });
});

describe('request files as tests: running against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: Sender;
  let origin: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    origin = new URL(sandbox.baseUrl).origin;
    sender = new NodeHttpSender();
  });
  after(async () => {
    await sender.close();
    await sandbox.close();
  });
  beforeEach(() => control('reset', {}));

  const control = (path: string, body: unknown): Promise<void> => controlOk(sandbox, `/${path}`, body);

  async function reached(): Promise<string[]> {
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as {
      method: string;
      path: string;
    }[];
    return log.map((r) => `${r.method} ${r.path}`);
  }

  function deps(extra: Partial<RunDeps> = {}, key: KeySource = sandboxKeys(origin)): RunDeps {
    const store = new MemoryStateStore();
    return {
      pipeline: {
        sender,
        budget: new Budget(store),
        clock: new ClockSync(store),
        clockSync: false,
        key,
        confirm: () => true,
      },
      environment: sandboxEnvironment(sandbox.baseUrl),
      responses: new Map(),
      ...extra,
    };
  }

  async function run(text: string, extra: Partial<RunDeps> = {}, key?: KeySource): Promise<CaseResult[]> {
    const doc = parse(text);
    return runCases(doc, testCases(doc), deps(extra, key));
  }

  it('runs a file in order: a later request reads an earlier answer, an expected rejection passes, a WebSocket request is skipped', async () => {
    const results = await run(FILE);
    assert.deepEqual(
      results.map((r) => [r.verdict, r.reason]),
      [
        ['passed', 'ok'],
        ['passed', 'ok'],
        ['failed', 'expectation'],
        ['passed', 'expected-rejection'],
        ['skipped', 'websocket'],
      ],
    );
    assert.ok(
      results[1]!.expectations.every((e) => e.passed),
      'the query found the order placed by "buy"',
    );
    assert.deepEqual(await reached(), [
      'POST /api/v3/order',
      'GET /api/v3/order',
      'DELETE /api/v3/order',
      'DELETE /api/v3/order',
    ]);
  });

  it('a failed expectation says what was expected, what came back (the decoded code and its meaning) and where the # @expect line is', async () => {
    const cancel = (await run(FILE))[2]!;
    assert.equal(cancel.status, 400);
    assert.equal(cancel.error?.code, 700004);
    assert.ok(cancel.error.meanings.length > 0);
    const [e] = cancel.expectations;
    assert.deepEqual(
      { text: e!.text, passed: e!.passed, actual: e!.actual, line: e!.range?.startLine },
      { text: '@expect code 30002', passed: false, actual: 'code 700004', line: 20 },
    );
    assert.match(cancel.summary, /^400 rejected: 700004 /);
    assert.match(cancel.response ?? '', /^400 /);
    assert.match(cancel.response ?? '', /"code": 700004/);
    assert.match(
      cancel.request ?? '',
      /^DELETE http:\/\/127\.0\.0\.1:\d+\/api\/v3\/order\?symbol=BTCUSDT&timestamp=\d+&signature=[0-9a-f]{64}/,
    );
    assert.ok(!cancel.request?.includes(DEMO_ACCOUNTS[0]!.apiKey), 'the API key is masked in the request');
  });

  it("# @data: each row runs with its values over the file's and the environment's; a later request reads the last row's answer; a file without rows fails as bad input, nothing sent", async () => {
    const doc = parse(
      [
        '@symbol = NOTUSED\n@side = BUY',
        '### Buy\n# @name buy\n# @data cases.csv\nPOST /api/v3/order\nsymbol = {{symbol}}\nside = {{side}}\ntype = LIMIT\nquantity = 0.001\nprice = {{price}}',
        '### Query the last\n# @expect json symbol == ETHUSDT\nGET /api/v3/order\nsymbol = ETHUSDT\norderId = {{buy.response.orderId}}',
      ].join('\n\n'),
    );
    const table = parseData('symbol,price,note\nBTCUSDT,20000,{{$timestamp}}\nETHUSDT,1500,x\n', 'csv', 'cases.csv');
    assert.ok(table.ok);
    const results = await runCases(
      doc,
      withRows(testCases(doc), () => table),
      deps(),
    );
    assert.deepEqual(
      results.map((r) => [r.case.id, r.verdict, r.reason]),
      [
        ['name:buy#row1', 'passed', 'ok'],
        ['name:buy#row2', 'passed', 'ok'],
        ['#2', 'passed', 'ok'],
      ],
    );
    assert.match(results[0]!.request ?? '', /symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0\.001&price=20000/);
    assert.match(results[1]!.request ?? '', /symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=0\.001&price=1500/);
    const ping = parse('### Ping\n# @data cases.csv\nGET /api/v3/ping\nnote = {{note}}');
    const [literal] = await runCases(
      ping,
      withRows(testCases(ping), () => table),
      deps(),
    );
    assert.match(
      literal!.request ?? '',
      /note=%7B%7B%24timestamp%7D%7D/,
      'a value is text: its {{...}} is not expanded',
    );
    const missing = await runCases(
      doc,
      withRows(testCases(doc), () => err('cases.csv cannot be read (ENOENT)')),
      deps(),
    );
    assert.deepEqual(
      [missing[0]!.verdict, missing[0]!.reason, missing[0]!.summary, missing[0]!.problemRange?.startLine],
      ['failed', 'bad-input', 'not sent: cases.csv cannot be read (ENOENT)', 5],
    );
  });

  it('{{variables}} in # @expect lines (issue 34, point 2): a chained orderId and a # @data row value pass on every row; --grep runs what an expectation reads', async () => {
    const doc = parse(
      [
        '### Buy\n# @name buy\n# @data cases.csv\n# @expect json symbol == {{symbol}}\nPOST /api/v3/order\nsymbol = {{symbol}}\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = {{price}}',
        '### Query it\n# @expect json orderId == {{buy.response.orderId}}\n# @expect json symbol in [{{symbol}}, XRPUSDT]\nGET /api/v3/order\nsymbol = {{symbol}}\norderId = {{buy.response.orderId}}',
      ].join('\n\n'),
    );
    const table = parseData('symbol,price\nBTCUSDT,20000\nETHUSDT,1500\n', 'csv', 'cases.csv');
    assert.ok(table.ok);
    const environment = { ...sandboxEnvironment(sandbox.baseUrl), variables: { symbol: 'ETHUSDT' } };
    const results = await runCases(
      doc,
      withRows(testCases(doc), () => table),
      deps({ environment }),
    );
    assert.deepEqual(
      results.map((r) => [r.case.id, r.verdict, r.expectations.map((e) => [e.text, e.passed])]),
      [
        ['name:buy#row1', 'passed', [['@expect json symbol == BTCUSDT', true]]],
        ['name:buy#row2', 'passed', [['@expect json symbol == ETHUSDT', true]]],
        [
          '#2',
          'passed',
          [
            [results[2]!.expectations[0]!.text, true],
            ['@expect json symbol in [ETHUSDT, XRPUSDT]', true],
          ],
        ],
      ],
      JSON.stringify(results.map((r) => r.expectations)),
    );
    assert.match(results[2]!.expectations[0]!.text, /^@expect json orderId == \d+$/, 'the orderId of the last row');
    const only = parse(
      '### Buy\n# @name buy\nPOST /api/v3/order\n\n### Ping\n# @expect json orderId == {{buy.response.orderId}}\nGET /api/v3/ping',
    );
    const picked = withNeeded(only, testCases(only), (c) => c.index === 1);
    assert.deepEqual(
      picked.map((c) => [c.index, c.neededBy]),
      [
        [0, ['Ping']],
        [1, undefined],
      ],
      'the answer an expectation reads is run first',
    );
  });

  it('a rejection without # @expect lines fails; a 5xx is unknown, never failed', async () => {
    await control('fault', { status: 503, count: 1, path: '/api/v3/order' });
    const [unknown, rejected] = await run(
      'POST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\n###\nGET /api/v3/order\nsymbol = BTCUSDT\norderId = 1',
    );
    assert.deepEqual([unknown!.verdict, unknown!.reason, unknown!.status], ['unknown', 'unknown', 503]);
    assert.match(unknown!.summary, /may have succeeded/);
    assert.deepEqual([rejected!.verdict, rejected!.reason], ['failed', 'rejected']);
  });

  it('a refusal before sending stops the file: the requests after it are skipped, saying why, and nothing of them is sent', async () => {
    const unbound: KeySource = () =>
      ok({
        key: DEMO_ACCOUNTS[0]!,
        binding: { profile: 'sandbox', origins: ['http://127.0.0.1:1'], source: 'test' },
        owner: { ask: false, by: 'test' },
      });
    const results = await run(
      'GET /api/v3/ping\n###\nGET /api/v3/account\n###\nGET /api/v3/time\n###\nGET /api/v3/ping',
      {},
      unbound,
    );
    assert.deepEqual(
      results.map((r) => [r.verdict, r.reason]),
      [
        ['passed', 'ok'],
        ['refused', 'origin'],
        ['skipped', 'after-refusal'],
        ['skipped', 'after-refusal'],
      ],
    );
    assert.match(results[2]!.summary, /^not run: an earlier request was refused \(key profile .*may not be sent to/);
    assert.deepEqual(await reached(), ['GET /api/v3/ping']);
  });

  it('a run against the sandbox refuses a request to any other origin, sends nothing of it, and goes on', async () => {
    const results = await run('GET http://127.0.0.1:1/api/v3/ping\n###\nGET /api/v3/ping', { onlyOrigin: origin });
    assert.deepEqual(
      results.map((r) => [r.verdict, r.reason]),
      [
        ['refused', 'elsewhere'],
        ['passed', 'ok'],
      ],
    );
    assert.match(results[0]!.summary, /sends only to it/);
  });

  it('cancelling stops the run between requests: the request under way ends, the rest are skipped', async () => {
    let cancelled = false;
    const started: string[] = [];
    const results = await run('GET /api/v3/ping\n###\nGET /api/v3/time\n###\nGET /api/v3/ping', {
      cancelled: () => cancelled,
      onStart: (c) => {
        started.push(c.id);
        cancelled = true;
      },
    });
    assert.deepEqual(started, ['#1']);
    assert.deepEqual(
      results.map((r) => r.reason),
      ['ok', 'cancelled', 'cancelled'],
    );
    assert.deepEqual(await reached(), ['GET /api/v3/ping']);
  });

  it('bad input is a failure with its place: an undefined variable, a line the parser could not read; nothing is sent', async () => {
    const results = await run(
      '### a\nGET /api/v3/order\nsymbol = {{nope}}\n### b\nGET /api/v3/ping\nthis is not a line\n',
    );
    assert.deepEqual(
      results.map((r) => [r.verdict, r.reason, r.problemRange?.startLine]),
      [
        ['failed', 'bad-input', 2],
        ['failed', 'bad-input', 5],
      ],
    );
    assert.deepEqual(await reached(), []);
  });

  it('reports each result as it comes, in order, with its time', async () => {
    const seen: string[] = [];
    const times = [0, 5, 5, 12];
    await run('GET /api/v3/ping\n###\nGET /api/v3/time', {
      now: () => times.shift() ?? 99,
      onResult: (r) => seen.push(`${r.case.id} ${r.durationMs}`),
    });
    assert.deepEqual(seen, ['#1 5', '#2 7']);
  });
});

describe('request files as tests: an answer that repeats the API key', function () {
  let server: Server;
  let baseUrl: string;
  const apiKey = 'hostileEchoApiKey000000000000042';
  before(async () => {
    server = createServer((req, res) => {
      // A hostile server echoes the key it was sent, in the body and a header.
      const key = String(req.headers['x-service-apikey'] ?? '');
      res.writeHead(400, { 'Content-Type': 'application/json', 'X-Echo': key });
      res.end(JSON.stringify({ code: 700002, msg: `key ${key} refused`, echo: key }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('masks it everywhere in the result: summary, response, expectations', async () => {
    const doc = parse('# @expect json echo == 1\nGET /api/v3/account');
    const store = new MemoryStateStore();
    const sender = new NodeHttpSender();
    const environment: NamedEnvironment = { name: 'hostile', baseUrl, key: 'k' };
    try {
      const [r] = await runCases(doc, testCases(doc), {
        pipeline: {
          sender,
          budget: new Budget(store),
          clock: new ClockSync(store),
          clockSync: false,
          key: () =>
            ok({
              key: { apiKey, secretKey: 's'.repeat(40) },
              binding: { profile: 'k', origins: [baseUrl], source: 't' },
              owner: { ask: false, by: 't' },
            }),
          confirm: () => true,
        },
        environment,
        responses: new Map(),
      });
      const text = JSON.stringify(r);
      assert.ok(!text.includes(apiKey), text);
      assert.ok(!text.includes('s'.repeat(40)));
      assert.match(r!.response ?? '', /\*\*\*\*0042/);
      assert.equal(r!.expectations[0]!.actual, 'echo = ****0042');
    } finally {
      await sender.close();
    }
  });
});

describe('request files as tests: a listen key an earlier answer gave, echoed by a later one', function () {
  let server: Server;
  let baseUrl: string;
  const listenKey = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';
  before(async () => {
    server = createServer((req, res) => {
      // The first answer gives a listen key; a hostile server repeats it in every later answer.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(req.url?.startsWith('/api/v3/userDataStream') ? { listenKey } : { seen: `key ${listenKey}` }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Runs `text` against the hostile server with `responses` for chaining; the results as JSON text. */
  async function results(text: string, responses: RunDeps['responses']): Promise<CaseResult[]> {
    const doc = parse(text);
    const store = new MemoryStateStore();
    const sender = new NodeHttpSender();
    try {
      return await runCases(doc, testCases(doc), {
        pipeline: {
          sender,
          budget: new Budget(store),
          clock: new ClockSync(store),
          clockSync: false,
          key: () =>
            ok({
              key: { apiKey: 'echoListenKeyApiKey0000000000042', secretKey: 's'.repeat(40) },
              binding: { profile: 'k', origins: [baseUrl], source: 't' },
              owner: { ask: false, by: 't' },
            }),
          confirm: () => true,
        },
        environment: { name: 'hostile', baseUrl, key: 'k' },
        responses,
      });
    } finally {
      await sender.close();
    }
  }

  it('is masked in every later result, whether the request that got it is named or not, and whatever keeps the answers', async () => {
    const unnamed = '###\nPOST /api/v3/userDataStream\n###\n# @unsigned\nGET /api/v3/ping\n';
    const named = `###\n# @name lk\n${unnamed.slice(4)}`;
    // A store that keeps answers masked (the editor's) gives the run no key to mask with.
    const masking = { get: () => undefined, set: () => undefined };
    for (const [text, responses] of [
      [unnamed, new Map()],
      [named, new Map()],
      [named, masking],
    ] as const) {
      const [first, later] = await results(text, responses);
      assert.equal(later?.verdict, 'passed', later?.summary);
      assert.match(later.response ?? '', /key \*{4}65a1/);
      const shown = JSON.stringify([first, later]);
      assert.ok(!shown.includes(listenKey), shown);
    }
  });
});
