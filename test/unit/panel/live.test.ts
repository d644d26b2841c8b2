/**
 * The extension's side of the stream view (core/panel/live.ts): a WsConnection's events turned into
 * the panel's `live` messages. Against the real sandbox (pushes after REST trades, depth books,
 * unsubscribing), and against a hostile `ws` server that floods pushes, sends markup and echoes the
 * listen key. Every message posted must pass the panel's own validator.
 */
import assert from 'node:assert/strict';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { BOUNDS } from '../../../src/core/bounds';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { LIVE_INTERVAL_MS, LiveFeed } from '../../../src/core/panel/live';
import { check, ToPanelShape, type LiveMessage } from '../../../src/core/panel/protocol';
import { trimDecimal } from '../../../src/core/panel/push-summary';
import { WsConnection, type ListenKeyApi } from '../../../src/core/ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { control, field, limitOrder, signed } from '../../support/sandbox-ws';

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';
const DEPTH5 = 'spot@public.limit.depth.v3.api@BTCUSDT@5';
const LISTEN_KEY = 'TestListenKeyNeverShown0123456789abcdefABCDEF';

/** Polls `probe` until it gives a value, failing after `ms` with `what`. */
async function until<T>(probe: () => T | undefined | false, what: string, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    assert.ok(Date.now() < end, `not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Posted {
  readonly at: number;
  readonly m: LiveMessage;
}

function feedOf(c: WsConnection, intervalMs?: number): { feed: LiveFeed; posted: Posted[] } {
  const posted: Posted[] = [];
  const feed = new LiveFeed({
    ...(intervalMs !== undefined && { intervalMs }),
    id: 'c1',
    title: 'BTCUSDT <b>trades</b>',
    environment: 'sandbox',
    source: c,
    post: (m) => {
      // As the panel does: the message is checked before anything of it is used.
      const r = check(ToPanelShape, JSON.parse(JSON.stringify(m)));
      assert.ok(r.ok, `a message the panel would drop: ${r.ok ? '' : r.error}`);
      // When the feed made it, by its own clock: under load the check above can take longer for one
      // message than another, and a gap measured after it says more about the check than the feed.
      posted.push({ at: m.connection.now, m });
    },
  });
  return { feed, posted };
}

const lines = (posted: Posted[]) => posted.flatMap((p) => p.m.pushes);

describe('stream view feed: WsConnection events to the panel', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  const cleanup: (() => Promise<void> | void)[] = [];
  const budget = (): Budget => new Budget(new MemoryStateStore());

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  async function connected(url = sb.wsUrl, listenKey?: ListenKeyApi): Promise<WsConnection> {
    const c = new WsConnection({ budget: budget(), restBaseUrl: sb.baseUrl });
    cleanup.push(() => c.close());
    const r = await c.connect(url, listenKey ? { listenKey, envWsUrl: url } : {});
    assert.ok(r.ok, JSON.stringify(r));
    return c;
  }

  it('a trade reaches the panel as a log line with a summary, the depth push as a book; the view holds state, meters and streams', async () => {
    assert.equal((await control(sb, '/reset')).status, 200);
    const c = await connected();
    const { feed, posted } = feedOf(c);
    cleanup.push(() => feed.dispose());
    feed.select();
    await c.subscribe([DEALS, DEPTH5]);
    const r = await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.5', '30010'));
    assert.equal(field(r.json, 'status'), 'FILLED', r.text);

    const deal = await until(() => lines(posted).find((l) => l.stream === DEALS), 'a deals push in the panel');
    assert.equal(deal.summary, 'BUY 0.5 @ 30010');
    assert.match(deal.text ?? '', /^\{"c":"spot@public\.deals\.v3\.api@BTCUSDT","s":"BTCUSDT","t":\d+,"d":/);
    const book = await until(() => posted.flatMap((p) => p.m.books).find((b) => b.stream === DEPTH5), 'a book');
    assert.ok(book.bids.length > 0 && book.asks.length > 0, JSON.stringify(book));
    const depthLine = lines(posted).find((l) => l.stream === DEPTH5)!;
    assert.equal(depthLine.text, undefined, 'a depth push is shown as its book, not as JSON');
    assert.match(depthLine.summary ?? '', /^bid [\d.]+ × [\d.]+ · ask [\d.]+ × [\d.]+$/);

    const last = posted.at(-1)!.m.connection;
    assert.equal(last.status, 'open');
    assert.equal(last.title, 'BTCUSDT <b>trades</b>', 'text, as given: the panel shows it as text');
    assert.deepEqual(last.meters.streams, { used: 2, limit: 30 });
    assert.equal(last.meters.messages.limit, 100);
    assert.deepEqual(
      last.streams.map((s) => [s.stream, s.status]),
      [
        [DEALS, 'subscribed'],
        [DEPTH5, 'subscribed'],
      ],
    );
    assert.ok(last.notes.some((n) => n.text === `Subscribed ${DEALS}.`));
    assert.equal(posted[0]!.m.select, true, 'the first message brings the tab to the front');
    assert.ok(posted.slice(1).every((p) => !p.m.select));
  });

  it('unsubscribing and disconnecting show in the view; after close one last message says so', async () => {
    const c = await connected();
    const { feed, posted } = feedOf(c);
    cleanup.push(() => feed.dispose());
    await c.subscribe([DEALS]);
    const out = await c.unsubscribe(DEALS);
    assert.ok(out.ok);
    await until(() => posted.at(-1)?.m.connection.streams.length === 0, 'the stream gone from the view');
    assert.ok(posted.at(-1)!.m.connection.notes.some((n) => n.text === `Unsubscribed ${DEALS}.`));
    await c.close();
    const closed = await until(
      () => posted.map((p) => p.m.connection).find((v) => v.status === 'closed'),
      'a closed view',
    );
    assert.match(closed.message ?? '', /Closed by the client/);
    assert.equal(closed.meters.streams.used, 0);
  });

  describe('against a hostile server', () => {
    let wss: WebSocketServer;
    let url: string;
    let onConnection: (ws: ServerSocket) => void = () => undefined;

    before(async () => {
      wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
      wss.on('connection', (ws) => onConnection(ws));
      await new Promise<void>((r) => wss.once('listening', r));
      url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`;
    });
    after(async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise((r) => wss.close(r));
    });

    const deals = (i: number, extra = ''): string =>
      `{"c":"${DEALS}","s":"BTCUSDT","t":${1700000000000 + i},"d":{"e":"spot@public.deals.v3.api","deals":[{"p":"1.${i}","v":"2","S":2,"t":1}]${extra}}}`;

    it(`a flood of 20,000 pushes: at most one message every ${LIVE_INTERVAL_MS} ms, each with at most ${BOUNDS.livePushesPerMessage} pushes, the rest counted`, async () => {
      const total = 20_000;
      onConnection = (ws) => {
        for (let i = 0; i < total; i++) ws.send(deals(i));
      };
      const c = await connected(url);
      const { feed, posted } = feedOf(c);
      cleanup.push(() => feed.dispose());
      await until(() => c.snapshot().counts.pushes === total, 'every push received', 15_000);
      feed.flush();
      const shown = lines(posted).length;
      const skipped = posted.reduce((n, p) => n + p.m.skipped, 0);
      assert.equal(shown + skipped, total, 'every push is shown or counted');
      // Whether any are skipped here depends on how fast this machine reads them: the next test says.
      assert.ok(posted.every((p) => p.m.pushes.length <= BOUNDS.livePushesPerMessage));
      const gaps = posted.slice(1, -1).map((p, i) => p.at - posted[i]!.at);
      assert.ok(
        gaps.every((g) => g >= LIVE_INTERVAL_MS - 5),
        `messages at least ${LIVE_INTERVAL_MS} ms apart: ${gaps.join(', ')}`,
      );
      assert.equal(lines(posted).at(-1)!.summary, `SELL 2 @ 1.${total - 1}`, 'the newest pushes reach the panel');
    });

    it('pushes that come faster than the panel is fed are counted, not shown, and the newest are shown', async () => {
      const total = 3 * BOUNDS.livePushesPerMessage;
      onConnection = (ws) => {
        for (let i = 0; i < total; i++) ws.send(deals(i));
      };
      const c = await connected(url);
      // An interval longer than the test: after its first message the feed posts only when flushed.
      const { feed, posted } = feedOf(c, 600_000);
      cleanup.push(() => feed.dispose());
      await until(() => c.snapshot().counts.pushes === total, 'every push received', 15_000);
      feed.flush();
      const skipped = posted.reduce((n, p) => n + p.m.skipped, 0);
      assert.ok(posted.length <= 2, `the first message and the flush: ${posted.length}`);
      assert.equal(lines(posted).length + skipped, total, 'every push is shown or counted');
      assert.ok(skipped >= total - 2 * BOUNDS.livePushesPerMessage, `${skipped} counted`);
      assert.equal(lines(posted).at(-1)!.summary, `SELL 2 @ 1.${total - 1}`, 'the newest pushes reach the panel');
    });

    it('markup in a push stays text, a long push is clipped, and a listen key the server echoes is masked everywhere', async () => {
      onConnection = (ws) => {
        ws.send(deals(1, `,"x":"<img src=x onerror=alert(1)> ${LISTEN_KEY}"`));
        ws.send(deals(2, `,"big":"${'y'.repeat(10_000)}"`));
        ws.send(`{"id":9,"code":1,"msg":"no ${LISTEN_KEY}"}`);
        ws.close(1000, `bye ${LISTEN_KEY.slice(0, 20)}`);
      };
      const keys: ListenKeyApi = {
        // The REST side is not under test here: the key a POST /api/v3/userDataStream would give.
        create: () => Promise.resolve(LISTEN_KEY),
        keepAlive: () => Promise.resolve(),
        close: () => Promise.resolve(),
      };
      const c = new WsConnection({ budget: budget() });
      cleanup.push(() => c.close());
      const { feed, posted } = feedOf(c);
      cleanup.push(() => feed.dispose());
      assert.ok((await c.connect(url, { listenKey: keys, envWsUrl: url })).ok);
      await until(() => posted.some((p) => p.m.connection.status === 'closed'), 'the close');
      const all = JSON.stringify(posted.map((p) => p.m));
      assert.ok(!all.includes(LISTEN_KEY), 'the listen key is nowhere in what the panel gets');
      assert.ok(all.includes(`****${LISTEN_KEY.slice(-4)}`), 'it shows masked');
      const [first, second] = lines(posted);
      assert.ok(first!.text!.includes('<img src=x onerror=alert(1)>'), 'markup is passed as text');
      assert.ok(second!.text!.length <= BOUNDS.pushTextChars + 64, `clipped: ${second!.text!.length}`);
      assert.match(second!.text!, /… \(\d+ more characters not kept\)$/);
      assert.equal(posted.at(-1)!.m.connection.listenKey, `****${LISTEN_KEY.slice(-4)}`);
    });
  });

  it('trimDecimal keeps the digits that say something', () => {
    assert.deepEqual(['30010.00000000', '0.00100000', '12', '0.00000000', '-20.50000000'].map(trimDecimal), [
      '30010',
      '0.001',
      '12',
      '0',
      '-20.5',
    ]);
  });
});
