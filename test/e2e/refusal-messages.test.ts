/**
 * Refusals as a new user meets them on the command line (issue 19, point 4): one line each, saying
 * what happened once (never "refused: Refused:") and the exact next step: the variable that binds a
 * key profile, the answer that was no, the variable that named an unknown environment, and a
 * sandbox that is not running. The built CLI, spawned, against the sandbox over real HTTP.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '../../src/core/env/demo';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { canFakeTerminal, describeRun, inTerminal, tradereq, type Run } from '../support/cli';

const DEMO = DEMO_ACCOUNTS[0]!;

const ORDER = `POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
quantity = 0.001
price = 20000
`;

const CHAINED = `### Buy
# @name buy
${ORDER}
### The order placed by buy
GET /api/v3/order
symbol = BTCUSDT
orderId = {{buy.response.orderId}}
`;

/** A loopback port where nothing listens (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('refusal messages: one line, said once, with the exact next step', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;

  before(() => ensureBuilt());
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-refusal-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
  });
  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, text: string): string {
    writeFileSync(join(dir, name), text);
    return name;
  }
  const run = (args: string[], extra: Record<string, string> = {}): Promise<Run> =>
    tradereq(args, { cwd: dir, env: { ...env, ...extra } });
  const reached = async (): Promise<string[]> =>
    ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as { path: string }[]).map((e) => e.path);

  it('a key not bound to the origin: "refused" once, and the TRADEREQ_<PROFILE>_ORIGINS value that allows it, which does', async () => {
    file('tradereq.env.json', JSON.stringify({ local: { baseUrl: sandbox.baseUrl, key: 'desk' } }));
    const f = file('o.tradereq', ORDER);
    const keys = {
      TRADEREQ_DESK_API_KEY: DEMO.apiKey,
      TRADEREQ_DESK_SECRET_KEY: DEMO.secretKey,
      TRADEREQ_DESK_ORIGINS: 'https://api.example.com',
    };
    const r = await run(['send', f, '--no-clock-sync'], keys);
    assert.equal(r.status, 4, describeRun(r));
    const line = r.stdout.split('\n').find((l) => l.startsWith('→ '));
    const next = `TRADEREQ_DESK_ORIGINS=https://api.example.com,${sandbox.baseUrl}`;
    assert.equal(
      line,
      `→ refused: key profile "desk" may not be sent to ${sandbox.baseUrl} (it is bound to https://api.example.com, from TRADEREQ_DESK_ORIGINS). Nothing was sent. If you trust it, set ${next} and run again.`,
    );
    assert.doesNotMatch(r.stdout, /refused.*refused/i);
    const tested = await run(['test', f, '--no-clock-sync'], keys);
    assert.equal(tested.status, 4, describeRun(tested));
    assert.match(
      tested.stdout,
      /\n {6}refused: key profile "desk" may not be sent to .*If you trust it, set TRADEREQ_DESK_ORIGINS=/,
    );
    assert.doesNotMatch(tested.stdout, /refused: Refused/i);
    assert.deepEqual(await reached(), [], 'nothing was sent');
    const [name, value] = next.split('=') as [string, string];
    const bound = await run(['send', f, '--no-clock-sync'], { ...keys, [name]: value });
    assert.equal(bound.status, 0, describeRun(bound));
  });

  it('a request that follows a refusal says the refusal once', async () => {
    file('tradereq.env.json', JSON.stringify({ local: { baseUrl: sandbox.baseUrl, key: 'desk' } }));
    file('o.tradereq', CHAINED);
    const r = await run(['test', '--no-clock-sync'], {
      TRADEREQ_DESK_API_KEY: DEMO.apiKey,
      TRADEREQ_DESK_SECRET_KEY: DEMO.secretKey,
    });
    assert.equal(r.status, 4, describeRun(r));
    assert.match(r.stdout, /not run: an earlier request was refused \(key profile "desk" may not be sent to/);
    assert.match(r.stdout, /set TRADEREQ_DESK_ORIGINS=http:\/\/127\.0\.0\.1:\d+ and run again/);
    for (const l of r.stdout.split('\n')) assert.doesNotMatch(l, /refused.*refused/i, l);
  });

  it('answering no in a terminal: the order was not sent because the answer was no (exit 4)', async function () {
    if (!canFakeTerminal()) this.skip();
    file('tradereq.env.json', JSON.stringify({ careful: { baseUrl: sandbox.baseUrl, key: 'sandbox', confirm: true } }));
    const f = file('o.tradereq', ORDER);
    const r = await inTerminal(['send', f], { cwd: dir, env, answer: 'n' });
    assert.equal(r.status, 4, describeRun(r));
    assert.match(r.stdout, /\[y\/N\]/);
    assert.match(
      r.stdout,
      /→ refused: POST \/api\/v3\/order: symbol BTCUSDT, side BUY, type LIMIT, quantity 0\.001, price 20000 was not sent: you answered no\. To send it, run again and answer y, or pass --yes\./,
    );
    assert.doesNotMatch(r.stdout, /Run in a terminal/);
    assert.ok(!(await reached()).includes('/api/v3/order'), 'the order was not sent');
  });

  it('TRADEREQ_ENV naming no environment: the variable, the environments there are, and how to fix it (exit 2)', async () => {
    const f = file('o.tradereq', ORDER);
    const alone = await run(['send', f], { TRADEREQ_ENV: 'bogus' });
    assert.equal(alone.status, 2, describeRun(alone));
    assert.match(
      alone.stderr,
      /^tradereq: TRADEREQ_ENV: no environment "bogus": there is no tradereq\.env\.json beside .* or above it, so the only environment is the built-in sandbox: set TRADEREQ_ENV to one of them, or unset it\n$/,
    );
    file('tradereq.env.json', JSON.stringify({ staging: { baseUrl: sandbox.baseUrl } }));
    const beside = await run(['send', f], { TRADEREQ_ENV: 'bogus' });
    assert.equal(beside.status, 2, describeRun(beside));
    assert.match(
      beside.stderr,
      /^tradereq: TRADEREQ_ENV: no environment "bogus" in .*tradereq\.env\.json, whose environments are staging, sandbox: set TRADEREQ_ENV to one of them, or unset it\n$/,
    );
    const flag = await run(['send', f, '--env', 'bogus'], { TRADEREQ_ENV: 'staging' });
    assert.equal(flag.status, 2, describeRun(flag));
    assert.match(flag.stderr, /^tradereq: --env bogus: no environment "bogus" in .*: give --env one of them\n$/);
    assert.doesNotMatch(flag.stderr, /TRADEREQ_ENV/);
  });

  it('tradereq test with nothing answering: said once with `tradereq sandbox` and --sandbox, the rest not run, exit 1', async () => {
    const port = await closedPort();
    const origin = `http://127.0.0.1:${port}`;
    file('tradereq.env.json', JSON.stringify({ local: { baseUrl: origin, key: 'sandbox' } }));
    file('a.tradereq', CHAINED);
    file('b.tradereq', `GET /api/v3/ping\n\n###\n${ORDER}`);
    const r = await run(['test']);
    assert.equal(r.status, 1, describeRun(r));
    const hint = `not sent: nothing answers at ${origin}: start it with \`tradereq sandbox\` or run \`tradereq test --sandbox\``;
    assert.equal(r.stdout.split(hint).length - 1, 1, 'the next step is said once');
    assert.doesNotMatch(r.stdout, /Nothing answers/);
    // Once under the first request not run in each file (a.tradereq's second, b.tradereq's both).
    assert.equal(r.stdout.split(`not run: nothing answered at ${origin} earlier in this run`).length - 1, 2);
    assert.match(r.stdout, /\n0 passed, 1 failed, 0 unknown, 0 refused \(3 skipped\) in /);
  });
});
