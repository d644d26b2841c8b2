/**
 * Connections that last a day (src/core/ws/reconnect.ts) against the real sandbox, in-process: a
 * connection the sandbox closes (idle, lifetime, a drop, a lapsed listen key) is re-opened and
 * re-subscribed with the same listen key, renewed on the deployment's schedule; a 418 ends the
 * reconnects and says when connecting is possible again; a close the client asked for never comes
 * back. The sandbox's clock is moved (POST /_sandbox/clock) and the session's waits are fired by
 * hand: nothing sleeps.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { deploymentOf } from '../../../src/core/catalog/deployment';
import {
  RECONNECT,
  WsConnection,
  WsSession,
  listenKeyOf,
  reconnectDelayMs,
  type Gap,
  type ListenKeyApi,
} from '../../../src/core/ws';
import { MAX_LIVE_GAPS } from '../../../src/core/panel/protocol';
import { HandTimers } from '../../support/hand-timers';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { WsClient, control, controlOk, field, limitOrder, signed } from '../../support/sandbox-ws';

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
const KLINE = 'spot@public.kline.v3.api@BTCUSDT@Min1';
const ORDERS = 'spot@private.orders.v3.api';
const DAY_MS = 24 * 60 * 60_000;

/** Polls `check` until it holds (events of a real socket), failing after `deadlineMs` with `what`. */
async function until(check: () => boolean | Promise<boolean>, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    assert.ok(Date.now() < end, `not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The listen key calls with the test's own signer; `calls` records them, `keys` the keys given. */
function listenKeyApi(sb: Sandbox, calls: string[], keys: string[]): ListenKeyApi {
  const call = async (method: 'PUT' | 'DELETE', key: string): Promise<void> => {
    calls.push(method);
    const r = await signed(sb, method, '/api/v3/userDataStream', `listenKey=${key}`);
    if (r.status !== 200) throw new Error(`${method} answered ${r.status}`);
  };
  return {
    create: async () => {
      calls.push('POST');
      const r = await signed(sb, 'POST', '/api/v3/userDataStream', '');
      const key = listenKeyOf(r.json);
      if (key === undefined) throw new Error(`POST answered ${r.status}`);
      keys.push(key);
      return key;
    },
    keepAlive: (key) => call('PUT', key),
    close: (key) => call('DELETE', key),
  };
}

/** The sandbox's WebSocket side now: open connections and their subscriptions. */
async function served(sb: Sandbox): Promise<{ connections: unknown; subscriptions: unknown }> {
  const j = (await control(sb, '/ws')).json;
  return { connections: field(j, 'connections'), subscriptions: field(j, 'subscriptions') };
}

describe('WsSession: connections that last a day, against the sandbox', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  const sessions: WsSession[] = [];

  const session = (timers: HandTimers, reconnect = true, budget = new Budget(new MemoryStateStore())): WsSession => {
    const s = new WsSession({
      connection: () => new WsConnection({ budget, restBaseUrl: sb.baseUrl }),
      reconnect,
      timers,
      random: () => 0,
    });
    sessions.push(s);
    return s;
  };

  /** Waits for the session's reconnect wait, checks it, fires it and waits for the gap to end. */
  async function reconnect(s: WsSession, timers: HandTimers, attempt = 0): Promise<Gap> {
    await until(() => timers.pending(true).length === 1, 'a reconnect is scheduled');
    const ended = s.waitFor('gap', (e) => e.gap.endedAt !== undefined, 10_000, 'the end of the gap');
    assert.equal(
      timers.fire(true),
      reconnectDelayMs(attempt, () => 0),
      'the back-off of that attempt',
    );
    return (await ended).gap;
  }

  before(async () => {
    sb = await startSandbox({ port: 0, banScale: 0.01 });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await controlOk(sb, '/reset');
  });
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
  });

  it('an idle close (30 s without a subscription, passed by moving the clock) is re-opened after the back-off, and told as a gap with its reason', async () => {
    const timers = new HandTimers();
    const s = session(timers);
    assert.ok((await s.connect(sb.wsUrl)).ok);
    const started = s.waitFor('gap');
    await controlOk(sb, '/clock', { offsetMs: 31_000 });
    const gap = (await started).gap;
    assert.equal(gap.code, 1000);
    assert.match(gap.reason, /no subscription for 30 s\b/);
    assert.equal(s.state.status, 'connecting', 'between two connections the session is connecting again');
    assert.match(s.state.message ?? '', /^Reconnecting in 1 s \(attempt 1 of at most 20\)/);
    const done = await reconnect(s, timers);
    assert.deepEqual([done.resumed, done.attempts, done.missedEstimate], [true, 1, 0]);
    assert.equal(s.state.status, 'open');
    assert.deepEqual(await served(sb), { connections: 1, subscriptions: 0 });
    assert.deepEqual(s.snapshot().gaps, [done]);
  });

  it('a close at the end of the lifetime (24 h, passed by moving the clock) is re-opened and re-subscribed; the gap estimates the pushes missed from the rate before it', async () => {
    const timers = new HandTimers();
    const s = session(timers);
    assert.ok((await s.connect(sb.wsUrl)).ok);
    assert.ok((await s.subscribe([DEALS, KLINE])).every((o) => o.ok));
    // Trades before the gap: a rate to estimate from.
    const pushes = s.waitFor('push', (e) => e.stream === DEALS);
    await signed(sb, 'POST', '/api/v3/order', limitOrder('SELL', '0.1', '30000'));
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30000'));
    await pushes;
    const started = s.waitFor('gap');
    await controlOk(sb, '/clock', { offsetMs: DAY_MS + 1000 });
    const gap = (await started).gap;
    assert.match(gap.reason, /closed after 24 hours/);
    assert.ok(gap.ratePerSecond > 0, 'pushes came within the 10 s before the close');
    const resubscribed: string[] = [];
    s.on('subscription', (e) => e.outcome.ok && resubscribed.push(e.outcome.stream));
    const done = await reconnect(s, timers);
    assert.deepEqual(resubscribed.sort(), [DEALS, KLINE].sort());
    assert.deepEqual(await served(sb), { connections: 1, subscriptions: 2 });
    const seconds = (done.endedAt! - done.startedAt) / 1000;
    assert.equal(done.missedEstimate, Math.round(gap.ratePerSecond * seconds));
    assert.ok(s.snapshot().counts.pushes >= 1, 'the counts go on across connections');
  });

  it('a drop (1006) is re-opened with the same listen key, renewed on the deployment schedule, and re-subscribed; private pushes come again', async () => {
    const timers = new HandTimers();
    const calls: string[] = [];
    const keys: string[] = [];
    const s = session(timers);
    const renewEveryMs = deploymentOf({}).listenKey.renewEveryMs;
    const opened = await s.connect(sb.wsUrl, {
      listenKey: listenKeyApi(sb, calls, keys),
      envWsUrl: sb.wsUrl,
      keepAliveMs: renewEveryMs,
    });
    assert.ok(opened.ok, JSON.stringify(opened));
    assert.ok((await s.subscribe([ORDERS]))[0]!.ok);
    // The renewal comes at the deployment's interval, held by the session, not the connection.
    assert.equal(timers.fire(false), renewEveryMs);
    await until(() => calls.includes('PUT'), 'the keep-alive (PUT)');
    const started = s.waitFor('gap');
    assert.equal(field((await control(sb, '/ws/drop')).json, 'dropped'), 1);
    assert.equal((await started).gap.code, 1006);
    await reconnect(s, timers);
    assert.deepEqual(calls, ['POST', 'PUT'], 'no new key: the one held is still live');
    assert.deepEqual(await served(sb), { connections: 1, subscriptions: 1 });
    assert.equal(s.snapshot().listenKey, '****' + keys[0]!.slice(-4));
    const push = s.waitFor('push', (e) => e.stream === ORDERS);
    await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '29000'));
    await push;
    assert.equal(timers.pending(false).length, 1, 'the renewals go on');
  });

  it('a listen key that lapsed (closed under it) is replaced by a new one on the reconnect, and the old one stays masked', async () => {
    const timers = new HandTimers();
    const calls: string[] = [];
    const keys: string[] = [];
    const s = session(timers);
    const opened = await s.connect(sb.wsUrl, { listenKey: listenKeyApi(sb, calls, keys), envWsUrl: sb.wsUrl });
    assert.ok(opened.ok);
    assert.ok((await s.subscribe([ORDERS]))[0]!.ok);
    const started = s.waitFor('gap');
    // The key ends under the connection (as a lapse does): the sandbox closes its connections.
    assert.equal((await signed(sb, 'DELETE', '/api/v3/userDataStream', `listenKey=${keys[0]!}`)).status, 200);
    await started;
    // The first attempt is refused (401), the second gets a new key.
    await until(() => timers.pending(true).length === 1, 'the first reconnect');
    timers.fire(true);
    const ended = s.waitFor('gap', (e) => e.gap.endedAt !== undefined);
    await until(() => timers.pending(true).length === 1, 'the second reconnect, after the 401');
    assert.equal(
      timers.fire(true),
      reconnectDelayMs(1, () => 0),
    );
    const gap = (await ended).gap;
    assert.deepEqual([gap.resumed, gap.attempts], [true, 2]);
    assert.equal(keys.length, 2, 'a new key');
    assert.deepEqual(calls, ['POST', 'DELETE', 'POST']);
    assert.equal(s.redact(`old ${keys[0]!} new ${keys[1]!}`).includes(keys[0]!.slice(0, 20)), false);
    assert.deepEqual(await served(sb), { connections: 1, subscriptions: 1 });
  });

  it('a 418 on a reconnect ends the reconnects, says when connecting is possible again, and records the ban', async () => {
    const timers = new HandTimers();
    const budget = new Budget(new MemoryStateStore());
    const s = session(timers, true, budget);
    assert.ok((await s.connect(sb.wsUrl)).ok);
    // Three §8 cuts of raw clients get the IP banned (the sandbox's rule).
    for (let i = 0; i < 3; i++) {
      const raw = await WsClient.connect(sb.wsUrl);
      for (let j = 0; j <= 100; j++) raw.send({ method: 'PING', id: j + 1 });
      assert.equal((await raw.closed).code, 1008);
    }
    await controlOk(sb, '/ws/drop');
    await until(() => timers.pending(true).length === 1, 'a reconnect is scheduled');
    timers.fire(true);
    await s.finished;
    assert.equal(s.state.status, 'closed');
    assert.match(
      s.state.message ?? '',
      /^Not reconnecting: .*banned this IP.*\(418\).*Connecting again is possible after \d{4}-\d\d-\d\dT/,
    );
    assert.equal(timers.pending(true).length, 0, 'no further attempt');
    assert.equal(budget.view(sb.baseUrl).blocked?.status, 418);
    const gaps = s.snapshot().gaps!;
    assert.deepEqual([gaps.length, gaps[0]!.resumed], [1, false]);
  });

  it('a close by the client never reconnects, neither while open nor while waiting to reconnect', async () => {
    const timers = new HandTimers();
    const s = session(timers);
    assert.ok((await s.connect(sb.wsUrl)).ok);
    await s.close();
    assert.equal(s.state.status, 'closed');
    assert.equal(s.state.message, 'Closed by the client.');
    assert.equal(timers.pending(true).length, 0);

    const w = session(timers);
    assert.ok((await w.connect(sb.wsUrl)).ok);
    await controlOk(sb, '/ws/drop');
    await until(() => timers.pending(true).length === 1, 'a reconnect is scheduled');
    await w.close();
    assert.equal(timers.pending(true).length, 0, 'the wait is cancelled');
    assert.equal(w.state.status, 'closed');
    assert.equal(w.snapshot().gaps![0]!.resumed, false);
    assert.deepEqual(await served(sb), { connections: 0, subscriptions: 0 });
  });

  it('without reconnect (--no-reconnect, the setting off), the first close ends the session', async () => {
    const timers = new HandTimers();
    const s = session(timers, false);
    assert.ok((await s.connect(sb.wsUrl)).ok);
    await controlOk(sb, '/ws/drop');
    await s.finished;
    assert.deepEqual([s.state.status, s.state.code], ['closed', 1006]);
    assert.equal(timers.waits.length, 0);
    assert.deepEqual(s.snapshot().gaps, []);
  });
});

describe('WsSession: close codes that say not to come back', function () {
  this.timeout(30_000);
  let server: WebSocketServer;
  let url = '';
  /** The code (and reason) the server closes the next connection with, once it opened. */
  let closeWith: [number, string] = [1000, ''];

  before(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
    server.on('connection', (ws) => setImmediate(() => ws.close(...closeWith)));
  });
  after(async () => {
    for (const c of server.clients) c.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  const cases: [number, string, RegExp | undefined][] = [
    [1008, 'over 100 messages', /Not reconnecting: a connection cut for breaking a rule is not re-opened: §8 bans IPs/],
    [4001, 'auth refused', /Not reconnecting: close code 4001 says not to come back\./],
    [1011, 'internal error', undefined],
    [1001, 'going away', undefined],
  ];
  for (const [code, reason, stop] of cases)
    it(`${code} ${stop === undefined ? 'is reconnected after' : 'ends the session with why'}`, async () => {
      closeWith = [code, reason];
      const timers = new HandTimers();
      const s = new WsSession({
        connection: () => new WsConnection({ budget: new Budget(new MemoryStateStore()) }),
        reconnect: true,
        timers,
        random: () => 0,
      });
      // Closed for good, or waiting to reconnect (the first connect's own "connecting" is not it).
      const closedOrWaiting = s.waitFor(
        'state',
        (e) => e.state.status === 'closed' || (e.state.message ?? '').startsWith('Reconnecting in'),
      );
      assert.ok((await s.connect(url)).ok);
      const state = (await closedOrWaiting).state;
      if (stop === undefined) {
        assert.equal(state.status, 'connecting');
        assert.equal(timers.pending(true).length, 1);
        await s.close();
      } else {
        await s.finished;
        assert.deepEqual([s.state.status, s.state.code], ['closed', code]);
        assert.match(s.state.message ?? '', stop);
        assert.ok((s.state.message ?? '').includes(reason), 'the close reason is told');
        assert.equal(timers.waits.length, 0, 'no reconnect was scheduled');
      }
    });
});

describe('WsSession: a server that is gone', function () {
  this.timeout(30_000);

  it('is tried again with waits that grow to 60 s and never shrink, and given up after 20 attempts in a row', async () => {
    const gone = await startSandbox({ port: 0 });
    const timers = new HandTimers();
    const budget = new Budget(new MemoryStateStore());
    const s = new WsSession({
      connection: () => new WsConnection({ budget, restBaseUrl: gone.baseUrl }),
      reconnect: true,
      timers,
      random: () => 1,
    });
    assert.ok((await s.connect(gone.wsUrl)).ok);
    await gone.close();
    const waits: number[] = [];
    for (let i = 0; i < RECONNECT.maxAttempts; i++) {
      await until(() => timers.pending(true).length === 1, `wait ${i + 1}`);
      waits.push(timers.fire(true));
    }
    await s.finished;
    assert.deepEqual(
      waits,
      waits.map((_, i) => reconnectDelayMs(i, () => 1)),
    );
    assert.equal(Math.max(...waits), RECONNECT.maxMs);
    assert.equal(s.state.status, 'closed');
    assert.match(
      s.state.message ?? '',
      /^Not reconnecting: 20 attempts in a row did not open a connection that lasted 60 s; the last: Nothing answers at/,
    );
    const [gap] = s.snapshot().gaps!;
    assert.deepEqual([gap!.attempts, gap!.resumed], [20, false]);
  });
});

describe('WsSession: the back-off schedule', () => {
  it('waits at least 1 s, doubles per failed attempt up to 60 s, and draws the upper half of each step', () => {
    const low = [0, 1, 2, 3, 4, 5, 6, 7, 30].map((a) => reconnectDelayMs(a, () => 0));
    const high = [0, 1, 2, 3, 4, 5, 6, 7, 30].map((a) => reconnectDelayMs(a, () => 1));
    assert.deepEqual(low, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    assert.deepEqual(high, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    assert.equal(RECONNECT.firstMs / 2, low[0]);
    assert.equal(RECONNECT.maxGaps, MAX_LIVE_GAPS, 'the panel takes every gap a session keeps');
  });
});
