/**
 * The reports of a test run, as pure functions of its results: JUnit XML read back with a real
 * XML parser (one testsuite per file, one testcase per request, failure/error/skipped, system-out),
 * TAP 14, JSON and the pretty text; hostile titles and answers stay inside their fields.
 */
import assert from 'node:assert/strict';
import { range } from '../../../src/core/format/model';
import type { TestCase } from '../../../src/core/testing/cases';
import { jsonReport, prettyReport, report, tapReport } from '../../../src/core/testing/reporters';
import { summaryLine, tally, type CaseResult, type RunReport } from '../../../src/core/testing/verdict';
import { parseJUnit } from '../../support/junit';

const HOSTILE = 'a <b> & "c" \'d\' ]]> \u0001\u001b[31m\ud800 # e\nf';

function testCase(index: number, label: string, name?: string): TestCase {
  return { id: `#${index + 1}`, index, label, name, range: range(index * 5, 0, index * 5 + 3, 0), expectRanges: [] };
}

const passed: CaseResult = {
  case: testCase(0, 'Buy at a limit price', 'buy'),
  verdict: 'passed',
  reason: 'ok',
  summary: '200 ok',
  expectations: [],
  outcome: 'ok',
  status: 200,
  request: 'POST http://127.0.0.1:8780/api/v3/order\nX-SERVICE-APIKEY: ****0001',
  response: '200 Request accepted\n\n{"orderId": "1"}',
  durationMs: 12,
};

const failed: CaseResult = {
  case: testCase(1, 'Cancel without an id'),
  verdict: 'failed',
  reason: 'expectation',
  summary: '400 rejected: 700004 origClientOrderId or orderId must be sent, both were empty',
  expectations: [{ text: '@expect code 30002', passed: false, actual: 'code 700004', range: range(6, 0, 6, 20) }],
  outcome: 'rejected',
  status: 400,
  error: { code: 700004, meanings: ['origClientOrderId or orderId must be sent, both were empty'] },
  request: 'DELETE http://127.0.0.1:8780/api/v3/order?symbol=BTCUSDT',
  response: `400 Bad request\n\n{"code": 700004, "msg": "${HOSTILE}"}`,
  durationMs: 1500,
};

const unknown: CaseResult = {
  case: testCase(2, HOSTILE),
  verdict: 'unknown',
  reason: 'unknown',
  summary: '503 outcome unknown: the operation may have succeeded: check before retrying',
  expectations: [],
  outcome: 'unknown',
  status: 503,
  durationMs: 3,
};

const refused: CaseResult = {
  case: testCase(0, 'Account'),
  verdict: 'refused',
  reason: 'gate',
  summary: 'refused: Retry-After: wait 30 s',
  expectations: [],
  durationMs: 1,
};

const skipped: CaseResult = {
  case: testCase(1, 'Account'),
  verdict: 'skipped',
  reason: 'after-refusal',
  summary: 'not run: an earlier request was refused (refused: Retry-After: wait 30 s)',
  expectations: [],
  durationMs: 0,
};

const RUN: RunReport = {
  startedAt: '2026-01-02T03:04:05.000Z',
  durationMs: 1520,
  files: [
    { path: 'examples/orders.tradereq', environment: 'sandbox', cases: [passed, failed, unknown], durationMs: 1515 },
    { path: 'examples/market.tradereq', environment: 'live', cases: [refused, skipped], durationMs: 5 },
  ],
};

describe('test reports: JUnit XML', () => {
  it('is well-formed XML with one testsuite per file and one testcase per request, counted', async () => {
    const junit = await parseJUnit(report('junit', RUN));
    assert.deepEqual(
      [junit.tests, junit.failures, junit.errors, junit.skipped],
      [5, 1, 2, 1],
      'failures are failed requests; errors the unknown and refused ones',
    );
    assert.deepEqual(
      junit.suites.map((s) => [s.name, s.tests, s.failures, s.errors, s.skipped, s.properties['environment']]),
      [
        ['examples/orders.tradereq', 3, 1, 1, 0, 'sandbox'],
        ['examples/market.tradereq', 2, 0, 1, 1, 'live'],
      ],
    );
    const [buy, cancel] = junit.suites[0]!.cases;
    assert.deepEqual(
      [buy!.name, buy!.classname, buy!.file, buy!.line, buy!.time],
      ['Buy at a limit price (buy)', 'examples/orders.tradereq', 'examples/orders.tradereq', 1, 0.012],
    );
    assert.equal(cancel!.time, 1.5);
    assert.equal(buy!.failure, undefined);
  });

  it('a failure carries the expectation and what came back (decoded code and meaning); system-out the request and the answer', async () => {
    const cancel = (await parseJUnit(report('junit', RUN))).suites[0]!.cases[1]!;
    assert.equal(cancel.failure?.type, 'expectation');
    assert.equal(cancel.failure?.message, 'expected @expect code 30002, got code 700004');
    assert.match(
      cancel.failure?.text ?? '',
      /^expected @expect code 30002, got code 700004\n400 rejected: 700004 origClientOrderId or orderId must be sent/,
    );
    assert.match(
      cancel.systemOut ?? '',
      /^request:\nDELETE http:\/\/127\.0\.0\.1:8780\/api\/v3\/order\?symbol=BTCUSDT\n\nresponse:\n400 Bad request/,
    );
  });

  it('an unknown outcome and a refusal are errors; a request not run is skipped, with the reason', async () => {
    const junit = await parseJUnit(report('junit', RUN));
    const hostile = junit.suites[0]!.cases[2]!;
    assert.equal(hostile.error?.type, 'unknown');
    assert.match(hostile.error?.message ?? '', /may have succeeded/);
    const [account, after] = junit.suites[1]!.cases;
    assert.equal(account!.error?.type, 'gate');
    assert.match(after!.skipped?.message ?? '', /^not run: an earlier request was refused/);
    assert.equal(after!.name, 'Account #2', 'two requests with one title are told apart by position');
    assert.equal(account!.name, 'Account #1');
  });

  it('hostile text stays text: markup escaped, characters XML cannot carry written as \\u escapes', async () => {
    const xml = report('junit', RUN);
    assert.ok(!/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml), 'only characters XML 1.0 allows');
    const hostile = (await parseJUnit(xml)).suites[0]!.cases[2]!;
    assert.equal(hostile.name, 'a <b> & "c" \'d\' ]]> \\u0001\\u001b[31m\\ud800 # e\nf');
    const cancel = (await parseJUnit(xml)).suites[0]!.cases[1]!;
    assert.ok(cancel.systemOut?.includes('"msg": "a <b> & "c"'), 'the answer is in system-out as text');
  });

  it('an empty run is still a valid report', async () => {
    const junit = await parseJUnit(report('junit', { startedAt: RUN.startedAt, durationMs: 0, files: [] }));
    assert.deepEqual([junit.tests, junit.suites.length], [0, 0]);
  });
});

describe('test reports: TAP, JSON and pretty text', () => {
  it('TAP 14: the version, the plan, one test point per request; failures with a YAML block; SKIP with its reason', () => {
    const lines = tapReport(RUN).split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      'TAP version 14',
      '1..5',
      'ok 1 - examples/orders.tradereq: Buy at a limit price (buy)',
    ]);
    assert.equal(lines[3], 'not ok 2 - examples/orders.tradereq: Cancel without an id');
    assert.deepEqual(lines.slice(4, 7), ['  ---', '  verdict: failed', '  reason: expectation']);
    assert.ok(lines.includes('  expected: "@expect code 30002"'));
    const hostile = lines.find((l) => l.startsWith('not ok 3 - '));
    assert.equal(hostile, 'not ok 3 - examples/orders.tradereq: a <b> & "c" \'d\' ]]> \u0001\u001b[31m\ud800 \\# e f');
    assert.ok(
      lines.includes(
        'ok 5 - examples/market.tradereq: Account # SKIP not run: an earlier request was refused (refused: Retry-After: wait 30 s)',
      ),
    );
    // Every YAML value that holds text is a JSON string: one line, whatever the text.
    for (const l of lines.filter((l) => /^ {2}(message|got|expected|at): /.test(l)))
      assert.doesNotThrow(() => JSON.parse(l.replace(/^ {2}\w+: /, '')), l);
  });

  it('JSON: the summary, then each file and each case with its verdict, expectations, request and answer', () => {
    const doc = JSON.parse(jsonReport(RUN)) as {
      summary: Record<string, unknown>;
      files: { path: string; cases: { verdict: string; error: unknown; expectations: unknown[] }[] }[];
    };
    assert.deepEqual(doc.summary, {
      passed: 1,
      failed: 1,
      unknown: 1,
      refused: 1,
      skipped: 1,
      durationMs: 1520,
      startedAt: RUN.startedAt,
      text: summaryLine(RUN),
    });
    assert.deepEqual(
      doc.files.map((f) => f.cases.map((c) => c.verdict)),
      [
        ['passed', 'failed', 'unknown'],
        ['refused', 'skipped'],
      ],
    );
    assert.deepEqual(doc.files[0]!.cases[1]!.error, failed.error);
  });

  it('TAP and JSON place an unmet expectation at its own # @expect line', () => {
    assert.ok(tapReport(RUN).split('\n').includes('  at: "examples/orders.tradereq:7"'));
    const doc = JSON.parse(jsonReport(RUN)) as { files: { cases: { expectations: { line: number | null }[] }[] }[] };
    assert.deepEqual(doc.files[0]!.cases[1]!.expectations, [
      { text: '@expect code 30002', passed: false, actual: 'code 700004', line: 7 },
    ]);
  });

  it('pretty: each file, a mark and the time per request, the reason of every one that did not pass, and the summary', () => {
    const text = prettyReport(RUN);
    assert.match(
      text,
      /^examples\/orders\.tradereq \(sandbox\)\n {2}✔ Buy at a limit price \(buy\) · 12 ms\n {2}✘ Cancel without an id · 1500 ms\n {6}expected @expect code 30002, got code 700004\n {6}400 rejected: 700004/,
    );
    assert.match(
      text,
      /\n {2}⊘ Account · 1 ms\n {6}refused: Retry-After: wait 30 s\n {2}- Account\n {6}not run: an earlier/,
    );
    assert.match(text, /\n1 passed, 1 failed, 1 unknown, 1 refused \(1 skipped\) in 1\.52 s\n$/);
    assert.deepEqual(tally(RUN), { passed: 1, failed: 1, unknown: 1, refused: 1, skipped: 1 });
  });
});

describe('test reports: a paced run (tradereq test --pace)', () => {
  const PACED: RunReport = {
    ...RUN,
    files: [{ ...RUN.files[0]!, cases: [{ ...passed, pacedMs: 2_500 }, failed, unknown] }, RUN.files[1]!],
    pace: { fraction: 0.8, waitedMs: 12_345, retryAfterMs: 2_000, rateLimited: 1 },
  };

  it('the summary (pretty, TAP, JSON) says how long pacing waited, and how much of it for Retry-After', () => {
    const line = summaryLine(PACED);
    assert.match(
      line,
      /refused \(1 skipped\) in 1\.52 s; paced to 80 % of each rate-limit budget: waited [\d.]+ s \([\d.]+ s of it for Retry-After; 1 answer 429\)$/,
    );
    assert.ok(prettyReport(PACED).endsWith(line + '\n'));
    assert.ok(tapReport(PACED).includes(`# ${line}\n`));
    const json = JSON.parse(jsonReport(PACED)) as {
      summary: { pace: unknown };
      files: { cases: { pacedMs?: number }[] }[];
    };
    assert.deepEqual(json.summary.pace, PACED.pace);
    assert.deepEqual(
      json.files[0]!.cases.map((c) => c.pacedMs),
      [2_500, undefined, undefined],
    );
    assert.ok(!summaryLine(RUN).includes('paced'), 'an unpaced run says nothing of it');
  });

  it("JUnit: each suite's properties hold the fraction and its wait; a case's system-out says how long it waited", async () => {
    const junit = await parseJUnit(report('junit', PACED));
    assert.deepEqual(
      junit.suites.map((s) => [s.properties['pace'], s.properties['pace.waitedMs']]),
      [
        ['0.8', '2500'],
        ['0.8', '0'],
      ],
    );
    assert.match(junit.suites[0]!.cases[0]!.systemOut ?? '', /^paced: waited 2500 ms before sending\n\nrequest:\n/);
  });
});
