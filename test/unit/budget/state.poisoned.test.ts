/**
 * A state file that was poisoned (issue 31, point 5): origins named as the members of every
 * JavaScript object, and a key written twice (JSON.parse keeps the last one silently, so a ban
 * followed by an empty entry of the same origin would lift the ban). Neither crashes anything;
 * a key written twice is damage, which blocks until `state reset` repairs it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { ok } from '../../../src/core/result';

const A = 'http://127.0.0.1:8780';
const B = 'https://api.example.com';
const NOW = 1_700_000_000_000;
const BAN = { until: NOW + 600_000, status: 418, since: NOW - 1000 };
const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf', 'isPrototypeOf'];

describe('a poisoned state file', () => {
  let dir: string;
  let store: FileStateStore;
  let budget: Budget;
  const clock = { t: NOW };
  const ping = (origin: string) => ({ origin, mode: 'ip' as const, weight: 1 });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-poisoned-'));
    clock.t = NOW;
    store = new FileStateStore(dir, () => clock.t);
    budget = new Budget(store, () => clock.t);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const reason = (origin: string): string | undefined => {
    const g = budget.gate(ping(origin));
    return g.ok ? undefined : g.error.reason;
  };

  for (const name of PROTOTYPE_NAMES) {
    it(`an origin named ${name} crashes nothing: read, gate, record, reserve, clock, reset`, async () => {
      // Written by hand, as JSON.stringify would drop a __proto__ member of an object literal.
      writeFileSync(
        store.path,
        `{"version":1,"origins":{${JSON.stringify(name)}:{"ip":[[${NOW - 10},3]]},${JSON.stringify(A)}:{"blocked":${JSON.stringify(BAN)}}}}`,
      );
      const read = store.read();
      assert.deepEqual(read.origins[name], { ip: [[NOW - 10, 3]], accounts: {} });
      assert.equal(reason(A), 'ban', 'the ban of the other origin holds');
      assert.equal(budget.view(name).ip.used, 3);
      assert.equal(reason(name), undefined);
      await budget.record(ping(name), { status: 200 });
      assert.equal(budget.view(name).ip.used, 4);
      const reserved = await budget.reserve(ping(name));
      assert.ok(reserved.ok);
      const clockSync = new ClockSync(store, () => clock.t);
      await clockSync.record(name, { offsetMs: 5, roundTripMs: 1, measuredAt: NOW });
      assert.equal(clockSync.correctedNow(name), NOW + 5);
      assert.equal(reason(A), 'ban', 'still, after the writes');
      assert.deepEqual(await budget.reset(name), ok(undefined));
      assert.equal(Object.hasOwn(store.read().origins, name), false);
      assert.deepEqual(await budget.reset(), ok(undefined));
      assert.deepEqual(store.read().origins, {});
    });
  }

  it('an origin never seen that is named like an object member is empty, not a crash', async () => {
    for (const name of PROTOTYPE_NAMES) {
      assert.equal(budget.view(name).ip.used, 0, name);
      assert.equal(reason(name), undefined, name);
      const r = await budget.reserve(ping(name));
      assert.ok(r.ok, name);
    }
  });

  it('the same origin twice (a ban, then an empty entry) damages that origin: the ban is not lifted', async () => {
    writeFileSync(
      store.path,
      `{"version":1,"origins":{${JSON.stringify(A)}:{"blocked":${JSON.stringify(BAN)}},${JSON.stringify(A)}:{},${JSON.stringify(B)}:{}}}`,
    );
    assert.equal(reason(A), 'damaged');
    const g = budget.gate(ping(A));
    assert.match(g.ok ? '' : g.error.message, /written twice.*tradereq state reset http:\/\/127\.0\.0\.1:8780/);
    assert.equal(reason(B), undefined, 'another origin is not concerned');
    // Another writer must not wash the damage away (its text has each key once).
    await budget.record(ping(B), { status: 200 });
    assert.equal(reason(A), 'damaged', 'the mark is written back');
    // As the editor's Reset Rate-Limit State does it: waiting for the lock without blocking.
    assert.deepEqual(await budget.reset(A), ok(undefined));
    assert.equal(reason(A), undefined, 'state reset ORIGIN repairs it');
  });

  it('a spelling with escapes is the same key: written twice all the same', () => {
    const escaped = JSON.stringify(A).replaceAll('/', '\\/').replace('h', '\\u0068');
    writeFileSync(
      store.path,
      `{"version":1,"origins":{${JSON.stringify(A)}:{"blocked":${JSON.stringify(BAN)}},${escaped}:{}}}`,
    );
    assert.equal(reason(A), 'damaged');
  });

  it('a member written twice inside an origin entry damages that origin', () => {
    const expired = { until: NOW - 1, status: 429, since: NOW - 5000 };
    writeFileSync(
      store.path,
      `{"version":1,"origins":{${JSON.stringify(A)}:{"blocked":${JSON.stringify(BAN)},"blocked":${JSON.stringify(expired)}},${JSON.stringify(B)}:{"accounts":{"x":[],"x":[]}}}}`,
    );
    assert.equal(reason(A), 'damaged');
    assert.equal(reason(B), 'damaged', 'at any depth');
  });

  it('a top-level member written twice damages the whole file; state reset repairs it', async () => {
    writeFileSync(
      store.path,
      `{"version":1,"origins":{${JSON.stringify(A)}:{"blocked":${JSON.stringify(BAN)}}},"origins":{}}`,
    );
    for (const origin of [A, B]) assert.equal(reason(origin), 'damaged', origin);
    const g = budget.gate(ping(B));
    assert.match(g.ok ? '' : g.error.message, /written twice.*sends nothing at all/);
    assert.deepEqual(await budget.reset(), ok(undefined));
    assert.equal(reason(A), undefined);
  });

  it('the text TradeReq writes itself (each key once) damages nothing', async () => {
    await budget.record(ping(A), { status: 418, retryAfterSeconds: 60 });
    await budget.record(ping(B), { status: 200 });
    const pretty = JSON.stringify(JSON.parse(readFileSync(store.path, 'utf8')), null, 2);
    writeFileSync(store.path, pretty);
    assert.equal(reason(A), 'ban', 'a file pretty-printed by hand reads the same');
    assert.equal(reason(B), undefined);
  });
});
