/**
 * Paced test runs (src/core/testing/pace.ts): the wait before a request, and whole runs through the
 * real pipeline against the in-process sandbox with its §8 limits on: 2,000 signed requests with no
 * 429, another client's weight read from the used-weight header, a forced 429 waited out (or, with
 * --bail, the end of the run), a 418 that stops the run, a wait past the bound, cancelling a wait.
 */
import assert from 'node:assert/strict';
import { Budget, type CounterView } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { parse } from '../../../src/core/format/parser';
import type { Sender } from '../../../src/core/net/send';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import { testCases } from '../../../src/core/testing/cases';
import { Pacer, waitForRoom, type PaceOptions } from '../../../src/core/testing/pace';
import { runCases } from '../../../src/core/testing/run';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import type { CaseResult } from '../../../src/core/testing/verdict';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { controlOk } from '../../support/sandbox-ws';

const counter = (used: number, freesInMs: number): CounterView => ({
  mode: 'ip',
  limit: 500,
  used,
  remaining: 500 - used,
  freesInMs,
});

describe('paced runs: the wait before a request', () => {
  it('none while the weight fits under the fraction of the limit (80 % of 500 is 400)', () => {
    assert.equal(waitForRoom(counter(399, 5_000), undefined, 1, 0.8, 0), 0);
    assert.equal(waitForRoom(counter(0, 0), undefined, 10, 0.8, 0), 0);
  });

  it('over it: until the oldest counted request leaves the window', () => {
    assert.equal(waitForRoom(counter(400, 1_234), undefined, 1, 0.8, 0), 1_234);
    assert.equal(waitForRoom(counter(241, 700), undefined, 10, 0.5, 0), 700);
  });

  it("weight only the service counted (another client's) counts until it leaves, then not", () => {
    const unseen = { weight: 300, until: 9_000 };
    assert.equal(waitForRoom(counter(100, 8_000), unseen, 1, 0.8, 1_000), 8_000, 'the sooner of the two');
    assert.equal(waitForRoom(counter(0, 0), unseen, 101, 0.8, 1_000), 8_000);
    assert.equal(waitForRoom(counter(100, 8_000), unseen, 1, 0.8, 9_000), 0, 'gone at its end');
  });

  it('a request heavier than the fraction waits for an empty counter, then goes', () => {
    assert.equal(waitForRoom(counter(1, 300), undefined, 10, 0.01, 0), 300);
    assert.equal(waitForRoom(counter(0, 0), undefined, 10, 0.01, 0), 0);
  });
});

/** 2,000 signed requests: nine orders tested (weight 1) to one open-orders query (weight 3), 2,400 weight in all. */
function signedRun(count: number): string {
  const order = 'POST /api/v3/order/test\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000';
  const open = 'GET /api/v3/openOrders\nsymbol = BTCUSDT';
  return Array.from({ length: count }, (_, i) => `### r${i}\n${i % 10 === 9 ? open : order}\n`).join('\n');
}

const pings = (n: number): string =>
  Array.from({ length: n }, (_, i) => `### ping ${i}\nGET /api/v3/ping\n`).join('\n');

describe('paced runs against the sandbox, limits on', function () {
  this.timeout(60_000);
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
  beforeEach(() => controlOk(sandbox, '/reset'));

  /**
   * One clock for the run, the budget and the sandbox. A paced run of 2,000 requests waits about
   * 50 s for §8's window: its sleep moves the sandbox's clock (POST /_sandbox/clock) and the
   * budget's together instead of waiting, so the real limits run in a second or two.
   */
  function virtualClock(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: () => number } {
    let shift = 0;
    return {
      now: () => Date.now() + shift,
      sleep: async (ms) => {
        shift += ms;
        await controlOk(sandbox, '/clock', { offsetMs: shift });
      },
      slept: () => shift,
    };
  }

  function paced(options: Partial<PaceOptions> = {}) {
    const clock = virtualClock();
    const store = new MemoryStateStore();
    const budget = new Budget(store, clock.now);
    const pacer = new Pacer({ fraction: 0.8, budget, now: clock.now, sleep: clock.sleep, ...options });
    const run = (text: string): Promise<CaseResult[]> => {
      const doc = parse(text);
      return runCases(doc, testCases(doc), {
        pipeline: {
          sender,
          budget,
          // Signed requests take their timestamp from this clock: the sandbox checks them against its own.
          clock: new ClockSync(store, clock.now),
          clockSync: true,
          key: sandboxKeys(origin),
          confirm: () => true,
        },
        environment: sandboxEnvironment(sandbox.baseUrl),
        responses: new Map(),
        now: clock.now,
        pace: pacer,
      });
    };
    return { run, pacer, budget, clock };
  }

  async function reached(): Promise<string[]> {
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as {
      path: string;
      status: number;
    }[];
    return log.map((r) => `${r.path} ${r.status}`);
  }

  /** Another client on this IP, behind the run's back: `n` exchangeInfo requests of weight 10, answered 200. */
  async function otherClient(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${sandbox.baseUrl}/api/v3/exchangeInfo`);
      await res.arrayBuffer();
      assert.equal(res.status, 200);
    }
  }

  const statuses = (results: readonly CaseResult[]): Map<number | undefined, number> => {
    const counts = new Map<number | undefined, number>();
    for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    return counts;
  };

  it('2,000 signed requests end with no 429, in about the ideal time (total weight over 80 % of 500 per 10 s)', async () => {
    const { run, pacer, clock } = paced();
    const start = clock.now();
    const results = await run(signedRun(2_000));
    const took = clock.now() - start;
    assert.deepEqual([...statuses(results)], [[200, 2_000]]);
    assert.ok(results.every((r) => r.verdict === 'passed'));
    const summary = pacer.summary()!;
    assert.equal(summary.rateLimited, 0);
    // 2,400 weight at 40 a second is 60 s, less the first 400 that go at once: about 50 s on the run's
    // clock, never less. On a busy machine the server's window lags the budget's by each request's
    // time in flight and the pacer takes the larger count, so it may wait somewhat more (57 s was
    // seen); never more than the whole run's weight over the rate.
    assert.ok(took > 48_000, `took ${took} ms`);
    assert.ok(clock.slept() < 60_000, `slept ${clock.slept()} ms`);
    assert.ok(summary.waitedMs >= clock.slept(), 'the report counts every wait');
    const log = await reached();
    assert.equal(log.filter((l) => l.endsWith(' 429') || l.endsWith(' 418')).length, 0);
    assert.equal(log.filter((l) => !l.startsWith('/api/v3/time')).length, 2_000, 'each request sent once');
  });

  it("another client's weight, read from the used-weight header, is waited out: no 429", async () => {
    const { run, pacer } = paced();
    await otherClient(30);
    const results = await run(pings(300));
    // Without the header the budget would let 399 pings into the window beside the other 300 weight.
    assert.deepEqual([...statuses(results)], [[200, 300]]);
    assert.ok(pacer.summary()!.waitedMs > 0);
  });

  it('a 429 that happens anyway: reported rejected, not sent again; the run waits its Retry-After and goes on', async () => {
    const { run, pacer } = paced();
    await otherClient(50);
    const results = await run(pings(3));
    assert.deepEqual(
      results.map((r) => [r.status, r.verdict, r.reason]),
      [
        [429, 'failed', 'rejected'],
        [200, 'passed', 'ok'],
        [200, 'passed', 'ok'],
      ],
    );
    const log = await reached();
    assert.deepEqual(
      log.filter((l) => l.startsWith('/api/v3/ping')),
      ['/api/v3/ping 429', '/api/v3/ping 200', '/api/v3/ping 200'],
    );
    const summary = pacer.summary()!;
    assert.equal(summary.rateLimited, 1);
    assert.ok(summary.retryAfterMs >= 1_000 && summary.retryAfterMs <= summary.waitedMs);
    assert.ok((results[1]!.pacedMs ?? 0) >= summary.retryAfterMs, 'the wait is the next request’s');
  });

  it('with --bail a 429 stops the run there: the rest is not run, and says why', async () => {
    const { run } = paced({ bail: true });
    await otherClient(50);
    const results = await run(pings(3));
    assert.deepEqual(
      results.map((r) => [r.status, r.verdict, r.reason]),
      [
        [429, 'failed', 'rejected'],
        [undefined, 'skipped', 'after-refusal'],
        [undefined, 'skipped', 'after-refusal'],
      ],
    );
    assert.match(results[1]!.summary, /^not run: the run stopped at a 429 from http:\/\/127\.0\.0\.1:\d+ \(--bail\)$/);
    assert.equal((await reached()).filter((l) => l.startsWith('/api/v3/ping')).length, 1);
  });

  it('a 418 (ban) stops the run, this file and the next: nothing more is sent', async () => {
    const { run } = paced();
    await otherClient(50);
    // Sending on after a 429 earns the ban (§8 rule 2).
    for (const expected of [429, 418]) assert.equal((await fetch(`${sandbox.baseUrl}/api/v3/ping`)).status, expected);
    const first = await run(pings(2));
    assert.deepEqual(
      first.map((r) => [r.status, r.verdict]),
      [
        [418, 'failed'],
        [undefined, 'skipped'],
      ],
    );
    assert.match(first[1]!.summary, /banned this IP \(418\) for \d+ s: the run stops/);
    const next = await run(pings(1));
    assert.deepEqual([next[0]!.verdict, next[0]!.summary], ['skipped', first[1]!.summary]);
    assert.equal(
      (await reached()).filter((l) => l.startsWith('/api/v3/ping')).length,
      3,
      'two direct pings, one of the run',
    );
  });
});

describe('paced runs: when the wait is not taken', () => {
  const ping = parse('### a\nGET http://127.0.0.1:1/api/v3/ping\n### b\nGET http://127.0.0.1:1/api/v3/ping');
  const charge = { origin: 'http://127.0.0.1:1', mode: 'ip' as const, weight: 1 };
  const never: Sender = {
    settings: new NodeHttpSender().settings,
    send: () => Promise.reject(new Error('nothing may be sent')),
    close: () => Promise.resolve(),
  };

  function runWith(pacer: Pacer, budget: Budget, cancelled?: () => boolean): Promise<CaseResult[]> {
    const store = new MemoryStateStore();
    return runCases(ping, testCases(ping), {
      pipeline: {
        sender: never,
        budget,
        clock: new ClockSync(store),
        clockSync: false,
        key: sandboxKeys(''),
        confirm: () => true,
      },
      environment: sandboxEnvironment('http://127.0.0.1:1'),
      responses: new Map(),
      pace: pacer,
      cancelled,
    });
  }

  it('a Retry-After longer than a paced run waits (a hostile server) stops the run at once, saying why', async () => {
    const budget = new Budget(new MemoryStateStore());
    await budget.record(charge, { status: 429, retryAfterSeconds: 3_600 });
    let slept = 0;
    const pacer = new Pacer({ fraction: 0.8, budget, sleep: (ms) => Promise.resolve(void (slept += ms)) });
    const results = await runWith(pacer, budget);
    assert.equal(slept, 0);
    assert.deepEqual(
      results.map((r) => r.reason),
      ['after-refusal', 'after-refusal'],
    );
    assert.match(results[0]!.summary, /would wait 3600 s for its Retry-After, longer than a paced run waits \(60 s\)/);
  });

  it('cancelling during a wait: the request is not sent, the rest is cancelled', async () => {
    const budget = new Budget(new MemoryStateStore());
    await budget.record(charge, { status: 429, retryAfterSeconds: 5 });
    let cancelled = false;
    const pacer = new Pacer({
      fraction: 0.8,
      budget,
      cancelled: () => cancelled,
      // The user cancels while the run waits.
      sleep: () => Promise.resolve(void (cancelled = true)),
    });
    const results = await runWith(pacer, budget, () => cancelled);
    assert.deepEqual(
      results.map((r) => r.reason),
      ['cancelled', 'cancelled'],
    );
  });
});
