/**
 * The gate fails closed: a damaged state file blocks the origins it concerns (all of them when the
 * file cannot be read) until the user resets them, instead of lifting their bans; Retry-After is
 * capped at the longest ban; loopback names of one port share one budget and one ban.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok } from '../../../src/core/result';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore, stateKey } from '../../../src/core/budget/state';
import { decodeResponse } from '../../../src/core/net/decode';

const A = 'http://127.0.0.1:8780';
const B = 'https://api.example.com';
const NOW = 1_700_000_000_000;
const THREE_DAYS_MS = 3 * 24 * 3600 * 1000;

describe('the gate fails closed when its state is damaged', () => {
  let dir: string;
  let store: FileStateStore;
  let budget: Budget;
  const clock = { t: NOW };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-gate-'));
    clock.t = NOW;
    store = new FileStateStore(dir, () => clock.t);
    budget = new Budget(store, () => clock.t);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ping = (origin: string) => ({ origin, mode: 'ip' as const, weight: 1 });

  it('a Retry-After of 400 digits is capped at the longest ban (3 days), and the ban survives a reload', async () => {
    const decoded = decodeResponse(418, '{"code":429}', '9'.repeat(400));
    assert.equal(decoded.retryAfterSeconds, THREE_DAYS_MS / 1000);
    await budget.record(ping(A), { status: 418, retryAfterSeconds: decoded.retryAfterSeconds });
    const again = new Budget(new FileStateStore(dir, () => clock.t), () => clock.t);
    const refused = again.gate(ping(A));
    assert.equal(refused.ok, false);
    assert.equal(refused.ok ? undefined : refused.error.reason, 'ban');
    assert.equal(again.view(A).blocked?.untilMs, NOW + THREE_DAYS_MS);
  });

  it('Retry-After 1e12 s blocks for 3 days, not for millennia', async () => {
    await budget.record(ping(A), { status: 429, retryAfterSeconds: 1e12 });
    clock.t += THREE_DAYS_MS;
    assert.deepEqual(budget.gate(ping(A)), ok(undefined));
  });

  it('one entry that does not validate blocks its own origin only; another origin keeps its ban', async () => {
    await budget.record(ping(B), { status: 418, retryAfterSeconds: 600 });
    const state = JSON.parse(readFileSync(store.path, 'utf8')) as { origins: Record<string, unknown> };
    state.origins[A] = { ip: [], accounts: {}, blocked: { until: null, status: 418, since: NOW } };
    writeFileSync(store.path, JSON.stringify(state));
    const a = budget.gate(ping(A));
    assert.equal(a.ok ? undefined : a.error.reason, 'damaged');
    assert.match(
      a.ok ? '' : a.error.message,
      /could not be read .*sends nothing to it until it is reset.*tradereq state reset http:\/\/127\.0\.0\.1:8780/,
    );
    const b = budget.gate(ping(B));
    assert.equal(b.ok ? undefined : b.error.reason, 'ban', 'the ban of the valid origin is not lifted');
  });

  it('a truncated file blocks every origin, and the mark survives writes until it is reset', async () => {
    await budget.record(ping(B), { status: 200 });
    const text = readFileSync(store.path, 'utf8');
    writeFileSync(store.path, text.slice(0, text.length - 5));
    for (const origin of [A, B, 'https://other.example']) {
      const g = budget.gate(ping(origin));
      assert.equal(g.ok ? undefined : g.error.reason, 'damaged', origin);
    }
    // Another writer (the clock, a send elsewhere) must not wash the damage away.
    await budget.record(ping('https://third.example'), { status: 200 });
    assert.equal(budget.gate(ping(A)).ok, false);
    await budget.reset();
    assert.deepEqual(budget.gate(ping(A)), ok(undefined));
  });

  it('resetting one damaged origin unblocks it and leaves the others as they were', async () => {
    await budget.record(ping(B), { status: 429, retryAfterSeconds: 30 });
    const state = JSON.parse(readFileSync(store.path, 'utf8')) as { origins: Record<string, unknown> };
    state.origins[A] = 'not an object';
    writeFileSync(store.path, JSON.stringify(state));
    await budget.reset(A);
    assert.deepEqual(budget.gate(ping(A)), ok(undefined));
    assert.equal(budget.gate(ping(B)).ok, false);
  });

  it('a state folder that is a file: reserving refuses, naming the folder (the caller sends nothing)', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const broken = new Budget(new FileStateStore(file, () => clock.t), () => clock.t);
    const r = await broken.reserve(ping(A));
    assert.equal(r.ok ? undefined : r.error.reason, 'state');
    assert.match(r.ok ? '' : r.error.message, /cannot be kept in .*not-a-folder.*TRADEREQ_STATE_DIR/);
    assert.equal(broken.gate(ping(A)).ok, false, 'and the gate refuses: the state cannot be read');
  });

  it('a stale lock left by a dead process is broken; a reservation and its settlement count once', async () => {
    writeFileSync(join(dir, 'state.lock'), '999999 0');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(join(dir, 'state.lock'), old, old);
    const r = await budget.reserve(ping(A));
    assert.ok(r.ok);
    assert.equal(budget.view(A).ip.used, 1, 'reserved before sending');
    await budget.settle(r.value, { sent: true, status: 200 });
    assert.equal(budget.view(A).ip.used, 1, 'counted once');
    const q = await budget.reserve(ping(A));
    assert.ok(q.ok);
    await budget.settle(q.value, { sent: false });
    assert.equal(budget.view(A).ip.used, 1, 'a request that never left gives its weight back');
  });

  it('loopback names of one port are one origin: a 429 from localhost holds back 127.0.0.1 and [::1]', async () => {
    await budget.record(ping('http://localhost:8780'), { status: 429, retryAfterSeconds: 5 });
    for (const alias of ['http://127.0.0.1:8780', 'http://[::1]:8780', 'http://LOCALHOST:8780']) {
      const g = budget.gate(ping(alias));
      assert.equal(g.ok ? undefined : g.error.reason, 'retry-after', alias);
    }
    assert.deepEqual(budget.gate(ping('http://127.0.0.1:8781')), ok(undefined), 'another port is another origin');
    assert.equal(stateKey('http://192.168.1.5:8780'), 'http://192.168.1.5:8780', 'other aliases stay distinct');
  });
});
