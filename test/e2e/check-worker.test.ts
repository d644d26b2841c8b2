/**
 * The editor checks large files in a worker thread (dist/check-worker.js, as the extension ships
 * it): the diagnostics are the same as the check in the calling thread, in its display language,
 * and that thread keeps running while the worker checks.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkDocument } from '../../src/core/check/check';
import { OffloadedChecker } from '../../src/core/check/offload';
import { BUILTIN_SANDBOX } from '../../src/core/env/constants';
import type { Diagnostic } from '../../src/core/format/model';
import { parse } from '../../src/core/format/parser';
import { setL10nBundle } from '../../src/core/l10n';
import { ensureBuilt } from '../support/build';
import { ROOT } from '../support/cli';

function largeFile(): string {
  const requests: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    requests.push(
      `### ${i}\nPOST /api/v3/order\nsymbol = ${i % 7 === 0 ? 'btcusdt' : 'BTCUSDT'}\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\n`,
    );
  }
  return requests.join('\n');
}

describe('the check in a worker thread', function () {
  this.timeout(60_000);
  let checker: OffloadedChecker;
  before(() => {
    ensureBuilt();
    checker = new OffloadedChecker(join(ROOT, 'dist', 'check-worker.js'));
  });
  after(() => checker?.dispose());

  it('gives the same diagnostics as the check in this thread, ranges and quick fixes included', async () => {
    const text = largeFile();
    const here = checkDocument(parse(text), { environment: BUILTIN_SANDBOX });
    const there = await checker.check(text, BUILTIN_SANDBOX);
    assert.ok(here.length > 100);
    const plain = (d: Diagnostic) => ({
      ...d,
      range: [d.range.startLine, d.range.startChar, d.range.endLine, d.range.endChar],
    });
    assert.deepEqual(JSON.parse(JSON.stringify(there.map(plain))), JSON.parse(JSON.stringify(here.map(plain))));
  });

  it("words its messages in this thread's language: a bundle set here reaches the worker, and so does going back to English", async () => {
    const text = 'post /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = MARKET\nquantity = 1\n';
    const english = 'Write the method in capitals: {0}.';
    const message = async (): Promise<string | undefined> =>
      (await checker.check(text, BUILTIN_SANDBOX)).find((d) => d.rule === 'method-case')?.message;
    try {
      assert.equal(await message(), 'Write the method in capitals: POST.');
      setL10nBundle({ [english]: '请用大写字母书写方法：{0}。' });
      assert.equal(await message(), '请用大写字母书写方法：POST。');
      setL10nBundle(undefined);
      assert.equal(await message(), 'Write the method in capitals: POST.');
    } finally {
      setL10nBundle(undefined);
    }
  });

  it('leaves this thread free while it checks: timers here keep firing until the answer comes', async () => {
    const text = largeFile();
    let ticks = 0;
    let done = false;
    const tick = (): void => {
      ticks++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    await checker.check(text, BUILTIN_SANDBOX);
    done = true;
    assert.ok(ticks > 10, `the event loop turned ${ticks} times while the worker checked`);
  });
});
