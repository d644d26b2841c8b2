/**
 * `# @expect snapshot` in a test run, through the real pipeline against the in-process sandbox:
 * the snapshot file written on update (masked, sorted, LF, no credential), a later run that
 * passes, a changed answer that fails with a unified diff in every report, a missing or damaged
 * snapshot file (one line, never written over without update), `# @mask`, and a hostile server
 * that echoes the API key. Also how the directives read and how `tradereq send` reports it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import { readOptions } from '../../../src/core/format/directives';
import { parse } from '../../../src/core/format/parser';
import { decodeResponse } from '../../../src/core/net/decode';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import type { Sender } from '../../../src/core/net/send';
import { checkExpectations } from '../../../src/core/request/expect';
import { testCases } from '../../../src/core/testing/cases';
import { junitReport } from '../../../src/core/testing/junit';
import { prettyFile } from '../../../src/core/testing/reporters';
import { runCases, type RunDeps } from '../../../src/core/testing/run';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { snapshotDiff } from '../../../src/core/testing/snapshot';
import { SnapshotStore, snapshotPath } from '../../../src/core/testing/snapshot-store';
import type { CaseResult } from '../../../src/core/testing/verdict';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { controlOk } from '../../support/sandbox-ws';

const ORDERS = `# @expect snapshot

### Buy
# @name buy
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
quantity = 0.001
price = 20000

### Query it
GET /api/v3/order
symbol = BTCUSDT
orderId = {{buy.response.orderId}}

### Cancel without an id
DELETE /api/v3/order
symbol = BTCUSDT
`;

const HOW = 'run with --update-snapshots';

describe('snapshots: # @expect snapshot in a test run', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: Sender;
  let dir: string;
  let file: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    sender = new NodeHttpSender();
  });
  after(async () => {
    await sender.close();
    await sandbox.close();
  });
  beforeEach(async () => {
    await controlOk(sandbox, '/reset', {});
    dir = mkdtempSync(join(tmpdir(), 'tradereq-snap-'));
    file = join(dir, 'orders.tradereq');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function deps(store: SnapshotStore | undefined): RunDeps {
    const state = new MemoryStateStore();
    const origin = new URL(sandbox.baseUrl).origin;
    return {
      pipeline: {
        sender,
        budget: new Budget(state),
        clock: new ClockSync(state),
        clockSync: false,
        key: sandboxKeys(origin),
        confirm: () => true,
      },
      environment: sandboxEnvironment(sandbox.baseUrl),
      responses: new Map(),
      snapshots: store,
    };
  }

  /** Runs `text` (saved as orders.tradereq) with a store; the results and what saving said. */
  async function run(text: string, update: boolean, pick?: (id: string) => boolean) {
    writeFileSync(file, text);
    const doc = parse(text);
    const store = new SnapshotStore(file, { update, howToUpdate: HOW, shown: 'orders.tradereq' });
    const cases = testCases(doc).filter((c) => pick?.(c.id) ?? true);
    const results = await runCases(doc, cases, deps(store));
    return { results, saved: await store.save() };
  }

  const snapText = (): string => readFileSync(snapshotPath(file), 'utf8');
  const verdicts = (results: readonly CaseResult[]) => results.map((r) => [r.verdict, r.reason]);

  it('--update-snapshots writes __snapshots__/FILE.snap.json: an entry per case, sorted, masked, LF and a newline at the end', async () => {
    const { results, saved } = await run(ORDERS, true);
    assert.deepEqual(verdicts(results), [
      ['passed', 'ok'],
      ['passed', 'ok'],
      ['passed', 'expected-rejection'],
    ]);
    assert.deepEqual(saved, { created: 3, changed: 0 });
    assert.equal(snapshotPath(file), join(dir, '__snapshots__', 'orders.tradereq.snap.json'));
    assert.match(
      results[0]!.expectations[0]!.actual,
      /^snapshot written in __snapshots__[/\\]orders\.tradereq\.snap\.json$/,
    );
    const text = snapText();
    assert.ok(text.endsWith('}\n') && !text.includes('\r'), 'LF, a newline at the end');
    const json = JSON.parse(text) as { version: number; snapshots: Record<string, Record<string, unknown>> };
    assert.equal(json.version, 1);
    assert.deepEqual(Object.keys(json.snapshots), ['#2', '#3', 'name:buy'], 'sorted by id');
    const buy = json.snapshots['name:buy']!;
    assert.equal(buy['request'], 'Buy (buy)', 'the title, for readers');
    assert.equal(buy['status'], 200);
    const body = buy['body'] as Record<string, unknown>;
    assert.equal(body['orderId'], '<orderId>');
    assert.equal(body['clientOrderId'], '<clientOrderId>', 'made up by the service');
    assert.equal(body['transactTime'], '<transactTime>');
    assert.equal(body['origQty'], '0.00100000', 'what is not volatile stays');
    assert.deepEqual(Object.keys(body).slice(0, 3), ['symbol', 'orderId', 'orderListId'], 'in the order received');
    const cancel = json.snapshots['#3']!;
    assert.deepEqual(Object.keys(cancel), ['request', 'status', 'code', 'body']);
    assert.deepEqual([cancel['status'], cancel['code']], [400, 700004]);
    assert.ok(!text.includes(DEMO_ACCOUNTS[0]!.apiKey), 'no API key');
  });

  it('a later run (new ids and times) passes; writing again changes nothing', async () => {
    await run(ORDERS, true);
    const before = snapText();
    await controlOk(sandbox, '/clock', { offsetMs: 1_000 });
    try {
      const { results, saved } = await run(ORDERS, false);
      assert.deepEqual(
        results.map((r) => r.verdict),
        ['passed', 'passed', 'passed'],
        results.map((r) => r.expectations[0]?.actual).join('\n'),
      );
      assert.match(results[0]!.expectations[0]!.actual, /^the answer matches its snapshot/);
      assert.deepEqual(saved, { created: 0, changed: 0 });
      assert.deepEqual((await run(ORDERS, true)).saved, { created: 0, changed: 0 });
      assert.equal(snapText(), before, 'not rewritten');
    } finally {
      await controlOk(sandbox, '/clock', { offsetMs: 0 });
    }
  });

  it('a changed answer fails with a unified diff (pretty and JUnit reports too), with both sides for an editor', async () => {
    await run(ORDERS, true);
    const { results } = await run(ORDERS.replace('quantity = 0.001', 'quantity = 0.002'), false);
    const buy = results[0]!;
    assert.deepEqual([buy.verdict, buy.reason], ['failed', 'expectation']);
    const e = buy.expectations[0]!;
    assert.equal(e.text, '@expect snapshot');
    assert.equal(e.range?.startLine, 0, 'at the file directive');
    assert.match(
      e.actual,
      /^an answer unlike its snapshot \(name:buy in __snapshots__[/\\]orders\.tradereq\.snap\.json\); run with --update-snapshots if the new answer is right:\n--- snapshot\n\+\+\+ answer\n@@ /,
    );
    assert.match(e.actual, /\n- {4}"origQty": "0\.00100000",\n\+ {4}"origQty": "0\.00200000",\n/);
    assert.ok(e.diff?.snapshot, 'both sides as compared');
    assert.match(e.diff.expected, /"origQty": "0\.00100000"/);
    assert.match(e.diff.actual, /"origQty": "0\.00200000"/);
    assert.doesNotMatch(e.diff.actual, /"request"/, 'the title is not compared');
    const pretty = prettyFile({ path: 'orders.tradereq', environment: 'sandbox', cases: results, durationMs: 1 });
    assert.match(
      pretty,
      /\n {6}expected @expect snapshot, got an answer unlike its snapshot[^\n]*\n {6}--- snapshot\n/,
    );
    assert.match(pretty, /\n {6}- {4}"origQty": "0\.00100000",\n/);
    const junit = junitReport({
      files: [{ path: 'orders.tradereq', environment: 'sandbox', cases: results, durationMs: 1 }],
      durationMs: 1,
      startedAt: new Date(0).toISOString(),
    });
    assert.match(
      junit,
      /<failure message="expected @expect snapshot, got an answer unlike its snapshot[^"\n]*" type="expectation">/,
    );
    assert.match(junit, /\n- {4}"origQty": "0\.00100000",\n/);
    assert.equal(results[1]!.verdict, 'failed', 'the query shows the new quantity too');
    assert.equal(results[2]!.verdict, 'passed');
  });

  it('a missing snapshot fails with what to do, and nothing is written without --update-snapshots', async () => {
    const { results, saved } = await run(ORDERS, false);
    assert.deepEqual(
      results.map((r) => r.verdict),
      ['failed', 'failed', 'failed'],
    );
    assert.equal(
      results[0]!.expectations[0]!.actual,
      `no snapshot of this request (name:buy) in ${join('__snapshots__', 'orders.tradereq.snap.json')}: ${HOW} to write it`,
    );
    assert.deepEqual(saved, { created: 0, changed: 0 });
    assert.ok(!existsSync(snapshotPath(file)));
  });

  it('a damaged snapshot file fails in one line and is kept; --update-snapshots writes it again', async () => {
    for (const [text, why] of [
      ['{"version": 1, "snapshots": {', 'not JSON'],
      ['{"version": 2, "snapshots": {}}', 'version: Invalid input: expected 1'],
      ['{"version": 1, "snapshots": {"#2": {"status": "200"}}}', 'snapshots.#2.status: Invalid input: expected number'],
    ] as const) {
      mkdirSync(join(dir, '__snapshots__'), { recursive: true });
      writeFileSync(snapshotPath(file), text);
      const { results } = await run(ORDERS, false);
      const actual = results[0]!.expectations[0]!.actual;
      assert.ok(
        actual.startsWith(
          `${join('__snapshots__', 'orders.tradereq.snap.json')} is not a snapshot file TradeReq can read (${why}`,
        ),
        actual,
      );
      assert.ok(actual.endsWith(`): fix it, or ${HOW} to write it again`), actual);
      assert.ok(!actual.includes('\n'), 'one line');
      assert.equal(snapText(), text, 'kept as it was');
    }
    const { results, saved } = await run(ORDERS, true);
    assert.deepEqual(
      results.map((r) => r.verdict),
      ['passed', 'passed', 'passed'],
    );
    assert.deepEqual(saved, { created: 3, changed: 0 });
    assert.doesNotThrow(() => JSON.parse(snapText()));
  });

  it('a snapshot file larger than its bound is not read', async () => {
    mkdirSync(join(dir, '__snapshots__'), { recursive: true });
    // Sparse: as large as that without writing it.
    writeFileSync(snapshotPath(file), '');
    truncateSync(snapshotPath(file), 8 * 1024 * 1024 + 1);
    const { results } = await run(ORDERS, false, (id) => id === '#3');
    assert.match(
      results[0]!.expectations[0]!.actual,
      /orders\.tradereq\.snap\.json is larger than TradeReq reads \(8 MiB\)$/,
    );
  });

  it('a committed snapshot too large to write out (240 KB of lists nested 60 deep) fails in one line, without making its text; --update-snapshots replaces it', async () => {
    mkdirSync(join(dir, '__snapshots__'), { recursive: true });
    let deep: unknown = 1;
    for (let i = 0; i < 60; i++) deep = [deep];
    const body = Array<unknown>(2_000).fill(deep);
    // 16.8 million characters pretty-printed, twice the bound.
    writeFileSync(snapshotPath(file), JSON.stringify({ version: 1, snapshots: { '#1': { status: 200, body } } }));
    const ping = '# @expect snapshot\nGET /api/v3/ping\n';
    const { results } = await run(ping, false);
    assert.deepEqual(verdicts(results), [['failed', 'expectation']]);
    assert.equal(
      results[0]!.expectations[0]!.actual,
      `the snapshot of this request (#1 in ${join('__snapshots__', 'orders.tradereq.snap.json')}) is too large to compare (more than 8 MiB written out): ${HOW} to write it again`,
    );
    const updated = await run(ping, true);
    assert.deepEqual(verdicts(updated.results), [['passed', 'ok']]);
    assert.deepEqual(updated.saved, { created: 0, changed: 1 });
  });

  it('updates only the cases run; other entries (a CRLF file, an odd key) stay as they were', async () => {
    mkdirSync(join(dir, '__snapshots__'), { recursive: true });
    const old =
      '{\n  "version": 1,\n  "snapshots": {\n    "#9": { "status": 200, "body": {} },\n    "__proto__": { "status": 201 }\n  }\n}\n';
    writeFileSync(snapshotPath(file), old.replace(/\n/g, '\r\n'));
    const { saved } = await run(ORDERS, true, (id) => id === '#3');
    assert.deepEqual(saved, { created: 1, changed: 0 });
    const json = JSON.parse(snapText()) as { snapshots: object };
    assert.deepEqual(Object.keys(json.snapshots), ['#3', '#9', '__proto__']);
  });

  it('# @mask (file and request) masks more; a case whose other expectation fails is not written', async () => {
    const text = `# @mask side\n# @expect snapshot\n\n### Buy\n# @mask price\n# @expect status 200\n${ORDERS.split('### Buy\n')[1]!.split('\n\n')[0]}\n\n### Wrong\n# @expect status 201\nGET /api/v3/ping\n`;
    const { results, saved } = await run(text, true);
    assert.deepEqual(verdicts(results), [
      ['passed', 'ok'],
      ['failed', 'expectation'],
    ]);
    assert.match(
      results[1]!.expectations[0]!.actual,
      /^no snapshot of this request \(#2\) in .* \(not written: another expectation of the request failed\)/,
    );
    assert.deepEqual(saved, { created: 1, changed: 0 });
    const body = (JSON.parse(snapText()) as { snapshots: Record<string, { body: Record<string, unknown> }> }).snapshots[
      'name:buy'
    ]!.body;
    assert.equal(body['price'], '<price>');
    assert.equal(body['side'], '<side>');
  });

  it('a client order id chosen by the request stays; a listen key is never written', async () => {
    const text = `# @expect snapshot\n\n### Buy\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\nnewClientOrderId = mine1\n\n### Listen key\nPOST /api/v3/userDataStream\n`;
    const { results } = await run(text, true);
    assert.deepEqual(
      results.map((r) => r.verdict),
      ['passed', 'passed'],
    );
    const snap = snapText();
    assert.match(snap, /"clientOrderId": "mine1"/);
    assert.match(snap, /"listenKey": "<listenKey>"/);
    assert.doesNotMatch(snap, /[0-9a-f]{64}/, 'no listen key');
  });

  it('no store (a file not on disk): the check fails and says why', async () => {
    const doc = parse('# @expect snapshot\nGET /api/v3/ping\n');
    const [r] = await runCases(doc, testCases(doc), deps(undefined));
    assert.equal(r!.verdict, 'failed');
    assert.equal(r!.expectations[0]!.actual, 'no snapshot file: the request file is not saved on disk');
  });

  describe('against a server that echoes the API key', () => {
    let server: Server;
    let baseUrl: string;
    before(async () => {
      server = createServer((req, res) => {
        const key = String(req.headers['x-service-apikey'] ?? '');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ msg: `key ${key} seen`, [key]: key }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('the API key is never written to the snapshot, wherever the answer puts it', async () => {
      const doc = parse('# @expect snapshot\nGET /api/v3/account\n');
      writeFileSync(file, '');
      const store = new SnapshotStore(file, { update: true, howToUpdate: HOW });
      const [r] = await runCases(doc, testCases(doc), {
        ...deps(store),
        environment: sandboxEnvironment(baseUrl),
        pipeline: { ...deps(store).pipeline, key: sandboxKeys(new URL(baseUrl).origin) },
      });
      assert.equal(r!.verdict, 'passed', r!.summary);
      await store.save();
      const snap = snapText();
      assert.ok(!snap.includes(DEMO_ACCOUNTS[0]!.apiKey), snap);
      assert.match(snap, /"msg": "key <apiKey> seen",\n\s+"<apiKey>": "<apiKey>"/);
    });
  });
});

describe('snapshots: the directives, and tradereq send', () => {
  const options = (text: string) => readOptions(parse(text), parse(text).requests[0]);

  it('# @expect snapshot and # @mask PATH (file and request, adding up); a bad path is an error with how to write it', () => {
    const doc = parse(
      '# @mask a.b\n\n### One\n# @expect snapshot\n# @mask fills[*].tradeId\n# @mask a..b\nGET /api/v3/ping\n',
    );
    const { options: o, diagnostics } = readOptions(doc, doc.requests[0]);
    assert.deepEqual(o.masks, ['a.b', 'fills[*].tradeId']);
    assert.deepEqual(
      o.expectations.map((e) => e.kind),
      ['snapshot'],
    );
    assert.equal(diagnostics.length, 1);
    assert.match(diagnostics[0]!.message, /^Write `# @mask PATH` with a path into the JSON answer/);
    assert.deepEqual(options('GET /api/v3/ping\n').options.masks, []);
  });

  it('a send cannot compare: it says where snapshots are compared, marks it not checked (no ✔ anywhere), and does not count a rejection as expected', () => {
    const { expectations } = options('# @expect snapshot\nGET /api/v3/ping\n').options;
    const [accepted] = checkExpectations(expectations, decodeResponse(200, '{}'));
    assert.deepEqual(accepted, {
      text: '@expect snapshot (compared by tradereq test and the Testing view)',
      passed: true,
      actual: 'ok, status 200',
      checked: false,
    });
    const [rejected] = checkExpectations(expectations, decodeResponse(400, '{"code":700004}'));
    assert.equal(rejected!.passed, false);
  });

  it('the diff is bounded in lines', () => {
    const a = Array.from({ length: 150 }, (_, i) => `a${i}`).join('\n') + '\n';
    const b = Array.from({ length: 150 }, (_, i) => `b${i}`).join('\n') + '\n';
    const diff = snapshotDiff(a, b).split('\n');
    assert.equal(diff.length, 201);
    assert.match(diff[200]!, /^… \(\d+ more lines of the diff\)$/);
  });
});
