/**
 * `{{variables}}` in `# @expect` lines through the built command line (issue 34, point 2): a chained
 * `orderId` expectation passes with `send`, a `# @data` row's `symbol` expectation passes on every
 * row with `test` (in every reporter), and an undefined one is a `check` finding at its line. The
 * built CLI, spawned, against the sandbox over real HTTP.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { describeRun } from '../support/cli';
import { sandboxProject, type Project } from '../support/project';

const ORDERS = `### Place
# @name place
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
timeInForce = GTC
quantity = 0.001
price = 20000

### The order placed
# @expect json orderId == {{place.response.orderId}}
# @expect json symbol == {{symbol}}
GET /api/v3/order
symbol = BTCUSDT
orderId = {{place.response.orderId}}
`;

const PRICES = `### Price
# @data prices.csv
# @expect json symbols[0].symbol == {{symbol}}
GET /api/v3/exchangeInfo
symbol = {{symbol}}
`;

const TYPO = `### Price
# @expect json symbol == {{symbl}}
GET /api/v3/ticker/price
symbol = BTCUSDT
`;

describe('{{variables}} in # @expect lines, on the command line', function () {
  this.timeout(60_000);
  let p: Project;

  before(async () => {
    ensureBuilt();
    p = await sandboxProject('expect-variables', {
      'orders.tradereq': `@symbol = BTCUSDT\n\n${ORDERS}`,
      'prices.tradereq': PRICES,
      'prices.csv': 'symbol\nBTCUSDT\nETHUSDT\n',
      'typo.tradereq': TYPO,
    });
  });
  after(() => p.close());

  it('send: a chained orderId expectation passes, shown with the value it compared', async () => {
    const place = await p.run(['send', 'orders.tradereq', '--env', 'local', '--request', 'place']);
    assert.equal(place.status, 0, describeRun(place));
    const r = await p.run(['send', 'orders.tradereq', '--env', 'local', '--request', '2']);
    assert.equal(r.status, 0, describeRun(r));
    const orderId = /✔ @expect json orderId == (\d+)\n/.exec(r.stdout)?.[1];
    assert.ok(orderId, r.stdout);
    assert.match(r.stdout, /✔ @expect json symbol == BTCUSDT\n/);
    assert.ok(!r.stdout.includes('{{'), 'no line shows a variable unresolved');
  });

  it('test: a # @data row value passes on every row, in the pretty, JSON, TAP and JUnit reports', async () => {
    mkdirSync(join(p.dir, 'out'), { recursive: true });
    const r = await p.run([
      'test',
      '--env',
      'local',
      'prices.tradereq',
      '--reporter',
      'pretty',
      '--reporter',
      'json:out/report.json',
      '--reporter',
      'tap:out/report.tap',
      '--reporter',
      'junit:out/junit.xml',
    ]);
    assert.equal(r.status, 0, describeRun(r));
    assert.match(r.stdout, /\n2 passed, 0 failed/);
    const json = JSON.parse(readFileSync(join(p.dir, 'out', 'report.json'), 'utf8')) as unknown;
    const texts = JSON.stringify(json);
    assert.ok(
      texts.includes('@expect json symbols[0].symbol == BTCUSDT') &&
        texts.includes('@expect json symbols[0].symbol == ETHUSDT'),
      texts,
    );
    const tap = readFileSync(join(p.dir, 'out', 'report.tap'), 'utf8');
    assert.equal((tap.match(/^ok /gm) ?? []).length, 2, tap);
    assert.ok(!/^not ok /m.test(tap), tap);
    assert.ok(!readFileSync(join(p.dir, 'out', 'junit.xml'), 'utf8').includes('<failure'));
  });

  it('check: an undefined variable in a # @expect line is an undefined-variable error at its name (exit 1)', async () => {
    const r = await p.run(['check', 'typo.tradereq']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /^typo\.tradereq:2:28: error: Undefined variable \{\{symbl\}\}/m);
  });

  it('send of the request with the undefined one: nothing is sent, the line named', async () => {
    const before = (await p.reached()).length;
    writeFileSync(join(p.dir, 'typo2.tradereq'), TYPO);
    const r = await p.run(['send', 'typo2.tradereq', '--env', 'local']);
    assert.equal(r.status, 2, describeRun(r));
    assert.match(r.stdout + r.stderr, /Undefined variable \{\{symbl\}\}/);
    assert.equal((await p.reached()).length, before, 'nothing was sent');
  });
});
