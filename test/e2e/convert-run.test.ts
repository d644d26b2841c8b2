/**
 * Issue 19, point 8: what `tradereq import` writes runs. A .http file written against the
 * production host and a Postman collection with pm.test checks are imported beside a
 * tradereq.env.json; the URLs under an environment's base URL are paths, the WebSocket request
 * is one `tradereq listen` connects (to a sandbox started here), and one `tradereq test --sandbox`
 * runs every HTTP request of both imports with their checks as `# @expect` lines (issue 21: a
 * response time check too, `# @expect duration < 5000`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURES, describeRun, tempDir, tradereq as importing } from '../fixtures/convert/harness';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { describeRun as describeLive, tradereq } from '../support/cli';

const PRODUCTION = 'https://api.example-exchange.com';

describe('tradereq import: the imported files run (issue 19)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir = '';
  let env: Record<string, string> = {};
  let http = { status: null as number | null, stdout: '', stderr: '' };
  let postman = { status: null as number | null, stdout: '', stderr: '' };

  before(async () => {
    ensureBuilt();
    sandbox = await startSandbox({ port: 0 });
    dir = tempDir();
    env = { TRADEREQ_STATE_DIR: path.join(dir, 'state') };
    // Production as the user wrote it, and the sandbox `tradereq listen` uses by default (two environments, one named sandbox).
    const environments = {
      production: { baseUrl: PRODUCTION, key: 'production' },
      sandbox: { baseUrl: sandbox.baseUrl },
    };
    fs.writeFileSync(path.join(dir, 'tradereq.env.json'), JSON.stringify(environments));
    http = importing(
      ['import', 'http', path.join(FIXTURES, 'http', 'first-hour.http'), '--out', 'first-hour.tradereq'],
      {
        cwd: dir,
      },
    );
    const collection = path.join(FIXTURES, 'postman', 'first-hour.postman_collection.json');
    postman = importing(['import', 'postman', collection, '--out', 'pm'], { cwd: dir });
  });

  after(async () => {
    await sandbox.close();
  });

  it('import http: URLs under an environment base URL are paths, the WS request a WebSocket request on /ws; the notes say which environment', () => {
    assert.equal(http.status, 0, describeRun(http));
    const text = fs.readFileSync(path.join(dir, 'first-hour.tradereq'), 'utf8');
    assert.deepEqual(
      text.split('\n').filter((l) => /^(GET|POST|WS) /.test(l)),
      ['GET /api/v3/ping', 'GET /api/v3/exchangeInfo', 'POST /api/v3/order/test', 'WS /ws'],
    );
    assert.match(text, /^# @expect json symbols\[0\]\.symbol == BTCUSDT\n/m);
    assert.match(text, /^WS \/ws\n\[subscribe\]\nspot@public\.bookTicker\.v3\.api@\{\{symbol\}\}\n/m);
    assert.match(
      http.stderr,
      /- URLs under https:\/\/api\.example-exchange\.com, the base URL of the environment "production", are written as paths: .* It is not the environment the file uses by default \("sandbox"\): choose "production" with --env production/,
    );
  });

  it('import postman: pm.test checks of the status, JSON fields and response time are # @expect lines', () => {
    assert.equal(postman.status, 0, describeRun(postman));
    const market = fs.readFileSync(path.join(dir, 'pm', 'market.tradereq'), 'utf8');
    assert.match(
      market,
      /^# @name exchange-information\n# @expect status 200\n# @expect json symbols\[0\]\.symbol == BTCUSDT\n# @expect json timezone == UTC\n# @expect duration < 5000\n/m,
    );
    assert.match(market, /^GET \/api\/v3\/exchangeInfo$/m, 'the URL written out in full is a path too');
    assert.doesNotMatch(postman.stderr, /Postman test script/);
  });

  it('tradereq listen connects the imported WebSocket request to the environment the file uses', async () => {
    const r = await tradereq(['listen', 'first-hour.tradereq', '--request', 'bookTicker', '--count', '1'], {
      cwd: dir,
      env,
    });
    assert.equal(r.status, 0, describeLive(r));
    assert.match(r.stdout, new RegExp(`^→ connected to ${sandbox.baseUrl.replace('http', 'ws')}/ws$`, 'm'));
    assert.match(r.stdout, /^→ subscribed spot@public\.bookTicker\.v3\.api@BTCUSDT$/m);
  });

  it('one tradereq test --sandbox runs both imports: every HTTP request passes its # @expect lines, the WebSocket one is skipped', async () => {
    const r = await tradereq(['test', '--sandbox', 'first-hour.tradereq', 'pm'], { cwd: dir, env });
    assert.equal(r.status, 0, describeLive(r));
    assert.match(r.stdout, /\n6 passed, 0 failed, 0 unknown, 0 refused/);
  });
});
