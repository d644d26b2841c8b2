import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok } from '../../../src/core/result';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore, MemoryStateStore, accountId, defaultStateDir } from '../../../src/core/budget/state';
import { explainTimestampError, sampleFrom } from '../../../src/core/clock/clock';
import { ClockSync } from '../../../src/core/clock/sync';
import { decodeResponse } from '../../../src/core/net/decode';
import { summarise } from '../../../src/core/net/round-trip';
import { checkExpectations } from '../../../src/core/request/expect';
import { parse } from '../../../src/core/format/parser';
import { readOptions } from '../../../src/core/format/directives';
import { terminalSafe } from '../../../src/cli/terminal';

const ORIGIN = 'http://127.0.0.1:8780';

function budgetAt(start = 1_000_000): { budget: Budget; clock: { t: number } } {
  const clock = { t: start };
  return { budget: new Budget(new MemoryStateStore(), () => clock.t), clock };
}

describe('budget (§8)', () => {
  it('counts weight per rolling 10 s: 500 per IP, and refuses what would go over', async () => {
    const { budget, clock } = budgetAt();
    for (let i = 0; i < 49; i++) await budget.record({ origin: ORIGIN, mode: 'ip', weight: 10 }, { status: 200 });
    assert.equal(budget.view(ORIGIN).ip.remaining, 10);
    assert.deepEqual(budget.gate({ origin: ORIGIN, mode: 'ip', weight: 10 }), ok(undefined));
    await budget.record({ origin: ORIGIN, mode: 'ip', weight: 10 }, { status: 200 });
    const refused = budget.gate({ origin: ORIGIN, mode: 'ip', weight: 1 });
    assert.equal(refused.ok, false);
    assert.equal(refused.ok ? '' : refused.error.reason, 'budget');
    clock.t += 10_000;
    assert.equal(budget.view(ORIGIN).ip.remaining, 500, 'the window has moved on');
    assert.deepEqual(budget.gate({ origin: ORIGIN, mode: 'ip', weight: 1 }), ok(undefined));
  });

  it('knows when the counter frees up: the oldest request leaves the window first', async () => {
    const { budget, clock } = budgetAt();
    await budget.record({ origin: ORIGIN, mode: 'ip', weight: 400 }, { status: 200 });
    clock.t += 4_000;
    await budget.record({ origin: ORIGIN, mode: 'ip', weight: 100 }, { status: 200 });
    assert.equal(budget.view(ORIGIN).ip.freesInMs, 6_000);
    const refused = budget.gate({ origin: ORIGIN, mode: 'ip', weight: 50 });
    assert.ok(!refused.ok && refused.error.retryAtMs === clock.t + 6_000);
  });

  it('counts IP and account (UID) modes independently, each account on its own', async () => {
    const { budget } = budgetAt();
    const a = accountId('key-a');
    const b = accountId('key-b');
    await budget.record({ origin: ORIGIN, mode: 'uid', weight: 500, account: a }, { status: 200 });
    assert.equal(budget.view(ORIGIN, a).uid?.remaining, 0);
    assert.equal(budget.view(ORIGIN, b).uid?.remaining, 500);
    assert.equal(budget.view(ORIGIN, a).ip.remaining, 500);
    assert.equal(budget.gate({ origin: ORIGIN, mode: 'uid', weight: 1, account: a }).ok, false);
    assert.equal(budget.gate({ origin: ORIGIN, mode: 'ip', weight: 1 }).ok, true);
  });

  it('after a 429 refuses every request to that origin until Retry-After has passed (§8 rules 1–2)', async () => {
    const { budget, clock } = budgetAt();
    const view = await budget.record({ origin: ORIGIN, mode: 'ip', weight: 1 }, { status: 429, retryAfterSeconds: 7 });
    assert.equal(view.blocked?.status, 429);
    for (const mode of ['ip', 'uid'] as const) {
      const g = budget.gate({ origin: ORIGIN, mode, weight: 1, account: 'x' });
      assert.ok(!g.ok && g.error.reason === 'retry-after' && /429/.test(g.error.message));
    }
    assert.equal(
      budget.gate({ origin: 'https://other.example', mode: 'ip', weight: 1 }).ok,
      true,
      'other origins are not affected',
    );
    clock.t += 6_999;
    assert.equal(budget.gate({ origin: ORIGIN, mode: 'ip', weight: 1 }).ok, false);
    clock.t += 1;
    assert.equal(budget.gate({ origin: ORIGIN, mode: 'ip', weight: 1 }).ok, true);
  });

  it('after a 418 refuses as a ban for the Retry-After seconds, and 429/418 answers do not consume weight', async () => {
    const { budget } = budgetAt();
    const view = await budget.record(
      { origin: ORIGIN, mode: 'ip', weight: 10 },
      { status: 418, retryAfterSeconds: 120 },
    );
    assert.equal(view.ip.used, 0);
    const g = budget.gate({ origin: ORIGIN, mode: 'ip', weight: 1 });
    assert.ok(!g.ok && g.error.reason === 'ban' && /banned/.test(g.error.message));
  });

  it('keeps its state on disk, so another process (the editor, a restart) sees the same budget', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradereq-state-'));
    try {
      const t = 5_000_000;
      await new Budget(new FileStateStore(dir), () => t).record(
        { origin: ORIGIN, mode: 'ip', weight: 30 },
        { status: 429, retryAfterSeconds: 3 },
      );
      const again = new Budget(new FileStateStore(dir), () => t + 1000);
      assert.equal(again.view(ORIGIN).blocked?.status, 429);
      assert.equal(again.gate({ origin: ORIGIN, mode: 'ip', weight: 1 }).ok, false);
      writeFileSync(join(dir, 'state.json'), '{ not json');
      assert.equal(new Budget(new FileStateStore(dir)).view(ORIGIN).ip.used, 0, 'a damaged state file starts afresh');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores no API key: accounts are named by a hash', () => {
    assert.match(accountId('sbxTradeDemoKey00000000000000001'), /^[0-9a-f]{16}$/);
    assert.notEqual(accountId('a'), accountId('b'));
  });

  it('puts state in TRADEREQ_STATE_DIR, else the platform state folder', () => {
    assert.equal(defaultStateDir({ TRADEREQ_STATE_DIR: '/x' }, 'linux'), '/x');
    assert.equal(defaultStateDir({ XDG_STATE_HOME: '/s' }, 'linux'), '/s/tradereq');
    assert.match(defaultStateDir({ LOCALAPPDATA: 'C:\\L' }, 'win32'), /TradeReq$/);
  });
});

describe('clock', () => {
  it('measures the offset at the middle of the round trip', () => {
    const s = sampleFrom(1_000_600, 1_000_000, 1_000_200);
    assert.equal(s.offsetMs, 500);
    assert.equal(s.roundTripMs, 200);
  });

  it('corrects now by the stored offset and says when a new measurement is due', async () => {
    const t = { now: 10_000_000 };
    const clock = new ClockSync(new MemoryStateStore(), () => t.now);
    assert.equal(clock.stale(ORIGIN), true);
    assert.equal(clock.correctedNow(ORIGIN), t.now);
    await clock.record(ORIGIN, { offsetMs: -1500, roundTripMs: 4, measuredAt: t.now });
    assert.equal(clock.correctedNow(ORIGIN), t.now - 1500);
    assert.equal(clock.stale(ORIGIN), false);
    t.now += 11 * 60_000;
    assert.equal(clock.stale(ORIGIN), true);
  });

  it('explains 700003 with the rule of §5 rule 9 and the measured offset', () => {
    const text = explainTimestampError({ offsetMs: -1500, roundTripMs: 4, measuredAt: 0 }, 5000);
    assert.match(text, /timestamp < serverTime \+ 1000 and serverTime − timestamp ≤ recvWindow \(5000 ms\)/);
    assert.match(text, /your clock is 1500 ms ahead of the server/);
  });
});

describe('decode (§7.1, §7.2)', () => {
  it('2xx is ok, 4xx rejected with the decoded code, 5xx unknown', () => {
    assert.equal(decodeResponse(200, '{"orderId":"1"}').outcome, 'ok');
    const r = decodeResponse(400, '{"code":30002,"msg":"too small"}');
    assert.equal(r.outcome, 'rejected');
    assert.equal(r.code, 30002);
    assert.match(r.error!.meanings[0]!, /below the minimum/);
    assert.equal(decodeResponse(503, '{"code":503,"msg":"x"}').outcome, 'unknown');
    assert.equal(decodeResponse(504, '<html>gateway</html>').outcome, 'unknown');
  });

  it('reads Retry-After on 429 and 418 only, as whole seconds', () => {
    assert.equal(decodeResponse(429, '{"code":429}', '12').retryAfterSeconds, 12);
    assert.equal(decodeResponse(418, '', '120').retryAfterSeconds, 120);
    assert.equal(decodeResponse(400, '', '5').retryAfterSeconds, undefined);
    assert.equal(decodeResponse(429, '', 'soon').retryAfterSeconds, undefined);
  });

  it('a 418 is summarised as the ban, not as the 429 code its body may repeat (issue 19, point 9)', () => {
    const banned = summarise(decodeResponse(418, '{"code":429,"msg":"Too many requests"}', '118'));
    assert.match(banned, /^418 rejected: The IP is banned because of repeated rate limit violations/);
    assert.doesNotMatch(banned, /429/);
    assert.match(summarise(decodeResponse(429, '{"code":429}', '12')), /^429 rejected: 429 /);
  });

  it('takes a hostile body without throwing: not JSON, wrong types, huge code', () => {
    for (const body of [
      '',
      'null',
      '[]',
      '{"code":"x"}',
      '{"code":1e400}',
      '\u0000\u001b[31m',
      '{"code":-2011,"msg":{"x":1}}',
    ]) {
      assert.doesNotThrow(() => decodeResponse(400, body));
    }
  });
});

describe('expectations', () => {
  const options = (text: string) => readOptions(parse(text), parse(text).requests[0]).options;

  it('checks status, code and json PATH == VALUE, and fails every check when no answer came', () => {
    const o = options(
      '# @expect status 200\n# @expect code 30002\n# @expect json symbol == BTCUSDT\n# @expect json n == 3\nGET /x\n',
    );
    const results = checkExpectations(o.expectations, decodeResponse(200, '{"symbol":"BTCUSDT","n":3}'));
    assert.deepEqual(
      results.map((r) => r.passed),
      [true, false, true, true],
    );
    assert.deepEqual(
      checkExpectations(o.expectations, undefined).map((r) => r.passed),
      [false, false, false, false],
    );
  });
});

describe('terminal output of responses', () => {
  it('shows control characters and escape sequences as \\u escapes, keeping line breaks', () => {
    assert.equal(terminalSafe('a\u001b[2Jb\nc\u0007'), 'a\\u001b[2Jb\nc\\u0007');
  });
});
