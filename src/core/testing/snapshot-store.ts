/**
 * A request file's snapshots: `__snapshots__/FILE.snap.json` beside it (docs/format.md, Snapshots),
 * one entry per test case, keyed by the case's id, sorted, with LF line endings and a trailing
 * newline, so that it reads and diffs well in a pull request. The file comes from a repository:
 * bounded, validated with zod, and a damaged one is never written over unless the run updates
 * snapshots. Written atomically (a file of this process renamed over it), and only when it changed.
 */
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BOUNDS, formatSize } from '../bounds';
import { nestsDeeperThan, parseJson } from '../format/json-value';
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

/** How the store reaches files: node:fs by default. */
export interface SnapshotFiles {
  /** The file's text; undefined when there is none; an Error when it cannot be read or exceeds `maxBytes`. */
  read(path: string, maxBytes: number): Promise<string | undefined>;
  /** Writes `text` whole or not at all. */
  write(path: string, text: string): Promise<void>;
}

export interface SnapshotStoreOptions {
  /** `--update-snapshots`: the answers of the cases run replace their entries (and make missing ones). */
  readonly update: boolean;
  /** The request file as people should read it in messages (relative to where the run started). */
  readonly shown?: string;
  /** How to update snapshots from where the run started: "run with --update-snapshots". */
  readonly howToUpdate: string;
  readonly files?: SnapshotFiles;
}

/** What reading the file gave: its entries, none (no file yet), or why it cannot be used. */
type Loaded = { readonly entries: Map<string, StoredEntry> } | { readonly damaged: string };

/** The snapshot file of `requestFile`: `__snapshots__/NAME.snap.json` in its folder. */
export function snapshotPath(requestFile: string): string {
  return join(dirname(requestFile), '__snapshots__', `${basename(requestFile)}.snap.json`);
}

export class SnapshotStore {
  /** Where the snapshots are. */
  readonly path: string;
  /** The same, as messages show it. */
  readonly shown: string;
  readonly update: boolean;
  readonly howToUpdate: string;
  private readonly files: SnapshotFiles;
  private loaded: Promise<Loaded> | undefined;
  /** Entries written by this run: [created, changed]. */
  private readonly counts = { created: 0, changed: 0 };
  private dirty = false;

  constructor(requestFile: string, options: SnapshotStoreOptions) {
    this.path = snapshotPath(requestFile);
    this.shown = snapshotPath(options.shown ?? requestFile);
    this.update = options.update;
    this.howToUpdate = options.howToUpdate;
    this.files = options.files ?? NODE_FILES;
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
    if (Buffer.byteLength(text) > BOUNDS.snapshotFileBytes)
      return {
        error: `${this.shown} would be larger than ${formatSize(BOUNDS.snapshotFileBytes)}: not written (mask or split what the requests answer)`,
      };
    try {
      await this.files.write(this.path, text);
    } catch (e) {
      return { error: `${this.shown} could not be written (${errorText(e)})` };
    }
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
    let text: string | undefined;
    try {
      text = await this.files.read(this.path, BOUNDS.snapshotFileBytes);
    } catch (e) {
      return { damaged: `${this.shown} cannot be read (${errorText(e)})` };
    }
    if (text === undefined) return { entries: new Map() };
    const problem = (why: string): Loaded => ({
      damaged: `${this.shown} is not a snapshot file TradeReq can read (${why}): fix it, or ${this.howToUpdate} to write it again`,
    });
    const json = parseJson(text.replace(/^\uFEFF/, ''));
    if (json === undefined) return problem('not JSON');
    if (nestsDeeperThan(json, BOUNDS.prettyJsonDepth)) return problem('nested too deeply');
    const parsed = SnapshotFileSchema().safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return problem(issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid');
    }
    // From the file's own members into a Map: a key such as "__proto__" stays a key.
    const own = json as { snapshots: Record<string, unknown> };
    const entries = new Map<string, StoredEntry>();
    for (const id of Object.keys(own.snapshots)) entries.set(id, own.snapshots[id] as StoredEntry);
    return { entries };
  }
}

/** The file's text: entries sorted by id (numbers in ids in numeric order), each as written, LF, a newline at the end. */
function snapshotText(entries: ReadonlyMap<string, StoredEntry>): string {
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
  return JSON.stringify({ version: SNAPSHOT_VERSION, snapshots }, null, 2) + '\n';
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

const NODE_FILES: SnapshotFiles = {
  async read(path, maxBytes) {
    try {
      if ((await stat(path)).size > maxBytes) throw new Error(`larger than ${formatSize(maxBytes)}`);
      return await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  },
  async write(path, text) {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, text);
      await rename(tmp, path);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
  },
};
