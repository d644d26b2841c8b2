/**
 * `tradereq listen` as a user runs it (the built CLI, spawned) against the sandbox playing the
 * public deployment (`startSandbox({ deployment: 'mexc' })`): `.pb` channels whose pushes come as
 * Protocol Buffers wrappers, decoded and printed as TIME CHANNEL {BODY}, `# @expect message` on the
 * decoded values, private pushes on a listen-key connection, and a frame that is no wrapper
 * (POST /_sandbox/ws/malformed) reported and counted, never fatal.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';
import { CLI, cleanEnv, describeRun, type Run } from '../support/cli';
import { control, field, limitOrder } from '../support/sandbox-ws';

const DEPTH5 = 'spot@public.limit.depth.v3.api.pb@BTCUSDT@5';
const DEALS = 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT';
const ORDERS = 'spot@private.orders.v3.api.pb';
/** A listen key of the deployment's format (63 to 65 lower-case letters and digits), or any long run of them. */
const LONG_KEY = /[a-z0-9]{40,}/;

async function until(check: () => boolean, what: string, deadlineMs = 15_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    assert.ok(Date.now() < end, `not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A run of the CLI that the test acts on while it listens. */
function live(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): { out(): string; done: Promise<Run> } {
  const start = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const done = new Promise<Run>((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - start });
    }),
  );
  return { out: () => stdout, done };
}

describe('tradereq listen against the sandbox playing mexc (Protocol Buffers pushes)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    ensureBuilt();
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, deployment: 'mexc' });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-listen-pb-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ sandbox: { deployment: 'mexc', baseUrl: sandbox.baseUrl, key: 'sandbox' } }),
    );
  });

  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A signed order with the deployment's key header, as a user's program would place it. */
  async function order(side: 'BUY' | 'SELL', quantity: string, price: string): Promise<unknown> {
    const key = sandbox.keys[0]!;
    const q = `${limitOrder(side, quantity, price)}&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', key.secretKey).update(q).digest('hex');
    const res = await request(`${sandbox.baseUrl}/api/v3/order?${q}&signature=${signature}`, {
      method: 'POST',
      headers: { 'X-MEXC-APIKEY': key.apiKey },
    });
    return JSON.parse(await res.body.text()) as unknown;
  }

  it('prints each decoded push as TIME CHANNEL {BODY}, checks # @expect message on decoded values, and reports a frame that is no wrapper (not fatal)', async () => {
    writeFileSync(
      join(dir, 'm.tradereq'),
      [
        '# @expect message publicLimitDepths.asks[0].price == "30010.00000000"',
        '# @expect message publicAggreDeals.deals[0].quantity == "0.50000000"',
        '# @expect message publicAggreDeals.deals[0].tradeType == 2',
        'WS /ws',
        '[subscribe]',
        DEPTH5,
        DEALS,
        '',
      ].join('\n'),
    );
    const run = live(['listen', 'm.tradereq', '--count', '2'], dir, env);
    // The book's state comes on subscription: then a frame that is no wrapper, then a trade.
    await until(() => run.out().includes(` ${DEPTH5} `), 'the first push');
    assert.equal(field((await control(sandbox, '/ws/malformed')).json, 'sent'), 1);
    assert.equal(field(await order('BUY', '0.5', '30010'), 'status'), 'FILLED');
    const r = await run.done;
    assert.match(
      r.stdout,
      /^\d\d:\d\d:\d\d\.\d{3} spot@public\.limit\.depth\.v3\.api\.pb@BTCUSDT@5 \{"publicLimitDepths":\{"asks":\[\{"price":"30010\.00000000","quantity":"2\.00000000"\}/m,
    );
    assert.match(
      r.stdout,
      /^\d\d:\d\d:\d\d\.\d{3} spot@public\.aggre\.deals\.v3\.api\.pb@100ms@BTCUSDT \{"publicAggreDeals":\{"deals":\[\{"price":"30010\.00000000","quantity":"0\.50000000","tradeType":1,"time":\d+/m,
    );
    assert.match(r.stdout, /^✔ @expect message publicLimitDepths\.asks\[0\]\.price == "30010\.00000000"$/m);
    assert.match(r.stdout, /^✔ @expect message publicAggreDeals\.deals\[0\]\.quantity == "0\.50000000"$/m);
    assert.match(r.stdout, /^✘ @expect message publicAggreDeals\.deals\[0\]\.tradeType == 2/m);
    assert.match(r.stderr, /^! a frame was dropped \(1 so far\): a binary frame that is not a Protocol Buffers push/m);
    assert.match(r.stderr, /^! 1 frame was dropped: 1 not a Protocol Buffers push$/m);
    assert.equal(r.status, 1, describeRun(r));
  });

  it('# @listenKey: a private order push arrives decoded on the listen-key connection; the key is never printed', async () => {
    writeFileSync(join(dir, 'p.tradereq'), `# @listenKey\nWS /ws\n[subscribe]\n${ORDERS}\n`);
    const run = live(['listen', 'p.tradereq', '--count', '1', '--json'], dir, env);
    await until(() => run.out().includes('"type":"subscription"'), 'the subscription');
    const placed = await order('BUY', '0.5', '30010');
    const r = await run.done;
    assert.equal(r.status, 0, describeRun(r));
    const records = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const push = records.find((x) => x['type'] === 'push')!;
    assert.deepEqual([push['stream'], push['body']], [ORDERS, 'privateOrders']);
    const decoded = push['push'] as Record<string, Record<string, unknown>>;
    assert.equal(decoded['channel'], ORDERS);
    assert.equal(decoded['privateOrders']!['id'], field(placed, 'orderId'));
    for (const text of [r.stdout, r.stderr])
      assert.doesNotMatch(text.replace(/"privateOrders":\{[^}]*\}/g, ''), LONG_KEY);
  });
});
