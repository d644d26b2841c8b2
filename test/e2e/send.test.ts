/**
 * `tradereq send` as a user runs it: the built CLI, spawned, against the sandbox exchange over
 * real HTTP. Each test has its own state folder (budget, clock) and its own files.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { ensureBuilt } from '../support/build';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TRADEREQ_')) env[k] = v;
  return { ...env, ...extra };
}

/** Spawns the CLI without blocking the event loop, so the in-process sandbox can answer. */
function tradereq(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env ?? {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const ORDER = (quantity = '0.001') => `POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
quantity = ${quantity}
price = 20000
`;

describe('tradereq send against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    ensureBuilt();
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, banScale: 0.001 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-send-'));
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

  async function reached(): Promise<{ method: string; path: string; status: number; code?: number }[]> {
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/requests`);
    return (await res.json()) as { method: string; path: string; status: number; code?: number }[];
  }

  it('exit 0: an accepted order prints status, outcome, the response, the budget left and timings', async () => {
    const r = await tradereq(['send', file('o.tradereq', ORDER()), '--base-url', sandbox.baseUrl], { cwd: dir, env });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /→ 200 ok/);
    assert.match(r.stdout, /"orderId"/);
    assert.match(r.stdout, /budget: account 499\/500 left/);
    assert.match(r.stdout, /timings: connect [\d.]+ ms · first byte [\d.]+ ms · total [\d.]+ ms/);
    const log = await reached();
    assert.deepEqual(
      log.map((x) => `${x.method} ${x.path} ${x.status}`),
      ['GET /api/v3/time 200', 'POST /api/v3/order 200'],
      'clock sync measured the offset first',
    );
  });

  it('a listen key obtained or sent over REST is shown masked, in text and --json output', async () => {
    const hex64 = /[0-9a-f]{64}/;
    const post = file('k.tradereq', 'POST /api/v3/userDataStream\n');
    for (const args of [[], ['--json']]) {
      const r = await tradereq(['send', post, '--base-url', sandbox.baseUrl, ...args], { cwd: dir, env });
      assert.equal(r.status, 0, r.stderr + r.stdout);
      assert.match(r.stdout, /\*\*\*\*[0-9a-f]{4}/, 'the key, masked');
      // The signature is 64 hex digits too, and no secret: only it may remain.
      assert.doesNotMatch((r.stdout + r.stderr).replace(/signature=[0-9a-f]{64}/g, ''), hex64);
    }
    const put = file('p.tradereq', 'PUT /api/v3/userDataStream\nlistenKey = ' + 'a'.repeat(64) + '\n');
    const r = await tradereq(['send', put, '--base-url', sandbox.baseUrl], { cwd: dir, env });
    assert.doesNotMatch(r.stdout + r.stderr, /a{64}/, 'a key sent as a parameter is masked too');
  });

  it('exit 1: a rejected order shows the decoded code, its meaning, cause and next step', async () => {
    const r = await tradereq(['send', file('o.tradereq', ORDER('0.000001')), '--base-url', sandbox.baseUrl], {
      cwd: dir,
      env,
    });
    assert.equal(r.status, 1, r.stderr + r.stdout);
    assert.match(r.stdout, /→ 400 rejected: 30002 Trade volume is below the minimum/);
    assert.match(r.stdout, /What to do:/);
  });

  it('exit 0 when the rejection is what `# @expect code` asked for; exit 1 when an expectation fails', async () => {
    const pass = await tradereq(
      ['send', file('a.tradereq', '# @expect code 30002\n' + ORDER('0.000001')), '--base-url', sandbox.baseUrl],
      { cwd: dir, env },
    );
    assert.equal(pass.status, 0, pass.stdout);
    assert.match(pass.stdout, /✔ @expect code 30002/);
    const fail = await tradereq(
      ['send', file('b.tradereq', '# @expect status 201\n' + ORDER()), '--base-url', sandbox.baseUrl],
      { cwd: dir, env },
    );
    assert.equal(fail.status, 1, fail.stdout);
    assert.match(fail.stdout, /✘ @expect status 201 \(got status 200\)/);
  });

  it('exit 3: a 503 after the order was carried out is an unknown outcome, never a failure, and the order exists', async () => {
    await fetch(`${sandbox.baseUrl}/_sandbox/fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 503, count: 1, path: '/api/v3/order' }),
    });
    const r = await tradereq(['send', file('o.tradereq', ORDER()), '--base-url', sandbox.baseUrl, '--json'], {
      cwd: dir,
      env,
    });
    assert.equal(r.status, 3, r.stderr + r.stdout);
    const out = JSON.parse(r.stdout.trim()) as { outcome: string; status: number; summary: string };
    assert.equal(out.outcome, 'unknown');
    assert.equal(out.status, 503);
    assert.match(out.summary, /may have succeeded: check before retrying/);
    const open = await tradereq(
      [
        'send',
        file('q.tradereq', 'GET /api/v3/openOrders\nsymbol = BTCUSDT\n'),
        '--base-url',
        sandbox.baseUrl,
        '--json',
      ],
      { cwd: dir, env },
    );
    const orders = (JSON.parse(open.stdout.trim()) as { body: unknown[] }).body;
    assert.equal(orders.length, 1, 'the order was placed although the client saw 503');
  });

  it('exit 4: after a 429 the gate refuses to send to that origin until Retry-After has passed', async () => {
    // Fill the IP counter directly: exchangeInfo weighs 10, so 50 requests use all 500 (§8).
    for (let i = 0; i < 50; i++) await (await fetch(`${sandbox.baseUrl}/api/v3/exchangeInfo`)).arrayBuffer();
    const info = file('i.tradereq', 'GET /api/v3/exchangeInfo\n');
    const limited = await tradereq(['send', info, '--base-url', sandbox.baseUrl], { cwd: dir, env });
    assert.equal(limited.status, 1, limited.stdout);
    assert.match(limited.stdout, /→ 429 rejected/);
    const before = (await reached()).length;
    const refused = await tradereq(['send', info, '--base-url', sandbox.baseUrl], { cwd: dir, env });
    assert.equal(refused.status, 4, refused.stdout + refused.stderr);
    assert.match(refused.stdout, /refused: .*429.*Retry-After/);
    assert.equal((await reached()).length, before, 'nothing reached the sandbox, so no ban (418) was provoked');
  });

  it('exit 4: a key is not sent to an origin it is not bound to, and nothing at all reaches that server', async () => {
    const hits: string[] = [];
    const other: Server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as AddressInfo).port;
      const f = file(
        'x.tradereq',
        `POST http://127.0.0.1:${port}/api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000\n`,
      );
      const keys = {
        ...env,
        TRADEREQ_API_KEY: sandbox.keys[0]!.apiKey,
        TRADEREQ_SECRET_KEY: sandbox.keys[0]!.secretKey,
      };
      const r = await tradereq(['send', f, '--base-url', sandbox.baseUrl], { cwd: dir, env: keys });
      assert.equal(r.status, 4, r.stdout + r.stderr);
      assert.match(r.stdout, /→ refused: key profile "sandbox" may not be sent to http:\/\/127\.0\.0\.1:\d+/);
      assert.equal(hits.length, 0, 'not even the clock measurement reached the other server');
      const bound = await tradereq(['send', f], {
        cwd: dir,
        env: { ...keys, TRADEREQ_ORIGINS: `http://127.0.0.1:${port}` },
      });
      assert.equal(bound.status, 0, bound.stdout + bound.stderr);
      assert.ok(
        hits.some((h) => /^POST \/api\/v3\/order\?signature=[0-9a-f]{64}$/.test(h)),
        `sent once bound: ${hits.join(', ')}`,
      );
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('exit 2: bad input sends nothing', async () => {
    const r = await tradereq(
      ['send', file('u.tradereq', 'GET /api/v3/exchangeInfo\nsymbol = {{nope}}\n'), '--base-url', sandbox.baseUrl],
      { cwd: dir, env },
    );
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^tradereq: u\.tradereq:2:12: Undefined variable \{\{nope\}\}/);
    assert.deepEqual(await reached(), []);
  });

  it('exit 2: a request with errors that check finds is not sent; the findings are named (place, rule, message) with --no-check, which sends it', async () => {
    const sell = file(
      's.tradereq',
      '### Sell\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 1\n',
    );
    const r = await tradereq(['send', sell, '--base-url', sandbox.baseUrl], { cwd: dir, env });
    assert.equal(r.status, 2, r.stderr + r.stdout);
    assert.match(r.stderr, /^tradereq: check found 2 errors in this request, .*--no-check sends it anyway/);
    assert.match(r.stderr, /\n {2}s\.tradereq:4:8: enum-value: side "sell" is not an allowed value: BUY, SELL/);
    assert.match(r.stderr, /\n {2}s\.tradereq:5:8: missing-param: A LIMIT order needs "price"/);
    assert.equal(r.stdout, '');
    assert.deepEqual(await reached(), [], 'nothing reached the sandbox, not even the clock measurement');

    const anyway = await tradereq(['send', sell, '--base-url', sandbox.baseUrl, '--no-check'], { cwd: dir, env });
    assert.equal(anyway.status, 1, anyway.stderr + anyway.stdout);
    assert.match(anyway.stdout, /→ 400 rejected: /);
    assert.deepEqual(
      (await reached()).map((x) => `${x.method} ${x.path}`),
      ['GET /api/v3/time', 'POST /api/v3/order'],
    );
  });

  it('with --all, a request with check errors is not sent and the others are; a finding its # @expect anticipates sends', async () => {
    const text =
      '### Sell, rejected on purpose\n# @expect code 33333\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 1\nprice = 1\n\n' +
      '### No price\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 1\n\n' +
      '### Ping\nGET /api/v3/ping\n';
    const r = await tradereq(['send', file('all.tradereq', text), '--all', '--base-url', sandbox.baseUrl], {
      cwd: dir,
      env,
    });
    assert.equal(r.status, 2, r.stderr + r.stdout);
    assert.match(r.stdout, /✔ @expect code 33333/);
    assert.match(r.stderr, /### 2\. No price: \/api\/v3\/order\n→ not sent: check found 1 error in this request/);
    assert.match(r.stderr, /all\.tradereq:14:8: missing-param: A LIMIT order needs "price"/);
    assert.deepEqual(
      (await reached()).map((x) => `${x.method} ${x.path} ${x.code ?? x.status}`),
      ['GET /api/v3/time 200', 'POST /api/v3/order 33333', 'GET /api/v3/ping 200'],
    );
  });

  it('# @expect snapshot is not judged by send: said not checked, never ✔', async () => {
    const r = await tradereq(
      [
        'send',
        file('snap.tradereq', '# @expect snapshot\n# @expect status 200\nGET /api/v3/ping\n'),
        '--base-url',
        sandbox.baseUrl,
      ],
      { cwd: dir, env },
    );
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(
      r.stdout,
      /\n– @expect snapshot \(compared by tradereq test and the Testing view\): not checked by send\n/,
    );
    assert.doesNotMatch(r.stdout, /✔ @expect snapshot/);
    assert.match(r.stdout, /✔ @expect status 200/);
    const json = await tradereq(['send', 'snap.tradereq', '--base-url', sandbox.baseUrl, '--json'], { cwd: dir, env });
    const record = JSON.parse(json.stdout) as { expectations: { text: string; checked?: boolean }[] };
    assert.deepEqual(
      record.expectations.map((e) => e.checked),
      [false, undefined],
      'the JSON record says which check send did not run',
    );
  });

  it('clock sync: a skewed server clock gives 700003 without sync, with the rule and offset; with sync the order goes through', async () => {
    await fetch(`${sandbox.baseUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offsetMs: -30_000 }),
    });
    const f = file('o.tradereq', ORDER());
    const skewed = await tradereq(['send', f, '--base-url', sandbox.baseUrl, '--no-clock-sync'], { cwd: dir, env });
    assert.equal(skewed.status, 1, skewed.stdout);
    assert.match(skewed.stdout, /700003/);
    assert.match(skewed.stdout, /timestamp < serverTime \+ 1000 and serverTime − timestamp ≤ recvWindow/);
    const synced = await tradereq(['send', f, '--base-url', sandbox.baseUrl], { cwd: dir, env });
    assert.equal(synced.status, 0, synced.stdout);
  });

  it('--all sends in order and chains {{NAME.response.PATH}} from an earlier response', async () => {
    const f = file(
      'chain.tradereq',
      `### place\n# @name buy\n${ORDER()}\n### query it\n# @expect json status == NEW\nGET /api/v3/order\nsymbol = BTCUSDT\norderId = {{buy.response.orderId}}\n`,
    );
    const r = await tradereq(['send', f, '--all', '--base-url', sandbox.baseUrl, '--json'], { cwd: dir, env });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome: string; expectations: { passed: boolean }[] });
    assert.deepEqual(
      lines.map((l) => l.outcome),
      ['ok', 'ok'],
    );
    assert.equal(lines[1]!.expectations[0]!.passed, true);
  });

  it('an environment with "confirm": true is refused (exit 4) without a terminal or --yes, and sent with --yes', async () => {
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ careful: { baseUrl: sandbox.baseUrl, key: 'sandbox', confirm: true } }),
    );
    const f = file('o.tradereq', ORDER());
    const refused = await tradereq(['send', f], { cwd: dir, env });
    assert.equal(refused.status, 4, refused.stdout + refused.stderr);
    assert.match(refused.stdout, /needs confirmation .*"confirm": true.*--yes/);
    assert.equal((await reached()).filter((x) => x.path === '/api/v3/order').length, 0);
    const confirmed = await tradereq(['send', f, '--yes'], { cwd: dir, env });
    assert.equal(confirmed.status, 0, confirmed.stdout);
  });

  it('never prints the secret key, in text or JSON', async () => {
    const f = file('o.tradereq', ORDER());
    for (const extra of [[], ['--json']]) {
      const r = await tradereq(['send', f, '--base-url', sandbox.baseUrl, ...extra], { cwd: dir, env });
      assert.ok(!(r.stdout + r.stderr).includes(sandbox.keys[0]!.secretKey));
      assert.ok(!(r.stdout + r.stderr).includes(sandbox.keys[0]!.apiKey), 'nor the whole API key');
    }
  });
});
