/**
 * A request file's snapshot file as a repository may commit it (the rule of docs/security.md on files
 * a repository names): a `__snapshots__` linked out of the request file's folder is neither read nor written
 * through, one linked inside is written where it leads (and the store names that file), a snapshot
 * file that is a device or a FIFO is refused at once without being read, and a snapshot nested too
 * deep or too large for its bound is refused in one line, its text never made past the bound.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { err, ok } from '../../../src/core/result';
import {
  SnapshotStore,
  snapshotJson,
  snapshotPath,
  type SnapshotEntry,
} from '../../../src/core/testing/snapshot-store';
import { madeFifo, releasing } from '../../support/fifo';

const HOW = 'run with --update-snapshots';
/** The devices /dev/zero and /dev/stdin are Linux's (and macOS's, but the tests were written for Linux's). */
const LINUX = process.platform === 'linux';
const ENTRY: SnapshotEntry = { status: 200, body: { ok: true } };
const SHOWN = join('__snapshots__', 'orders.tradereq.snap.json');

/** `leaf` inside `depth` lists. */
function nest(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function damaged(entry: unknown): string {
  assert.ok(typeof entry === 'object' && entry !== null && 'damaged' in entry, JSON.stringify(entry));
  return String(entry.damaged);
}

describe('snapshot files as a repository commits them', function () {
  this.timeout(60_000);
  let dir: string;
  let repo: string;
  let file: string;

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'tradereq-snapfiles-')));
    repo = join(dir, 'repo');
    mkdirSync(repo);
    file = join(repo, 'orders.tradereq');
    writeFileSync(file, '# @expect snapshot\nGET /api/v3/ping\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const store = (update: boolean): SnapshotStore =>
    new SnapshotStore(file, { update, howToUpdate: HOW, shown: 'orders.tradereq' });

  async function saved(entry: SnapshotEntry): Promise<Awaited<ReturnType<SnapshotStore['save']>>> {
    const s = store(true);
    await s.put('#1', 'Ping', entry);
    return s.save();
  }

  it('__snapshots__ linked to a folder outside: not read, and --update-snapshots refuses to write there (the path and why); the file out there is untouched', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    const target = join(outside, 'orders.tradereq.snap.json');
    const text = JSON.stringify({ version: 1, snapshots: { '#1': { status: 500 } } });
    writeFileSync(target, text);
    symlinkSync(outside, join(repo, '__snapshots__'), 'junction');
    const read = damaged(await store(false).entry('#1'));
    assert.ok(read.startsWith(`${SHOWN} leads out of its folder ${repo} (to ${target})`), read);
    const result = await saved(ENTRY);
    assert.ok('error' in result, JSON.stringify(result));
    assert.ok(result.error.startsWith(`${SHOWN} leads out of its folder ${repo} (to ${target})`), result.error);
    assert.match(result.error, /: not written$/);
    assert.equal(readFileSync(target, 'utf8'), text, 'the file out there is untouched');
  });

  it('__snapshots__ linked to a folder inside: written where it leads, and the store names that file', async () => {
    mkdirSync(join(repo, 'snaps'));
    symlinkSync(join(repo, 'snaps'), join(repo, '__snapshots__'), 'junction');
    const s = store(true);
    await s.put('#1', 'Ping', ENTRY);
    assert.deepEqual(await s.save(), { created: 1, changed: 0 });
    assert.equal(s.shown, join('snaps', 'orders.tradereq.snap.json'));
    assert.match(readFileSync(join(repo, 'snaps', 'orders.tradereq.snap.json'), 'utf8'), /"ok": true/);
  });

  it('a snapshot file that is a link to nothing is not written through', async () => {
    symlinkSync(join(dir, 'nowhere'), join(repo, '__snapshots__'), 'junction');
    const result = await saved(ENTRY);
    assert.ok('error' in result, JSON.stringify(result));
    assert.match(result.error, /__snapshots__ is a link to nothing/);
    assert.ok(!existsSync(join(dir, 'nowhere')));
  });

  (LINUX ? it : it.skip)(
    'a snapshot file linked to /dev/zero or /dev/stdin (Linux only) is refused at once, not read',
    async () => {
      mkdirSync(join(repo, '__snapshots__'));
      for (const device of ['/dev/zero', '/dev/stdin']) {
        rmSync(snapshotPath(file), { force: true });
        symlinkSync(device, snapshotPath(file));
        const why = damaged(await store(false).entry('#1'));
        assert.ok(why.startsWith(`${SHOWN} leads out of its folder ${repo} (to /`), why);
        const result = await saved(ENTRY);
        assert.ok('error' in result && result.error.startsWith(`${SHOWN} leads out of`), JSON.stringify(result));
      }
    },
  );

  it('a snapshot file that is a FIFO is refused at once: opening it never waits for a writer (skipped without mkfifo)', async function () {
    mkdirSync(join(repo, '__snapshots__'));
    if (!madeFifo(snapshotPath(file))) this.skip();
    const read = await releasing(snapshotPath(file), () => store(false).entry('#1'));
    assert.equal(read.released, false, 'it waited for a writer');
    assert.equal(
      damaged(read.value),
      `${SHOWN} is not a plain file but a named pipe (FIFO): TradeReq reads only plain files`,
    );
    const write = await releasing(snapshotPath(file), () => saved(ENTRY));
    assert.equal(write.released, false, 'it waited for a writer');
    assert.ok('error' in write.value, JSON.stringify(write.value));
  });

  it('a snapshot nested deeper than 64 levels is refused in one line when written; a committed one of 2.3 MB nested 240 deep is not read', async () => {
    const result = await saved({ status: 200, body: nest(240) });
    assert.ok('error' in result, JSON.stringify(result));
    assert.equal(
      result.error,
      `${SHOWN} would nest deeper than 64 levels: not written (mask or split what the requests answer)`,
    );
    assert.ok(!existsSync(snapshotPath(file)));
    mkdirSync(dirname(snapshotPath(file)));
    const body = Array.from({ length: 4_800 }, () => nest(240));
    const committed = JSON.stringify({ version: 1, snapshots: { '#1': { status: 200, body } } });
    assert.ok(committed.length > 2_300_000, `${committed.length} characters`);
    writeFileSync(snapshotPath(file), committed);
    assert.match(
      damaged(await store(false).entry('#1')),
      /is not a snapshot file TradeReq can read \(nested too deeply\)/,
    );
  });

  it('the bounded writer writes what JSON.stringify(value, null, 2) writes, up to its bounds exactly', () => {
    const values: unknown[] = [
      null,
      1,
      -0,
      1.5e300,
      'a"\\\n\u2028\u0001',
      true,
      [],
      {},
      [[], {}],
      { a: [1, { b: null }], 'c d': 'x', '': 2, é: 'ü' },
      [undefined, () => 1, Symbol('s'), NaN],
      { u: undefined, f: () => 1, n: NaN, i: -Infinity },
      JSON.parse('{"__proto__": {"x": 1}, "2": 1, "1": 0, "b": [1, 2]}'),
      nest(64, { deep: [1] }),
    ];
    for (const value of values)
      assert.deepEqual(snapshotJson(value, Infinity, Infinity), ok(JSON.stringify(value, null, 2)));
    const text = JSON.stringify({ a: [1, 2] }, null, 2);
    assert.deepEqual(snapshotJson({ a: [1, 2] }, text.length, 2), ok(text));
    assert.deepEqual(snapshotJson({ a: [1, 2] }, text.length - 1, 2), err('too-large'));
    assert.deepEqual(snapshotJson({ a: [1, 2] }, Infinity, 1), err('too-deep'));
    assert.deepEqual(snapshotJson({ a: [] }, Infinity, 1), err('too-deep'), 'an empty list is a level too');
  });

  it("a snapshot whose text would pass 8 MiB is refused in one line, its text never made whole (V8's longest string is 0.5 GB)", async () => {
    // 70,000 references to one list nested 60 deep: little memory, and 580 million characters pretty-printed.
    const result = await saved({ status: 200, body: Array<unknown>(70_000).fill(nest(60)) });
    assert.ok('error' in result, JSON.stringify(result));
    assert.equal(
      result.error,
      `${SHOWN} would be larger than 8 MiB: not written (mask or split what the requests answer)`,
    );
    assert.ok(!existsSync(snapshotPath(file)));
  });
});
