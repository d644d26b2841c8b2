/**
 * Sends killed mid-way (issue 31, point 5): real `tradereq send` processes killed with SIGKILL at
 * random moments, and one each round as soon as it is seen holding a lock of the state folder,
 * while this process records a ban, a Retry-After wait and a reservation in the same state. Right
 * after, a send goes through at once: a lock whose holder no longer runs is taken over, never
 * waited for; the state file stays valid and keeps what this process recorded.
 *
 * Linux and macOS only: it kills with SIGKILL, which Windows does not have (there `kill` ends a
 * process another way); skipped on Windows.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../src/core/budget/budget';
import { FileStateStore } from '../../src/core/budget/state';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { CLI, cleanEnv, describeRun, tradereq } from '../support/cli';

/** Sends killed each round, one of them when seen holding a lock. */
const KILLED = 4;
/** Rounds at most; fewer once killed holders left locks behind in LEFT_BEHIND rounds. */
const ROUNDS = 8;
const LEFT_BEHIND = 2;
const MINUTE_S = 60;

describe('sends killed mid-way, then a send at once', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let dir: string;
  let stateDir: string;

  before(function () {
    if (process.platform === 'win32') this.skip();
    ensureBuilt();
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-killed-'));
    stateDir = join(dir, 'state');
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ local: { baseUrl: sandbox.baseUrl, key: 'sandbox' } }),
    );
    // Signed and named: a send takes the state's lock to measure the clock, reserve and settle, and the answers' to keep its answer.
    writeFileSync(join(dir, 'account.tradereq'), '# @name account\nGET /api/v3/account\n');
  });

  afterEach(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (): Record<string, string> => ({ TRADEREQ_STATE_DIR: stateDir });
  const locks = (): string[] => ['state.lock', 'answers.lock'].map((f) => join(stateDir, f));

  /** A send to be killed: resolved when it has ended (killed, or done before its moment came). */
  function killable(): { child: ChildProcess; ended: Promise<void> } {
    const child = spawn(process.execPath, [CLI, 'send', 'account.tradereq'], {
      cwd: dir,
      env: cleanEnv(env()),
      stdio: 'ignore',
    });
    return { child, ended: new Promise((resolve) => child.on('exit', () => resolve())) };
  }

  /** Kills `child` as soon as a lock of the state folder names it (checked on every turn of the event loop). */
  function killWhenHolding(child: ChildProcess, ended: Promise<void>): Promise<boolean> {
    let over = false;
    void ended.then(() => (over = true));
    return new Promise((resolve) => {
      const look = (): void => {
        if (over) return resolve(false);
        for (const lock of locks()) {
          let text: string;
          try {
            text = readFileSync(lock, 'utf8');
          } catch {
            continue;
          }
          // The first number of the lock's text is its holder's process id.
          if (Number(/\d+/.exec(text)?.[0]) === child.pid) {
            child.kill('SIGKILL');
            return resolve(true);
          }
        }
        setImmediate(look);
      };
      look();
    });
  }

  /** What this process records meanwhile, under the same lock: a ban, a Retry-After wait, a reservation. */
  async function recordMeanwhile(budget: Budget, round: number): Promise<string[]> {
    const problems: string[] = [];
    for (const [origin, status] of [
      [`https://banned-${round}.example`, 418],
      [`https://waiting-${round}.example`, 429],
    ] as const) {
      const r = await budget.reserve({ origin, mode: 'ip', weight: 1 });
      if (!r.ok) problems.push(`${origin}: ${r.error.message}`);
      else {
        const settled = await budget.settle(r.value, { sent: true, status, retryAfterSeconds: 10 * MINUTE_S });
        if (!settled.ok) problems.push(`${origin}: ${settled.error}`);
      }
    }
    const reserved = await budget.reserve({ origin: `https://reserved-${round}.example`, mode: 'ip', weight: 7 });
    if (!reserved.ok) problems.push(`reserved-${round}: ${reserved.error.message}`);
    return problems;
  }

  it('no send right after is refused by a lock; the state stays valid and keeps what another process recorded', async () => {
    const first = await tradereq(['send', 'account.tradereq'], { cwd: dir, env: env() });
    assert.equal(first.status, 0, describeRun(first));
    // Moments to kill at: anywhere in a send's life, as long as one took here (a busy machine's too).
    const lifetime = first.ms;
    const budget = new Budget(new FileStateStore(stateDir));
    let leftBehind = 0;
    let round = 0;
    for (; round < ROUNDS && leftBehind < LEFT_BEHIND; round++) {
      const sends = Array.from({ length: KILLED }, killable);
      const onSight = killWhenHolding(sends[0]!.child, sends[0]!.ended);
      for (const { child } of sends.slice(1)) setTimeout(() => child.kill('SIGKILL'), Math.random() * lifetime).unref();
      const recorded = recordMeanwhile(budget, round);
      await Promise.all(sends.map((s) => s.ended));
      await onSight;
      if (locks().some((lock) => existsSync(lock))) leftBehind++;

      const after = await tradereq(['send', 'account.tradereq'], { cwd: dir, env: env(), timeoutMs: 60_000 });
      assert.equal(after.status, 0, `round ${round}: ${describeRun(after)}`);
      assert.doesNotMatch(after.stdout + after.stderr, /holds its lock/);

      assert.deepEqual(await recorded, [], `round ${round}`);
      const state = new FileStateStore(stateDir).read();
      assert.equal(state.damaged, undefined, `round ${round}: the state file is valid`);
      for (const [origin, entry] of Object.entries(state.origins))
        assert.equal(entry.damaged, undefined, `round ${round}: ${origin} is not damaged`);
      for (let r = 0; r <= round; r++) {
        const ban = budget.gate({ origin: `https://banned-${r}.example`, mode: 'ip', weight: 1 });
        assert.equal(ban.ok ? 'sendable' : ban.error.reason, 'ban', `round ${round}: the ban of round ${r}`);
        const wait = budget.gate({ origin: `https://waiting-${r}.example`, mode: 'ip', weight: 1 });
        assert.equal(wait.ok ? 'sendable' : wait.error.reason, 'retry-after', `round ${round}: the wait of round ${r}`);
      }
      assert.equal(budget.view(`https://reserved-${round}.example`).ip.used, 7, `round ${round}: the reservation`);
    }
    assert.ok(leftBehind >= 1, `in ${round} rounds no killed send left a lock behind: nothing was tested`);
  });
});
