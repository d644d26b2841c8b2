/**
 * Chained requests on the command line (issue 19, point 2): the last answer of each named request
 * of a file is kept in the state folder, so `send --request` of a request that reads
 * {{buy.response.orderId}} works after an earlier `send --request buy`, says which answer it read,
 * and never reads another environment's; the kept answers hold no listen key. `test --grep` runs
 * the requests a selected one reads from, says so, and asks before an order it was not given.
 * The built CLI, spawned, against the sandbox over real HTTP.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { describeRun, type Run } from '../support/cli';
import { sandboxProject, type Project } from '../support/project';

const FILE = `@symbol = BTCUSDT
@orderId = {{buy.response.orderId}}

### Buy
# @name buy
POST /api/v3/order
symbol = {{symbol}}
side = BUY
type = LIMIT
timeInForce = GTC
quantity = 0.001
price = 20000

### Open a user data stream
# @name stream
POST /api/v3/userDataStream

### The order placed by buy
GET /api/v3/order
symbol = {{symbol}}
orderId = {{orderId}}
`;

describe('chained requests on the command line: answers kept between runs, --grep with what it reads', function () {
  this.timeout(60_000);
  let p: Project;

  before(async () => {
    ensureBuilt();
    p = await sandboxProject('chained', { 'orders.tradereq': FILE }, ['local', 'other']);
  });
  after(() => p.close());

  const run = (args: string[]): Promise<Run> => p.run(args);
  const reached = (): Promise<string[]> => p.reached();

  it("send --request of a request that reads an earlier run's answer: read from the state folder, said with its time", async () => {
    const buy = await run(['send', 'orders.tradereq', '--env', 'local', '--request', 'buy', '--json']);
    assert.equal(buy.status, 0, describeRun(buy));
    const orderId = (JSON.parse(buy.stdout) as { body: { orderId: number } }).body.orderId;
    const query = await run(['send', 'orders.tradereq', '--env', 'local', '--request', '3']);
    assert.equal(query.status, 0, describeRun(query));
    assert.match(
      query.stdout,
      /^### 3\. The order placed by buy: GET .*\n {2}\(read the answer of "buy" kept from an earlier run, received \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\)\n/,
    );
    assert.match(query.stdout, new RegExp(`"orderId": "?${orderId}"?,`));
    const signed = await run(['sign', 'orders.tradereq', '--env', 'local', '--request', '3']);
    assert.equal(signed.status, 0, describeRun(signed));
    assert.match(signed.stdout, new RegExp(`orderId=${orderId}&`));
    assert.match(signed.stderr, /read the answer of "buy" kept from an earlier run/);
  });

  it('another environment never reads it: "send that request first", nothing sent', async () => {
    const before = (await reached()).length;
    const r = await run(['send', 'orders.tradereq', '--env', 'other', '--request', '3']);
    assert.equal(r.status, 2, describeRun(r));
    assert.match(r.stderr, /needs a response of the request named "buy": send that request first/);
    assert.equal((await reached()).length, before, 'nothing was sent');
  });

  it('a kept answer holds no listen key: masked in the state folder', async () => {
    const r = await run(['send', 'orders.tradereq', '--env', 'local', '--request', 'stream', '--json']);
    assert.equal(r.status, 0, describeRun(r));
    const kept = readFileSync(join(p.dir, 'state', 'answers.json'), 'utf8');
    const stream = (JSON.parse(kept) as { answers: { name: string; json: { listenKey: string } }[] }).answers.find(
      (a) => a.name === 'stream',
    );
    assert.ok(stream, kept);
    assert.match(stream.json.listenKey, /^\*{4}.{4}$/);
    assert.doesNotMatch(kept, /[A-Za-z0-9]{40,}/, 'no listen key in clear');
  });

  it('test --grep runs what the selected request reads, says so, and asks before the order it was not given', async () => {
    const untouched = (await reached()).length;
    const refused = await run(['test', 'orders.tradereq', '--env', 'local', '--grep', 'ORDER PLACED']);
    assert.equal(refused.status, 4, describeRun(refused));
    assert.match(
      refused.stderr,
      /--grep: also runs "Buy \(buy\)" of orders\.tradereq: "The order placed by buy" reads its answer/,
    );
    assert.match(
      refused.stdout,
      /\n {6}refused: POST \/api\/v3\/order: symbol BTCUSDT, [^\n]* needs confirmation \(not selected: it runs because "The order placed by buy" reads its answer\): nothing was sent\./,
    );
    const before = await reached();
    assert.equal(before.length, untouched, 'nothing was sent without confirmation');
    const confirmed = await run(['test', 'orders.tradereq', '--env', 'local', '--grep', 'order placed', '--yes']);
    assert.equal(confirmed.status, 0, describeRun(confirmed));
    assert.match(confirmed.stdout, /\n2 passed, 0 failed/);
    const sent = (await reached()).slice(before.length);
    assert.deepEqual(sent, ['POST /api/v3/order', 'GET /api/v3/order']);
  });
});
