/**
 * Issue 19, point 3, as a user runs it: the README's `tradereq check examples/*.tradereq` (its
 * Quick start) passes (a rejection a request expects is information), `check` takes folders as
 * `test` does, and a missing path is one line beside the findings of the paths that exist.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { describeRun, ROOT, tradereq, type Run } from '../support/cli';

const LINE = /^(.+):(\d+):(\d+): (error|warning|information|hint): (.+)$/;
const ORDER = ['POST /api/v3/order', 'symbol = BTCUSDT', 'side = BUY', 'type = LIMIT', 'quantity = 0.001'];
/** A LIMIT order without a price: one error. */
const BAD = ORDER.join('\n') + '\n';
/** A LIMIT order with recvWindow 60000: one warning, no error. */
const WARN = [...ORDER, 'price = 30000', 'recvWindow = 60000'].join('\n') + '\n';

function lines(r: Run): string[] {
  const all = r.stdout
    .trimEnd()
    .split('\n')
    .filter((l) => l.length > 0);
  for (const l of all) assert.match(l, LINE, describeRun(r));
  return all;
}

describe('tradereq check: the examples, folders and missing paths', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => ensureBuilt());
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tradereq-check-examples-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], cwd = dir): Promise<Run> =>
    tradereq(args, { cwd, env: { TRADEREQ_STATE_DIR: join(dir, 'state') } });

  it("the README's `tradereq check examples/*.tradereq` exits 0: the expected rejections are information", async () => {
    const files = readdirSync(join(ROOT, 'examples'))
      .filter((f) => f.endsWith('.tradereq'))
      .sort()
      .map((f) => `examples/${f}`);
    assert.ok(files.includes('examples/rejections.tradereq'), files.join(', '));
    // The command as the README's Quick start writes it; the shell expands its glob to `files`.
    assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /\ntradereq check examples\/\*\.tradereq\r?\n/);
    const r = await run(['check', ...files], ROOT);
    assert.equal(r.status, 0, describeRun(r));
    assert.equal(r.stderr, '');
    for (const l of lines(r)) assert.equal(LINE.exec(l)![4], 'information', l);
    assert.match(r.stdout, /^examples\/rejections\.tradereq:\d+:\d+: information: .*# @expect code 700004/m);
  });

  it('a folder: every .tradereq file under it, named from where check runs, the same as naming them', async () => {
    mkdirSync(join(dir, 'requests', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'requests', 'a.tradereq'), BAD);
    writeFileSync(join(dir, 'requests', 'sub', 'b.tradereq'), WARN);
    writeFileSync(join(dir, 'requests', 'notes.txt'), 'not a request file\n');
    const r = await run(['check', 'requests']);
    assert.equal(r.status, 1, describeRun(r));
    assert.equal(r.stderr, '');
    const found = lines(r);
    assert.equal(found.length, 2, r.stdout);
    assert.match(found[0]!, /^requests\/a\.tradereq:4:8: error: A LIMIT order needs "price"/);
    assert.match(found[1]!, /^requests\/sub\/b\.tradereq:7:14: warning: recvWindow 60000/);
    const named = await run(['check', 'requests/a.tradereq', 'requests/sub/b.tradereq']);
    assert.equal(named.stdout, r.stdout);
    assert.equal(named.status, 1);
  });

  it('the examples folder passes as the glob does', async () => {
    const r = await run(['check', 'examples'], ROOT);
    assert.equal(r.status, 0, describeRun(r));
    assert.equal(r.stderr, '');
    for (const l of lines(r)) assert.equal(LINE.exec(l)![4], 'information', l);
  });

  it("a missing path is one line on stderr and exit 2; the other files' findings are all reported", async () => {
    writeFileSync(join(dir, 'good.tradereq'), WARN);
    writeFileSync(join(dir, 'bad.tradereq'), BAD);
    const r = await run(['check', 'good.tradereq', 'missing.tradereq', 'bad.tradereq']);
    assert.equal(r.status, 2, describeRun(r));
    assert.match(r.stderr, /^tradereq: missing\.tradereq: no such file or folder\n$/);
    const found = lines(r);
    assert.equal(found.length, 2, r.stdout);
    assert.match(found[0]!, /^good\.tradereq:7:14: warning: /);
    assert.match(found[1]!, /^bad\.tradereq:4:8: error: A LIMIT order needs "price"/);
  });
});
