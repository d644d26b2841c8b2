/**
 * runRequest on its own (src/core/request/pipeline.ts), with the real parts the command line uses:
 * a Budget over a state folder in a temporary directory, node:http's sender and the sandbox over
 * HTTP. Each refusal (the origin binding, the confirmation, the rate-limit gate, bad input, no key)
 * sends nothing, neither through the sender nor to the sandbox; and the request sent is the second
 * resolve's, made after the clock was measured and the key was chosen.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from '../../../src/core/budget/budget';
import { FileStateStore, stateKey } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { DEMO_ACCOUNTS } from '../../../src/core/env/demo';
import type { NamedEnvironment } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';
import type { ResolvedRequest } from '../../../src/core/format/resolve';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import type { PreparedRequest, Sender, SendResult } from '../../../src/core/net/send';
import { checkBinding, type KeyBinding } from '../../../src/core/request/origin-binding';
import {
  runRequest,
  type PipelineDeps,
  type PipelineFailure,
  type PipelineResult,
  type Sent,
} from '../../../src/core/request/pipeline';
import type { KeySource } from '../../../src/core/request/prepare';
import { err, ok } from '../../../src/core/result';
import { sandboxEnvironment, sandboxKeys } from '../../../src/core/testing/sandbox';
import { controlOk } from '../../support/sandbox-ws';
import { startSandbox, type LogEntry, type Sandbox } from '../../../src/sandbox';

const ORDER =
  'POST /api/v3/order\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\ntimeInForce = GTC\nquantity = 0.001\nprice = 30000\n';
const ORDER_TEXT = 'POST /api/v3/order: symbol BTCUSDT, side BUY, type LIMIT, quantity 0.001, price 30000';

/** The real sender, with every request it is given kept; requests to another origin are kept, never sent. */
class Recording implements Sender {
  readonly sent: PreparedRequest[] = [];
  constructor(
    private readonly inner: Sender,
    private readonly origin: string,
  ) {}
  get settings(): Sender['settings'] {
    return this.inner.settings;
  }
  send(p: PreparedRequest): Promise<SendResult> {
    this.sent.push(p);
    if (p.origin === this.origin) return this.inner.send(p);
    const timings = { connectMs: 0, firstByteMs: 0, totalMs: 0 };
    return Promise.resolve({ kind: 'failure', phase: 'connect', code: 'ECONNREFUSED', message: 'kept', timings });
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

describe('runRequest: refusals send nothing, and the second resolve is what goes', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let origin: string;
  let real: NodeHttpSender;
  let dir: string;
  let sender: Recording;
  let responses: Map<string, unknown>;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    origin = new URL(sandbox.baseUrl).origin;
    real = new NodeHttpSender();
  });
  after(async () => {
    await real.close();
    await sandbox.close();
  });
  beforeEach(async () => {
    await control('reset', {});
    dir = mkdtempSync(join(tmpdir(), 'tradereq-pipeline-'));
    sender = new Recording(real, origin);
    responses = new Map();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const control = (path: string, body: unknown): Promise<void> => controlOk(sandbox, `/${path}`, body);

  /** What reached the sandbox's API since the last reset. */
  async function reached(): Promise<string[]> {
    const log = (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as LogEntry[];
    return log.map((e) => `${e.method} ${e.path}`);
  }

  async function nothingSent(): Promise<void> {
    assert.deepEqual(
      sender.sent.map((p) => `${p.method} ${p.path}`),
      [],
      'the sender was given nothing',
    );
    assert.deepEqual(await reached(), [], 'nothing reached the sandbox');
  }

  /** The real parts over the state folder of this test; the key is the sandbox's demo key, bound to it. */
  function deps(over: Partial<PipelineDeps> = {}): PipelineDeps {
    const store = new FileStateStore(dir);
    return {
      sender,
      budget: new Budget(store),
      clock: new ClockSync(store),
      clockSync: true,
      responses,
      key: sandboxKeys(origin),
      confirm: () => assert.fail('not asked'),
      ...over,
    };
  }

  async function run(
    text: string,
    over: Partial<PipelineDeps> = {},
    environment: NamedEnvironment = sandboxEnvironment(sandbox.baseUrl),
  ): Promise<PipelineResult> {
    const doc = parse(text);
    return runRequest(doc, doc.requests[0]!, environment, deps(over));
  }

  function sent(r: PipelineResult): Sent {
    assert.ok(r.ok, r.ok ? '' : `${r.error.kind}: ${r.error.message}`);
    return r.value;
  }

  function failure(r: PipelineResult): PipelineFailure {
    assert.equal(r.ok, false, 'refused before the gate');
    if (r.ok) throw new Error('unreachable');
    return r.error;
  }

  /** The demo key, bound to `origins` only. */
  const boundTo =
    (origins: readonly string[]): KeySource =>
    () =>
      ok({
        key: DEMO_ACCOUNTS[0]!,
        binding: { profile: 'sandbox', origins, source: 'the test' },
        owner: { ask: false, by: 'the test' },
      });

  describe('the origin binding', () => {
    it('a key bound to another port: refused before anything goes (not even the clock), and the shell is told', async () => {
      const told: string[] = [];
      const r = await run('GET /api/v3/account\n', {
        key: boundTo(['http://127.0.0.1:1']),
        onUnboundOrigin: (_resolved, _choice, _message, at) => told.push(at),
      });
      const e = failure(r);
      assert.equal(e.kind, 'refused');
      assert.equal(e.kind === 'refused' ? e.reason : undefined, 'origin');
      assert.equal(
        e.message,
        `key profile "sandbox" may not be sent to ${origin} (it is bound to http://127.0.0.1:1, from the test). Nothing was sent. Bind the profile to ${origin} if you trust it.`,
      );
      assert.deepEqual(told, [origin]);
      await nothingSent();
    });

    it('where the answer would go (obtainsFor) not approved: refused, nothing sent', async () => {
      const elsewhere = 'https://elsewhere.example';
      const obtainsFor = (binding: KeyBinding) => {
        const r = checkBinding(elsewhere, binding, 'wss://elsewhere.example');
        return r.ok ? r : err({ message: r.error, origin: elsewhere });
      };
      const told: string[] = [];
      const r = await run('POST /api/v3/userDataStream\n', {
        obtainsFor,
        onUnboundOrigin: (_resolved, _choice, _message, at) => told.push(at),
      });
      const e = failure(r);
      assert.equal(e.kind === 'refused' ? e.reason : undefined, 'origin');
      assert.match(e.message, /may not be sent to wss:\/\/elsewhere\.example \(wss:\/\/elsewhere\.example needs/);
      assert.deepEqual(told, [elsewhere]);
      await nothingSent();
    });

    it('a key bound to the sandbox: sent', async () => {
      const r = sent(await run('GET /api/v3/account\n', { key: boundTo(['http://127.0.0.1:1', origin]) }));
      assert.equal(r.report.outcome, 'ok');
      assert.deepEqual(await reached(), ['GET /api/v3/time', 'GET /api/v3/account']);
    });
  });

  describe('the confirmation', () => {
    const confirming = (): NamedEnvironment => ({ ...sandboxEnvironment(sandbox.baseUrl), confirm: true });

    it('an order to a "confirm" environment, answered no: refused with the reason, the order never sent', async () => {
      const asked: string[] = [];
      const no = (_resolved: ResolvedRequest, order: string) => (asked.push(order), false);
      const e = failure(await run(ORDER, { confirm: no }, confirming()));
      assert.equal(e.kind === 'refused' ? e.reason : undefined, 'confirmation');
      assert.equal(
        e.message,
        `${ORDER_TEXT} needs confirmation (environment "sandbox" has "confirm": true): nothing was sent.`,
      );
      assert.deepEqual(asked, [ORDER_TEXT]);
      assert.ok(!sender.sent.some((p) => p.path === '/api/v3/order'), 'the sender was not given the order');
      assert.ok(!(await reached()).includes('POST /api/v3/order'), 'the order did not reach the sandbox');
    });

    it('the same order answered yes: sent, asked once', async () => {
      let asked = 0;
      const yes = () => (asked++, true);
      const r = sent(await run(ORDER, { confirm: yes }, confirming()));
      assert.equal(r.report.outcome, 'ok', r.report.summary);
      assert.equal(asked, 1);
      assert.ok((await reached()).includes('POST /api/v3/order'));
    });

    it('# @confirm on a read asks too (its reason named); a read to a "confirm" environment is not asked', async () => {
      const e = failure(await run('# @confirm\nGET /api/v3/account\n', { confirm: () => false }));
      assert.equal(e.message, 'GET /api/v3/account needs confirmation (# @confirm): nothing was sent.');
      assert.ok(!(await reached()).includes('GET /api/v3/account'));
      const r = sent(await run('GET /api/v3/account\n', {}, confirming()));
      assert.equal(r.report.outcome, 'ok');
    });

    it('an order run though not selected (notSelected) asks with that reason; a read is not asked', async () => {
      const notSelected = 'a selected request reads its answer';
      const e = failure(await run(ORDER, { notSelected, confirm: () => false }));
      assert.equal(e.message, `${ORDER_TEXT} needs confirmation (${notSelected}): nothing was sent.`);
      assert.equal(sent(await run('GET /api/v3/account\n', { notSelected })).report.outcome, 'ok');
      assert.ok(!(await reached()).includes('POST /api/v3/order'));
    });
  });

  describe('the rate-limit gate over the state folder', () => {
    /** The state file of this test's folder, with `entry` as the sandbox origin's. */
    function state(entry: unknown): void {
      writeFileSync(join(dir, 'state.json'), JSON.stringify({ version: 1, origins: { [stateKey(origin)]: entry } }));
    }

    for (const [status, reason, words] of [
      [429, 'retry-after', /asked to back off \(429\): nothing is sent to .* for \d+ s more/],
      [418, 'ban', /banned this IP .*\(418\): nothing is sent to .* for \d+ s more/],
    ] as const) {
      it(`a ${status} wait in the state: refused by the gate (${reason}), nothing sent, not even the clock`, async () => {
        const now = Date.now();
        state({ ip: [], accounts: {}, blocked: { until: now + 60_000, status, since: now } });
        const r = sent(await run('GET /api/v3/account\n'));
        assert.equal(r.report.outcome, 'refused');
        assert.equal(r.report.refusal?.reason, reason);
        assert.match(r.report.summary, words);
        await nothingSent();
      });
    }

    it('a used-up IP budget in the state: refused by the gate (budget), nothing sent', async () => {
      state({ ip: [[Date.now(), 500]], accounts: {} });
      const r = sent(await run('GET /api/v3/ping\n'));
      assert.equal(r.report.outcome, 'refused');
      assert.equal(r.report.refusal?.reason, 'budget');
      await nothingSent();
    });

    it('a damaged state file blocks (refused, nothing sent), and stays damaged for the next send', async () => {
      writeFileSync(join(dir, 'state.json'), '{"version":1,"origins":{');
      for (const text of ['GET /api/v3/ping\n', 'GET /api/v3/account\n']) {
        const r = sent(await run(text));
        assert.equal(r.report.outcome, 'refused', text);
        assert.equal(r.report.refusal?.reason, 'damaged', text);
        assert.match(r.report.summary, /could not be read .*sends nothing at all until it is reset/);
      }
      await nothingSent();
      const kept = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { damaged?: { reason: string } };
      assert.match(kept.damaged?.reason ?? '', /not valid JSON/, 'the damage is written down, not forgotten');
    });
  });

  describe('the second resolve', () => {
    it('after the clock is measured: the request sent carries the corrected timestamp, in {{$timestamp}} too', async () => {
      const offsetMs = 600_000;
      await control('clock', { offsetMs });
      const r = sent(await run('GET /api/v3/account\nX-Stamp: {{$timestamp}}\n'));
      assert.equal(r.report.outcome, 'ok', r.report.summary);
      const account = sender.sent.find((p) => p.path === '/api/v3/account');
      const timestamp = Number(account?.timestamp);
      const expected = Date.now() + offsetMs;
      assert.ok(Math.abs(timestamp - expected) < 60_000, `sent timestamp ${timestamp}, server now about ${expected}`);
      assert.deepEqual(
        account?.headers.filter(([name]) => name === 'X-Stamp'),
        [['X-Stamp', String(timestamp)]],
      );
      assert.equal(r.resolved.now, timestamp);
    });

    it('with a fresh offset kept: the state is read once before the gate, and the request carries that offset', async () => {
      const offsetMs = 600_000;
      await control('clock', { offsetMs });
      sent(await run('GET /api/v3/account\n')); // measures and keeps the offset
      const store = new FileStateStore(dir);
      let reads = 0;
      const counted = Object.assign(Object.create(store) as FileStateStore, {
        read: () => {
          reads++;
          return store.read();
        },
      });
      sender.sent.length = 0;
      const r = sent(await run('GET /api/v3/account\nX-Stamp: {{$timestamp}}\n', { clock: new ClockSync(counted) }));
      assert.equal(reads, 1, 'the clock offset is read from the state once (each read parses every origin in it)');
      const timestamp = Number(sender.sent.find((p) => p.path === '/api/v3/account')?.timestamp);
      assert.ok(Math.abs(timestamp - (Date.now() + offsetMs)) < 60_000, `sent timestamp ${timestamp}`);
      assert.equal(r.resolved.now, timestamp);
    });

    it('a chained answer that changes while the key is chosen: the request sent carries the newer value', async () => {
      responses.set('prev', { symbol: 'ETHUSDT' });
      const key: KeySource = (resolved) => {
        responses.set('prev', { symbol: 'BTCUSDT' });
        return sandboxKeys(origin)(resolved);
      };
      const r = sent(await run('GET /api/v3/openOrders?symbol={{prev.response.symbol}}\n', { key }));
      assert.equal(r.report.outcome, 'ok', r.report.summary);
      const query = sender.sent.find((p) => p.path === '/api/v3/openOrders')?.query ?? '';
      assert.match(query, /^symbol=BTCUSDT&/);
    });

    // A bug (reported, src/ not edited here): the binding is checked on the first resolve's origin,
    // and the key then signs the second resolve's, which a chained answer can move elsewhere.
    it('a chained answer that moves the origin between the resolves: the key does not go there', async () => {
      const elsewhere = 'http://127.0.0.1:1';
      responses.set('prev', { base: sandbox.baseUrl });
      const key: KeySource = (resolved) => {
        responses.set('prev', { base: elsewhere });
        return sandboxKeys(origin)(resolved);
      };
      await run('GET {{prev.response.base}}/api/v3/account\n', { key });
      assert.deepEqual(
        sender.sent.filter((p) => p.origin !== origin).map((p) => p.url),
        [],
        'nothing signed with the key went to an origin its binding does not name',
      );
    });
  });

  describe('bad input and no key', () => {
    it('an undefined variable: bad input, nothing sent', async () => {
      const e = failure(await run('GET /api/v3/account?symbol={{nowhere}}\n'));
      assert.equal(e.kind, 'bad-input');
      assert.match(e.message, /Undefined variable \{\{nowhere\}\}/);
      await nothingSent();
    });

    it('a signed request with no key: no-key with the source’s reason, nothing sent', async () => {
      const e = failure(await run('GET /api/v3/account\n', { key: () => err('no key for this test') }));
      assert.equal(e.kind, 'no-key');
      assert.equal(e.message, 'no key for this test');
      await nothingSent();
    });
  });
});
