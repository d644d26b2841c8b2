/**
 * The pure parts of the WebSocket client core: the §8 pacer (with a controlled clock), URLs and the
 * listen key's destination, SUBSCRIPTION grouping, reply matching, frame reading, the listen key
 * lease's masking, and the value rules of `# @expect message`. The connection itself is tested
 * against the sandbox in ws/connection.test.ts.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { WS_RULES } from '../../../src/core/catalog/ws-limits';
import {
  FIRST_CLIENT_ID,
  ListenKeyLease,
  MessagePacer,
  PACING,
  PacerError,
  SlidingWindow,
  checkListenKeyDestination,
  checkMessageExpectations,
  defaultWsUrl,
  groupStreams,
  listenKeyOf,
  matchesWritten,
  upgradeOrigin,
  type ListenKeyApi,
} from '../../../src/core/ws';
import { readFrame } from '../../../src/core/ws/frames';
import { PendingReplies, pending } from '../../../src/core/ws/pending-replies';
import { redact } from '../../../src/core/ws/url';

/** Why the destination is refused; fails the test when it is allowed. */
function refusal(d: { ok: true } | { ok: false; error: string }): string {
  assert.ok(!d.ok, 'allowed');
  return d.error;
}

describe('WebSocket client parts: the §8 pacer', () => {
  it('PACING keeps 20 below §8: at most 80 messages in any 1250 ms', () => {
    assert.equal(WS_RULES.messagesPerSecond, 100);
    assert.equal(PACING.messages, 80);
    assert.equal(PACING.windowMs, 1250);
  });

  it('a sender that sends whenever allowed never has more than 80 in any 1250 ms (so never more than 80 in a second)', () => {
    const w = new SlidingWindow();
    const sent: number[] = [];
    // Every millisecond for 6 s, as many as the window allows.
    for (let t = 0; t < 6000; t++) {
      while (w.waitMs(t) === 0) {
        w.record(t);
        sent.push(t);
      }
    }
    for (let i = 0; i < sent.length; i++) {
      const inWindow = sent.filter((s) => s >= sent[i]! && s - sent[i]! < PACING.windowMs).length;
      assert.ok(inWindow <= 80, `${inWindow} messages from ${sent[i]} ms`);
    }
    assert.equal(sent.length, 80 * 5, 'and it is not slower than that: bursts at 0, 1250, 2500, 3750 and 5000 ms');
    assert.equal(w.inLastSecond(5000), 80);
    assert.equal(w.inLastSecond(5999), 80);
    assert.equal(w.inLastSecond(6000), 0);
  });

  it('waitMs says when the oldest message leaves the window', () => {
    const w = new SlidingWindow(2, 1000);
    assert.equal(w.waitMs(0), 0);
    w.record(0);
    w.record(300);
    assert.equal(w.waitMs(400), 600);
    assert.equal(w.waitMs(1000), 0);
    assert.throws(() => new SlidingWindow(101, 1000), /1 to 100/);
    assert.throws(() => new SlidingWindow(80, 999), /at least 1000/);
  });

  it('the queue is bounded: past maxQueued a send is refused at once with a clear error; close() refuses those waiting', async () => {
    let now = 0;
    const pacer = new MessagePacer({ messages: 2, windowMs: 1000, maxQueued: 3, now: () => now });
    const ran: number[] = [];
    const results = Array.from({ length: 6 }, (_, i) =>
      pacer
        .submit(() => ran.push(i))
        .then(
          () => 'sent',
          (e: unknown) => (e instanceof PacerError ? e.reason : 'other'),
        ),
    );
    assert.deepEqual(ran, [0, 1], 'two go at once');
    assert.equal(pacer.queued, 3);
    assert.equal(pacer.inLastSecond(), 2);
    assert.equal(await results[5], 'full');
    await assert.rejects(
      pacer.submit(() => undefined),
      (e: unknown) => e instanceof PacerError && /3 messages already wait.*under §8's 100 a second/.test(e.message),
    );
    now = 5000;
    pacer.close('the connection is closed');
    assert.deepEqual(await Promise.all(results), ['sent', 'sent', 'closed', 'closed', 'closed', 'full']);
    await assert.rejects(
      pacer.submit(() => undefined),
      /Nothing was sent: the connection is closed/,
    );
  });

  it('queued sends go in order once the window has room (real timers)', async () => {
    const pacer = new MessagePacer({ messages: 2, windowMs: 1000 });
    const ran: number[] = [];
    const start = performance.now();
    await Promise.all([1, 2, 3, 4].map((i) => pacer.submit(() => ran.push(i))));
    assert.deepEqual(ran, [1, 2, 3, 4]);
    assert.ok(performance.now() - start >= 990, 'the third waited for the window');
  });
});

describe('WebSocket client parts: URLs and the listen key', () => {
  it('defaultWsUrl: the base URL with the ws scheme and /ws', () => {
    assert.equal(defaultWsUrl('http://127.0.0.1:8780'), 'ws://127.0.0.1:8780/ws');
    assert.equal(defaultWsUrl('https://api.example.com/api/v3'), 'wss://api.example.com/ws');
    assert.equal(defaultWsUrl('https://api.example.com:8443/'), 'wss://api.example.com:8443/ws');
    assert.equal(defaultWsUrl('ftp://example.com'), undefined);
    assert.equal(defaultWsUrl('not a url'), undefined);
  });

  it("a listen key goes only to the environment's WebSocket origin (scheme, host and port)", () => {
    const env = 'wss://stream.example.com/ws';
    assert.deepEqual(checkListenKeyDestination('wss://stream.example.com/ws?x=1', env), { ok: true, value: undefined });
    for (const other of [
      'ws://stream.example.com/ws',
      'wss://stream.example.com:444/ws',
      'wss://evil.example/ws',
      'https://stream.example.com/ws',
    ]) {
      const d = checkListenKeyDestination(other, env);
      assert.equal(d.ok, false, other);
    }
    assert.match(refusal(checkListenKeyDestination('wss://a/ws', 'https://a')), /not a ws:\/\/ or wss:\/\/ URL/);
  });

  it('the upgrade is gated on the HTTP form of the WebSocket origin, so a REST ban of the same host holds it', () => {
    assert.equal(upgradeOrigin('ws://127.0.0.1:8780/ws?listenKey=k'), 'http://127.0.0.1:8780');
    assert.equal(upgradeOrigin('wss://stream.example.com/ws'), 'https://stream.example.com');
    assert.equal(upgradeOrigin('wss://user:pw@stream.example.com/ws'), undefined);
  });

  it('listenKeyOf reads the answer of POST /api/v3/userDataStream and refuses keys that are not URL-safe', () => {
    assert.equal(listenKeyOf({ listenKey: 'ab12' }), 'ab12');
    assert.equal(listenKeyOf({ listenKey: 'a&b=c' }), undefined);
    assert.equal(listenKeyOf({ listenKey: 'x'.repeat(257) }), undefined);
    assert.equal(listenKeyOf({ code: 700002 }), undefined);
  });

  it('redact masks every occurrence of the key to its last 4 characters', () => {
    assert.equal(redact('k=secretkey1234 and secretkey1234', 'secretkey1234'), 'k=****1234 and ****1234');
  });

  it('ListenKeyLease: masked in toString, JSON and inspection; closed once; a malformed key is closed and never shown', async () => {
    const key = 'f'.repeat(60) + 'beef';
    const closes: string[] = [];
    const api: ListenKeyApi = {
      create: () => Promise.resolve(key),
      keepAlive: () => Promise.resolve(),
      close: (k) => Promise.resolve(void closes.push(k)),
    };
    const opened = await ListenKeyLease.open(api);
    assert.ok(opened.ok);
    const lease = opened.value;
    for (const text of [String(lease), JSON.stringify(lease), inspect(lease, { showHidden: true, depth: 5 })]) {
      assert.ok(!text.includes(key), text);
      assert.match(text, /\*\*\*\*beef/);
    }
    assert.equal(lease.urlFor(new URL('ws://h/ws')), `ws://h/ws?listenKey=${key}`);
    const [a, b] = await Promise.all([lease.close(), lease.close()]);
    assert.deepEqual([a, b, closes], [undefined, undefined, [key]]);

    const bad = await ListenKeyLease.open({ ...api, create: () => Promise.resolve('not url safe&') });
    assert.ok(!bad.ok);
    assert.equal(bad.error.kind, 'listen-key');
    assert.ok(!bad.error.message.includes('not url safe'));
    const failing = await ListenKeyLease.open({ ...api, create: () => Promise.reject(new Error('401 no authority')) });
    assert.ok(!failing.ok);
    assert.match(failing.error.message, /No listen key could be had.*401 no authority/);
  });
});

describe('WebSocket client parts: messages and frames', () => {
  it('groupStreams fills the room left under 30 first, so the streams past it are refused apart', () => {
    const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `s${i}`);
    assert.deepEqual(
      groupStreams(names(31), 30).map((g) => g.length),
      [30, 1],
    );
    assert.deepEqual(
      groupStreams(names(5), 2).map((g) => g.length),
      [2, 3],
    );
    assert.deepEqual(
      groupStreams(names(70), 30).map((g) => g.length),
      [30, 30, 10],
    );
    assert.deepEqual(
      groupStreams(names(3), 0).map((g) => g.length),
      [3],
    );
    assert.ok(groupStreams(names(100), 30).every((g) => g.length <= WS_RULES.maxParamsPerMessage));
  });

  it('replies are matched by id in order; with id 0 a PONG answers the oldest PING, anything else the oldest non-PING', () => {
    const t = new PendingReplies();
    assert.equal(t.allocate(), FIRST_CLIENT_ID);
    t.add(pending('SUBSCRIPTION', 0, 'user', 1, ['a']));
    t.add(pending('PING', 0, 'ping', 2));
    t.add(pending('PING', 7, 'user', 3));
    t.add(pending('SUBSCRIPTION', 7, 'user', 4, ['b']));
    assert.equal(t.take({ id: 0, code: 0, msg: 'PONG' })?.origin, 'ping');
    assert.deepEqual(t.take({ id: 0, code: 0, msg: 'a' })?.streams, ['a']);
    assert.equal(t.take({ id: 7, code: 0, msg: 'PONG' })?.method, 'PING');
    assert.equal(t.take({ id: 8, code: 0, msg: 'x' }), undefined);
    assert.equal(t.size, 1);
    assert.deepEqual(
      t.expire(5).map((p) => p.streams),
      [['b']],
    );
    assert.equal(t.size, 0);
  });

  it('readFrame tells replies, pushes and problems apart, counting size in UTF-8 bytes, and never throws', () => {
    assert.equal(readFrame('{"id":1,"code":0,"msg":"ok"}').type, 'reply');
    const push = readFrame(
      '{"c":"spot@public.bookTicker.v3.api@BTCUSDT","s":"BTCUSDT","t":1,"d":{"b":"1.0","B":"2","a":null,"A":null}}',
    );
    assert.deepEqual([push.type, (push as { kind?: string }).kind], ['push', 'bookTicker']);
    const problem = (data: unknown, max?: number): string => {
      const f = readFrame(data, max);
      return f.type === 'problem' ? f.problem : f.type;
    };
    assert.equal(problem(new ArrayBuffer(4)), 'binary');
    assert.equal(problem('{"a":1'), 'not-json');
    assert.equal(problem('{"c":"spot@public.trades.v3.api@BTCUSDT","t":1,"d":{}}'), 'unknown');
    assert.equal(problem('{"c":"spot@public.deals.v3.api@BTCUSDT","t":1,"d":{"deals":"x"}}'), 'unknown');
    assert.equal(problem('"é"'.repeat(40), 100), 'too-large', '40 × 4 bytes');
    assert.equal(problem('"e"'.repeat(30), 100), 'not-json', '90 bytes pass the cap');
    assert.equal(problem('['.repeat(100_000) + ']'.repeat(100_000)), 'unknown');
    const sample = readFrame('\u0000\u001b[31m{bad');
    assert.ok(sample.type === 'problem' && [...(sample.sample ?? '')].every((ch) => ch >= ' '));
  });

  it('@expect message: VALUE bare or as JSON, by the rules of @expect json; passes when one push matches', () => {
    assert.ok(matchesWritten('BTCUSDT', 'BTCUSDT'));
    assert.ok(matchesWritten('BTCUSDT', '"BTCUSDT"'));
    assert.ok(matchesWritten(1, '1'));
    assert.ok(!matchesWritten(1, '1.0'));
    assert.ok(matchesWritten(true, 'true'));
    assert.ok(matchesWritten({ a: [1] }, '{"a":[1]}'));
    assert.ok(!matchesWritten(undefined, 'undefined'));
    const pushes = [{ d: { s: 2 } }, { d: { s: 1 } }, { d: { s: 2 } }];
    assert.deepEqual(checkMessageExpectations([{ path: 'd.s', value: '1' }], pushes), [
      { text: '@expect message d.s == 1', passed: true, actual: 'd.s = 1' },
    ]);
    assert.deepEqual(checkMessageExpectations([{ path: 'd.s', value: '3', text: 'message d.s == 3' }], pushes), [
      { text: '@expect message d.s == 3', passed: false, actual: 'd.s = 2 (the last of 3 pushes)' },
    ]);
    assert.equal(checkMessageExpectations([{ path: 'd.s', value: '3' }], [])[0]?.actual, 'no push');
  });
});
