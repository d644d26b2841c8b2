/**
 * The state file as a send uses it (src/core/budget/state.ts): read several times in a run, an
 * entry as TradeReq writes it without zod and anything else with it, so that another process's
 * change, damage and a clock set back are seen exactly as before; a settlement that changes
 * nothing leaves the file as it is.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore } from '../../../src/core/budget/state';

const A = 'http://127.0.0.1:8780';
const NOW = 1_700_000_000_000;
const HOUR_MS = 60 * 60_000;

describe('the state file, read and written by one run', () => {
  let dir: string;
  let store: FileStateStore;
  const clock = { t: NOW };
  const ping = { origin: A, mode: 'ip' as const, weight: 1 };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-state-file-'));
    clock.t = NOW;
    store = new FileStateStore(dir, () => clock.t);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (origins: Record<string, unknown>): void =>
    writeFileSync(store.path, JSON.stringify({ version: 1, origins }));

  it('a settlement that changes nothing neither writes nor renames the file', async () => {
    const budget = new Budget(store, () => clock.t);
    const reserved = await budget.reserve(ping);
    assert.ok(reserved.ok);
    const before = statSync(store.path);
    const text = readFileSync(store.path, 'utf8');
    const settled = await budget.settle(reserved.value, { sent: true, status: 200 });
    assert.ok(settled.ok && settled.value.ip.used === 1, JSON.stringify(settled));
    const after = statSync(store.path);
    assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs], 'the same file, not rewritten');
    assert.equal(readFileSync(store.path, 'utf8'), text);
    await budget.settle(reserved.value, { sent: true, status: 429, retryAfterSeconds: 5 });
    assert.notEqual(statSync(store.path).ino, before.ino, 'a change is written atomically, as before');
    assert.equal(store.read().origins[A]?.blocked?.status, 429);
  });

  it('another process changing the file between two reads is seen', () => {
    write({ [A]: { ip: [[NOW - 1000, 7]] } });
    assert.equal(new Budget(store, () => clock.t).view(A).ip.used, 7);
    write({
      [A]: {
        ip: [
          [NOW - 1000, 7],
          [NOW - 500, 5],
        ],
      },
    });
    assert.equal(new Budget(store, () => clock.t).view(A).ip.used, 12);
  });

  it('what a caller changes in a state it read does not reach the next read', () => {
    write({ [A]: { ip: [[NOW - 1000, 7]] } });
    store.read().origins[A]!.ip.push([NOW, 400]);
    assert.deepEqual(store.read().origins[A]!.ip, [[NOW - 1000, 7]]);
  });

  it('the same text read after the clock was set back: a time now too far ahead damages its origin', () => {
    write({ [A]: { ip: [[NOW + HOUR_MS - 1, 1]] } });
    assert.equal(store.read().origins[A]?.damaged, undefined, 'within the slack of an hour');
    clock.t = NOW - 2 * HOUR_MS;
    assert.match(store.read().origins[A]?.damaged?.reason ?? '', /does not validate \(ip\.0\.0: /);
  });

  it('an entry that does not validate is named by its path and zod message, as before', () => {
    write({
      [A]: {
        ip: [[NOW - 1000, 1]],
        accounts: {
          abc: [
            [NOW - 1000, 2],
            [NOW - 900, -1],
          ],
        },
      },
    });
    assert.equal(
      store.read().origins[A]?.damaged?.reason,
      'its entry does not validate (accounts.abc.1.1: Too small: expected number to be >=0)',
    );
    write({ [A]: { ip: [[NOW - 1000, 1, 3]] } });
    assert.match(store.read().origins[A]?.damaged?.reason ?? '', /^its entry does not validate \(ip\.0: /);
    write({ [A]: { ip: [[NOW - 1000, 1.5]] } });
    assert.match(store.read().origins[A]?.damaged?.reason ?? '', /^its entry does not validate \(ip\.0\.1: /);
  });

  it('an entry as TradeReq writes it reads as zod reads it: unknown fields left out, absent ones defaulted', () => {
    const blocked = { until: NOW + 5000, status: 429, since: NOW - 1 };
    const clock = { offsetMs: -3.5, roundTripMs: 2, measuredAt: NOW - 1 };
    write({
      [A]: { clock: { ...clock, x: 1 }, blocked: { ...blocked, y: 2 }, ip: [[NOW - 1000, 1]], other: true },
      'https://b.example': {},
    });
    const read = store.read();
    assert.deepEqual(read.origins[A], { ip: [[NOW - 1000, 1]], accounts: {}, blocked, clock });
    assert.deepEqual(Object.keys(read.origins[A]), ['ip', 'accounts', 'blocked', 'clock'], "in the schema's order");
    assert.deepEqual(read.origins['https://b.example'], { ip: [], accounts: {} });
  });

  it("every value the schema refuses damages its origin with zod's words, as before", () => {
    const cases: [unknown, string][] = [
      [{ ip: [[NOW, 2 ** 53]] }, 'ip.0.1: Too big: expected int to be <=9007199254740991'],
      [{ ip: [[-1, 1]] }, 'ip.0.0: Too small: expected number to be >=0'],
      [{ ip: [[NOW]] }, 'ip.0: Too small: expected array to have >=2 items'],
      [{ ip: [{ 0: NOW, 1: 1 }] }, 'ip.0: Invalid input: expected tuple, received object'],
      [{ ip: null }, 'ip: Invalid input: expected array, received null'],
      [{ accounts: [] }, 'accounts: Invalid input: expected record, received array'],
      [{ accounts: { a: null } }, 'accounts.a: Invalid input: expected array, received null'],
      [
        { blocked: { until: NOW + 73 * HOUR_MS + 1, status: 418, since: NOW } },
        'blocked.until: Too big: expected number to be <=1700262800000',
      ],
      [{ blocked: { until: NOW, status: '429', since: NOW } }, 'blocked.status: Invalid input'],
      [{ blocked: { until: NOW, status: 429 } }, 'blocked.since: Invalid input: expected number, received undefined'],
      [
        { clock: { offsetMs: '1', roundTripMs: 1, measuredAt: NOW } },
        'clock.offsetMs: Invalid input: expected number, received string',
      ],
      [
        { clock: { offsetMs: 1, roundTripMs: -1, measuredAt: NOW } },
        'clock.roundTripMs: Too small: expected number to be >=0',
      ],
      [{ clock: null }, 'clock: Invalid input: expected object, received null'],
      [{ damaged: null }, 'damaged: Invalid input: expected object, received null'],
      [[], 'entry: Invalid input: expected object, received array'],
    ];
    for (const [entry, issue] of cases) {
      write({ [A]: entry });
      assert.equal(
        store.read().origins[A]?.damaged?.reason,
        `its entry does not validate (${issue})`,
        JSON.stringify(entry),
      );
    }
    write({ [A]: { ip: [], damaged: { reason: 'kept', since: NOW - 5 } } });
    assert.deepEqual(store.read().origins[A], { ip: [], accounts: {}, damaged: { reason: 'kept', since: NOW - 5 } });
  });

  it('a file TradeReq did not write reads as zod reads it: a wrong shape damages it all, a kept mark stays', () => {
    const shape = { reason: 'the file does not have the expected shape', since: NOW };
    for (const text of [
      '{"version":2,"origins":{}}',
      '{"version":1,"origins":null}',
      '[]',
      '{"version":1,"origins":[]}',
    ]) {
      writeFileSync(store.path, text);
      assert.deepEqual(store.read(), { version: 1, origins: {}, damaged: shape }, text);
    }
    writeFileSync(store.path, '{"version":1}');
    assert.deepEqual(store.read(), { version: 1, origins: {}, damaged: undefined });
    const mark = { reason: 'kept', since: NOW - 5 };
    writeFileSync(store.path, JSON.stringify({ version: 1, origins: { [A]: {} }, damaged: mark, other: 1 }));
    assert.deepEqual(store.read(), { version: 1, origins: { [A]: { ip: [], accounts: {} } }, damaged: mark });
  });
});
