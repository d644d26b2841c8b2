/**
 * A clock that jumps does not lock signed requests out (issue 19, point 1): after a 700003 the
 * pipeline measures the server clock offset again at once, says what it now is, and the next send
 * uses it; an offset taken "later" than now (this machine's clock set back) is measured again.
 * Against the sandbox over HTTP, its clock moved through its control surface.
 */
import assert from 'node:assert/strict';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { parse } from '../../../src/core/format/parser';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import { runRequest, type PipelineDeps, type Sent } from '../../../src/core/request/pipeline';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { controlOk } from '../../support/sandbox-ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';

const ORIGIN = 'http://127.0.0.1:8780';

/** A sandbox, and the pipeline's parts against it with its demo key: a state in memory, the real sender. */
async function pipelineParts(): Promise<{
  sandbox: Sandbox;
  sender: NodeHttpSender;
  clock: ClockSync;
  deps: PipelineDeps;
}> {
  const sandbox = await startSandbox({ port: 0 });
  const sender = new NodeHttpSender();
  const store = new MemoryStateStore();
  const clock = new ClockSync(store);
  const deps: PipelineDeps = {
    sender,
    budget: new Budget(store),
    clock,
    clockSync: true,
    responses: new Map<string, unknown>(),
    key: sandboxKeys(new URL(sandbox.baseUrl).origin),
    confirm: () => true,
  };
  return { sandbox, sender, clock, deps };
}

describe('clock jump: the offset after a 700003', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let sender: NodeHttpSender;
  let clock: ClockSync;
  let deps: PipelineDeps;

  beforeEach(async () => {
    ({ sandbox, sender, clock, deps } = await pipelineParts());
  });

  afterEach(async () => {
    await sender.close();
    await sandbox.close();
  });

  const control = (path: string, body: unknown): Promise<void> => controlOk(sandbox, `/${path}`, body);

  async function timeRequests(): Promise<number> {
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as { path: string }[];
    return log.filter((e) => e.path === '/api/v3/time').length;
  }

  async function send(text = 'GET /api/v3/account\n', over: Partial<PipelineDeps> = {}): Promise<Sent> {
    const doc = parse(text);
    const r = await runRequest(doc, doc.requests[0]!, sandboxEnvironment(sandbox.baseUrl), { ...deps, ...over });
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    return r.value;
  }

  for (const [direction, shift, words] of [
    ['ahead', 30_000, 'behind the server'],
    ['behind', -30_000, 'ahead of the server'],
  ] as const) {
    it(`a server clock moved 30 s ${direction}: one 700003 measures again, names the new offset, and the next send goes through`, async () => {
      assert.equal((await send()).report.outcome, 'ok', 'the first send measures the offset');
      const origin = new URL(sandbox.baseUrl).origin;
      const before = clock.sample(origin)!;
      await control('clock', { offsetMs: shift });
      const refused = await send();
      assert.equal(refused.report.decoded?.code, 700003);
      assert.equal(refused.sendAgain, true);
      const after = clock.sample(origin)!;
      assert.ok(Math.abs(after.offsetMs - before.offsetMs - shift) < 5_000, `new offset ${after.offsetMs}`);
      assert.match(
        refused.note ?? '',
        new RegExp(
          `measured again: your clock is ${Math.abs(after.offsetMs)} ms ${words}.*the next send uses the new offset`,
        ),
      );
      assert.equal((await send()).report.outcome, 'ok', 'the next send uses the new offset');
    });
  }

  it('a timestamp written in the request: no new measurement, and the note says to remove the line', async () => {
    await send();
    const measured = await timeRequests();
    const refused = await send('GET /api/v3/account\ntimestamp = 1700000000000\n');
    assert.equal(refused.report.decoded?.code, 700003);
    assert.equal(refused.sendAgain, undefined);
    assert.match(refused.note ?? '', /writes its own timestamp.*remove the timestamp line/);
    assert.equal(await timeRequests(), measured, 'GET /api/v3/time was not asked');
  });

  it('clock sync off: the offset is measured and named, and the note says to turn the sync on (no send again)', async () => {
    await control('clock', { offsetMs: 30_000 });
    const refused = await send(undefined, { clockSync: false });
    assert.equal(refused.report.decoded?.code, 700003);
    assert.equal(refused.sendAgain, false);
    assert.match(
      refused.note ?? '',
      /Clock sync is off.*your clock is \d+ ms behind the server.*without --no-clock-sync/,
    );
  });

  it('when the clock cannot be measured again, the old offset is dropped and the next send measures first', async () => {
    await send();
    const origin = new URL(sandbox.baseUrl).origin;
    await control('clock', { offsetMs: 30_000 });
    await control('fault', { status: 503, count: 1, path: '/api/v3/time' });
    const refused = await send();
    assert.equal(refused.report.decoded?.code, 700003);
    assert.equal(refused.sendAgain, false);
    assert.match(refused.note ?? '', /could not be measured again.*the next signed send measures it first/);
    assert.equal(clock.sample(origin), undefined);
    assert.equal((await send()).report.outcome, 'ok');
  });
});

describe('clock jump: this machine set back', () => {
  it('an offset measured "later" than now is measured again', async () => {
    const t = { now: 10_000_000 };
    const clock = new ClockSync(new MemoryStateStore(), () => t.now);
    await clock.record(ORIGIN, { offsetMs: 0, roundTripMs: 2, measuredAt: t.now });
    assert.equal(clock.stale(ORIGIN), false);
    t.now -= 30 * 60_000;
    assert.equal(clock.stale(ORIGIN), true, 'the local clock went back 30 minutes');
  });

  it('forget drops the offset of one origin only', async () => {
    const clock = new ClockSync(new MemoryStateStore());
    await clock.record(ORIGIN, { offsetMs: 5, roundTripMs: 2, measuredAt: Date.now() });
    await clock.record('http://example.com', { offsetMs: 7, roundTripMs: 2, measuredAt: Date.now() });
    await clock.forget(ORIGIN);
    assert.equal(clock.sample(ORIGIN), undefined);
    assert.equal(clock.sample('http://example.com')?.offsetMs, 7);
  });
});

describe('a clock offset beyond the bound is never signed with (issue 31, point 5)', function () {
  this.timeout(30_000);
  const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
  let sandbox: Sandbox;
  let sender: NodeHttpSender;
  let clock: ClockSync;
  let deps: PipelineDeps;

  beforeEach(async () => {
    ({ sandbox, sender, clock, deps } = await pipelineParts());
  });

  afterEach(async () => {
    await sender.close();
    await sandbox.close();
  });

  const reached = async (): Promise<string[]> =>
    ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as { path: string }[]).map((e) => e.path);

  const run = (text = 'GET /api/v3/account\n') => {
    const doc = parse(text);
    return runRequest(doc, doc.requests[0]!, sandboxEnvironment(sandbox.baseUrl), deps);
  };

  it('a server a year ahead: the offset is measured, named, and the request is refused unsigned and unsent', async () => {
    await controlOk(sandbox, '/clock', { offsetMs: YEAR_MS });
    const r = await run();
    assert.ok(
      !r.ok && r.error.kind === 'refused' && r.error.reason === 'clock',
      r.ok ? r.value.report.summary : r.error.message,
    );
    const origin = new URL(sandbox.baseUrl).origin;
    const offset = clock.sample(origin)!.offsetMs;
    assert.ok(Math.abs(offset - YEAR_MS) < 60_000, `measured ${offset}`);
    assert.match(
      r.error.message,
      new RegExp(`your clock is ${offset} ms behind the server \\(about 365 days.*more than the 15 minutes`),
    );
    assert.match(r.error.message, new RegExp(`tradereq state reset ${origin.replaceAll('.', '\\.')}`));
    assert.deepEqual(await reached(), ['/api/v3/time'], 'only the measurement went out');
  });

  it('an offset beyond the bound read from the state (a hand-edited file) is not signed with either', async () => {
    const origin = new URL(sandbox.baseUrl).origin;
    await clock.record(origin, { offsetMs: -20 * 60_000, roundTripMs: 1, measuredAt: Date.now() });
    const r = await run();
    assert.ok(
      !r.ok && r.error.kind === 'refused' && r.error.reason === 'clock',
      r.ok ? r.value.report.summary : r.error.message,
    );
    assert.match(r.error.message, /your clock is 1200000 ms ahead of the server \(about 20 minutes/);
    assert.deepEqual(await reached(), [], 'nothing went out');
    assert.equal(clock.correctedNow(origin) <= Date.now(), true, 'nor is it used to correct the clock');
    assert.ok(clock.correctedNow(origin) > Date.now() - 60_000);
    const ping = await run('GET /api/v3/ping\n');
    assert.ok(ping.ok && ping.value.report.outcome === 'ok', 'an unsigned request uses no offset');
  });

  it('within the bound (15 minutes either way) the offset is used', async () => {
    const origin = new URL(sandbox.baseUrl).origin;
    await controlOk(sandbox, '/clock', { offsetMs: 14 * 60_000 });
    const r = await run();
    assert.ok(r.ok && r.value.report.outcome === 'ok', r.ok ? r.value.report.summary : r.error.message);
    assert.ok(clock.sample(origin)!.offsetMs > 13 * 60_000);
  });

  it('a 700003 that measures an offset beyond the bound does not say to send again', async () => {
    const first = await run();
    assert.ok(first.ok && first.value.report.outcome === 'ok');
    await controlOk(sandbox, '/clock', { offsetMs: YEAR_MS });
    const refused = await run();
    assert.ok(refused.ok, refused.ok ? '' : refused.error.message);
    assert.equal(refused.value.report.decoded?.code, 700003);
    assert.equal(refused.value.sendAgain, false);
    assert.doesNotMatch(refused.value.note ?? '', /the next send uses the new offset/);
    assert.match(refused.value.note ?? '', /more than the 15 minutes.*the next signed send is refused/);
  });
});
