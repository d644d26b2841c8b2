/**
 * A request file's snapshots: `__snapshots__/FILE.snap.json` beside it (docs/format.md, Snapshots),
 * one entry per test case, keyed by the case's id, sorted, with LF line endings and a trailing
 * newline, so that it reads and diffs well in a pull request. The file comes from a repository: it
 * is read and written only as a plain file inside the request file's folder (core/repo-file.ts: a
 * `__snapshots__` linked out of it is neither read nor written through), bounded in size and depth
 * both read and written (its text is never made past the bound), validated with zod, and a damaged
 * one is never written over unless the run updates snapshots. Written atomically (a file of this
 * process renamed over it), and only when it changed.
 */
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { BOUNDS, formatSize } from '../bounds';
import { nestsDeeperThan, parseJson } from '../format/json-value';
import { t } from '../l10n';
import { fileProblemText, readRepoFile, writeTarget, type RealPlace } from '../repo-file';
import { err, ok, type Result } from '../result';
import * as z from '../zod-mini';

/** What a snapshot holds of an answer: the status, the service's error code, the body (JSON, or text). */
export interface SnapshotEntry {
  readonly status: number;
  readonly code?: number;
  readonly body?: unknown;
  readonly bodyText?: string;
}

/** An entry as the file keeps it: the case's title too, for readers (not compared). */
interface StoredEntry extends SnapshotEntry {
  readonly request?: string;
}

/** Levels of the file above an entry's body: the file's object, `snapshots`, the entry. */
const LEVELS_ABOVE_BODY = 3;

const SNAPSHOT_VERSION = 1;

const SnapshotFileSchema = z.onFirstUse(() =>
  z.object({
    version: z.literal(SNAPSHOT_VERSION),
    snapshots: z.record(
      z.string(),
      z.object({
        request: z.optional(z.string()),
        status: z.int().check(z.minimum(0), z.maximum(999)),
        code: z.optional(z.int()),
        body: z.optional(z.unknown()),
        bodyText: z.optional(z.string()),
      }),
    ),
  }),
);

export interface SnapshotStoreOptions {
  /** `--update-snapshots`: the answers of the cases run replace their entries (and make missing ones). */
  readonly update: boolean;
  /** The request file as people should read it in messages (relative to where the run started). */
  readonly shown?: string;
  /** How to update snapshots from where the run started: "run with --update-snapshots". */
  readonly howToUpdate: string;
}

/** What reading the file gave: its entries, none (no file yet), or why it cannot be used. */
type Loaded = { readonly entries: Map<string, StoredEntry> } | { readonly damaged: string };

/** The snapshot file of `requestFile`: `__snapshots__/NAME.snap.json` in its folder. */
export function snapshotPath(requestFile: string): string {
  return join(dirname(requestFile), '__snapshots__', `${basename(requestFile)}.snap.json`);
}

export class SnapshotStore {
  /** Where the snapshots are, as the request file's folder names them. */
  readonly path: string;
  readonly update: boolean;
  readonly howToUpdate: string;
  /** The request file's folder: the snapshot file is read and written only inside it. */
  private readonly root: string;
  /** The request file's folder as messages show it. */
  private readonly shownFolder: string;
  /** Where the file really is, once read or written (a `__snapshots__` linked inside the folder leads elsewhere). */
  private place: RealPlace | undefined;
  private loaded: Promise<Loaded> | undefined;
  /** Entries written by this run: [created, changed]. */
  private readonly counts = { created: 0, changed: 0 };
  private dirty = false;

  constructor(requestFile: string, options: SnapshotStoreOptions) {
    this.path = snapshotPath(requestFile);
    this.root = dirname(requestFile);
    this.shownFolder = dirname(options.shown ?? requestFile);
    this.update = options.update;
    this.howToUpdate = options.howToUpdate;
  }

  /** The snapshot file as messages show it: the file really read or written, once known. */
  get shown(): string {
    return join(this.shownFolder, this.place?.inside ?? relative(this.root, this.path));
  }

  /** The entry of case `id`, undefined when there is none, or why the file cannot be used (one line). */
  async entry(id: string): Promise<StoredEntry | undefined | { readonly damaged: string }> {
    const loaded = await this.load();
    return 'damaged' in loaded ? loaded : loaded.entries.get(id);
  }

  /** Sets the entry of case `id` (updating snapshots only); saved by save(). */
  async put(id: string, title: string, entry: SnapshotEntry): Promise<void> {
    if (!this.update) throw new Error('snapshots are written only when the run updates them');
    let loaded = await this.load();
    // A damaged file is written over only now, when the run was asked to update snapshots.
    if ('damaged' in loaded) loaded = this.fresh();
    const created = !loaded.entries.has(id);
    loaded.entries.set(id, { request: title, ...entry });
    this.counts[created ? 'created' : 'changed']++;
    this.dirty = true;
  }

  /** Writes what this run changed; what it wrote, or why it could not (one line). */
  async save(): Promise<{ readonly created: number; readonly changed: number } | { readonly error: string }> {
    if (!this.dirty) return { created: 0, changed: 0 };
    const loaded = await this.load();
    if ('damaged' in loaded) return { error: loaded.damaged };
    const text = snapshotText(loaded.entries);
    const why = (problem: string): { readonly error: string } => ({
      error: t('{0}: not written (mask or split what the requests answer)', problem),
    });
    if (!text.ok && text.error === 'too-deep')
      return why(t('{0} would nest deeper than {1} levels', this.shown, BOUNDS.snapshotDepth));
    if (!text.ok || Buffer.byteLength(text.value) > BOUNDS.snapshotFileBytes)
      return why(t('{0} would be larger than {1}', this.shown, formatSize(BOUNDS.snapshotFileBytes)));
    const target = await writeTarget(this.path, this.root);
    if (!target.ok) return { error: t('{0}: not written', fileProblemText(this.shown, target.error)) };
    try {
      await writeWhole(target.value.real, text.value);
    } catch (e) {
      return { error: t('{0} could not be written ({1})', this.shown, errorText(e)) };
    }
    this.place = target.value;
    this.dirty = false;
    return { ...this.counts };
  }

  private fresh(): { readonly entries: Map<string, StoredEntry> } {
    const entries = { entries: new Map<string, StoredEntry>() };
    this.loaded = Promise.resolve(entries);
    return entries;
  }

  private load(): Promise<Loaded> {
    return (this.loaded ??= this.read());
  }

  private async read(): Promise<Loaded> {
    const file = await readRepoFile(this.path, this.root, BOUNDS.snapshotFileBytes);
    if (!file.ok)
      return file.error.kind === 'missing'
        ? { entries: new Map() }
        : { damaged: fileProblemText(this.shown, file.error) };
    this.place = file.value;
    const problem = (why: string): Loaded => ({
      damaged: t(
        '{0} is not a snapshot file TradeReq can read ({1}): fix it, or {2} to write it again',
        this.shown,
        why,
        this.howToUpdate,
      ),
    });
    const json = parseJson(file.value.bytes.toString('utf8').replace(/^\uFEFF/, ''));
    if (json === undefined) return problem(t('not JSON'));
    if (nestsDeeperThan(json, BOUNDS.snapshotDepth + LEVELS_ABOVE_BODY)) return problem(t('nested too deeply'));
    const parsed = SnapshotFileSchema().safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return problem(issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : t('invalid'));
    }
    // From the file's own members into a Map: a key such as "__proto__" stays a key.
    const own = json as { snapshots: Record<string, unknown> };
    const entries = new Map<string, StoredEntry>();
    for (const id of Object.keys(own.snapshots)) entries.set(id, own.snapshots[id] as StoredEntry);
    return { entries };
  }
}

/** The file's text: entries sorted by id (numbers in ids in numeric order), each as written, LF, a newline at the end. */
function snapshotText(entries: ReadonlyMap<string, StoredEntry>): Result<string, Unwritable> {
  const snapshots: Record<string, StoredEntry> = Object.create(null) as Record<string, StoredEntry>;
  for (const id of [...entries.keys()].sort(byId)) {
    const e = entries.get(id)!;
    snapshots[id] = {
      ...(e.request !== undefined && { request: e.request }),
      status: e.status,
      ...(e.code !== undefined && { code: e.code }),
      ...(e.body !== undefined && { body: e.body }),
      ...(e.bodyText !== undefined && { bodyText: e.bodyText }),
    };
  }
  const text = snapshotJson(
    { version: SNAPSHOT_VERSION, snapshots },
    BOUNDS.snapshotFileBytes,
    BOUNDS.snapshotDepth + LEVELS_ABOVE_BODY,
  );
  return text.ok ? ok(text.value + '\n') : text;
}

/** "#2" before "#10", then by code point: the same order on every machine, whatever its locale. */
function byId(a: string, b: string): number {
  const pa = a.split(/(\d+)/);
  const pb = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    // Odd pieces are digits: compared as numbers, then (leading zeros) as text.
    if (i % 2 === 1 && x.length !== y.length) {
      const nx = x.replace(/^0+/, '');
      const ny = y.replace(/^0+/, '');
      if (nx.length !== ny.length) return nx.length - ny.length;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

function errorText(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

/** Writes `text` to `path` whole or not at all: a new file of this process (never through a link), renamed over it. */
async function writeWhole(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text, { flag: 'wx' });
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** Why a value cannot be written out within the bounds: nested too deep, or too long a text. */
type Unwritable = 'too-deep' | 'too-large';

/** A list or an object being written: its members (an object's names), the next one, its indentation. */
interface Level {
  readonly value: object;
  readonly names: readonly string[] | undefined;
  readonly count: number;
  next: number;
  readonly indent: string;
}

/**
 * `value` (a JSON value) as `JSON.stringify(value, null, 2)` writes it, made without recursion and
 * only up to `maxChars` characters and `maxDepth` levels of lists and objects: past either, which.
 * Indentation grows a text with its depth (arrays nested 240 deep grow 2.3 MB past V8's longest
 * string), so the bound holds while writing, never after.
 */
export function snapshotJson(value: unknown, maxChars: number, maxDepth: number): Result<string, Unwritable> {
  const out: string[] = [];
  let length = 0;
  const levels: Level[] = [];
  const write = (text: string): Unwritable | undefined => {
    out.push(text);
    length += text.length;
    return length > maxChars ? 'too-large' : undefined;
  };
  const enter = (v: unknown, indent: string): Unwritable | undefined => {
    if (v === null || typeof v !== 'object') return write(JSON.stringify(v) ?? 'null');
    if (levels.length >= maxDepth) return 'too-deep';
    const names = Array.isArray(v)
      ? undefined
      : Object.keys(v).filter((k) => writable((v as Record<string, unknown>)[k]));
    const count = names ? names.length : (v as unknown[]).length;
    if (count === 0) return write(names ? '{}' : '[]');
    levels.push({ value: v, names, count, next: 0, indent });
    return write(names ? '{' : '[');
  };
  let problem = enter(value, '');
  while (problem === undefined && levels.length > 0) {
    const level = levels[levels.length - 1]!;
    if (level.next === level.count) {
      levels.pop();
      problem = write(`\n${level.indent}${level.names ? '}' : ']'}`);
      continue;
    }
    const i = level.next++;
    const indent = `${level.indent}  `;
    const name = level.names?.[i];
    const member = name === undefined ? (level.value as unknown[])[i] : (level.value as Record<string, unknown>)[name];
    problem =
      write(`${i === 0 ? '\n' : ',\n'}${indent}${name === undefined ? '' : `${JSON.stringify(name)}: `}`) ??
      enter(member, indent);
  }
  return problem === undefined ? ok(out.join('')) : err(problem);
}

/** Whether JSON.stringify writes an object's member of this value (it leaves out undefined, functions, symbols). */
function writable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}
