/**
 * A shared request file is hostile input: whatever it holds, `tradereq check` (the same check the
 * editor runs on open and on every edit) ends quickly with a clear message. Each file here once
 * hung or crashed it; each run is killed at a deadline, so a regression fails instead of stalling.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRun, tradereq, type Run } from '../support/cli';

const DEADLINE_MS = 10_000;

const ORDER = 'POST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\n';

describe('hostile request files cannot hang or crash tradereq check', function () {
  this.timeout(60_000);
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-hostile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function check(name: string, text: string | Buffer): Promise<Run> {
    writeFileSync(join(dir, name), text);
    return tradereq(['check', name], { cwd: dir, timeoutMs: DEADLINE_MS });
  }

  it('variables that double each other 25 times: the check ends at once and names the one that grows past 64 KiB', async () => {
    const lines = ['@v0 = ab'];
    for (let i = 1; i <= 25; i++) lines.push(`@v${i} = {{v${i - 1}}}{{v${i - 1}}}`);
    const r = await check(
      'doubling.tradereq',
      `${lines.join('\n')}\n\n### order\n${ORDER}newClientOrderId = {{v25}}\n`,
    );
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /\{\{v16\}\} grows to more than 64 KiB once its variables are substituted/);
    assert.ok(r.stdout.split('\n').length < 100, `one message per reference, not per expansion: ${describeRun(r)}`);
  });

  it('a chain of 2,000 variables: the check ends at once; references more than 32 variables deep are errors', async () => {
    const lines = ['@c0 = x'];
    for (let i = 1; i < 2000; i++) lines.push(`@c${i} = {{c${i - 1}}}`);
    const r = await check('chain.tradereq', `${lines.join('\n')}\n\n### order\n${ORDER}newClientOrderId = {{c1999}}\n`);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /goes through more than 32 variables/);
    assert.doesNotMatch(r.stdout, /chain\.tradereq:(2|3|33):/, 'the first 32 links of the chain resolve');
  });

  it('a cycle of variables is reported as a cycle, with its path', async () => {
    const r = await check(
      'cycle.tradereq',
      `@a = {{b}}\n@b = {{c}}\n@c = {{a}}\n\n### order\n${ORDER}newClientOrderId = {{a}}\n`,
    );
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /"(a|b|c)" refers to itself through \1 → \w → \w → \1\./);
  });

  it('80,000 file variables are read in linear time', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 80_000; i++) lines.push(`@var${i} = value${i}`);
    const r = await check('variables.tradereq', `${lines.join('\n')}\n\n### order\n${ORDER}`);
    assert.equal(r.status, 0, describeRun(r));
  });

  it('12,000 preamble directives over 12,000 requests are read once, not once per request', async () => {
    const preamble = Array.from({ length: 12_000 }, () => '# @expect status 200').join('\n');
    const requests = Array.from({ length: 12_000 }, (_, i) => `### ${i}\nGET /api/v3/ping\n`).join('');
    const r = await check('directives.tradereq', `${preamble}\n\n${requests}`);
    assert.equal(r.status, 0, describeRun(r));
  });

  it('12,000 preamble `# @expect code` lines over 12,000 requests: the expected codes are read once, not once per request', async () => {
    const preamble = Array.from({ length: 12_000 }, () => '# @expect code 700003').join('\n');
    const requests = Array.from({ length: 12_000 }, (_, i) => `### ${i}\nGET /api/v3/ping\n`).join('');
    const r = await check('codes.tradereq', `${preamble}\n\n${requests}`);
    assert.equal(r.status, 0, describeRun(r));
  });

  it('150,000 problems: the first 1,000 are reported, then one line counts the rest (no RangeError)', async () => {
    const r = await check('problems.tradereq', `### bad\nGET /api/v3/ping\n${'???\n'.repeat(150_000)}`);
    assert.equal(r.status, 1, describeRun(r));
    assert.equal(r.stderr, '', describeRun(r));
    const out = r.stdout.trimEnd().split('\n');
    assert.equal(out.length, 1_001, describeRun(r));
    assert.match(
      out[1_000]!,
      /error: 149000 more problems in this file are not shown: TradeReq reports the first 1000/,
    );
  });

  it('a 50 MB file is refused in one line before it is read', async () => {
    const r = await check('huge.tradereq', Buffer.alloc(50 * 1024 * 1024, 'a = 1\n'));
    assert.equal(r.status, 2, describeRun(r));
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^tradereq: huge\.tradereq has 52428800 bytes, more than TradeReq reads \(4 MiB\): split it into smaller files\n$/,
    );
  });

  it('more than 20,000 requests: the first 20,000 are read and the rest is reported once', async () => {
    const requests = '###\nGET /api/v3/ping\n'.repeat(20_050);
    const r = await check('many.tradereq', requests);
    assert.equal(r.status, 1, describeRun(r));
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 1, describeRun(r));
    assert.match(lines[0]!, /many\.tradereq:40001:1: error: This file holds more than 20000 requests/);
  });
});
