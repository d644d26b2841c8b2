/**
 * The starter's pure parts (core/env/starter.ts): the free name New Request File offers. What init
 * writes and the editor command are tested as they run: test/e2e/init.test.ts and
 * test/integration/environment.test.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { freeFileName, starterFiles, starterPackagePaths } from '../../../src/core/env/starter';
import { readStarterFiles } from '../../../src/core/env/write-starter';
import { parseEnvironmentFile } from '../../../src/core/env/schema';
import { checkDocument } from '../../../src/core/check/check';
import { parse } from '../../../src/core/format/parser';

const ROOT = join(__dirname, '..', '..', '..');

describe('the starter: the name New Request File offers', () => {
  it('the starter file name when it is free, else -2, -3, … before the extension; taken names compared in lower case', () => {
    const taken = (names: string[]) => (n: string) => names.includes(n);
    assert.equal(freeFileName('orders.tradereq', taken([])), 'orders.tradereq');
    assert.equal(freeFileName('orders.tradereq', taken(['orders.tradereq'])), 'orders-2.tradereq');
    assert.equal(freeFileName('Orders.tradereq', taken(['orders.tradereq', 'orders-2.tradereq'])), 'Orders-3.tradereq');
    assert.equal(freeFileName('notes', taken(['notes'])), 'notes-2');
  });
});

describe('the starter of each deployment', () => {
  it('the package carries exactly the files the starters list (media/starter/, mexc own in media/starter/mexc/)', () => {
    const onDisk = readdirSync(join(ROOT, 'media', 'starter'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(/[\\/]/).join('/'))
      .sort();
    assert.deepEqual(starterPackagePaths(), onDisk);
    assert.deepEqual(
      starterFiles('mexc').map((f) => f.name),
      starterFiles('spec').map((f) => f.name),
      'the same names: a project of either deployment has the same files',
    );
  });

  it("mexc's: both environments name mexc, the live one at the deployment's address; every request file checks clean under its sandbox", () => {
    const read = readStarterFiles(ROOT, starterFiles('mexc'));
    assert.ok(read.ok, JSON.stringify(read));
    const env = parseEnvironmentFile(read.value.find((f) => f.name === 'tradereq.env.json')!.text);
    assert.ok(env.ok, String(!env.ok && env.error));
    const sandbox = env.value['sandbox']!;
    assert.equal(sandbox.deployment, 'mexc');
    assert.equal(sandbox.apiKeyHeader, 'X-MEXC-APIKEY');
    assert.equal(env.value['live']?.baseUrl, 'https://api.mexc.com');
    assert.equal(env.value['live']?.wsUrl, 'wss://wbs-api.mexc.com/ws');
    for (const f of read.value.filter((x) => x.name.endsWith('.tradereq'))) {
      const found = checkDocument(parse(f.text), { environment: { ...sandbox, name: 'sandbox' } });
      assert.deepEqual(
        found.filter((d) => d.severity === 'error' || d.severity === 'warning'),
        [],
        f.name,
      );
    }
    assert.match(read.value.find((f) => f.name === 'stream.tradereq')!.text, /\.pb@100ms@\{\{symbol\}\}/);
  });
});
