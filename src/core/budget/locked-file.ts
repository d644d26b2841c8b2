/**
 * A JSON file of the state folder that several processes (the command line, the editor) change at
 * once: each change reads the latest text, writes the new one atomically (a file of this process,
 * renamed over it), and holds a lock file in between, so that no process loses another's update.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { err, ok, type Result } from '../result';

/** Why a file of the state folder cannot be kept where it lives (not a folder, no permission, a lock held too long). */
export interface StateUnavailable {
  readonly location: string;
  readonly reason: string;
}

/** A lock older than this was left by a process that died while holding it (a hold lasts milliseconds). */
const LOCK_STALE_MS = 10_000;
/** How long to wait for another process's lock before giving up (and sending nothing). */
const LOCK_WAIT_MS = 5_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

/** The text of a file, undefined when there is none, or why it cannot be read. */
export type ReadText = Result<string | undefined, string>;

export class LockedFile {
  readonly path: string;
  private readonly lockPath: string;

  constructor(
    readonly dir: string,
    name: string,
    private readonly now: () => number = Date.now,
  ) {
    this.path = join(dir, name);
    this.lockPath = join(dir, name.replace(/\.json$/, '') + '.lock');
  }

  /** The file's text, at most `maxBytes` of it (a larger file is a reason, not read). */
  read(maxBytes?: number): ReadText {
    try {
      if (maxBytes !== undefined && statSync(this.path).size > maxBytes) return err(`larger than ${maxBytes} bytes`);
      return ok(readFileSync(this.path, 'utf8'));
    } catch (e) {
      return errorCode(e) === 'ENOENT' ? ok(undefined) : err(`the file cannot be read (${errorCode(e)})`);
    }
  }

  /**
   * Under the lock: `change` reads the latest text and returns the text to write and a result; no
   * text (undefined) leaves the file as it is, which saves a write and a rename when nothing changed.
   */
  update<T>(change: () => { text: string | undefined; result: T }): Result<T, StateUnavailable> {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (e) {
      return err({ location: this.dir, reason: errorCode(e) });
    }
    const lock = this.lock();
    if (!lock.ok) return lock;
    try {
      const { text, result } = change();
      if (text === undefined) return ok(result);
      const written = this.write(text);
      return written.ok ? ok(result) : written;
    } finally {
      lock.value();
    }
  }

  private write(text: string): Result<void, StateUnavailable> {
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, text, { mode: 0o600 });
      renameSync(tmp, this.path);
      return ok(undefined);
    } catch (e) {
      return err({ location: this.path, reason: errorCode(e) });
    }
  }

  /** Takes the lock file (created exclusively), breaking one left by a dead process; the value releases it. */
  private lock(): Result<() => void, StateUnavailable> {
    const token = `${process.pid} ${this.now()} ${Math.random()}`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
      try {
        const fd = openSync(this.lockPath, 'wx', 0o600);
        writeSync(fd, token);
        closeSync(fd);
        return ok(() => this.unlock(token));
      } catch (e) {
        if (errorCode(e) !== 'EEXIST') return err({ location: this.dir, reason: errorCode(e) });
      }
      if (this.lockIsStale()) continue;
      if (Date.now() > deadline) return err({ location: this.dir, reason: 'another TradeReq process holds its lock' });
      sleepSync(wait);
    }
  }

  private lockIsStale(): boolean {
    try {
      if (Date.now() - statSync(this.lockPath).mtimeMs < LOCK_STALE_MS) return false;
      unlinkSync(this.lockPath);
      return true;
    } catch {
      return true; // gone already: try again
    }
  }

  private unlock(token: string): void {
    try {
      // Only our own lock: a hold past LOCK_STALE_MS may have been broken and taken by another process.
      if (readFileSync(this.lockPath, 'utf8') === token) unlinkSync(this.lockPath);
    } catch {
      // already gone
    }
  }
}
