/**
 * Your key, your decision (docs/security.md): a cloned repository whose tradereq.env.json names its
 * only environment "sandbox", points it at the user's live origin and names the key profile `main`
 * cannot make `tradereq test` or `send` trade with the user's key. Nothing is sent without `--yes` or
 * the profile's own setting (TRADEREQ_MAIN_CONFIRM=off), both places no repository writes; with
 * either, it is sent. The live origin is a server on loopback that records what reaches it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../support/build';
import { describeRun, tradereq } from '../support/cli';

const ORDERS = `### Buy at the market
# @name buy
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = MARKET
quantity = 1
`;

/** Stands for the live service: answers the time and accepts every order, recording each request line. */
async function liveStandIn(): Promise<{ server: Server; origin: string; reached: string[] }> {
  const reached: string[] = [];
  const server = createServer((req, res) => {
    reached.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    req.resume();
    const body = req.url?.startsWith('/api/v3/time')
      ? { serverTime: Date.now() }
      : { symbol: 'BTCUSDT', orderId: '42', transactTime: Date.now() };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reached };
}

describe("a cloned repository cannot trade with the user's key without asking (tradereq test and send)", function () {
  this.timeout(120_000);
  let live: Awaited<ReturnType<typeof liveStandIn>>;
  let dir: string;
  let userEnv: Record<string, string>;

  before(async () => {
    ensureBuilt();
    live = await liveStandIn();
    dir = mkdtempSync(join(tmpdir(), 'tradereq-cloned-'));
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    // What the attacker commits: the name says sandbox, the origin is the user's live one, the profile is "main".
    const environment = { baseUrl: live.origin, key: 'main', confirm: false };
    writeFileSync(join(repo, 'tradereq.env.json'), JSON.stringify({ sandbox: environment }));
    writeFileSync(join(repo, 'orders.tradereq'), ORDERS);
    // What the user set up for their own key, as the docs say: the key, its secret and its live origin.
    userEnv = {
      TRADEREQ_STATE_DIR: join(dir, 'state'),
      TRADEREQ_MAIN_API_KEY: 'mx0userOwnApiKey0000000001',
      TRADEREQ_MAIN_SECRET_KEY: 'userOwnSecret0000000000000000000000000000',
      TRADEREQ_MAIN_ORIGINS: live.origin,
    };
  });

  after(async () => {
    await new Promise((resolve) => live.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const orders = (): string[] => live.reached.filter((r) => r.startsWith('POST /api/v3/order'));

  it('tradereq test: refused (exit 4), one line naming --yes and TRADEREQ_MAIN_CONFIRM, no order sent', async () => {
    const r = await tradereq(['test', 'repo'], { cwd: dir, env: userEnv });
    assert.equal(r.status, 4, describeRun(r));
    assert.deepEqual(orders(), [], 'no order reached the live origin');
    assert.match(r.stdout, /needs confirmation \(it can trade with your key profile "main"\)/);
    assert.match(r.stdout, /--yes.*TRADEREQ_MAIN_CONFIRM=off/);
  });

  it('tradereq send: refused the same way (exit 4), nothing sent', async () => {
    const r = await tradereq(['send', 'repo/orders.tradereq'], { cwd: dir, env: userEnv });
    assert.equal(r.status, 4, describeRun(r));
    assert.match(r.stdout, /--yes.*TRADEREQ_MAIN_CONFIRM=off/);
    assert.deepEqual(orders(), []);
  });

  it('with --yes on the command line, the order is sent', async () => {
    const r = await tradereq(['test', 'repo', '--yes'], { cwd: dir, env: userEnv });
    assert.equal(r.status, 0, describeRun(r));
    assert.equal(orders().length, 1);
  });

  it("with the profile's own setting (TRADEREQ_MAIN_CONFIRM=off), it is sent unasked; a value it does not know is bad input", async () => {
    const off = await tradereq(['send', 'repo/orders.tradereq'], {
      cwd: dir,
      env: { ...userEnv, TRADEREQ_MAIN_CONFIRM: 'off' },
    });
    assert.equal(off.status, 0, describeRun(off));
    assert.equal(orders().length, 2);
    const bad = await tradereq(['send', 'repo/orders.tradereq'], {
      cwd: dir,
      env: { ...userEnv, TRADEREQ_MAIN_CONFIRM: 'sometimes' },
    });
    assert.equal(bad.status, 2, describeRun(bad));
    assert.match(bad.stderr, /TRADEREQ_MAIN_CONFIRM is "sometimes": it takes on .* or off/);
    assert.equal(orders().length, 2);
  });
});
