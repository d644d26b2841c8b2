/**
 * Protocol Buffers pushes through the stream client (issue 33): against a stand-in of the public
 * deployment's stream server (test/support/pb-stream.ts: it says it is one, until the sandbox
 * plays that deployment), frames encoded by protobufjs decode to the same values in the client's
 * push events, the stream view's feed, `# @expect message` and `tradereq listen` (in-process);
 * replies and PONG stay JSON; a frame that does not decode, a JSON push under Protocol Buffers and
 * a binary frame under JSON are counted and shown, never fatal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenCommand } from '../../../src/cli/listen';
import type { Io } from '../../../src/cli/usage';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { LiveFeed } from '../../../src/core/panel/live';
import { check, ToPanelShape, type LiveMessage } from '../../../src/core/panel/protocol';
import {
  FIRST_CLIENT_ID,
  MessageExpectations,
  type ListenKeyApi,
  WsConnection,
  type WsConnectionOptions,
  type WsEvent,
  type WsEventOf,
} from '../../../src/core/ws';
import { encodePush, PbStandIn } from '../../support/pb-stream';

const DEALS = 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT';
const deal = { price: '93120.10', quantity: '0.000500', tradeType: 2, time: '1764000000123', tradeId: '501' };

/** An aggregated-deals push of `channel` as the deployment sends it, encoded by protobufjs. */
function dealsFrame(channel: string, price = deal.price): Uint8Array {
  return encodePush({
    channel,
    symbol: 'BTCUSDT',
    symbolId: 'c0ffee',
    createTime: '1764000000100',
    sendTime: '1764000000130',
    publicAggreDeals: { deals: [{ ...deal, price }], eventType: 'spot@public.aggre.deals.v3.api.pb@100ms' },
  });
}

/** The same push as the client shows, expects and reports it (docs/websocket.md, "Protocol Buffers pushes"). */
const DECODED = {
  channel: DEALS,
  symbol: 'BTCUSDT',
  symbolId: 'c0ffee',
  createTime: 1764000000100,
  sendTime: 1764000000130,
  publicAggreDeals: {
    deals: [{ ...deal, time: 1764000000123 }],
    eventType: 'spot@public.aggre.deals.v3.api.pb@100ms',
  },
};

/** Not a wrapper: a varint that never ends. */
const GARBAGE = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
/** A wrapper whose body (field 316) the schema does not know. */
const UNKNOWN_BODY = Uint8Array.from([0x0a, 0x01, 0x78, 0xe2, 0x13, 0x00]);
/** A push in the JSON convention, with control characters in it. */
const TEXT_PUSH = '{"c":"spot@public.deals.v3.api@BTCUSDT","t":1,"d":{"x":"\\u001b[31m"}}';

async function until(check: () => boolean, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    assert.ok(Date.now() < end, `not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function connection(options: Partial<WsConnectionOptions> = {}): WsConnection {
  return new WsConnection({ budget: new Budget(new MemoryStateStore()), pingAfterMs: 0, ...options });
}

describe('Protocol Buffers pushes through the stream client (a stand-in server)', function () {
  this.timeout(30_000);
  let server: PbStandIn | undefined;
  const open: WsConnection[] = [];

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    await server?.close();
    server = undefined;
  });

  async function connected(options: Partial<WsConnectionOptions>): Promise<WsConnection> {
    const c = connection(options);
    open.push(c);
    assert.ok((await c.connect(server!.url)).ok);
    return c;
  }

  it('decodes a binary push to the JSON shape: channel, symbol, times, the body under its name, decimals as text', async () => {
    server = await PbStandIn.start((channels) => channels.map((c) => dealsFrame(c)));
    const c = await connected({ streamEncoding: 'protobuf' });
    const pushes: WsEventOf<'push'>[] = [];
    c.on('push', (e) => pushes.push(e));
    assert.deepEqual(await c.subscribe([DEALS]), [{ stream: DEALS, ok: true }]);
    await until(() => pushes.length === 1, 'the decoded push');
    const e = pushes[0]!;
    assert.ok(e.encoding === 'protobuf', JSON.stringify(e));
    assert.equal(e.stream, DEALS);
    assert.equal(e.body, 'publicAggreDeals');
    assert.deepEqual(e.json, DECODED);
    const view = c.snapshot().streams.find((s) => s.stream === DEALS)!;
    assert.deepEqual([view.status, view.pushes], ['subscribed', 1]);
    // Client messages stay JSON, and their replies (PONG) are read as JSON under Protocol Buffers.
    const pong = c.waitFor('reply', (r) => r.reply.msg === 'PONG');
    assert.ok((await c.send('{"method":"PING"}')).ok);
    await pong;
    assert.deepEqual(JSON.parse(server.received[0]!), { method: 'SUBSCRIPTION', params: [DEALS], id: FIRST_CLIENT_ID });
    const counts = c.snapshot().counts;
    assert.deepEqual([counts.pushes, counts.pongs, counts.undecodable, counts.textPush], [1, 1, 0, 0]);
  });

  it('counts and shows a frame that does not decode, a body it does not know and a JSON push, and goes on decoding', async () => {
    server = await PbStandIn.start((channels) => [GARBAGE, UNKNOWN_BODY, TEXT_PUSH, dealsFrame(channels[0]!)]);
    const c = await connected({ streamEncoding: 'protobuf' });
    const events: WsEvent[] = [];
    c.onEvent((e) => events.push(e));
    await c.subscribe([DEALS]);
    await until(() => events.some((e) => e.type === 'push'), 'the push after the bad frames');
    const frames = events.filter((e): e is WsEventOf<'frame'> => e.type === 'frame');
    assert.deepEqual(
      frames.map((f) => [f.problem, f.count]),
      [
        ['undecodable', 1],
        ['undecodable', 2],
        ['text-push', 1],
      ],
    );
    assert.match(frames[0]!.why, /not a Protocol Buffers push/);
    assert.equal(frames[0]!.sample, 'ff ff ff ff ff ff ff ff ff ff ff', 'its first bytes, as hex');
    assert.match(frames[1]!.why, /field 316/);
    assert.ok(
      [...(frames[2]!.sample ?? '')].every((ch) => ch >= ' '),
      'control characters escaped',
    );
    assert.equal(c.state.status, 'open');
    const counts = c.snapshot().counts;
    assert.deepEqual([counts.pushes, counts.undecodable, counts.textPush], [1, 2, 1]);
  });

  it('a binary frame where the deployment sends JSON is counted as binary and dropped', async () => {
    server = await PbStandIn.start((channels) => [dealsFrame(channels[0]!)]);
    const c = await connected({});
    const dropped = c.waitFor('frame', () => true);
    // A JSON stream name, so the client sends it (the stand-in answers whatever it is asked).
    await c.subscribe(['spot@public.deals.v3.api@BTCUSDT']);
    const f = await dropped;
    assert.equal(f.problem, 'binary');
    assert.deepEqual([c.snapshot().counts.binary, c.snapshot().counts.pushes], [1, 0]);
  });

  it('the stream view shows a decoded push as its JSON with its line for people, and counts the dropped frames', async () => {
    server = await PbStandIn.start((channels) => [GARBAGE, ...channels.map((c) => dealsFrame(c))]);
    const c = await connected({ streamEncoding: 'protobuf' });
    const posted: LiveMessage[] = [];
    const feed = new LiveFeed({ id: 'p1', title: 't', environment: 'e', source: c, post: (m) => posted.push(m) });
    try {
      const pushed = c.waitFor('push', () => true);
      await c.subscribe([DEALS]);
      await pushed;
      feed.flush();
      const line = posted.flatMap((m) => m.pushes).find((l) => l.stream === DEALS);
      assert.ok(line?.text !== undefined, JSON.stringify(posted));
      assert.deepEqual(JSON.parse(line.text), DECODED);
      assert.equal(line.summary, 'SELL 0.0005 @ 93120.1', 'a line for people, as a JSON deals push has');
      const last = posted.at(-1)!;
      assert.equal(last.connection.counts.undecodable, 1);
      assert.ok(last.connection.notes.some((n) => n.tone === 'warn' && n.text.includes('ff ff ff')));
      assert.ok(check(ToPanelShape, JSON.parse(JSON.stringify(last))).ok, 'the panel takes the message');
    } finally {
      feed.dispose();
    }
  });

  it('a listen key the server echoes in a decoded push is masked in the stream view, its channel included', async () => {
    const key = 'pqia91ma19a5s61cv6a81va65sdf19v8a65a1a5s61cv6a81va65sdf19v8a65a1';
    server = await PbStandIn.start(() => [
      encodePush({ channel: `spot@private.orders.v3.api.pb@${key}`, privateOrders: { id: key, price: '1' } }),
    ]);
    const keys: ListenKeyApi = {
      // The REST side is not under test here: the key a POST /api/v3/userDataStream would give.
      create: () => Promise.resolve(key),
      keepAlive: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const c = connection({ streamEncoding: 'protobuf' });
    open.push(c);
    const posted: LiveMessage[] = [];
    const feed = new LiveFeed({ id: 'k1', title: 't', environment: 'e', source: c, post: (m) => posted.push(m) });
    try {
      assert.ok((await c.connect(server.url, { listenKey: keys, envWsUrl: server.url })).ok);
      const pushed = c.waitFor('push', () => true);
      await c.subscribe(['spot@private.orders.v3.api.pb']);
      await pushed;
      feed.flush();
      const shown = JSON.stringify(posted);
      assert.ok(posted.some((m) => m.pushes.length > 0));
      assert.ok(!shown.includes(key), shown);
    } finally {
      feed.dispose();
    }
  });

  it('# @expect message passes and fails on decoded values', async () => {
    server = await PbStandIn.start((channels) => [dealsFrame(channels[0]!, '1.50'), dealsFrame(channels[0]!)]);
    const c = await connected({ streamEncoding: 'protobuf' });
    const checks = new MessageExpectations([
      { path: 'publicAggreDeals.deals[0].price', value: '"93120.10"' },
      { path: 'symbol', value: 'BTCUSDT' },
      { path: 'sendTime', value: '1764000000130' },
      { path: 'publicAggreDeals.deals[0].tradeType', value: '1' },
      { path: 'x', value: '1', text: 'message publicAggreDeals.deals[0].price > 100000' },
    ]);
    let n = 0;
    c.on('push', (e) => {
      checks.observe(e.json);
      n++;
    });
    await c.subscribe([DEALS]);
    await until(() => n === 2, 'both pushes');
    const [price, symbol, time, side, above] = checks.results();
    assert.deepEqual([price!.passed, symbol!.passed, time!.passed], [true, true, true]);
    assert.equal(side!.passed, false);
    assert.match(side!.actual, / = 2 \(the last of 2 pushes\)$/);
    assert.equal(above!.passed, false, 'decimals compared as decimals: 93120.10 is not > 100000');
  });
});

describe('tradereq listen with "deployment": "mexc" (in-process, a stand-in server)', function () {
  this.timeout(30_000);
  let server: PbStandIn | undefined;
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-listen-pb-'));
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function listen(file: string, args: string[]): Promise<{ exit: number; out: string[]; err: string[] }> {
    writeFileSync(
      join(dir, 'tradereq.env.json'),
      // Its own baseUrl wins over the deployment's (nothing goes there: no listen key, no ban to read).
      JSON.stringify({ mexc: { deployment: 'mexc', baseUrl: 'http://127.0.0.1:9', wsUrl: server!.url } }),
    );
    writeFileSync(join(dir, 'm.tradereq'), file);
    const out: string[] = [];
    const err: string[] = [];
    const io: Io = {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { TRADEREQ_STATE_DIR: join(dir, 'state') },
      cwd: dir,
    };
    return { exit: await listenCommand(['m.tradereq', ...args], io), out, err };
  }

  it('prints each decoded push as TIME CHANNEL {BODY}, checks # @expect message, and counts a garbage frame (exit 1 on a failed expectation)', async () => {
    server = await PbStandIn.start((channels) => [GARBAGE, dealsFrame(channels[0]!), dealsFrame(channels[0]!)]);
    const expect = '# @expect message publicAggreDeals.deals[0].price == "93120.10"\n';
    const failing = '# @expect message publicAggreDeals.deals[0].tradeType == 1\n';
    const r = await listen(`${expect}${failing}WS /ws\n[subscribe]\n${DEALS}\n`, ['--count', '2']);
    const body = JSON.stringify({ publicAggreDeals: DECODED.publicAggreDeals });
    const pushes = r.out.filter((l) => l.includes(` ${DEALS} `));
    assert.equal(pushes.length, 2, r.out.join('\n'));
    assert.match(pushes[0]!, /^\d\d:\d\d:\d\d\.\d{3} /);
    assert.equal(pushes[0]!.replace(/^\S+ /, ''), `${DEALS} ${body}`);
    assert.ok(r.out.includes('✔ @expect message publicAggreDeals.deals[0].price == "93120.10"'), r.out.join('\n'));
    assert.ok(r.out.some((l) => l.startsWith('✘ @expect message publicAggreDeals.deals[0].tradeType == 1')));
    assert.ok(
      r.err[0]?.startsWith('! a frame was dropped (1 so far): a binary frame that is not a Protocol Buffers push'),
    );
    assert.ok(r.err.includes('! 1 frame was dropped: 1 not a Protocol Buffers push'), r.err.join('\n'));
    assert.equal(r.exit, 1);
  });

  it('--json: the push is the decoded shape, and the end counts the dropped frames', async () => {
    server = await PbStandIn.start((channels) => [UNKNOWN_BODY, dealsFrame(channels[0]!)]);
    const r = await listen(`WS /ws\n[subscribe]\n${DEALS}\n`, ['--count', '1', '--json']);
    assert.equal(r.exit, 0, [...r.out, ...r.err].join('\n'));
    const records = r.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    const push = records.find((x) => x['type'] === 'push')!;
    assert.deepEqual(
      { ...push, at: 0 },
      { type: 'push', stream: DEALS, body: 'publicAggreDeals', at: 0, push: DECODED },
    );
    const error = records.find((x) => x['type'] === 'error')!;
    assert.equal(error['kind'], 'undecodable');
    const end = records.find((x) => x['type'] === 'end')!;
    assert.deepEqual(end['dropped'], {
      notJson: 0,
      binary: 0,
      unknown: 0,
      tooLarge: 0,
      undecodable: 1,
      textPush: 0,
    });
  });
});
