/**
 * A JSON file of the state folder that several processes (the command line, the editor) change at
 * once: each change reads the latest text, writes the new one atomically (a file of this process,
 * renamed over it), and holds a lock file in between, so that no process loses another's update.
 *
 * The lock (its rules and numbers in docs/security.md): a file made with its whole text at once
 * (a hard link of a file written beforehand) that names its holder: process id, machine, time and a
 * random token. A lock whose holder no longer runs on this machine is taken over at once, any other
 * only once it is LOCK_STALE_MS old. Every removal of a lock, its holder's release as another's
 * takeover, first makes that lock's claim file exclusively and checks the lock is still the one it
 * saw, so two processes never remove one lock (the second would remove a lock just taken). The
 * rate-limit state waits for a lock with timers (`updateAsync`), so the editor's only thread is never
 * blocked; the command line's kept answers, kept from a synchronous step of a send, wait
 * synchronously (`update`): one generator of steps (`acquire`), two ways to wait between them.
 */
import { linkSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { nodeCrypto } from '../node-lazy';
import { readPlainFileSync } from '../repo-file';
import { err, ok, type Result } from '../result';
import * as z from '../zod-mini';

/** Why a file of the state folder cannot be kept where it lives (not a folder, no permission, a lock held too long). */
export interface StateUnavailable {
  readonly location: string;
  readonly reason: string;
}

/**
 * A lock this old is taken over even when its holder may still run (another machine's, or a
 * process id now used by another program): a hold lasts milliseconds.
 */
const LOCK_STALE_MS = 10_000;
/** How long to wait for another process's lock before giving up (and sending nothing). */
const LOCK_WAIT_MS = 5_000;
/** A lock or claim file is read only up to this size: its holder's text is a hundred bytes. */
const LOCK_TEXT_BYTES = 1024;
/** Claims of claims followed when a claimant died in its microseconds between claim and removal. */
const CLAIM_DEPTH = 3;

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** The text of a file, undefined when there is none, or why it cannot be read. */
export type ReadText = Result<string | undefined, string>;

/** A file as read at one moment: its text, and what tells it from a later file of the same text. */
interface Seen {
  readonly text: string;
  readonly ino: number;
  readonly mtimeMs: number;
}

/**
 * The text of a plain file of the state folder, read with a bound that holds while reading;
 * undefined when there is none. Opened without blocking, so a FIFO put in its place cannot hang the
 * process (core/repo-file.ts, which follows the folder's own links here).
 */
function readBounded(path: string, maxBytes: number): Result<Seen | undefined, string> {
  const read = readPlainFileSync(path, maxBytes, true);
  if (read.ok) {
    const { bytes, stats } = read.value;
    return ok({ text: bytes.toString('utf8'), ino: stats.ino, mtimeMs: stats.mtimeMs });
  }
  const problem = read.error;
  if (problem.kind === 'missing') return ok(undefined);
  if (problem.kind === 'not-a-file') return err('it is not a file');
  if (problem.kind === 'too-large') return err(`larger than ${maxBytes} bytes`);
  return err(`the file cannot be read (${problem.kind === 'unreadable' ? problem.code : problem.kind})`);
}

/**
 * A lock or claim file as it is now (undefined: there is none). One that cannot be read (another
 * user's, too long) names no holder: it is judged by its age alone.
 */
function seeLock(path: string): Seen | undefined {
  const read = readBounded(path, LOCK_TEXT_BYTES);
  if (read.ok) return read.value;
  try {
    const stat = statSync(path);
    return { text: '', ino: stat.ino, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

// Made on the first lock found held: most changes find none.
const HolderSchema = z.onFirstUse(() =>
  z.object({
    pid: z.int().check(z.positive(), z.lte(2 ** 32)),
    host: z.string().check(z.maxLength(255)),
    at: z.number(),
    token: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
  }),
);
type Holder = z.infer<ReturnType<typeof HolderSchema>>;

function holderOf(text: string): Holder | undefined {
  if (text === '') return undefined;
  try {
    return HolderSchema().safeParse(JSON.parse(text)).data;
  } catch {
    return undefined; // not JSON: a lock that names no holder
  }
}

/** Whether process `pid` of this machine runs (one of another user's does too: EPERM). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errorCode(e) !== 'ESRCH';
  }
}

/** The holder `text` names when it is a process of this machine that no longer runs. */
function deadHolder(text: string): Holder | undefined {
  const holder = holderOf(text);
  return holder && holder.host === hostname() && holder.pid !== process.pid && !running(holder.pid)
    ? holder
    : undefined;
}

/**
 * Whether the lock (or claim) `seen` may be taken over: its holder died, or it is this process's
 * own, left by a release that failed (this process holds a lock or a claim only between two of its
 * statements, never while it looks at one), or it is LOCK_STALE_MS old.
 */
function isStale(seen: Seen): boolean {
  // Either way round: a clock set back must not keep a lock for hours.
  if (Math.abs(Date.now() - seen.mtimeMs) >= LOCK_STALE_MS) return true;
  const holder = holderOf(seen.text);
  return holder !== undefined && holder.host === hostname() && (holder.pid === process.pid || !running(holder.pid));
}

const sameFile = (a: Seen, b: Seen): boolean => a.text === b.text && a.ino === b.ino && a.mtimeMs === b.mtimeMs;

/** What removing a lock came to: removed or changed meanwhile (try again at once), or kept by a live holder. */
type Removal = 'again' | 'busy';

/** A lock this process holds: the file its text was written to (linked in as the lock), and that text. */
interface Hold {
  readonly own: string;
  readonly text: string;
  readonly token: string;
}

/** `to` made as a hard link of `from` (the whole text at once); false when `to` exists already. */
function makeExclusively(from: string, text: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (e) {
    const code = errorCode(e);
    if (code === 'EEXIST') return false;
    // A file system without hard links (FAT): made exclusively, its text written right after.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
  }
  try {
    writeFileSync(to, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (e) {
    if (errorCode(e) === 'EEXIST') return false;
    throw e;
  }
}

const WAITED_OUT = 'another TradeReq process holds its lock';

export class LockedFile {
  readonly path: string;
  private readonly lockName: string;
  private readonly lockPath: string;

  constructor(
    readonly dir: string,
    name: string,
  ) {
    this.path = join(dir, name);
    this.lockName = name.replace(/\.json$/, '') + '.lock';
    this.lockPath = join(dir, this.lockName);
  }

  /** The file's text, at most `maxBytes` of it (a larger file is a reason, not read). */
  read(maxBytes: number = Number.MAX_SAFE_INTEGER): ReadText {
    const read = readBounded(this.path, maxBytes);
    return read.ok ? ok(read.value?.text) : read;
  }

  /**
   * Under the lock: `change` reads the latest text and returns the text to write and a result; no
   * text (undefined) leaves the file as it is, which saves a write and a rename when nothing changed.
   * Waits for another process's lock synchronously (the command line's kept answers).
   */
  update<T>(change: () => { text: string | undefined; result: T }): Result<T, StateUnavailable> {
    const ready = this.makeDir();
    if (!ready.ok) return ready;
    const steps = this.acquire();
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value.ok ? this.held(step.value.value, change) : step.value;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, step.value);
    }
  }

  /** As `update`, waiting for another process's lock with timers (the rate-limit state): no thread is blocked. */
  async updateAsync<T>(change: () => { text: string | undefined; result: T }): Promise<Result<T, StateUnavailable>> {
    const ready = this.makeDir();
    if (!ready.ok) return ready;
    const steps = this.acquire();
    for (let step = steps.next(); ; step = steps.next()) {
      // From the lock taken to its release nothing waits: a hold never spans an await.
      if (step.done) return step.value.ok ? this.held(step.value.value, change) : step.value;
      await delay(step.value);
    }
  }

  private makeDir(): Result<void, StateUnavailable> {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      return ok(undefined);
    } catch (e) {
      return err({ location: this.dir, reason: errorCode(e) });
    }
  }

  private held<T>(hold: Hold, change: () => { text: string | undefined; result: T }): Result<T, StateUnavailable> {
    try {
      const { text, result } = change();
      if (text === undefined) return ok(result);
      const written = this.write(text, hold.token);
      return written.ok ? ok(result) : written;
    } finally {
      this.release(hold);
    }
  }

  /** The new text, atomically: a file of this hold renamed over the old one. */
  private write(text: string, token: string): Result<void, StateUnavailable> {
    const tmp = `${this.path}.${token}.tmp`;
    try {
      writeFileSync(tmp, text, { mode: 0o600 });
      renameSync(tmp, this.path);
      return ok(undefined);
    } catch (e) {
      unlinkQuietly(tmp);
      return err({ location: this.path, reason: errorCode(e) });
    }
  }

  /**
   * The steps of taking the lock: each value yielded is how many ms to wait before the next try,
   * the value returned the hold, or why there is none. This hold's text is written first, to be
   * linked in whole.
   */
  private *acquire(): Generator<number, Result<Hold, StateUnavailable>, void> {
    const token = nodeCrypto().randomBytes(16).toString('hex');
    const own = `${this.lockPath}.${token}.tmp`;
    const text = JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), token });
    let hold: Hold | undefined;
    try {
      writeFileSync(own, text, { flag: 'wx', mode: 0o600 });
      const deadline = Date.now() + LOCK_WAIT_MS;
      for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
        if (makeExclusively(own, text, this.lockPath)) return ok((hold = { own, text, token }));
        const removal = this.removeStale(this.lockPath, own, text, 0);
        if (Date.now() > deadline) return err({ location: this.dir, reason: WAITED_OUT });
        if (removal === 'busy') yield wait;
      }
    } catch (e) {
      return err({ location: this.dir, reason: errorCode(e) });
    } finally {
      if (!hold) unlinkQuietly(own);
    }
  }

  /** Removes the lock (or claim) at `path` if it is stale, under its claim (removeIfStill). */
  private removeStale(path: string, own: string, text: string, depth: number): Removal {
    const seen = seeLock(path);
    if (!seen) return 'again';
    return isStale(seen) ? this.removeIfStill(path, seen, own, text, depth) : 'busy';
  }

  /**
   * Removes `path` if it is still the file `seen`. First its claim: `path` and an id of `seen`,
   * made exclusively from `own` (this process's text), so only one process removes one lock, and
   * only while it is still there; a claim whose maker died is removed the same way, a level deeper.
   */
  private removeIfStill(path: string, seen: Seen, own: string, text: string, depth: number): Removal {
    const id = nodeCrypto().createHash('sha256').update(`${seen.ino}:${seen.mtimeMs}:${seen.text}`).digest('hex');
    const claim = `${path}.${id.slice(0, 16)}.claim`;
    if (!makeExclusively(own, text, claim))
      return depth < CLAIM_DEPTH ? this.removeStale(claim, own, text, depth + 1) : 'busy';
    try {
      const still = seeLock(path);
      if (!still || !sameFile(still, seen)) return 'again';
      // What a dead holder left goes while its lock still keeps everyone else out.
      if (path === this.lockPath && deadHolder(seen.text)) this.sweep();
      unlinkSync(path);
      return 'again';
    } finally {
      unlinkQuietly(claim);
    }
  }

  /** The files of processes of this machine that died holding or waiting for the lock: their texts and writes. */
  private sweep(): void {
    const pattern = new RegExp(`^${this.lockName.replaceAll('.', '\\.')}\\.([0-9a-f]{32})\\.tmp$`);
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const token = pattern.exec(name)?.[1];
      const seen = token ? seeLock(join(this.dir, name)) : undefined;
      if (!seen || deadHolder(seen.text)?.token !== token) continue;
      unlinkQuietly(`${this.path}.${token}.tmp`);
      unlinkQuietly(join(this.dir, name));
    }
  }

  /** Gives the lock back, if it is still this hold's (one held past LOCK_STALE_MS may have been taken over). */
  private release(hold: Hold): void {
    try {
      const seen = seeLock(this.lockPath);
      if (seen?.text === hold.text) this.removeIfStill(this.lockPath, seen, hold.own, hold.text, CLAIM_DEPTH);
    } catch {
      // Left behind: this process takes its own lock over at once next time, and so does any after it ends.
    } finally {
      unlinkQuietly(hold.own);
    }
  }
}
