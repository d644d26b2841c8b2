/**
 * The stream view's gaps (core/panel/live.ts over a WsSession, core/ws/reconnect.ts): a connection
 * the sandbox drops is re-opened, and the panel's messages show the gap (when, why, the pushes it
 * may have missed, as an estimate) and its notes, every message passing the panel's own validator.
 * The reconnect's wait is fired by hand.
 */
import assert from 'node:assert/strict';
import { Budget } from '../../../src/core/budget/budget';
import { MemoryStateStore } from '../../../src/core/budget/state';
import { LiveFeed } from '../../../src/core/panel/live';
import { check, ToPanelShape, type LiveMessage } from '../../../src/core/panel/protocol';
import { WsConnection, WsSession } from '../../../src/core/ws';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { HandTimers } from '../../support/hand-timers';
import { control, limitOrder, signed } from '../../support/sandbox-ws';

const DEALS = 'spot@public.deals.v3.api@BTCUSDT';

describe('stream view feed: the gaps of a WsSession', function () {
  this.timeout(30_000);
  let sb: Sandbox;

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });

  it('a drop shows as a gap while it lasts, then with its end, reason and estimate; the notes tell both', async () => {
    const timers = new HandTimers();
    const budget = new Budget(new MemoryStateStore());
    const session = new WsSession({
      connection: () => new WsConnection({ budget, restBaseUrl: sb.baseUrl }),
      reconnect: true,
      timers,
      random: () => 0,
    });
    const posted: LiveMessage[] = [];
    const feed = new LiveFeed({
      id: 'c1',
      title: 'trades',
      environment: 'sandbox',
      source: session,
      post: (m) => {
        const r = check(ToPanelShape, JSON.parse(JSON.stringify(m)));
        assert.ok(r.ok, `a message the panel would drop: ${r.ok ? '' : r.error}`);
        posted.push(m);
      },
    });
    try {
      assert.ok((await session.connect(sb.wsUrl)).ok);
      assert.ok((await session.subscribe([DEALS]))[0]!.ok);
      const push = session.waitFor('push');
      await signed(sb, 'POST', '/api/v3/order', limitOrder('SELL', '0.1', '30000'));
      await signed(sb, 'POST', '/api/v3/order', limitOrder('BUY', '0.1', '30000'));
      await push;
      const lost = session.waitFor('gap');
      await control(sb, '/ws/drop');
      await lost;
      feed.flush();
      const during = posted.at(-1)!.connection;
      assert.equal(during.status, 'connecting');
      assert.deepEqual(
        during.gaps?.map((g) => [g.code, g.endedAt, g.attempts]),
        [[1006, undefined, 0]],
      );
      const back = session.waitFor('gap', (e) => e.gap.endedAt !== undefined);
      timers.fire(true);
      await back;
      feed.flush();
      const after = posted.at(-1)!.connection;
      assert.equal(after.status, 'open');
      const [gap] = after.gaps ?? [];
      assert.ok(gap !== undefined && gap.resumed === true && gap.endedAt! >= gap.startedAt);
      assert.match(gap.reason, /dropped with no close frame/);
      assert.ok(gap.ratePerSecond > 0);
      assert.equal(typeof gap.missedEstimate, 'number');
      const notes = after.notes.map((n) => n.text);
      assert.ok(notes.some((n) => n.startsWith('Connection lost: The connection dropped')));
      assert.ok(
        notes.some((n) =>
          /^Reconnected after [\d.]+ s and subscribed again; about \d+ pushes may have been missed \(an estimate\)\.$/.test(
            n,
          ),
        ),
      );
      assert.ok(notes.some((n) => n === `Subscribed ${DEALS} (${DEALS}).` || n.startsWith(`Subscribed ${DEALS}`)));
    } finally {
      await session.close();
      feed.dispose();
    }
  });
});
