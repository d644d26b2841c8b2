/**
 * Issue 18, second round, as a user meets it (`node dist/cli.js`): commands that send nothing
 * answer bad input with one line and exit 2, never "outcome unknown" (exit 3, which a RangeError
 * became); an imported credential appears neither in what is printed nor in the summary; and the
 * files an import writes have names every system can hold.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BOUNDS } from '../../src/core/bounds';
import { assertUsageError, describeRun, tempDir, tradereq } from '../fixtures/convert/harness';
import { ensureBuilt } from '../support/build';

const KEY = 'e2eApiKeyValueNeverPrinted000001';
const SECRET = 'e2eSecretValueNeverPrinted000002';

describe('import and code over hostile input, as the command line runs them (issue 18)', function () {
  this.timeout(120_000);
  before(ensureBuilt);

  it('import curl of 130,000 query parameters: one line, exit 2', () => {
    const query = Array.from({ length: 130_000 }, (_, i) => `p${i}=1`).join('&');
    const r = tradereq(['import', 'curl'], { input: `curl "https://api.example.com/api/v3/ticker/price?${query}"` });
    assertUsageError(r, new RegExp(`130000 parameters, more than the ${BOUNDS.paramsPerRequest}`));
  });

  it('import curl with 150,000 -H: one line, exit 2', () => {
    const headers = Array.from({ length: 150_000 }, (_, i) => `-H X-H${i}:1`).join(' ');
    const r = tradereq(['import', 'curl'], { input: `curl https://api.example.com/api/v3/time ${headers}` });
    assertUsageError(r, new RegExp(`150000 headers, more than the ${BOUNDS.headersPerRequest}`));
  });

  it('code of a request with 300,000 parameters: one line, exit 2', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'big.tradereq'), `GET /api/v3/ticker/price\n${'p=1\n'.repeat(300_000)}`);
    const r = tradereq(['code', 'big.tradereq', '--lang', 'python'], { cwd: dir });
    assertUsageError(r, new RegExp(`300000 parameters, more than the ${BOUNDS.paramsPerRequest}`));
  });

  it('import curl of a URL with apiKey and secretKey: neither value printed, both names in the summary', () => {
    const r = tradereq([
      'import',
      'curl',
      '--',
      'curl',
      `https://api.example.com/api/v3/account?apiKey=${KEY}&secretKey=${SECRET}`,
    ]);
    assert.equal(r.status, 0, describeRun(r));
    for (const value of [KEY, SECRET]) assert.ok(!(r.stdout + r.stderr).includes(value), describeRun(r));
    assert.doesNotMatch(r.stdout, /^(apiKey|secretKey) =/m);
    assert.match(r.stderr, /"apiKey", "secretKey" are not copied/);
  });

  it('import postman of folders named CON, nul and aux: the files written have portable names', () => {
    const dir = tempDir();
    const ping = { name: 'Ping', request: { method: 'GET', url: 'https://api.example.com/api/v3/ping' } };
    const collection = {
      info: { name: 'NUL', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [ping, ...['CON', 'nul', 'aux', 'Com1'].map((name) => ({ name, item: [ping] }))],
    };
    fs.writeFileSync(path.join(dir, 'c.json'), JSON.stringify(collection));
    const r = tradereq(['import', 'postman', 'c.json', '--out', 'out'], { cwd: dir });
    assert.equal(r.status, 0, describeRun(r));
    const written = fs.readdirSync(path.join(dir, 'out')).filter((f) => f.endsWith('.tradereq'));
    assert.equal(written.length, 5, written.join(', '));
    for (const f of written) assert.doesNotMatch(f, /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i, f);
  });
});
