/**
 * A file a repository names (a request file, `tradereq.env.json`, a `# @data` file, a snapshot
 * file) is hostile in what it is, not only in what it holds: a link may lead out of the repository,
 * a FIFO or /dev/stdin waits for a writer, /dev/zero never ends, and a size checked beforehand can
 * lie (a file that grows, a file of /proc). Such a file is read only when its real path (every link
 * resolved, of its folders too) is inside the folder its caller names as its root, it is a plain
 * file by fstat of the opened descriptor (opened without blocking, so a FIFO never waits), and only
 * up to a byte bound that holds while reading. A write goes only to a real path inside the root
 * (writeTarget). The rule as users read it: docs/security.md (files a repository names).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpath as realpathCallback,
  realpathSync,
  type Stats,
} from 'node:fs';
import { lstat, open, readlink, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { formatSize } from './bounds';
import { t } from './l10n';
import { err, ok, type Result } from './result';

/** What a path holds that is not a plain file. */
type NotAFile = 'folder' | 'fifo' | 'device' | 'socket' | 'other';

/** Why a file a repository names is not read (or not written). */
export type FileProblem =
  | { readonly kind: 'missing' }
  | { readonly kind: 'outside'; readonly root: string; readonly real: string }
  | { readonly kind: 'dangling'; readonly link: string }
  | { readonly kind: 'not-a-file'; readonly what: NotAFile }
  | { readonly kind: 'too-large'; readonly maxBytes: number; readonly bytes: number }
  | { readonly kind: 'unreadable'; readonly code: string };

/** Where a file really is: its real path (links resolved), and that path relative to the root's real path. */
export interface RealPlace {
  readonly real: string;
  readonly inside: string;
}

/** A file read: its bytes, and where it really is. */
export interface RepoFile extends RealPlace {
  readonly bytes: Buffer;
}

/** Bytes asked of the file at once. */
const CHUNK_BYTES = 64 * 1024;

// Without blocking (a FIFO opens at once, then fstat refuses it), and not through a link swapped in
// since the path was resolved. Windows has neither flag, nor FIFOs that a path can name.
const NOFOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const OPEN_FLAGS = constants.O_RDONLY | ((constants as Partial<typeof constants>).O_NONBLOCK ?? 0) | NOFOLLOW;

// node:fs's own resolution (the callback form), as realpathSync resolves: the same answers both ways.
const realpathAsync = promisify(realpathCallback);

/** Whether `real` is below `root` (both real paths); the root itself is not a file inside it. */
function inside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** `real` as a place of `root`, or why it is not one. */
function placeIn(root: string, real: string): Result<RealPlace, FileProblem> {
  return inside(root, real) ? ok({ real, inside: relative(root, real) }) : err({ kind: 'outside', root, real });
}

function codeOf(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

/** An error of the file system as a problem: nothing there, a folder, or the code. */
function problemOf(e: unknown): FileProblem {
  const code = codeOf(e);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  if (code === 'EISDIR') return { kind: 'not-a-file', what: 'folder' };
  return { kind: 'unreadable', code };
}

/** Why `stats` (of the opened descriptor) is not a plain file within `maxBytes`, if it is not. */
function statsProblem(stats: Stats, maxBytes: number): FileProblem | undefined {
  if (stats.isFile()) return stats.size > maxBytes ? { kind: 'too-large', maxBytes, bytes: stats.size } : undefined;
  if (stats.isDirectory()) return { kind: 'not-a-file', what: 'folder' };
  if (stats.isFIFO()) return { kind: 'not-a-file', what: 'fifo' };
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return { kind: 'not-a-file', what: 'device' };
  return { kind: 'not-a-file', what: stats.isSocket() ? 'socket' : 'other' };
}

/**
 * Where a path that does not resolve leads: a link named there leads to nothing (or, when its
 * target as written is outside the root, out of it); otherwise there is nothing at the path.
 */
function unresolved(path: string, root: string, e: unknown, link: string | undefined): FileProblem {
  if (link === undefined) return problemOf(e);
  const target = resolve(dirname(path), link);
  return inside(root, target) ? { kind: 'dangling', link: path } : { kind: 'outside', root, real: target };
}

/** The bytes read so far, never more than one past the bound (which tells a file too large, even one that grows). */
class Chunks {
  private readonly parts: Buffer[] = [];
  private length = 0;
  constructor(private readonly maxBytes: number) {}

  /** Room for the next read, or undefined once past the bound. */
  room(): Buffer | undefined {
    const left = this.maxBytes + 1 - this.length;
    return left > 0 ? Buffer.allocUnsafe(Math.min(CHUNK_BYTES, left)) : undefined;
  }

  add(chunk: Buffer, bytes: number): void {
    this.parts.push(chunk.subarray(0, bytes));
    this.length += bytes;
  }

  result(): Result<Buffer, FileProblem> {
    if (this.length > this.maxBytes) return err({ kind: 'too-large', maxBytes: this.maxBytes, bytes: this.length });
    return ok(Buffer.concat(this.parts, this.length));
  }
}

/** Where `path` really is, when that is inside `root`'s real path. */
function locateSync(path: string, root: string): Result<RealPlace, FileProblem> {
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch (e) {
    return err(problemOf(e));
  }
  try {
    return placeIn(rootReal, realpathSync(path));
  } catch (e) {
    let link: string | undefined;
    try {
      if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path);
    } catch {
      // Nothing at the path itself.
    }
    return err(unresolved(path, rootReal, e, link));
  }
}

/** `path` read as a file of `root`, at most `maxBytes` (synchronously: the command line, `# @data` files). */
export function readRepoFileSync(path: string, root: string, maxBytes: number): Result<RepoFile, FileProblem> {
  const place = locateSync(path, root);
  if (!place.ok) return place;
  const file = readPlainFileSync(place.value.real, maxBytes);
  return file.ok ? ok({ ...place.value, bytes: file.value.bytes }) : file;
}

/**
 * The bytes of the plain file at `path` and what fstat said of it, read with `maxBytes` as a bound
 * that holds while reading; opened without blocking (a FIFO never waits), and without following a
 * link unless `followLinks` (the state folder's own files, not a repository's).
 */
export function readPlainFileSync(
  path: string,
  maxBytes: number,
  followLinks = false,
): Result<{ readonly bytes: Buffer; readonly stats: Stats }, FileProblem> {
  let fd: number;
  try {
    fd = openSync(path, followLinks ? OPEN_FLAGS & ~NOFOLLOW : OPEN_FLAGS);
  } catch (e) {
    // A file where a folder of the path should be is no missing file: it cannot be read (a state folder that is a file).
    return err(codeOf(e) === 'ENOTDIR' ? { kind: 'unreadable', code: 'ENOTDIR' } : problemOf(e));
  }
  try {
    const stats = fstatSync(fd);
    const problem = statsProblem(stats, maxBytes);
    if (problem) return err(problem);
    const chunks = new Chunks(maxBytes);
    for (let room = chunks.room(); room !== undefined; room = chunks.room()) {
      const bytes = readSync(fd, room, 0, room.length, null);
      if (bytes === 0) break;
      chunks.add(room, bytes);
    }
    const bytes = chunks.result();
    return bytes.ok ? ok({ bytes: bytes.value, stats }) : bytes;
  } catch (e) {
    return err(problemOf(e));
  } finally {
    closeSync(fd);
  }
}

/** As locateSync, without blocking the thread. */
async function locate(path: string, root: string): Promise<Result<RealPlace, FileProblem>> {
  let rootReal: string;
  try {
    rootReal = await realpathAsync(root);
  } catch (e) {
    return err(problemOf(e));
  }
  try {
    return placeIn(rootReal, await realpathAsync(path));
  } catch (e) {
    const stats = await lstat(path).catch(() => undefined);
    const link = stats?.isSymbolicLink() ? await readlink(path).catch(() => undefined) : undefined;
    return err(unresolved(path, rootReal, e, link));
  }
}

/** `path` read as a file of `root`, at most `maxBytes`, without blocking the thread (the editor, snapshots). */
export async function readRepoFile(
  path: string,
  root: string,
  maxBytes: number,
): Promise<Result<RepoFile, FileProblem>> {
  const place = await locate(path, root);
  if (!place.ok) return place;
  let handle: FileHandle;
  try {
    handle = await open(place.value.real, OPEN_FLAGS);
  } catch (e) {
    return err(problemOf(e));
  }
  try {
    const problem = statsProblem(await handle.stat(), maxBytes);
    if (problem) return err(problem);
    const chunks = new Chunks(maxBytes);
    for (let room = chunks.room(); room !== undefined; room = chunks.room()) {
      const { bytesRead } = await handle.read(room, 0, room.length, null);
      if (bytesRead === 0) break;
      chunks.add(room, bytesRead);
    }
    const bytes = chunks.result();
    return bytes.ok ? ok({ ...place.value, bytes: bytes.value }) : bytes;
  } catch (e) {
    return err(problemOf(e));
  } finally {
    await handle.close();
  }
}

/**
 * Where writing `path` really writes, when that is a file of `root`: the nearest part of the path
 * that exists, its links resolved, is inside the root (what is missing below it is made as plain
 * folders), and a file already at the path is a plain file inside the root (a link to one leads to
 * it). A link to nothing on the way is refused, never made into a folder or a file out there.
 */
export async function writeTarget(path: string, root: string): Promise<Result<RealPlace, FileProblem>> {
  let rootReal: string;
  try {
    rootReal = await realpathAsync(root);
  } catch (e) {
    return err(problemOf(e));
  }
  const missing: string[] = [];
  let at = path;
  while (!(await lstat(at).catch(() => undefined))) {
    if (dirname(at) === at) return err({ kind: 'missing' });
    missing.unshift(basename(at));
    at = dirname(at);
  }
  let real: string;
  try {
    real = await realpathAsync(at);
  } catch {
    return err({ kind: 'dangling', link: at });
  }
  const place = placeIn(rootReal, join(real, ...missing));
  if (place.ok && missing.length === 0) {
    const problem = statsProblem(await stat(real), Number.POSITIVE_INFINITY);
    if (problem) return err(problem);
  }
  return place;
}

/** `problem` in one line, `shown` naming the file. */
export function fileProblemText(shown: string, problem: FileProblem): string {
  switch (problem.kind) {
    case 'missing':
      return t('{0}: no such file', shown);
    case 'outside':
      return t(
        '{0} leads out of its folder {1} (to {2}): TradeReq reads and writes a file a repository names only inside that folder',
        shown,
        problem.root,
        problem.real,
      );
    case 'dangling':
      return t('{0} cannot be used: {1} is a link to nothing', shown, problem.link);
    case 'not-a-file':
      return t('{0} is not a plain file but {1}: TradeReq reads only plain files', shown, notAFileText(problem.what));
    case 'too-large':
      return t('{0} is larger than TradeReq reads ({1})', shown, formatSize(problem.maxBytes));
    case 'unreadable':
      return t('{0} cannot be read ({1})', shown, problem.code);
  }
}

function notAFileText(what: NotAFile): string {
  switch (what) {
    case 'folder':
      return t('a folder');
    case 'fifo':
      return t('a named pipe (FIFO)');
    case 'device':
      return t('a device');
    case 'socket':
      return t('a socket');
    case 'other':
      return t('something else');
  }
}
