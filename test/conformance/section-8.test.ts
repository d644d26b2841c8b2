/**
 * Spec §8, limits, against the running sandbox (started with --ban-scale 0.001, so a ban of
 * 2 minutes lasts 120 ms). The rate limits are reached with the per-endpoint weights of
 * docs/service.md, Assumptions (§8 rule 5 shows none): ping 1, time 1, exchangeInfo 10, order 1,
 * order/test 1, query order 2, cancel 1, openOrders 3, account 10. A second loopback address
 * (127.0.0.2) is a second client IP.
 */
import assert from 'node:assert/strict';
import {
  BAN_SCALE,
  assertTimingRule,
  describeReply,
  fillUntil429,
  orderPairs,
  pollUntil,
  timingSweep,
  around,
  outcome,
  useSandbox,
  type DemoKey,
  type Reply,
  field,
  publicStreamNames,
  WsProbe,
  type WsClosed,
} from './support';

const OTHER_IP = '127.0.0.2';
const THIRD_IP = '127.0.0.3';

describe('conformance §8 limits', function () {
  this.timeout(30_000);
  const c = useSandbox();

  const trade = (): DemoKey => c.sandbox.key('trade');
  const ping = (from?: string): Promise<Reply> => c.get('/api/v3/ping', [], from);
  const time = (from?: string): Promise<Reply> => c.get('/api/v3/time', [], from);
  const exchangeInfo = (from?: string): Promise<Reply> => c.get('/api/v3/exchangeInfo', [], from);
  const account = (from?: string, key = trade()): Promise<Reply> =>
    c.signed(key, 'GET', '/api/v3/account', [], from ? { from } : {});
  const orderTest = (from?: string): Promise<Reply> =>
    c.signed(trade(), 'POST', '/api/v3/order/test', orderPairs(), from ? { from } : {});
  const openOrders = (from?: string): Promise<Reply> =>
    c.signed(trade(), 'GET', '/api/v3/openOrders', [['symbol', 'BTCUSDT']], from ? { from } : {});

  /** `n` requests, each answered 200. */
  async function ok(n: number, request: () => Promise<Reply>, what: string): Promise<Reply[]> {
    const out: Reply[] = [];
    for (let i = 0; i < n; i++) {
      const r = await request();
      assert.equal(r.status, 200, `${what} #${i + 1}: ${describeReply(r)}`);
      out.push(r);
    }
    return out;
  }

  function retryAfter(r: Reply): number {
    const h = r.headers['retry-after'];
    assert.ok(h !== undefined, `Retry-After on ${describeReply(r)}`);
    assert.match(h, /^\d+$/, `Retry-After "${h}" is a number of seconds`);
    return Number(h);
  }

  function is429(r: Reply, what: string): number {
    assert.equal(r.status, 429, `${what}: ${describeReply(r)}`);
    return retryAfter(r);
  }

  it('§8 IP mode: endpoints without access key are limited to 500 weight per 10 seconds per IP', async () => {
    await ok(50, () => exchangeInfo(), 'exchangeInfo (weight 10)'); // 500
    const s = is429(await ping(), 'ping over 500');
    assert.ok(s >= 1 && s <= 10, `Retry-After ${s} within the 10 s window`);
    // Per IP: another client IP has its own 500.
    await ok(50, () => exchangeInfo(OTHER_IP), 'exchangeInfo from another IP');
    is429(await ping(OTHER_IP), 'ping over 500 from the other IP');
  });

  it('§8 UID mode: endpoints with access key are limited to 500 weight per 10 seconds per account', async () => {
    await ok(50, () => account(), 'account (weight 10)'); // 500 on the trade account
    // Per account: another account has its own 500, from the same IP.
    await ok(50, () => account(undefined, c.sandbox.key('readonly')), 'account of the readonly key');
    // Per account, not per IP: the trade account is full from any IP.
    const s = is429(await orderTest(OTHER_IP), 'trade account over 500, from another IP');
    assert.ok(s >= 1 && s <= 10, `Retry-After ${s} within the 10 s window`);
  });

  it('§8 counting: IP and UID modes are counted independently', async () => {
    await ok(50, () => exchangeInfo(), 'exchangeInfo'); // IP counter of 127.0.0.1 at 500
    await ok(50, () => account(), 'account after the IP counter is full'); // UID counter of trade at 500
    await ok(1, () => exchangeInfo(OTHER_IP), 'unsigned from another IP'); // unaffected by trade's UID counter
    // Both counters are now full, each by its own mode.
    is429(await ping(), 'IP counter full');
    is429(await account(THIRD_IP), 'UID counter full');
  });

  it('§8 counting: one counter is shared by all endpoints of a mode (the stricter reading, docs/service.md, Assumptions: Two readings)', async () => {
    // IP mode: 49 × exchangeInfo (490) + 5 × ping + 5 × time = 500; exchangeInfo alone is at 490,
    // so a per-endpoint counter would let one more through.
    await ok(49, () => exchangeInfo(), 'exchangeInfo');
    await ok(5, () => ping(), 'ping');
    await ok(5, () => time(), 'time');
    is429(await exchangeInfo(), 'exchangeInfo at 490 of its own, 500 shared');
    // UID mode, from another IP: 49 × account (490) + 3 × openOrders (9) + 1 × order/test = 500.
    await ok(49, () => account(OTHER_IP), 'account');
    await ok(3, () => openOrders(OTHER_IP), 'openOrders');
    await ok(1, () => orderTest(OTHER_IP), 'order/test');
    is429(await account(OTHER_IP), 'account at 490 of its own, 500 shared');
  });

  it('§8 recvWindow: default 5000 ms; maximum 60000 ms (60000 accepted, 60001 → 700005)', async () => {
    const key = trade();
    // The server clock runs 59 s ahead: a request stamped with the client's clock is 59 s old.
    assert.equal((await c.control('/_sandbox/clock', { offsetMs: 59_000 })).status, 200);
    const withMax = await c.signed(key, 'GET', '/api/v3/account', [], { recvWindow: 60000 });
    assert.equal(withMax.status, 200, `59 s old, recvWindow 60000: ${describeReply(withMax)}`);
    const withDefault = await c.signed(key, 'GET', '/api/v3/account', []);
    assert.equal(withDefault.code, 700003, `59 s old, default recvWindow: ${describeReply(withDefault)}`);
    const above = await c.signed(key, 'GET', '/api/v3/account', [], { recvWindow: 60001 });
    assert.equal(above.code, 700005, `recvWindow 60001: ${describeReply(above)}`);
    // Default 5000: exact against the server's own arrival times.
    assert.equal((await c.control('/_sandbox/clock', { offsetMs: 0 })).status, 200);
    const results = await timingSweep(c, key, 0, [
      { aheadMs: -4000 },
      ...around(-5004, -4996),
      { aheadMs: -6000 },
      { aheadMs: -6000, recvWindow: 7000 },
      ...around(-60004, -59996, 60000),
      { aheadMs: -60500, recvWindow: 60000 },
    ]);
    const counts = assertTimingRule(results);
    assert.ok(counts.accepted >= 2 && counts.refused >= 2, JSON.stringify(counts));
    assert.equal(outcome(results, -4000), 200, '4000 ms old, default window');
    assert.equal(outcome(results, -6000), 700003, '6000 ms old, default window');
    assert.equal(outcome(results, -6000, 7000), 200, '6000 ms old, recvWindow 7000');
    assert.equal(outcome(results, -60500, 60000), 700003, '60500 ms old, recvWindow 60000');
  });

  it('§8 timestamp ahead of server: a timestamp 1000 ms or more ahead of serverTime is refused with 700003', async () => {
    const key = trade();
    // The server clock runs 10 s behind the client's.
    assert.equal((await c.control('/_sandbox/clock', { offsetMs: -10_000 })).status, 200);
    const clientClock = await c.signed(key, 'GET', '/api/v3/account', []);
    assert.equal(clientClock.code, 700003, `client clock 10 s ahead: ${describeReply(clientClock)}`);
    const results = await timingSweep(c, key, -10_000, [
      { aheadMs: 0 },
      { aheadMs: 500 },
      ...around(995, 1005),
      { aheadMs: 1100 },
      { aheadMs: 1100, recvWindow: 60000 },
      { aheadMs: 5000 },
    ]);
    const counts = assertTimingRule(results);
    assert.ok(counts.accepted >= 2 && counts.refused >= 3, JSON.stringify(counts));
    assert.equal(outcome(results, 500), 200, '500 ms ahead is accepted');
    assert.equal(outcome(results, 1100), 700003, '1100 ms ahead');
    assert.equal(outcome(results, 1100, 60000), 700003, '1100 ms ahead, recvWindow 60000');
    assert.equal(outcome(results, 5000), 700003, '5000 ms ahead');
    // Exactly 1000 ms ahead of the server's arrival time is refused (checked whenever the sweep landed on it).
    for (const r of results)
      if (r.timestamp - r.serverTime === 1000) assert.equal(r.code, 700003, 'exactly 1000 ms ahead');
  });

  it('§8 rule 1: when 429 is returned the client must stop and back off; one that waits Retry-After is served again, not banned', async () => {
    const fill = await fillUntil429(() => exchangeInfo(), 60);
    assert.equal(fill.length, 51, 'the 51st exchangeInfo (weight 10) is the first over 500');
    const s = is429(fill[fill.length - 1]!, 'over the limit');
    assert.ok(s >= 1 && s <= 10, `Retry-After ${s} s within the 10 s window`);
    // Back off: send nothing for Retry-After seconds (the server's own value), then try again. The
    // sandbox's clock, which its limiter reads, is moved on by that much rather than waited for.
    assert.equal((await c.control('/_sandbox/clock', { offsetMs: s * 1000 + 50 })).status, 200);
    const after = await ping();
    assert.equal(after.status, 200, `after backing off ${s} s: ${describeReply(after)}`);
    const again = await exchangeInfo();
    assert.equal(again.status, 200, `no ban after backing off: ${describeReply(again)}`);
  });

  it('§8 rule 2: continuing to violate limits after 429 results in an automated IP ban (418)', async () => {
    await fillUntil429(() => exchangeInfo(), 60);
    const banStart = Date.now();
    const banned = await ping();
    assert.equal(banned.status, 418, `continuing after 429: ${describeReply(banned)}`);
    retryAfter(banned);
    // The ban is on the IP: every endpoint, signed ones too, while it lasts (2 min × ban scale).
    const signed = await account();
    const other = await exchangeInfo(OTHER_IP);
    if (Date.now() - banStart < 2 * 60_000 * BAN_SCALE) {
      assert.equal(signed.status, 418, `signed request from the banned IP: ${describeReply(signed)}`);
    }
    // Another IP is not banned.
    assert.equal(other.status, 200, `another IP: ${describeReply(other)}`);
  });

  it('§8 rule 3: ban duration scales with repeat offences, from 2 minutes (× ban scale)', async () => {
    await fillUntil429(() => exchangeInfo(), 60);
    const bans: { retryAfter: number; ms: number }[] = [];
    for (let offence = 1; offence <= 3; offence++) {
      const start = Date.now();
      const banned = await ping();
      assert.equal(banned.status, 418, `offence ${offence}: ${describeReply(banned)}`);
      const ra = retryAfter(banned);
      // Poll until the ban ends (a ban does not grow by polling during it); the counter is still
      // full, so the first answer after the ban is a new 429, and the next request is the next offence.
      const end = await pollUntil(
        () => ping(),
        (r) => r.status !== 418,
        ra * 1000 + 2000,
        5,
      );
      assert.equal(end.value.status, 429, `after ban ${offence}: ${describeReply(end.value)}`);
      bans.push({ retryAfter: ra, ms: Date.now() - start });
    }
    const detail = JSON.stringify(bans);
    assert.ok(
      bans[0]!.ms >= 2 * 60_000 * BAN_SCALE,
      `the first ban lasts at least 2 minutes × ${BAN_SCALE}: ${detail}`,
    );
    assert.ok(bans[1]!.ms > bans[0]!.ms, `the second ban is longer than the first: ${detail}`);
    assert.ok(bans[2]!.ms > bans[1]!.ms, `the third ban is longer than the second: ${detail}`);
    assert.ok(
      bans[1]!.retryAfter >= bans[0]!.retryAfter && bans[2]!.retryAfter > bans[0]!.retryAfter,
      `Retry-After grows too: ${detail}`,
    );
  });

  it('§8 rule 4: 418 and 429 carry Retry-After in seconds: for 429 the wait that avoids a ban, for 418 until the ban ends', async () => {
    const fill = await fillUntil429(() => exchangeInfo(), 60);
    const limited = fill[fill.length - 1]!;
    const s429 = is429(limited, '429');
    assert.ok(s429 >= 1 && s429 <= 10, `429 Retry-After ${s429} s: the counter frees up within the 10 s window`);
    const banned = await ping();
    assert.equal(banned.status, 418, describeReply(banned));
    const s418 = retryAfter(banned);
    assert.ok(s418 >= 1, `418 Retry-After ${s418}`);
    // The ban is over within Retry-After seconds (polling during a ban does not extend it), and
    // every 418 during it carries Retry-After.
    const during: Reply[] = [];
    const end = await pollUntil(
      () => ping(),
      (r) => {
        if (r.status === 418) during.push(r);
        return r.status !== 418;
      },
      s418 * 1000 + 1000,
      5,
    );
    assert.ok(
      end.elapsedMs <= s418 * 1000 + 100,
      `the ban ended after ${end.elapsedMs} ms, Retry-After said ${s418} s`,
    );
    for (const r of during)
      assert.ok(retryAfter(r) >= 1 && retryAfter(r) <= s418, `Retry-After during the ban: ${r.headers['retry-after']}`);
    assert.equal((await c.control('/_sandbox/reset')).status, 200);
    // UID mode's 429 carries it too.
    const uidFill = await fillUntil429(() => account(OTHER_IP), 60);
    const u = is429(uidFill[uidFill.length - 1]!, 'UID 429');
    assert.ok(u >= 1 && u <= 10);
    // (The 429 wait itself, backed off in full, is shown by §8 rule 1.)
  });

  it('§8 rule 5: per-endpoint weights (not shown by the spec; docs/service.md, Assumptions: ping 1, time 1, exchangeInfo 10, order 1, order/test 1, query order 2, cancel 1, openOrders 3, account 10)', async () => {
    // For each endpoint E of claimed weight w: fill the counter to 500 - w with endpoints of known
    // weight, then E passes (weight ≤ w) and a weight-1 request is refused (weight ≥ w).
    const checks: { name: string; run: () => Promise<void> }[] = [];
    const fits = async (
      fill: () => Promise<void>,
      target: () => Promise<Reply>,
      probe: () => Promise<Reply>,
      name: string,
    ): Promise<void> => {
      assert.equal((await c.control('/_sandbox/reset')).status, 200);
      await fill();
      const t = await target();
      assert.equal(t.status, 200, `${name} fits in what is left: ${describeReply(t)}`);
      is429(await probe(), `${name}: one more weight unit`);
    };
    // Units first: 50 × exchangeInfo fill 500 exactly (weight 10); with 490 used, 10 pings fit and an 11th does not (weight 1).
    checks.push({
      name: 'exchangeInfo 10',
      run: async () => {
        assert.equal((await c.control('/_sandbox/reset')).status, 200);
        const f = await fillUntil429(() => exchangeInfo(), 60);
        assert.equal(f.length, 51, 'exactly 50 exchangeInfo fit in 500');
      },
    });
    checks.push({
      name: 'ping 1',
      run: () =>
        fits(
          () => ok(49, () => exchangeInfo(), 'fill').then(() => ok(9, () => ping(), 'ping').then(() => undefined)),
          () => ping(),
          () => ping(),
          'ping',
        ),
    });
    checks.push({
      name: 'time 1',
      run: () =>
        fits(
          () => ok(49, () => exchangeInfo(), 'fill').then(() => ok(9, () => ping(), 'ping').then(() => undefined)),
          () => time(),
          () => ping(),
          'time',
        ),
    });
    checks.push({
      name: 'account 10',
      run: async () => {
        assert.equal((await c.control('/_sandbox/reset')).status, 200);
        const f = await fillUntil429(() => account(), 60);
        assert.equal(f.length, 51, 'exactly 50 account fit in 500');
      },
    });
    const uidFill = (rest: number) => async (): Promise<void> => {
      await ok(49, () => account(), 'account fill');
      await ok(rest, () => orderTest(), 'order/test fill');
    };
    checks.push({
      name: 'order/test 1',
      run: () =>
        fits(
          uidFill(9),
          () => orderTest(),
          () => orderTest(),
          'order/test',
        ),
    });
    checks.push({
      name: 'order 1',
      run: () =>
        fits(
          uidFill(9),
          () => c.signed(trade(), 'POST', '/api/v3/order', orderPairs()),
          () => orderTest(),
          'POST order',
        ),
    });
    checks.push({
      name: 'openOrders 3',
      run: () =>
        fits(
          uidFill(7),
          () => openOrders(),
          () => orderTest(),
          'openOrders',
        ),
    });
    // Query and cancel need an order: placing it (weight 1) is part of the fill.
    let orderId = '';
    const placeThen = (rest: number) => async (): Promise<void> => {
      const placed = await c.signed(trade(), 'POST', '/api/v3/order', orderPairs());
      assert.equal(placed.status, 200, describeReply(placed));
      orderId = String(field(placed.json, 'orderId'));
      await uidFill(rest)();
    };
    checks.push({
      name: 'query order 2',
      run: () =>
        fits(
          placeThen(7),
          () =>
            c.signed(trade(), 'GET', '/api/v3/order', [
              ['symbol', 'BTCUSDT'],
              ['orderId', orderId],
            ]),
          () => orderTest(),
          'GET order',
        ),
    });
    checks.push({
      name: 'cancel 1',
      run: () =>
        fits(
          placeThen(8),
          () =>
            c.signed(trade(), 'DELETE', '/api/v3/order', [
              ['symbol', 'BTCUSDT'],
              ['orderId', orderId],
            ]),
          () => orderTest(),
          'DELETE order',
        ),
    });
    for (const check of checks) {
      try {
        await check.run();
      } catch (e) {
        throw new Error(`weight ${check.name}: ${(e as Error).message}`, { cause: e });
      }
    }
  });

  describe('§8 WebSocket limits (shapes assumed from docs/websocket.md)', () => {
    const probes: WsProbe[] = [];
    const connect = async (from?: string): Promise<WsProbe> => {
      const p = await WsProbe.connect(c.sandbox.wsUrl, from);
      probes.push(p);
      return p;
    };
    afterEach(() => {
      for (const p of probes.splice(0)) p.close();
    });

    /** Opens a connection and sends 101 PINGs at once: the 101st within a second cuts it. */
    async function cutOnce(from?: string): Promise<WsClosed> {
      const p = await connect(from);
      for (let i = 1; i <= 101; i++) p.send({ method: 'PING', id: i });
      return p.closed;
    }

    it('§8 WebSocket streams: at most 30 streams per connection; the 31st is refused (non-zero code, the msg names the limit) and the connection stays', async () => {
      const p = await connect();
      const names = publicStreamNames(31);
      p.send({ method: 'SUBSCRIPTION', params: names.slice(0, 15), id: 1 });
      p.send({ method: 'SUBSCRIPTION', params: names.slice(15, 30), id: 2 });
      for (const id of [1, 2]) assert.equal((await p.reply(id)).code, 0, `subscription ${id}`);
      p.send({ method: 'SUBSCRIPTION', params: [names[30]], id: 3 });
      const refused = await p.reply(3);
      assert.notEqual(refused.code, 0, JSON.stringify(refused));
      assert.match(refused.msg, /30/, 'the msg names the limit');
      p.send({ method: 'PING', id: 4 });
      assert.deepEqual(await p.reply(4), { id: 4, code: 0, msg: 'PONG' }, 'the connection stays');
      // Room again after an unsubscription.
      p.send({ method: 'UNSUBSCRIPTION', params: [names[0]], id: 5 });
      assert.equal((await p.reply(5)).code, 0);
      p.send({ method: 'SUBSCRIPTION', params: [names[30]], id: 6 });
      assert.equal((await p.reply(6)).code, 0);
    });

    it('§8 WebSocket message rate: 100 messages per second per connection are served; beyond it the connection is disconnected (1008, the reason names the limit)', async () => {
      const p = await connect();
      for (let i = 1; i <= 100; i++) p.send({ method: 'PING', id: i });
      assert.equal((await p.reply(100)).msg, 'PONG', 'the 100th message is served');
      p.send({ method: 'PING', id: 101 });
      const closed = await p.closed;
      assert.equal(closed.code, 1008, JSON.stringify(closed));
      assert.match(closed.reason, /100/);
    });

    it('§8 WebSocket: repeatedly disconnected IPs are banned: after 3 cuts within 10 minutes the next upgrades are answered 418 with Retry-After; other IPs are not', async () => {
      for (let i = 0; i < 2; i++) assert.equal((await cutOnce(THIRD_IP)).code, 1008);
      (await connect(THIRD_IP)).close();
      assert.equal((await cutOnce(THIRD_IP)).code, 1008);
      const refused = await WsProbe.open(c.sandbox.wsUrl, THIRD_IP);
      assert.ok(!(refused instanceof WsProbe), 'the banned IP is not let in');
      assert.equal(refused.status, 418, refused.body);
      assert.match(refused.retryAfter ?? '', /^\d+$/, 'Retry-After in seconds');
      assert.ok(await connect(OTHER_IP), 'another IP connects');
      // The ban (2 minutes × the ban scale) ends: the IP is let in again.
      const { value } = await pollUntil(
        () => WsProbe.open(c.sandbox.wsUrl, THIRD_IP),
        (r) => r instanceof WsProbe || r.status !== 418,
        10_000,
        20,
      );
      assert.ok(value instanceof WsProbe, JSON.stringify(value));
      probes.push(value);
    });
  });

  // §8 rows the sandbox has no surface for.
  it.skip('§8 API key groups (at most 30), IPs bound to a key (at most 10), sub-account name (8 to 32 letters and digits): no endpoint for them is shown (§4.2) and the sandbox has none', () =>
    undefined);
});
