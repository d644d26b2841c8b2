/**
 * `tradereq send` titles each request as `test` does (issue 19, point 6), in colour on a terminal
 * (bold title, green ok, red rejection), never when NO_COLOR is set, --no-color is given or the
 * output is piped. The built CLI against the sandbox; a terminal is made with `script` (util-linux:
 * Linux only, skipped where it is missing).
 */
/* eslint-disable no-control-regex -- the test reads the terminal's colour codes (ESC [ … m) */
import assert from 'node:assert/strict';
import { ensureBuilt } from '../support/build';
import { canFakeTerminal, describeRun, inTerminal } from '../support/cli';
import { sandboxProject, type Project } from '../support/project';

const FILE = `### Ping the service
# @name ping
GET /api/v3/ping

###
GET /api/v3/time

### A rejected order
POST /api/v3/order
symbol = NOPE
side = BUY
type = MARKET
quantity = 1
`;

describe('send titles each request as test does, in colour on a terminal only', function () {
  this.timeout(60_000);
  let p: Project;

  before(async () => {
    ensureBuilt();
    p = await sandboxProject('titles', { 'three.tradereq': FILE });
  });
  after(() => p.close());

  it('piped: the titles, and no colour', async () => {
    const r = await p.run(['send', 'three.tradereq', '--all']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /^### 1\. Ping the service \(ping\): GET http:\/\/127\.0\.0\.1:\d+\/api\/v3\/ping\n/);
    assert.match(r.stdout, /\n### 2: GET http:\/\/127\.0\.0\.1:\d+\/api\/v3\/time\n/);
    assert.match(r.stdout, /\n### 3\. A rejected order: POST /);
    assert.doesNotMatch(r.stdout, /\x1b/);
  });

  it('on a terminal: bold titles, a green ok and a red rejection; none with NO_COLOR or --no-color', async function () {
    if (!canFakeTerminal()) this.skip();
    const coloured = await inTerminal(['send', 'three.tradereq', '--all'], { cwd: p.dir, env: p.env });
    assert.match(
      coloured.stdout,
      /\x1b\[1m### 1\. Ping the service \(ping\): GET [^\x1b]*\x1b\[0m/,
      describeRun(coloured),
    );
    assert.match(coloured.stdout, /\x1b\[32m→ 200 ok/);
    assert.match(coloured.stdout, /\x1b\[31m→ 400 /);
    const noColor = await inTerminal(['send', 'three.tradereq', '--all'], {
      cwd: p.dir,
      env: { ...p.env, NO_COLOR: '1' },
    });
    const flag = await inTerminal(['send', 'three.tradereq', '--all', '--no-color'], { cwd: p.dir, env: p.env });
    for (const r of [noColor, flag]) {
      assert.match(r.stdout, /### 1\. Ping the service \(ping\)/, describeRun(r));
      assert.doesNotMatch(r.stdout, /\x1b\[/);
    }
  });
});
