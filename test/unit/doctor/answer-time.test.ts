/**
 * The doctor judges the timestamp against the time the request was answered (issue 34, points 6
 * and 7): the answer's Date header, a time given (--at, a history entry's), never the moment of
 * diagnosis. An answer 2xx means the service accepted it; without a time a window finding is only a
 * possibility. Its fix for a seconds or a stale timestamp speaks of the program that sent it.
 * No clock is moved: every time here is fixed, in 2024, long before these tests run.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { diagnose } from '../../../src/core/doctor/diagnose';
import { readSentRequest } from '../../../src/core/doctor/input';
import { reportJson, reportText } from '../../../src/core/doctor/report';
import type { Diagnosis, DoctorInput, SentRequest } from '../../../src/core/doctor/types';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';

const TRADE = DEMO_ACCOUNTS.find((a) => a.name === 'trade')!;
const KEY = { profile: 'sandbox', apiKey: TRADE.apiKey, secretKey: TRADE.secretKey };
const ORDER = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000';
const hmac = (text: string): string => createHmac('sha256', TRADE.secretKey).update(text, 'utf8').digest('hex');

/** A whole second of 2024-01-02 (what a Date header can say), and the header that says it. */
const SECOND = Date.UTC(2024, 0, 2, 3, 4, 5);
const DATE = 'Tue, 02 Jan 2024 03:04:05 GMT';

/** A request as a program sent it, signed right (or with echo's newline), with `timestamp`. */
function sent(timestamp: number | string, mistake?: 'newline'): SentRequest {
  const q = `${ORDER}&timestamp=${timestamp}`;
  const signature = hmac(mistake === 'newline' ? `${q}\n` : q);
  return {
    method: 'POST',
    url: 'https://api.example.com/api/v3/order',
    query: `${q}&signature=${signature}`,
    body: '',
    headers: [{ name: 'X-SERVICE-APIKEY', value: TRADE.apiKey }],
    form: 'curl',
  };
}

function diagnosed(request: SentRequest, extra: Partial<DoctorInput> = {}): Diagnosis {
  // The moment of diagnosis is today: years after every time here.
  return diagnose({ sent: request, key: KEY, otherKeys: [], now: Date.now(), ...extra });
}

const windowCheck = (d: Diagnosis) => d.checks.find((c) => c.id === 'clock-window')!;

describe('doctor: the timestamp judged at the time the request was answered (issue 34, point 6)', () => {
  it('an answer 200 means accepted: no clock-window, no signature cause, though diagnosed years later', () => {
    for (const answer of [{ status: 200, date: DATE }, { status: 201 }]) {
      const d = diagnosed(sent(SECOND + 300), { answer });
      assert.equal(d.cause, 'none', reportText(d));
      assert.deepEqual(d.causes, ['none']);
      assert.equal(windowCheck(d).ok, true, reportText(d));
      assert.match(d.summary, /accepted/);
    }
    // Accepted with a signature this profile's secret does not make: the service holds another; no cause.
    const other = { ...sent(SECOND + 300), query: `${ORDER}&timestamp=${SECOND + 300}&signature=${'ab'.repeat(32)}` };
    const d = diagnosed(other, { answer: { status: 200 } });
    assert.deepEqual(d.causes, ['none'], reportText(d));
  });

  it("a rejected request with the answer's Date within the window is not clock-window", () => {
    const d = diagnosed(sent(SECOND - 2_000, 'newline'), { answer: { status: 400, date: DATE }, code: 700002 });
    assert.equal(d.cause, 'message-newline');
    assert.ok(!d.causes.includes('clock-window'), reportText(d));
    assert.equal(windowCheck(d).ok, true);
    assert.match(windowCheck(d).text, /when it was answered/);
    assert.match(windowCheck(d).text, /Date header/);
  });

  it("the Date header's whole second is allowed for: 1.8 s after it is not asserted ahead, 4.5 s before not asserted behind", () => {
    // The server's time was somewhere in [SECOND, SECOND + 1 s): 1.8 s after SECOND may be only 0.8 s ahead.
    for (const ts of [SECOND + 1_800, SECOND - 4_500]) {
      const d = diagnosed(sent(ts, 'newline'), { answer: { status: 400, date: DATE } });
      assert.ok(!d.causes.includes('clock-window'), `${ts - SECOND}: ${reportText(d)}`);
    }
    // Beyond the second's width both ways, it is asserted.
    for (const ts of [SECOND + 2_000, SECOND - 6_000]) {
      const d = diagnosed(sent(ts), { answer: { status: 400, date: DATE } });
      assert.equal(d.cause, 'clock-window', `${ts - SECOND}: ${reportText(d)}`);
    }
  });

  it('a stale timestamp by the Date header is asserted, measured against the answer, not against now', () => {
    const d = diagnosed(sent(SECOND - 60_000), { answer: { status: 400, date: DATE }, code: 700003 });
    assert.equal(d.cause, 'clock-window');
    assert.match(windowCheck(d).text, /^timestamp is 60 s behind the server's time when it was answered/);
  });

  it("a time given (--at, by this machine's clock) is honoured, the measured offset added; it wins over the Date header", () => {
    const at = (ms: number, resolutionMs = 1) => ({ ms, resolutionMs, from: 'user' as const });
    assert.equal(diagnosed(sent(SECOND), { at: at(SECOND + 2_000) }).cause, 'none');
    const late = diagnosed(sent(SECOND), { at: at(SECOND + 60_000) });
    assert.equal(late.cause, 'clock-window', reportText(late));
    assert.match(windowCheck(late).text, /--at/);
    // This machine 58 s ahead of the server: at +60 s by it is +2 s by the server's clock.
    assert.equal(diagnosed(sent(SECOND), { at: at(SECOND + 60_000), clock: { offsetMs: -58_000 } }).cause, 'none');
    const over = diagnosed(sent(SECOND), { at: at(SECOND + 2_000), answer: { status: 400, date: DATE } });
    assert.equal(over.cause, 'none', 'the time given wins over the pasted Date');
  });

  it("a history entry's time stands in when its answer had no Date header", () => {
    const d = diagnosed(sent(SECOND), { at: { ms: SECOND + 60_000, resolutionMs: 1, from: 'history' } });
    assert.equal(d.cause, 'clock-window');
    assert.match(windowCheck(d).text, /the time of the send in the history/);
  });

  it('without any time of the answer, an old timestamp is only a possibility, worded so, never a cause', () => {
    const d = diagnosed(sent(SECOND));
    assert.equal(d.cause, 'none', reportText(d));
    assert.ok(!d.causes.includes('clock-window'));
    const check = windowCheck(d);
    assert.equal(check.ok, false);
    assert.equal(check.possible, true);
    assert.match(check.text, /if it was sent more than recvWindow \(5000 ms\) after its timestamp/);
    assert.doesNotMatch(reportText(d), /Also: clock-window|Cause: clock-window/);
    assert.match(reportText(d), /\n {2}\? {3}timestamp/);
    assert.equal(
      (JSON.parse(reportJson(d)) as { checks: { possible?: boolean }[] }).checks.some((c) => c.possible),
      true,
    );
  });

  it("a timestamp ahead of the server's time now was ahead when answered too; the service's 700003 is its own word", () => {
    const ahead = diagnosed(sent(Date.now() + 60_000));
    assert.equal(ahead.cause, 'clock-window', reportText(ahead));
    const said = diagnosed(sent(SECOND), { code: 700003 });
    assert.equal(said.cause, 'clock-window', reportText(said));
    assert.match(windowCheck(said).text, /700003/);
  });
});

describe('doctor: what to do for a seconds or a stale timestamp speaks of the program that sent it (issue 34, point 7)', () => {
  /** What Python's http.client prints with debuglevel 1, for a request signed with int(time.time()). */
  function pythonPaste(): string {
    const q = `${ORDER}&timestamp=${Math.floor(SECOND / 1000)}`;
    const head = `POST /api/v3/order?${q}&signature=${hmac(q)} HTTP/1.1\\r\\nHost: api.example.com\\r\\nX-SERVICE-APIKEY: ${TRADE.apiKey}\\r\\nContent-Length: 0\\r\\n\\r\\n`;
    return `send: b'${head}'\nreply: 'HTTP/1.1 400 Bad Request\\r\\n'\nheader: Date: ${DATE}\n{"code":10073,"msg":"Invalid request time"}\n`;
  }

  it('a pasted Python program: its fix and its What to do name the program and time.time() * 1000, never TradeReq', () => {
    const read = readSentRequest(pythonPaste());
    assert.ok(read.ok, read.ok ? '' : read.error);
    const d = diagnosed(read.value, { code: read.value.code, answer: read.value.answer });
    assert.equal(d.cause, 'timestamp-seconds', reportText(d));
    const text = reportText(d);
    assert.match(d.fix, /your Python program/i);
    assert.match(d.fix, /time\.time\(\) \* 1000/);
    assert.match(d.codeNote ?? '', /What to do: .*Python program/);
    assert.doesNotMatch(text, /TradeReq/, text);
  });

  it('a shell script, a Node program (by its User-Agent) and a program of unknown language each get their own words', () => {
    const q = `${ORDER}&timestamp=${Math.floor(SECOND / 1000)}`;
    const base = { ...sent(0), query: `${q}&signature=${hmac(q)}` };
    const cases: [SentRequest, RegExp][] = [
      [base, /your script .*date \+%s%3N/i],
      [
        { ...base, form: 'http', headers: [...base.headers, { name: 'User-Agent', value: 'axios/1.6.0' }] },
        /Date\.now\(\)/,
      ],
      [
        { ...base, form: 'http', headers: [...base.headers, { name: 'User-Agent', value: 'Go-http-client/1.1' }] },
        /UnixMilli/,
      ],
      [{ ...base, form: 'http' }, /your program .*multiply it by 1000/i],
    ];
    for (const [request, words] of cases) {
      const d = diagnosed(request, { code: 10073 });
      assert.equal(d.cause, 'timestamp-seconds');
      assert.match(d.fix, words);
      assert.doesNotMatch(reportText(d), /TradeReq/, reportText(d));
    }
    const stale = diagnosed(sent(SECOND - 60_000), { answer: { status: 400, date: DATE }, code: 700003 });
    assert.match(stale.fix, /your script/i);
    assert.doesNotMatch(reportText(stale), /TradeReq/, reportText(stale));
  });

  it('a request TradeReq sent from a .tradereq file: the fix speaks of the file', () => {
    const d = diagnosed(
      { ...sent(Math.floor(SECOND / 1000)), form: 'tradereq' },
      { sentByTradeReq: true, code: 10073 },
    );
    assert.equal(d.cause, 'timestamp-seconds');
    assert.match(d.fix, /request file/);
    assert.match(d.fix, /timestamp line/);
    // The code's own advice is written for a request file already: it stays.
    assert.match(d.codeNote ?? '', /What to do: Do not write timestamp by hand: TradeReq adds it/);
  });
});
