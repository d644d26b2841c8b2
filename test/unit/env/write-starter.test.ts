/**
 * Writing the starter into a folder (core/env/write-starter.ts), as `tradereq init` and the editor's
 * Create Starter Workspace share it, on real folders: read with \n line endings, every target
 * checked first, plain files only, a file written over only when asked. The command line's words
 * for each outcome: test/e2e/init.test.ts; the editor's: test/integration/starter.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { STARTER_FILES, STARTER_PATH } from '../../../src/core/env/starter';
import { checkStarterFolder, readStarterFiles, writeStarterFiles } from '../../../src/core/env/write-starter';

const ROOT = resolve(__dirname, '..', '..', '..');
const NAMES = STARTER_FILES.map((f) => f.name);

describe('writing the starter into a folder', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'tradereq-write-starter-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const starter = () => {
    const read = readStarterFiles(ROOT);
    assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
    return read.value;
  };

  it('reads every file the starter lists from the package, in order, with \\n line endings (a CRLF checkout included)', () => {
    assert.deepEqual(
      starter().map((f) => f.name),
      NAMES,
    );
    const crlf = join(tmp, 'package');
    mkdirSync(join(crlf, ...STARTER_PATH), { recursive: true });
    for (const name of NAMES) writeFileSync(join(crlf, ...STARTER_PATH, name), `first\r\nsecond\rthird\n`);
    const read = readStarterFiles(crlf);
    assert.ok(read.ok);
    for (const f of read.value) assert.equal(f.text, 'first\nsecond\nthird\n', f.name);
  });

  it('a file missing from the package is named with its error code', () => {
    const read = readStarterFiles(tmp);
    assert.ok(!read.ok);
    assert.equal(read.error.path, join(tmp, ...STARTER_PATH, NAMES[0]!));
    assert.equal(read.error.code, 'ENOENT');
  });

  it('a new or empty folder is clear; the plain files there are listed, the folder’s other files ignored', () => {
    assert.deepEqual(checkStarterFolder(join(tmp, 'new'), NAMES), { kind: 'clear', existing: [] });
    writeFileSync(join(tmp, 'market.tradereq'), '# mine\n');
    writeFileSync(join(tmp, 'mine.tradereq'), '# mine\n');
    assert.deepEqual(checkStarterFolder(tmp, NAMES), { kind: 'clear', existing: [join(tmp, 'market.tradereq')] });
  });

  it('a folder where a file goes stops the starter; a file where the folder goes is not a folder', () => {
    mkdirSync(join(tmp, 'orders.tradereq'));
    assert.deepEqual(checkStarterFolder(tmp, NAMES), {
      kind: 'in-the-way',
      path: join(tmp, 'orders.tradereq'),
      what: 'folder',
    });
    writeFileSync(join(tmp, 'plain'), 'x');
    assert.deepEqual(checkStarterFolder(join(tmp, 'plain'), NAMES), { kind: 'not-a-folder' });
  });

  it('a link where a file goes stops the starter, whatever it points to', function () {
    writeFileSync(join(tmp, 'elsewhere'), 'x');
    try {
      symlinkSync(join(tmp, 'elsewhere'), join(tmp, 'stream.tradereq'), 'file');
    } catch (e) {
      // Windows lets only some accounts make links.
      if ((e as NodeJS.ErrnoException).code === 'EPERM') this.skip();
      throw e;
    }
    assert.deepEqual(checkStarterFolder(tmp, NAMES), {
      kind: 'in-the-way',
      path: join(tmp, 'stream.tradereq'),
      what: 'link',
    });
  });

  it('writes every file into a folder it makes, and answers their paths', () => {
    const dir = join(tmp, 'a', 'b');
    const done = writeStarterFiles(dir, starter(), false);
    assert.ok(done.ok);
    assert.deepEqual(
      done.value,
      NAMES.map((n) => join(dir, n)),
    );
    assert.deepEqual(readdirSync(dir).sort(), [...NAMES].sort());
    for (const f of starter()) assert.equal(readFileSync(join(dir, f.name), 'utf8'), f.text);
  });

  it('over a file only when told: otherwise it stops there and names the files written before it', () => {
    writeFileSync(join(tmp, 'orders.tradereq'), '# mine\n');
    const refused = writeStarterFiles(tmp, starter(), false);
    assert.ok(!refused.ok);
    assert.deepEqual(refused.error, {
      path: join(tmp, 'orders.tradereq'),
      code: 'EEXIST',
      written: [join(tmp, 'tradereq.env.json'), join(tmp, 'market.tradereq')],
    });
    assert.equal(readFileSync(join(tmp, 'orders.tradereq'), 'utf8'), '# mine\n');
    const forced = writeStarterFiles(tmp, starter(), true);
    assert.ok(forced.ok);
    assert.notEqual(readFileSync(join(tmp, 'orders.tradereq'), 'utf8'), '# mine\n');
  });
});
