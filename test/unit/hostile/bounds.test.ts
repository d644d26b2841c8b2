/**
 * Issue 18, "Bounded everywhere": the check step at any number of streams and messages a file may
 * hold, one rate-limit entry for every spelling of this machine, weights and times of the state
 * file validated, and TAP and JUnit reports that stay valid whatever characters an answer holds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore, stateKey } from '../../../src/core/budget/state';
import { WS_RULES } from '../../../src/core/catalog/ws-limits';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { range, type Diagnostic } from '../../../src/core/format/model';
import { parse } from '../../../src/core/format/parser';
import type { TestCase } from '../../../src/core/testing/cases';
import { junitReport } from '../../../src/core/testing/junit';
import { tapReport } from '../../../src/core/testing/reporters';
import type { CaseResult, RunReport } from '../../../src/core/testing/verdict';
import { cpuTime } from '../../support/cpu-time';

function check(text: string): Diagnostic[] {
  return checkDocument(parse(text), { environment: BUILTIN_SANDBOX });
}

/** A WebSocket request with `streams` distinct valid public streams and `messages` [message] sections. */
function wsRequest(streams: number, messages: number): string {
  const names = Array.from({ length: streams }, (_, i) => `spot@public.deals.v3.api@S${i}USDT`);
  const bodies = Array.from({ length: messages }, () => '[message]\n{"method":"PING"}');
  return ['WS /ws', '[subscribe]', ...names, ...bodies].join('\n');
}

describe('bounds, hostile input: the check step at any number of streams and messages', function () {
  this.timeout(60_000);

  it('3,100 streams (104 SUBSCRIPTION messages, no [message]) do not crash: the streams alone are named', () => {
    const found = check(wsRequest(3100, 0));
    const rate = found.find((d) => d.rule === 'ws-message-rate');
    assert.ok(rate, JSON.stringify(found.map((d) => d.rule)));
    assert.match(rate.message, /3100 streams alone take 104 SUBSCRIPTION messages/);
    assert.match(rate.message, /subscribe at most 30 streams/);
    assert.doesNotMatch(rate.message, /-\d/);
  });

  it('10,000 streams with messages: no negative advice; the streams are split over enough requests', () => {
    const found = check(wsRequest(10_000, 5));
    const rate = found.find((d) => d.rule === 'ws-message-rate')!;
    assert.doesNotMatch(rate.message, /at most -|-\d/);
    assert.match(rate.message, /10000 streams alone take 334 SUBSCRIPTION messages/);
    const streams = found.find((d) => d.rule === 'ws-streams')!;
    assert.match(streams.message, /Split them over 334 WebSocket requests/);
  });

  it('every mix of streams and messages around the limits: no throw, no negative number, a range that exists', () => {
    const per = WS_RULES.streamsPerConnection;
    const limit = WS_RULES.messagesPerSecond;
    for (const streams of [0, 1, per, per + 1, (limit - 1) * per, (limit - 1) * per + 1, limit * per, limit * per + 1])
      for (const messages of [0, 1, limit - 1, limit, limit + 1]) {
        const found = check(wsRequest(streams, messages));
        for (const d of found) {
          assert.doesNotMatch(d.message, /at most -|at most 0 /, `${streams} streams, ${messages} messages`);
          assert.ok(d.range.startLine <= d.range.endLine, `${streams}/${messages}: ${JSON.stringify(d.range)}`);
        }
        const subscriptions = Math.ceil(streams / per);
        const over = subscriptions + messages > limit;
        assert.equal(
          found.some((d) => d.rule === 'ws-message-rate'),
          over,
          `${streams} streams, ${messages} messages`,
        );
      }
  });

  it('past 1,000 problems, the last line counts every one left out, an error among them included', () => {
    const bad = Array.from({ length: 5000 }, () => 'spot@public.trades.v3.api@BTCUSDT');
    const found = check(['WS /ws', '[subscribe]', ...bad, 'spot@private.orders.v3.api'].join('\n'));
    assert.equal(found.length, 1001);
    const last = found[1000]!;
    assert.equal(last.rule, 'too-many-problems');
    assert.match(last.message, /^4001 more problems in this file are not shown/);
    assert.equal(last.severity, 'error', 'the private stream without a listen key is among those left out');
  });

  it('60,000 [message] or [body] sections are read in linear time (one section line costs the same at the end as at the start)', () => {
    const ceilingMs = 20_000; // linear: well under a second; quadratic: minutes
    for (const [line, head] of [
      ['[message]\n{}', 'WS /ws'],
      ['[body]', 'POST /api/v3/order'],
    ] as const) {
      const text = [head, ...Array.from({ length: 60_000 }, () => line)].join('\n');
      const { ms } = cpuTime(() => check(text));
      assert.ok(ms < ceilingMs, `${line.split('\n')[0]} x 60,000: ${Math.round(ms)} ms`);
    }
  });
});

/** A budget over a state file of its own, with a clock the test moves. */
function tempBudget(): { dir: string; store: FileStateStore; budget: Budget; clock: { t: number } } {
  const dir = mkdtempSync(join(tmpdir(), 'tradereq-bounds-'));
  const clock = { t: 1_700_000_000_000 };
  const store = new FileStateStore(dir, () => clock.t);
  return { dir, store, budget: new Budget(store, () => clock.t), clock };
}

const ping = (origin: string) => ({ origin, mode: 'ip' as const, weight: 1 });

const LOOPBACK_SPELLINGS = [
  'http://localhost:8780',
  'http://127.0.0.1:8780',
  'http://127.1:8780',
  'http://[::1]:8780',
  'http://[0:0:0:0:0:0:0:1]:8780',
  'http://[::ffff:127.0.0.1]:8780',
  'http://0.0.0.0:8780',
  'http://0:8780',
  'http://[::]:8780',
  'http://[::ffff:0.0.0.0]:8780',
  'http://localhost.:8780',
  'http://LOCALHOST:8780',
  'http://LocalHost.:8780',
  'http://2130706433:8780',
  'http://0x7f.1:8780',
  'http://127.255.255.254:8780',
  'http://tradereq.localhost:8780',
];

describe('bounds, hostile input: every spelling of this machine is one origin of the rate-limit state', () => {
  let t: ReturnType<typeof tempBudget>;
  beforeEach(() => (t = tempBudget()));
  afterEach(() => rmSync(t.dir, { recursive: true, force: true }));

  it('each loopback spelling has the key of 127.0.0.1 for its scheme and port', () => {
    for (const origin of LOOPBACK_SPELLINGS) assert.equal(stateKey(origin), 'http://127.0.0.1:8780', origin);
    assert.equal(stateKey('https://[::ffff:127.0.0.1]'), 'https://127.0.0.1:443');
    assert.equal(stateKey('http://0.0.0.0:8781'), 'http://127.0.0.1:8781', 'another port stays another origin');
    assert.equal(stateKey('https://0.0.0.0:8780'), 'https://127.0.0.1:8780', 'another scheme stays another origin');
    assert.equal(stateKey('http://192.168.1.5:8780'), 'http://192.168.1.5:8780', 'a LAN address stays distinct');
    assert.equal(stateKey('http://[::7f00:1]:8780'), 'http://[::7f00:1]:8780', 'not a loopback address');
  });

  it('a ban through any spelling holds back every other spelling', async () => {
    for (const banned of ['http://[::ffff:127.0.0.1]:8780', 'http://0.0.0.0:8780', 'http://localhost.:8780']) {
      await t.budget.reset();
      await t.budget.record(ping(banned), { status: 418, retryAfterSeconds: 600 });
      for (const alias of LOOPBACK_SPELLINGS) {
        const g = t.budget.gate(ping(alias));
        assert.equal(g.ok ? undefined : g.error.reason, 'ban', `${banned} banned, ${alias} sent`);
      }
    }
  });

  it('a host name with its trailing dot is the same origin as without it', async () => {
    await t.budget.record(ping('https://api.example.com.'), { status: 429, retryAfterSeconds: 30 });
    const g = t.budget.gate(ping('https://api.example.com'));
    assert.equal(g.ok ? undefined : g.error.reason, 'retry-after');
  });

  it('a ban kept under another spelling (as an older TradeReq wrote it) still holds back 127.0.0.1', async () => {
    await t.budget.record(ping('https://api.example.com'), { status: 200 });
    const state = JSON.parse(readFileSync(t.store.path, 'utf8')) as { origins: Record<string, unknown> };
    const until = t.clock.t + 600_000;
    state.origins['http://0.0.0.0:8780'] = { ip: [], accounts: {}, blocked: { until, status: 418, since: t.clock.t } };
    state.origins['http://127.0.0.1:8780'] = { ip: [[t.clock.t, 1]], accounts: {} };
    writeFileSync(t.store.path, JSON.stringify(state));
    const g = t.budget.gate(ping('http://127.0.0.1:8780'));
    assert.equal(g.ok ? undefined : g.error.reason, 'ban');
    assert.equal(t.budget.view('http://localhost:8780').ip.used, 1, 'the counters of both entries count');
  });
});

describe('bounds, hostile input: weights and times of the state file are validated', () => {
  let t: ReturnType<typeof tempBudget>;
  beforeEach(() => (t = tempBudget()));
  afterEach(() => rmSync(t.dir, { recursive: true, force: true }));

  const A = 'http://127.0.0.1:8780';
  const B = 'https://api.example.com';

  /** The state file with `entry` (as JSON text, so that 1e999 stays what a file can hold) as A's. */
  async function writeEntry(entry: string): Promise<void> {
    await t.budget.record(ping(B), { status: 418, retryAfterSeconds: 600 });
    const text = readFileSync(t.store.path, 'utf8');
    writeFileSync(t.store.path, text.replace(/"origins":\{/, `"origins":{"${A}":${entry},`));
  }

  it('a negative, fractional or infinite weight, or a negative, infinite or far-future time, damages its origin only', async () => {
    const now = t.clock.t;
    const day = 24 * 3600_000;
    const cases: [string, string][] = [
      ['a negative weight', `{"ip":[[${now},500],[${now},-1000000]]}`],
      ['a fractional weight', `{"ip":[[${now},0.5]]}`],
      ['an infinite weight', `{"ip":[[${now},1e999]]}`],
      ['a negative account weight', `{"accounts":{"0123456789abcdef":[[${now},-5]]}}`],
      ['a negative time', `{"ip":[[-1,1]]}`],
      ['an infinite time', `{"ip":[[1e999,1]]}`],
      ['a time a day ahead', `{"ip":[[${now + day},1]]}`],
      ['a block until the year 2300', `{"blocked":{"until":${Date.UTC(2300, 0)},"status":418,"since":${now}}}`],
      ['a block that is no 429 or 418', `{"blocked":{"until":${now + 1000},"status":200,"since":${now}}}`],
      ['a block of a fractional status', `{"blocked":{"until":${now + 1000},"status":418.5,"since":${now}}}`],
      ['a clock measured a day ahead', `{"clock":{"offsetMs":0,"roundTripMs":1,"measuredAt":${now + day}}}`],
      ['a clock of a negative round trip', `{"clock":{"offsetMs":0,"roundTripMs":-1,"measuredAt":${now}}}`],
    ];
    for (const [what, entry] of cases) {
      await t.budget.reset();
      await writeEntry(entry);
      const g = t.budget.gate(ping(A));
      assert.equal(g.ok ? undefined : g.error.reason, 'damaged', what);
      assert.ok(t.budget.view(A).ip.remaining <= 500, `${what}: never more than the limit left`);
      const b = t.budget.gate(ping(B));
      assert.equal(b.ok ? undefined : b.error.reason, 'ban', `${what}: the other origin keeps its ban`);
    }
  });

  it('weights and times as TradeReq writes them still read back (a time a second ahead included)', async () => {
    const now = t.clock.t;
    await writeEntry(
      `{"ip":[[${now},500],[${now + 1000},1]],"accounts":{"0123456789abcdef":[[${now},5]]},"clock":{"offsetMs":-1500.5,"roundTripMs":4,"measuredAt":${now}}}`,
    );
    const g = t.budget.gate(ping(A));
    assert.equal(g.ok ? undefined : g.error.reason, 'budget');
    assert.equal(t.budget.view(A).ip.used, 501);
  });
});

/** Every character YAML 1.2 forbids in a stream (§5.1), and those a YAML 1.1 reader takes as a break or a BOM. */
const NOT_YAML_TEXT =
  'a\u0001b\u007fc\u0085d\u009be\ufffef\uffffg\ud800h\udc00i\ufeffj\u2028k\u2029l\u0000m\u001b[31m\u000bn\u000co';

function hostileRun(): RunReport {
  const c = (index: number, label: string): TestCase => ({
    id: `#${index + 1}`,
    index,
    label,
    range: range(index * 3, 0, index * 3 + 2, 0),
    expectRanges: [],
  });
  const failed: CaseResult = {
    case: c(0, `Cancel ${NOT_YAML_TEXT}`),
    verdict: 'failed',
    reason: 'expectation',
    summary: `400 rejected: 700004 ${NOT_YAML_TEXT}`,
    expectations: [{ text: `@expect json msg == ${NOT_YAML_TEXT}`, passed: false, actual: NOT_YAML_TEXT }],
    status: 400,
    request: `DELETE http://127.0.0.1:8780/api/v3/order?symbol=${NOT_YAML_TEXT}`,
    response: `400 Bad request\n\n{"code": 700004, "msg": "${NOT_YAML_TEXT}"}`,
    durationMs: 3,
  };
  const unknown: CaseResult = { ...failed, case: c(1, 'Buy'), verdict: 'unknown', reason: 'unknown' };
  const files = [
    { path: `orders${NOT_YAML_TEXT}.tradereq`, environment: 'sandbox', cases: [failed, unknown], durationMs: 6 },
  ];
  return { startedAt: '2026-01-02T03:04:05.000Z', durationMs: 6, files };
}

// YAML 1.2 §5.1 printable, less U+0085, U+2028, U+2029 and U+FEFF (breaks and a BOM to a YAML 1.1 reader).
const YAML_SAFE = /^[\t\n\r\u0020-\u007e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]*$/u;
// XML 1.0 §2.2 Char.
const XML_SAFE = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

describe('bounds, hostile input: reports stay valid whatever characters an answer holds', () => {
  it('TAP: each YAML block holds only characters YAML allows, its values double-quoted with \\u escapes that read back', () => {
    const tap = tapReport(hostileRun());
    const blocks = tap
      .split('\n  ---\n')
      .slice(1)
      .map((b) => b.slice(0, b.indexOf('\n  ...')));
    assert.equal(blocks.length, 2);
    for (const block of blocks) {
      assert.match(block, YAML_SAFE, JSON.stringify(block));
      const got = /^ {2}got: (.*)$/m.exec(block)![1]!;
      assert.equal(JSON.parse(got), `400 rejected: 700004 ${NOT_YAML_TEXT}`, 'the escapes read back as the text');
    }
  });

  it('JUnit XML: only characters XML 1.0 allows, the others written as \\u escapes', () => {
    const xml = junitReport(hostileRun());
    assert.match(xml, XML_SAFE);
    assert.ok(xml.includes('\\ufffe') && xml.includes('\\uffff') && xml.includes('\\ud800') && xml.includes('\\u0001'));
  });
});
