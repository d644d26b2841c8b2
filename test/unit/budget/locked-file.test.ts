/**
 * The lock of the state folder (src/core/budget/locked-file.ts, issue 31 point 5): a lock whose
 * holder no longer runs on this machine is taken over at once, any other only by its age; the
 * editor waits for a lock without blocking its thread; what a dead holder left is swept. Real
 * files; "another process" is this process's parent (running) or a process id that cannot run.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOUNDS } from '../../../src/core/bounds';
import { Budget } from '../../../src/core/budget/budget';
import { LockedFile } from '../../../src/core/budget/locked-file';
import { FileStateStore } from '../../../src/core/budget/state';

/** Above every system's largest process id (Linux 2^22, macOS 99,999): no process runs with it. */
const DEAD_PID = 2 ** 31 - 2;
const TOKEN = 'ab'.repeat(16);

describe('the lock of the state folder', () => {
  let dir: string;
  let lock: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-lock-unit-'));
    lock = join(dir, 'state.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const holder = (pid: number, host = hostname()): string =>
    JSON.stringify({ pid, host, at: Date.now(), token: TOKEN });
  const age = (path: string, ms: number): void => {
    const then = (Date.now() - ms) / 1000;
    utimesSync(path, then, then);
  };
  const change =
    (log: string[], text = '{}') =>
    () => {
      log.push('changed');
      return { text, result: 'done' };
    };

  /**
   * Runs `updateAsync` while the event loop turns: `during(turn)` is called on each turn until the
   * update ends. Returns the result and the turn the change ran on (it cannot run while the lock is held).
   */
  async function whileWaiting(
    file: LockedFile,
    during: (turn: number) => void,
  ): Promise<{ ok: boolean; changedOn: number | undefined; turns: number }> {
    let turns = 0;
    let changedOn: number | undefined;
    let ended = false;
    const turn = (): void => {
      if (ended) return;
      during(++turns);
      setImmediate(turn);
    };
    setImmediate(turn);
    const r = await file.updateAsync(() => {
      changedOn = turns;
      return { text: '{}', result: 'done' };
    });
    ended = true;
    return { ok: r.ok, changedOn, turns };
  }

  it('a lock whose holder no longer runs on this machine is taken over at once, and what it left is swept', () => {
    writeFileSync(lock, holder(DEAD_PID));
    // The dead holder's own text and its half-written state, as a kill -9 leaves them.
    writeFileSync(join(dir, `state.lock.${TOKEN}.tmp`), holder(DEAD_PID));
    writeFileSync(join(dir, `state.json.${TOKEN}.tmp`), '{"version":1,"ori');
    const log: string[] = [];
    const r = new LockedFile(dir, 'state.json').update(change(log));
    assert.deepEqual(r, { ok: true, value: 'done' }, JSON.stringify(r));
    assert.deepEqual(log, ['changed']);
    assert.deepEqual(readdirSync(dir).sort(), ['state.json'], 'the lock released, the leftovers swept');
  });

  it("another machine's lock, one that names no holder, and a running process's lock are taken over only by age", async () => {
    for (const text of [holder(DEAD_PID, 'another-machine'), '999999 0', holder(process.ppid)]) {
      writeFileSync(lock, text);
      const r = await whileWaiting(new LockedFile(dir, 'state.json'), (turn) => {
        if (turn === 50) age(lock, 11_000);
      });
      assert.ok(r.ok, text);
      assert.ok(r.changedOn !== undefined && r.changedOn >= 50, `${text}: changed on turn ${r.changedOn}`);
    }
  });

  it("the editor's wait for a lock does not block its thread: the reservation goes once the holder releases", async () => {
    writeFileSync(lock, holder(process.ppid));
    let turns = 0;
    const turn = (): void => {
      if (++turns === 50) rmSync(lock);
      else setImmediate(turn);
    };
    setImmediate(turn);
    const budget = new Budget(new FileStateStore(dir));
    const r = await budget.reserve({ origin: 'https://a.example', mode: 'ip', weight: 1 });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(turns, 50, 'the event loop turned while the lock was held');
    assert.equal(budget.view('https://a.example').ip.used, 1);
  });

  it("a hold taken over after LOCK_STALE_MS does not remove its successor's lock when it ends", () => {
    const file = new LockedFile(dir, 'state.json');
    const r = file.update(() => {
      // Meanwhile another process judged this hold stale and took the lock over.
      rmSync(lock);
      writeFileSync(lock, holder(process.ppid));
      return { text: '{}', result: 'done' };
    });
    assert.ok(r.ok);
    assert.equal(existsSync(lock), true, "the successor's lock is still there");
  });

  it('a claim left by a process that died between claiming a stale lock and removing it does not keep it', () => {
    writeFileSync(lock, holder(DEAD_PID));
    const seen = statSync(lock);
    const id = createHash('sha256')
      .update(`${seen.ino}:${seen.mtimeMs}:${holder(DEAD_PID)}`)
      .digest('hex');
    const dying = join(dir, `state.lock.${'cd'.repeat(16)}.tmp`);
    writeFileSync(
      dying,
      JSON.stringify({ pid: DEAD_PID - 1, host: hostname(), at: Date.now(), token: 'cd'.repeat(16) }),
    );
    linkSync(dying, join(dir, `state.lock.${id.slice(0, 16)}.claim`));
    const log: string[] = [];
    assert.deepEqual(new LockedFile(dir, 'state.json').update(change(log)), { ok: true, value: 'done' });
    assert.deepEqual(log, ['changed']);
  });

  it('a state file larger than its bound is damage, read no further', () => {
    const store = new FileStateStore(dir);
    writeFileSync(store.path, `{"version":1,"origins":{}}${' '.repeat(BOUNDS.stateFileBytes)}`);
    assert.equal(store.read().damaged?.reason, `larger than ${BOUNDS.stateFileBytes} bytes`);
    writeFileSync(store.path, `{"version":1,"origins":{}}${' '.repeat(BOUNDS.stateFileBytes - 100)}`);
    assert.equal(store.read().damaged, undefined, 'within the bound');
  });
});
