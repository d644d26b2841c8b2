/**
 * restListenKeyApi against the real sandbox over HTTP: the three userDataStream calls go through
 * the send pipeline (origin binding first, the rate-limit gate, the clock sync, the decode), and
 * the listen key never appears in what a failure says.
 */
import assert from 'node:assert/strict';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { ClockSync } from '../../../src/core/clock/sync';
import { demoKeyFor } from '../../../src/core/env/demo';
import type { Sender } from '../../../src/core/net/send';
import { NodeHttpSender } from '../../../src/core/net/node-http-sender';
import type { KeySource } from '../../../src/core/request/prepare';
import { ok } from '../../../src/core/result';
import { LISTEN_KEY_FORMAT } from '../../../src/core/ws';
import { restListenKeyApi, type ListenKeyCallFailure } from '../../../src/core/ws/listen-key-api';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { control, field } from '../../support/sandbox-ws';

/** The sandbox demo key, bound to `origins`. */
function demoKey(origins: (o: string) => string[]): KeySource {
  return (resolved) =>
    ok({
      key: demoKeyFor('sandbox', resolved.origin)!,
      binding: { profile: 'sandbox', origins: origins(resolved.origin), source: 'the test' },
      owner: { ask: false, by: 'the test' },
    });
}

/** What reached the sandbox's API, as "METHOD PATH STATUS". */
async function reached(sb: Sandbox): Promise<string[]> {
  const log = (await control(sb, '/requests')).json;
  assert.ok(Array.isArray(log));
  return log.map((e) => `${String(field(e, 'method'))} ${String(field(e, 'path'))} ${String(field(e, 'status'))}`);
}

describe('restListenKeyApi: the listen key calls through the send pipeline', function () {
  this.timeout(20_000);
  let sb: Sandbox;
  let sender: Sender;
  let budget: Budget;
  let store: MemoryStateStore;
  let failures: ListenKeyCallFailure[];

  const api = (key: KeySource, keyProfile = 'sandbox') =>
    restListenKeyApi({
      environment: { name: 'sandbox', baseUrl: sb.baseUrl, key: 'other' },
      keyProfile,
      key,
      sender,
      budget,
      clock: new ClockSync(store),
      clockSync: true,
      onFailure: (f) => failures.push(f),
    });

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    assert.equal((await control(sb, '/reset')).status, 200);
    sender = new NodeHttpSender();
    store = new MemoryStateStore();
    budget = new Budget(store);
    failures = [];
  });
  afterEach(async () => {
    await sender.close();
  });

  it('creates, keeps alive and closes a key with signed POST, PUT and DELETE /api/v3/userDataStream (the clock measured first)', async () => {
    const profiles: (string | undefined)[] = [];
    const key: KeySource = (resolved) => {
      profiles.push(resolved.keyProfile);
      return demoKey((o) => [o])(resolved);
    };
    const a = api(key);
    const listenKey = await a.create();
    assert.match(listenKey, LISTEN_KEY_FORMAT);
    await a.keepAlive(listenKey);
    await a.close(listenKey);
    assert.deepEqual(await reached(sb), [
      'GET /api/v3/time 200',
      'POST /api/v3/userDataStream 200',
      'PUT /api/v3/userDataStream 200',
      'DELETE /api/v3/userDataStream 200',
    ]);
    assert.deepEqual(profiles, ['sandbox', 'sandbox', 'sandbox'], "the request's key profile, not the environment's");
    assert.deepEqual(failures, []);
  });

  it('a key not bound to the REST origin gets no listen key: refused before anything is sent', async () => {
    const a = api(demoKey(() => ['http://127.0.0.1:1']));
    await assert.rejects(a.create(), /key profile "sandbox" may not be sent to http:\/\/127\.0\.0\.1:\d+/);
    assert.deepEqual(
      failures.map((f) => f.kind),
      ['refused'],
    );
    assert.deepEqual(await reached(sb), [], 'nothing reached the sandbox, not even the clock measurement');
  });

  it('a ban in the rate-limit state keeps the call back at the gate (refused, nothing sent)', async () => {
    await budget.record({ origin: sb.baseUrl, mode: 'ip', weight: 1 }, { status: 418, retryAfterSeconds: 60 });
    const a = api(demoKey((o) => [o]));
    await assert.rejects(a.create(), /refused/);
    assert.deepEqual(
      failures.map((f) => f.kind),
      ['refused'],
    );
    assert.deepEqual(await reached(sb), []);
  });

  it('a failed keep-alive or close says why, with the listen key masked', async () => {
    const a = api(demoKey((o) => [o]));
    const listenKey = await a.create();
    await a.close(listenKey);
    const e = await a.keepAlive(listenKey).then(
      () => assert.fail('a closed key was kept alive'),
      (x: unknown) => x as Error,
    );
    assert.match(e.message, /rejected/);
    assert.ok(!e.message.includes(listenKey), e.message);
    assert.deepEqual(
      failures.map((f) => f.kind),
      ['rejected'],
    );
    for (const f of failures) assert.ok(!f.message.includes(listenKey));
  });
});
