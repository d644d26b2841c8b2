/**
 * The state file as a send uses it (src/core/budget/state.ts): read several times in a run, so a
 * text read again is not validated again, yet another process's change, damage and a clock set
 * back are seen exactly as before; a settlement that changes nothing leaves the file as it is.
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

  it('a settlement that changes nothing neither writes nor renames the file', () => {
    const budget = new Budget(store, () => clock.t);
    const reserved = budget.reserve(ping);
    assert.ok(reserved.ok);
    const before = statSync(store.path);
    const text = readFileSync(store.path, 'utf8');
    const settled = budget.settle(reserved.value, { sent: true, status: 200 });
    assert.ok(settled.ok && settled.value.ip.used === 1, JSON.stringify(settled));
    const after = statSync(store.path);
    assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs], 'the same file, not rewritten');
    assert.equal(readFileSync(store.path, 'utf8'), text);
    budget.settle(reserved.value, { sent: true, status: 429, retryAfterSeconds: 5 });
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

  it('the same text read after the clock was set back is validated again: a time too far ahead damages', () => {
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
});
