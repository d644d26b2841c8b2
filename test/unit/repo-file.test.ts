/**
 * core/repo-file.ts on real files in a temporary folder: a file a repository names is read only as
 * a plain file (fstat of the opened descriptor) whose real path is inside its root, within a bound
 * that holds while reading, the same synchronously and not; and a write goes only where it stays
 * inside the root. Devices are Linux's (/dev/zero, /dev/stdin, /proc): those tests say so and are
 * skipped elsewhere; a FIFO is made with mkfifo where there is one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fileProblemText,
  readRepoFile,
  readRepoFileSync,
  writeTarget,
  type FileProblem,
  type RepoFile,
} from '../../src/core/repo-file';
import type { Result } from '../../src/core/result';
import { madeFifo, releasing, releasingSync } from '../support/fifo';

const LINUX = process.platform === 'linux';
const MiB = 1024 * 1024;

function problem(result: Result<RepoFile, FileProblem>): FileProblem {
  assert.ok(!result.ok, 'refused');
  return result.error;
}

/** Both readers, which must agree. */
const READERS = [
  ['readRepoFileSync', (path: string, root: string, max: number) => Promise.resolve(readRepoFileSync(path, root, max))],
  ['readRepoFile', readRepoFile],
] as const;

describe('files a repository names (core/repo-file.ts)', function () {
  this.timeout(60_000);
  let dir: string;
  let root: string;

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'tradereq-repofile-')));
    root = join(dir, 'repo');
    mkdirSync(join(root, 'sub'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, read] of READERS)
    describe(name, () => {
      it('a plain file inside is read whole, with its real path; a link that stays inside leads to its file', async () => {
        writeFileSync(join(root, 'sub', 'a.json'), '{"a": 1}');
        symlinkSync(join('sub', 'a.json'), join(root, 'link.json'));
        // A name that starts with ".." is still inside.
        writeFileSync(join(root, '..a.json'), 'x');
        const direct = await read(join(root, 'sub', 'a.json'), root, MiB);
        assert.ok(direct.ok);
        assert.equal(direct.value.bytes.toString(), '{"a": 1}');
        const linked = await read(join(root, 'link.json'), root, MiB);
        assert.ok(linked.ok);
        assert.deepEqual(
          [linked.value.real, linked.value.inside, linked.value.bytes.toString()],
          [join(root, 'sub', 'a.json'), join('sub', 'a.json'), '{"a": 1}'],
        );
        assert.ok((await read(join(root, '..a.json'), root, MiB)).ok);
      });

      it('a link out of the root, of the file or of a folder on its way, is refused: where it leads', async () => {
        writeFileSync(join(dir, 'secret.json'), '{}');
        mkdirSync(join(dir, 'elsewhere'));
        writeFileSync(join(dir, 'elsewhere', 'a.json'), '{}');
        symlinkSync(join(dir, 'secret.json'), join(root, 'out.json'));
        symlinkSync(join(dir, 'elsewhere'), join(root, 'linked'), 'junction');
        assert.deepEqual(problem(await read(join(root, 'out.json'), root, MiB)), {
          kind: 'outside',
          root,
          real: join(dir, 'secret.json'),
        });
        assert.deepEqual(problem(await read(join(root, 'linked', 'a.json'), root, MiB)), {
          kind: 'outside',
          root,
          real: join(dir, 'elsewhere', 'a.json'),
        });
      });

      it('nothing there, a link to nothing, a folder: each its own problem', async () => {
        symlinkSync(join(root, 'gone.json'), join(root, 'dangling.json'));
        symlinkSync(join(dir, 'gone.json'), join(root, 'dangling-out.json'));
        assert.deepEqual(problem(await read(join(root, 'none.json'), root, MiB)), { kind: 'missing' });
        assert.deepEqual(problem(await read(join(root, 'dangling.json'), root, MiB)), {
          kind: 'dangling',
          link: join(root, 'dangling.json'),
        });
        assert.deepEqual(problem(await read(join(root, 'dangling-out.json'), root, MiB)), {
          kind: 'outside',
          root,
          real: join(dir, 'gone.json'),
        });
        assert.deepEqual(problem(await read(join(root, 'sub'), root, MiB)), { kind: 'not-a-file', what: 'folder' });
      });

      it('the bound: a file of exactly the bound is read; one byte more is refused, by fstat before reading (a sparse 1 GiB file)', async () => {
        writeFileSync(join(root, 'full'), Buffer.alloc(1024, 0x61));
        assert.ok((await read(join(root, 'full'), root, 1024)).ok);
        assert.deepEqual(problem(await read(join(root, 'full'), root, 1023)), {
          kind: 'too-large',
          maxBytes: 1023,
          bytes: 1024,
        });
        writeFileSync(join(root, 'huge'), '');
        truncateSync(join(root, 'huge'), 1024 * MiB);
        assert.deepEqual(problem(await read(join(root, 'huge'), root, MiB)), {
          kind: 'too-large',
          maxBytes: MiB,
          bytes: 1024 * MiB,
        });
      });

      (LINUX ? it : it.skip)(
        'a file that lies about its size (/proc, Linux only) is cut at one byte past the bound while read',
        async () => {
          // /proc/self/status says 0 bytes and holds a thousand.
          assert.deepEqual(problem(await read('/proc/self/status', '/proc', 16)), {
            kind: 'too-large',
            maxBytes: 16,
            bytes: 17,
          });
          const whole = await read('/proc/self/status', '/proc', MiB);
          assert.ok(whole.ok && whole.value.bytes.toString().startsWith('Name:'));
        },
      );

      (LINUX ? it : it.skip)(
        'devices (Linux only): a link to /dev/zero or /dev/stdin leads out; /dev/zero inside its root is no plain file',
        async () => {
          symlinkSync('/dev/zero', join(root, 'zero.json'));
          symlinkSync('/dev/stdin', join(root, 'stdin.json'));
          assert.deepEqual(problem(await read(join(root, 'zero.json'), root, MiB)), {
            kind: 'outside',
            root,
            real: '/dev/zero',
          });
          assert.equal(problem(await read(join(root, 'stdin.json'), root, MiB)).kind, 'outside');
          assert.deepEqual(problem(await read('/dev/zero', '/', MiB)), { kind: 'not-a-file', what: 'device' });
        },
      );

      it('a FIFO inside the root is refused at once: opened without blocking, then fstat (skipped without mkfifo)', async function () {
        const fifo = join(root, 'fifo.json');
        if (!madeFifo(fifo)) this.skip();
        const { value, released } =
          name === 'readRepoFileSync'
            ? releasingSync(fifo, () => readRepoFileSync(fifo, root, MiB))
            : await releasing(fifo, () => readRepoFile(fifo, root, MiB));
        assert.equal(released, false, 'it waited for a writer');
        assert.deepEqual(problem(value), { kind: 'not-a-file', what: 'fifo' });
      });
    });

  describe('writeTarget', () => {
    it('inside: the real path, folders still to be made included; a linked folder that stays inside leads there', async () => {
      const made = await writeTarget(join(root, 'a', 'b', 'c.json'), root);
      assert.deepEqual(made, {
        ok: true,
        value: { real: join(root, 'a', 'b', 'c.json'), inside: join('a', 'b', 'c.json') },
      });
      symlinkSync(join(root, 'sub'), join(root, 'linked'), 'junction');
      const linked = await writeTarget(join(root, 'linked', 'c.json'), root);
      assert.deepEqual(linked, {
        ok: true,
        value: { real: join(root, 'sub', 'c.json'), inside: join('sub', 'c.json') },
      });
      writeFileSync(join(root, 'sub', 'c.json'), '{}');
      symlinkSync(join(root, 'sub', 'c.json'), join(root, 'file-link.json'));
      const file = await writeTarget(join(root, 'file-link.json'), root);
      assert.deepEqual(file, { ok: true, value: { real: join(root, 'sub', 'c.json'), inside: join('sub', 'c.json') } });
    });

    it('never through a link out of the root, a link to nothing, or over what is not a plain file', async () => {
      mkdirSync(join(dir, 'outside'));
      symlinkSync(join(dir, 'outside'), join(root, 'out'), 'junction');
      symlinkSync(join(dir, 'nowhere'), join(root, 'dangling'), 'junction');
      assert.deepEqual(await writeTarget(join(root, 'out', 'new', 'c.json'), root), {
        ok: false,
        error: { kind: 'outside', root, real: join(dir, 'outside', 'new', 'c.json') },
      });
      assert.deepEqual(await writeTarget(join(root, 'dangling', 'c.json'), root), {
        ok: false,
        error: { kind: 'dangling', link: join(root, 'dangling') },
      });
      assert.deepEqual(await writeTarget(join(root, 'sub'), root), {
        ok: false,
        error: { kind: 'not-a-file', what: 'folder' },
      });
    });
  });

  it('each problem in one line that names the file and why', () => {
    const lines = [
      fileProblemText('a.json', { kind: 'missing' }),
      fileProblemText('a.json', { kind: 'outside', root: '/r', real: '/dev/zero' }),
      fileProblemText('a.json', { kind: 'dangling', link: '/r/__snapshots__' }),
      fileProblemText('a.json', { kind: 'not-a-file', what: 'fifo' }),
      fileProblemText('a.json', { kind: 'too-large', maxBytes: MiB, bytes: MiB + 1 }),
      fileProblemText('a.json', { kind: 'unreadable', code: 'EACCES' }),
    ];
    assert.deepEqual(lines, [
      'a.json: no such file',
      'a.json leads out of its folder /r (to /dev/zero): TradeReq reads and writes a file a repository names only inside that folder',
      'a.json cannot be used: /r/__snapshots__ is a link to nothing',
      'a.json is not a plain file but a named pipe (FIFO): TradeReq reads only plain files',
      'a.json is larger than TradeReq reads (1 MiB)',
      'a.json cannot be read (EACCES)',
    ]);
  });
});
