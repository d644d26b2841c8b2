/**
 * `tradereq listen` as a user runs it: the built CLI, spawned, against the sandbox exchange over
 * real WebSocket and HTTP. Each test has its own folder (request files, tradereq.env.json pointing
 * at the sandbox, the rate-limit state). Runs that must be acted on while they listen (an order
 * placed, the connection dropped, a signal) are spawned and watched; every wait polls a condition
 * with a deadline.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../src/core/budget/budget';
import { FileStateStore } from '../../src/core/budget/state';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { CLI, cleanEnv, describeRun, tradereq, type Run } from '../support/cli';
import { control, field, limitOrder, signed } from '../support/sandbox-ws';
import { ensureBuilt } from '../support/build';

const BOOK = 'spot@public.bookTicker.v3.api@BTCUSDT';
const DEPTH = 'spot@public.limit.depth.v3.api@BTCUSDT@5';
const ORDERS = 'spot@private.orders.v3.api';
/** A listen key as the sandbox makes them (64 hex characters), or any long run of hex. */
const LONG_HEX = /[0-9a-f]{32,}/i;

/** Polls `check` until it holds, failing after `deadlineMs` with `what`. */
async function until(check: () => boolean | Promise<boolean>, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    assert.ok(Date.now() < end, `not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A run of the CLI that the test acts on while it goes: its output so far, and its end. */
interface Live {
  readonly child: ChildProcess;
  out(): string;
  err(): string;
  readonly done: Promise<Run>;
}

function live(args: readonly string[], cwd: string, env: Record<string, string>): Live {
  const start = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const done = new Promise<Run>((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - start });
    }),
  );
  return { child, out: () => stdout, err: () => stderr, done };
}

/** Each line of --json output, parsed. */
function records(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('tradereq listen against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    ensureBuilt();
  });

  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, banScale: 0.001 });
    dir = mkdtempSync(join(tmpdir(), 'tradereq-listen-'));
    env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      JSON.stringify({ sandbox: { baseUrl: sandbox.baseUrl, key: 'sandbox' } }),
    );
  });

  afterEach(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, text: string): string {
    writeFileSync(join(dir, name), text);
    return name;
  }

  async function reached(): Promise<string[]> {
    const log = (await control(sandbox, '/requests')).json;
    assert.ok(Array.isArray(log));
    return log.map((e) => `${String(field(e, 'method'))} ${String(field(e, 'path'))} ${String(field(e, 'status'))}`);
  }

  async function subscriptions(): Promise<number> {
    return Number(field((await control(sandbox, '/ws')).json, 'subscriptions'));
  }

  const run = (args: string[]): Promise<Run> => tradereq(['listen', ...args], { cwd: dir, env });

  it('exit 0: subscribes, prints each push as TIME STREAM DATA, stops at --count (over # @listen) and checks # @expect message', async () => {
    const f = file(
      'm.tradereq',
      `# @listen 30s\n# @expect message s == BTCUSDT\nWS /ws\n[subscribe]\n${BOOK}\n${DEPTH}\n[message]\n{"method": "PING"}\n`,
    );
    const r = await run([f, '--count', '2']);
    assert.equal(r.status, 0, describeRun(r));
    assert.match(r.stdout, /^→ connected to ws:\/\/127\.0\.0\.1:\d+\/ws$/m);
    assert.match(r.stdout, new RegExp(`^→ subscribed ${BOOK.replace(/\./g, '\\.')}$`, 'm'));
    // Depth and bookTicker send their state when subscribed: two pushes at once.
    assert.match(r.stdout, /^\d\d:\d\d:\d\d\.\d{3} spot@public\.bookTicker\.v3\.api@BTCUSDT \{"b":"29990\.00000000"/m);
    assert.match(r.stdout, /^\d\d:\d\d:\d\d\.\d{3} spot@public\.limit\.depth\.v3\.api@BTCUSDT@5 \{"e":/m);
    assert.match(r.stdout, /→ closed after 2 pushes in [\d.]+ s: the count of 2 reached/);
    assert.match(r.stdout, /^✔ @expect message s == BTCUSDT$/m);
    assert.ok(r.ms < 20_000, 'the --count ended it, not the # @listen 30s');
    assert.equal(r.stderr, '');
  });

  it('exit 1: a [message] the server refuses fails the run, its reply on standard error', async () => {
    const f = file('m.tradereq', `WS /ws\n[subscribe]\n${BOOK}\n[message]\n{"method": "NOPE"}\n`);
    // A bound in time, not in pushes: the reply comes after the first push.
    const r = await run([f, '--duration', '1']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stderr, /^← reply \{"id":\d+,"code":33333,/m);
    assert.doesNotMatch(r.stdout, /← reply/);
  });

  it('--json: one JSON object a line (connected, subscription, push, reply, end); # @listen bounds the run', async () => {
    const f = file('m.tradereq', `# @listen 1\nWS /ws\n[subscribe]\n${BOOK}\n`);
    const r = await run([f, '--json']);
    assert.equal(r.status, 0, describeRun(r));
    const lines = records(r.stdout);
    assert.deepEqual(
      lines.map((l) => l['type']),
      ['connected', 'subscription', 'push', 'end'],
    );
    assert.deepEqual(lines[1], { type: 'subscription', stream: BOOK, ok: true, code: null, msg: null });
    assert.equal(field(lines[2]!['push'], 'c'), BOOK);
    assert.deepEqual([lines[3]!['reason'], lines[3]!['pushes'], lines[3]!['exit']], ['count', 1, 0]);
  });

  it('exit 1: an expectation no push meets, with what was seen', async () => {
    const f = file('m.tradereq', `# @expect message s == ETHUSDT\nWS /ws\n[subscribe]\n${BOOK}\n`);
    const r = await run([f, '--count', '1']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stdout, /^✘ @expect message s == ETHUSDT \(got s = BTCUSDT \(the last of 1 pushes\)\)$/m);
  });

  it('exit 1: a subscription the server refuses (a private stream without a listen key) is printed with its code', async () => {
    const f = file('m.tradereq', `WS /ws\n[subscribe]\n${ORDERS}\n`);
    const r = await run([f, '--duration', '1']);
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stderr, /✘ not subscribed spot@private\.orders\.v3\.api: code 401: .*listen key/);
  });

  it('# @listenKey: a private stream receives the order placed over REST; the key is closed at the end and never printed or written', async () => {
    const f = file('mine.tradereq', `# @listenKey\nWS /ws\n[subscribe]\n${ORDERS}\n`);
    const l = live(['listen', f, '--count', '1', '--json'], dir, env);
    await until(async () => (await subscriptions()) === 1, 'the private stream is subscribed');
    const order = await signed(sandbox, 'POST', '/api/v3/order', limitOrder('BUY', '0.001', '20000'));
    assert.equal(order.status, 200, order.text);
    const r = await l.done;
    assert.equal(r.status, 0, describeRun(r));
    const lines = records(r.stdout);
    assert.match(String(lines[0]!['listenKey']), /^\*\*\*\*[0-9a-f]{4}$/, 'the key is shown masked');
    const push = lines.find((x) => x['type'] === 'push')!;
    assert.equal(push['stream'], ORDERS);
    assert.equal(field(field(push['push'], 'd'), 'i'), String(field(order.json, 'orderId')));
    assert.deepEqual(
      (await reached()).filter((x) => x.includes('userDataStream')),
      ['POST /api/v3/userDataStream 200', 'DELETE /api/v3/userDataStream 200'],
    );
    for (const text of [r.stdout, r.stderr]) assert.doesNotMatch(text, LONG_HEX);
    // The files the run wrote; code-cache/ holds V8's compiled bundles, written before any key exists.
    for (const entry of readdirSync(join(dir, 'state'), { withFileTypes: true }).filter((e) => e.isFile()))
      assert.doesNotMatch(readFileSync(join(dir, 'state', entry.name), 'utf8'), LONG_HEX, entry.name);
  });

  it('--no-reconnect: a connection the server cuts ends the run, reported with its close code and explained: exit 1', async () => {
    const f = file('m.tradereq', `WS /ws\n[subscribe]\n${BOOK}\n`);
    const l = live(['listen', f, '--no-reconnect'], dir, env);
    await until(() => l.out().includes('→ subscribed'), 'the run is subscribed');
    assert.equal((await control(sandbox, '/ws/drop')).status, 200);
    const r = await l.done;
    assert.equal(r.status, 1, describeRun(r));
    assert.match(r.stderr, /✘ the connection was closed \(code 1006\): The connection dropped with no close frame/);
    assert.match(r.stdout, /→ closed after 1 push in/);
  });

  it('a dropped connection is re-opened and re-subscribed: the gap is told as it starts and ends, with its estimate, and listed at the end', async () => {
    const f = file('m.tradereq', `WS /ws\n[subscribe]\n${BOOK}\n`);
    const l = live(['listen', f], dir, env);
    await until(() => l.out().includes('→ subscribed'), 'the run is subscribed');
    assert.equal((await control(sandbox, '/ws/drop')).status, 200);
    // The back-off's first wait is at most 1 s: this waits for the line, not for a time.
    await until(() => l.out().includes('→ reconnected at'), 'the run reconnected', 20_000);
    await until(async () => (await subscriptions()) === 1, 'the stream is subscribed again');
    l.child.kill('SIGTERM');
    const r = await l.done;
    assert.equal(r.status, 0, describeRun(r));
    assert.match(
      r.stderr,
      /^! connection lost at [\d:.]+ \(code 1006\): The connection dropped with no close frame.*; reconnecting/m,
    );
    assert.match(
      r.stdout,
      /^→ reconnected at [\d:.]+ after [\d.]+ s \(1 attempt\), streams subscribed again; about \d+ push(es)? may have been missed \(an estimate: [\d.]+ a second before the gap\)$/m,
    );
    assert.equal(r.stdout.match(/^→ subscribed /gm)?.length, 2, 'subscribed, then subscribed again');
    assert.match(
      r.stdout,
      /^→ 1 gap without a connection, [\d.]+ s in all; about \d+ push(es)? may have been missed \(an estimate\)$/m,
    );
    assert.match(r.stdout, /^ {2}gap at [\d:.]+, [\d.]+ s, code 1006: The connection dropped/m);
  });

  it('--json: each gap is a record as it starts and ends, and the end lists them', async () => {
    const f = file('m.tradereq', `WS /ws\n[subscribe]\n${BOOK}\n`);
    const l = live(['listen', f, '--json'], dir, env);
    await until(() => l.out().includes('"type":"subscription"'), 'the run is subscribed');
    assert.equal((await control(sandbox, '/ws/drop')).status, 200);
    await until(() => /"type":"gap","startedAt":\d+,"endedAt":\d+/.test(l.out()), 'the gap ended', 20_000);
    l.child.kill('SIGTERM');
    const r = await l.done;
    assert.equal(r.status, 0, describeRun(r));
    const gaps = records(r.stdout).filter((x) => x['type'] === 'gap');
    assert.deepEqual(
      gaps.map((g) => [g['code'], g['endedAt'] === null, g['resumed'], g['attempts']]),
      [
        [1006, true, null, 0],
        [1006, false, true, 1],
      ],
    );
    assert.equal(typeof gaps[1]!['missedEstimate'], 'number');
    const end = records(r.stdout).find((x) => x['type'] === 'end')!;
    const { type: _, ...ended } = gaps[1]!;
    assert.deepEqual(end['gaps'], [ended]);
  });

  it('SIGTERM ends a run without a bound: the connection and the listen key are closed, exit 0', async () => {
    const f = file('m.tradereq', `# @listenKey\nWS /ws\n[subscribe]\n${ORDERS}\n`);
    const l = live(['listen', f], dir, env);
    await until(() => l.out().includes('→ subscribed'), 'the run is subscribed');
    l.child.kill('SIGTERM');
    const r = await l.done;
    assert.equal(r.status, 0, describeRun(r));
    assert.match(r.stdout, /→ closed after 0 pushes in [\d.]+ s: interrupted/);
    assert.ok((await reached()).includes('DELETE /api/v3/userDataStream 200'), 'the listen key was closed');
  });

  it('exit 2: bad input (not a WebSocket request, a variable that does not resolve, bad flags, no key for the profile) and nothing is sent', async () => {
    const rest = await run([file('r.tradereq', 'GET /api/v3/time\n')]);
    assert.equal(rest.status, 2, describeRun(rest));
    assert.match(
      rest.stderr,
      /r\.tradereq:1:1: GET \/api\/v3\/time is not a WebSocket request \(WS \/ws\): send it with tradereq send/,
    );
    const variable = await run([file('v.tradereq', 'WS /ws\n[subscribe]\nspot@public.deals.v3.api@{{nope}}\n')]);
    assert.equal(variable.status, 2, describeRun(variable));
    assert.match(variable.stderr, /v\.tradereq:3:28: Undefined variable \{\{nope\}\}/);
    const flag = await run([file('m.tradereq', `WS /ws\n[subscribe]\n${BOOK}\n`), '--count', '0']);
    assert.equal(flag.status, 2, describeRun(flag));
    assert.match(flag.stderr, /--count takes a whole number of at least 1/);
    const noKey = await run([file('k.tradereq', `# @listenKey\n# @key nobody\nWS /ws\n[subscribe]\n${ORDERS}\n`)]);
    assert.equal(noKey.status, 2, describeRun(noKey));
    assert.match(noKey.stderr, /no key for profile "nobody": set TRADEREQ_NOBODY_API_KEY/);
    assert.deepEqual(await reached(), []);
  });

  it('exit 4: a ban in the rate-limit state keeps the upgrade back, without touching the network', async () => {
    await new Budget(new FileStateStore(join(dir, 'state'))).record(
      { origin: sandbox.baseUrl, mode: 'ip', weight: 1 },
      { status: 418, retryAfterSeconds: 60 },
    );
    const r = await run([file('m.tradereq', `WS /ws\n[subscribe]\n${BOOK}\n`), '--count', '1']);
    assert.equal(r.status, 4, describeRun(r));
    assert.match(r.stderr, /✘ not connected: .*\(418\)/);
    assert.deepEqual(await reached(), []);
  });

  it('exit 4: a key profile not bound to the REST origin gets no listen key, and nothing is sent', async () => {
    const f = file('mine.tradereq', `# @listenKey\n# @key other\nWS /ws\n[subscribe]\n${ORDERS}\n`);
    const key = sandbox.keys[0]!;
    const r = await tradereq(['listen', f, '--count', '1'], {
      cwd: dir,
      env: { ...env, TRADEREQ_OTHER_API_KEY: key.apiKey, TRADEREQ_OTHER_SECRET_KEY: key.secretKey },
    });
    assert.equal(r.status, 4, describeRun(r));
    assert.match(r.stderr, /key profile "other" may not be sent to http:\/\/127\.0\.0\.1:\d+/);
    assert.deepEqual(await reached(), []);
    assert.ok(!r.stderr.includes(key.secretKey) && !r.stdout.includes(key.apiKey));
  });
});
