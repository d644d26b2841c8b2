// The stream view in headless Chromium: the panel's real page (test/webview/harness.js) fed `live`
// messages as the extension posts them (src/core/panel/live.ts). Tabs, state and meters, streams with
// Unsubscribe, the depth table, the log with Pause, filter, Clear and its cap, hostile pushes as
// text, the send box. Screenshots go to test-results/.
//
//   npx mocha --no-config test/webview/live.test.js
'use strict';

const assert = require('node:assert/strict');
const { panelSuite, send, nextFrame, shoot } = require('./harness');

const { T0: NOW, DEALS, DEALS_ETH, DEPTH, connection, book, live, tradingScene } = require('./fixtures');

const HOSTILE = '<img src=x onerror=alert(1)></script><script>alert(2)</script>';
const CAP = 5000;
const LIVE_ROWS = 100; // LIVE_ROWS of src/webview/live-view.ts

let seq = 0;
function deal(over = {}) {
  seq += 1;
  const price = (30000 + (seq % 20)).toFixed(2);
  return {
    at: NOW + seq,
    stream: DEALS,
    summary: `BUY 0.001 @ ${price}`,
    text: `{"c":"${DEALS}","s":"BTCUSDT","t":${NOW + seq},"d":{"e":"spot@public.deals.v3.api","deals":[{"p":"${price}","v":"0.001","S":1,"t":${NOW + seq}}]}}`,
    ...over,
  };
}

describe('the stream view, in a browser', function () {
  this.timeout(90_000);
  const { open } = panelSuite();

  /** Posts messages to the panel, then waits for the frame that draws them. */
  async function post(page, ...messages) {
    for (const m of messages) await send(page, m);
    await nextFrame(page);
  }

  const posted = (page) => page.evaluate(() => window.__posted);
  const logLines = (page) =>
    page.locator('[data-testid=push-log] > li').evaluateAll((els) => els.map((e) => e.textContent));

  it('a connection opens a tab beside the response, with its state, age, meters, streams and events', async () => {
    const { page, errors } = await open();
    assert.equal(await page.getByTestId('view-tabs').isHidden(), true, 'no tabs while no connection is live');
    await post(page, live({ select: true }));
    const tabs = page.getByTestId('view-tab');
    assert.deepEqual(await tabs.allTextContents(), ['Response', 'BTCUSDT trades and the best 5 levels · Open']);
    assert.equal(await tabs.nth(1).getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByTestId('app').isHidden(), true, 'the response view is behind its tab');
    assert.equal(await page.getByTestId('live-status').textContent(), 'Open');
    assert.equal(await page.getByTestId('live-age').textContent(), 'for 1 min 5 s');
    assert.equal(
      await page.getByTestId('meter-streams').locator('label').textContent(),
      'Streams 3/30 held on this connection',
    );
    assert.equal(
      await page.getByTestId('meter-messages').locator('label').textContent(),
      'Client messages 2/100 in the last second · paced at most 80 in 1000 ms',
    );
    assert.deepEqual(
      await page
        .getByTestId('meter-streams')
        .locator('meter')
        .evaluate((m) => [m.value, m.max]),
      [3, 30],
    );
    const rows = page.getByTestId('stream-row');
    assert.equal(await rows.count(), 3);
    assert.match(
      await rows.first().textContent(),
      /^spot@public\.deals\.v3\.api@BTCUSDTsubscribed121\.2\/s\d\d:\d\d:\d\d\.\d{3}Unsubscribe$/,
    );
    assert.match(
      await page.getByTestId('notes').textContent(),
      /Subscribed spot@public\.deals\.v3\.api@BTCUSDT\..*Connected to ws:/,
    );
    assert.equal(await page.getByTestId('push-log').locator('li').count(), 0);

    await rows.first().getByTestId('unsubscribe').click();
    await page.getByTestId('disconnect').click();
    assert.deepEqual((await posted(page)).slice(1), [
      { type: 'unsubscribe', id: 'c1', stream: DEALS },
      { type: 'disconnect', id: 'c1' },
    ]);

    // The Response tab brings the response back; the arrow keys move along the tabs.
    await tabs.first().click();
    assert.equal(await page.getByTestId('app').isVisible(), true);
    assert.equal(await page.getByTestId('live-host').isHidden(), true);
    await page.keyboard.press('ArrowRight');
    assert.equal(await tabs.nth(1).getAttribute('aria-selected'), 'true');
    assert.deepEqual(errors, []);
  });

  it('several connections at once: a tab each; a closed one says why and can be closed', async () => {
    const { page } = await open();
    await post(page, live({ select: true }), live({ connection: { id: 'c2', title: 'My orders', streams: [] } }));
    assert.equal(await page.getByTestId('view-tab').count(), 3);
    assert.equal(await page.getByTestId('live').count(), 2);
    assert.equal(await page.locator('[data-testid=live]:visible').getAttribute('data-id'), 'c1');

    await post(
      page,
      live({
        connection: {
          id: 'c2',
          title: 'My orders',
          status: 'closed',
          code: 1006,
          message: 'The connection dropped with no close frame (1006).',
          streams: [],
        },
      }),
    );
    await page.getByTestId('view-tab').nth(2).click();
    const c2 = page.locator('[data-testid=live][data-id=c2]');
    assert.equal(await c2.getByTestId('live-status').textContent(), 'Closed');
    assert.equal(
      await c2.getByTestId('live-message').textContent(),
      'The connection dropped with no close frame (1006).',
    );
    assert.equal(await c2.getByTestId('disconnect').isHidden(), true);
    assert.equal(await c2.getByTestId('send').isDisabled(), true, 'nothing is sent on a closed connection');
    assert.match(await c2.getByTestId('streams').textContent(), /No streams on this connection\./);
    await c2.getByTestId('forget').click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'forget', id: 'c2' });
    await post(page, { type: 'forget', id: 'c2' });
    assert.equal(await page.getByTestId('view-tab').count(), 2);
    assert.equal(await page.getByTestId('app').isVisible(), true, 'back to the response when the shown tab closes');
  });

  it('pushes show newest first, as text; markup from the server makes no element and runs nothing', async () => {
    const p = await open();
    const { page } = p;
    await post(
      page,
      live({
        select: true,
        connection: { title: HOSTILE, url: HOSTILE, notes: [{ at: NOW, tone: 'warn', text: HOSTILE }] },
        pushes: [
          deal(),
          deal({ summary: HOSTILE, text: `{"c":"${DEALS}","x":"${HOSTILE.replace(/"/g, '\\"')}"}` }),
          deal({ stream: HOSTILE }),
        ],
        books: [book({ bids: [[HOSTILE.slice(0, 40), '<b>1</b>']] })],
      }),
    );
    assert.equal(await page.locator('img, iframe, object, embed, b').count(), 0, 'no element made from data');
    assert.equal(await page.locator('script').count(), 3, 'only the page’s own three scripts');
    const lines = await logLines(page);
    assert.equal(lines.length, 3);
    assert.ok(lines[0].includes(HOSTILE), 'a stream name with markup shows as text');
    assert.ok(lines[1].includes(HOSTILE), 'a summary and a push with markup show as text');
    assert.equal(await page.getByTestId('live-title').textContent(), HOSTILE);
    assert.ok((await page.getByTestId('notes').textContent()).includes(HOSTILE));
    assert.ok((await page.getByTestId('book').textContent()).includes('<b>1</b>'));
    // A click shows the whole push; another shows one line again.
    const first = page.getByTestId('push-log').locator('li').nth(1);
    await first.click();
    assert.equal(await first.evaluate((e) => e.classList.contains('expanded')), true);
    await shoot(page, 'live-hostile');
    assert.deepEqual(p.dialogs, []);
    assert.deepEqual(p.errors, []);
  });

  it('the gaps of a connection that reconnected: when, how long, why and the estimate, newest first; markup in a reason stays text', async () => {
    const p = await open();
    const { page } = p;
    await post(page, live({ select: true }));
    assert.equal(await page.getByTestId('gaps').isHidden(), true, 'no gaps section while there is none');
    const gaps = [
      {
        startedAt: NOW - 60_000,
        endedAt: NOW - 58_500,
        resumed: true,
        code: 1006,
        reason: `The connection dropped ${HOSTILE}`,
        attempts: 1,
        ratePerSecond: 4,
        missedEstimate: 6,
      },
      {
        startedAt: NOW - 1000,
        code: 1000,
        reason: 'The server closed the connection: no subscription for 30 s.',
        attempts: 2,
        ratePerSecond: 0,
      },
    ];
    await post(page, live({ connection: { status: 'connecting', gaps, gapsForgotten: 3 } }));
    assert.equal(await page.getByTestId('gaps').isVisible(), true);
    const items = await page.getByTestId('gaps').locator('li').allTextContents();
    assert.equal(items.length, 2);
    assert.match(
      items[0],
      /still reconnecting.*1\.0 s, code 1000: The server closed the connection: no subscription for 30 s\.; 2 attempts so far/,
    );
    assert.match(
      items[1],
      /1\.5 s, code 1006: The connection dropped .*; about 6 pushes may have been missed \(an estimate from 4\.0 a second before the gap\)/,
    );
    assert.ok(items[1].includes(HOSTILE), 'a reason with markup shows as text');
    assert.equal(await page.locator('img, iframe, object, embed').count(), 0, 'no element made from data');
    assert.ok(
      (await page.locator('h3', { hasText: 'Gaps without a connection' }).textContent()).includes('(2, and 3 older)'),
    );
    assert.deepEqual(p.errors, []);
  });

  it('Pause holds the log still while pushes are counted; the filter shows one stream; Clear empties it', async () => {
    const { page } = await open();
    await post(page, live({ select: true, pushes: [deal(), deal({ stream: DEALS_ETH }), deal()] }));
    assert.equal(await page.getByTestId('push-log').locator('li').count(), 3);

    await page.getByTestId('pause').click();
    await nextFrame(page); // the view draws a click's effect on the next animation frame
    assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'true');
    await post(page, live({ pushes: [deal(), deal()] }));
    assert.equal(await page.getByTestId('push-log').locator('li').count(), 3, 'paused: the log stands still');
    assert.match(await page.getByTestId('log-counts').textContent(), /^Paused: 2 new · 3 shown · 5 kept/);
    await page.getByTestId('pause').click();
    await nextFrame(page);
    assert.equal(await page.getByTestId('push-log').locator('li').count(), 5, 'resumed: the pushes meanwhile appear');
    assert.equal(await page.getByTestId('pause').textContent(), 'Pause');

    await page.getByTestId('filter').selectOption(DEALS_ETH);
    await nextFrame(page);
    let lines = await logLines(page);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /deals@ETHUSDT/);
    await post(page, live({ pushes: [deal(), deal({ stream: DEALS_ETH })] }));
    assert.equal((await logLines(page)).length, 2, 'new pushes of the stream shown, the others not');
    await page.getByTestId('filter').selectOption('');
    await nextFrame(page);
    assert.equal((await logLines(page)).length, 7);

    await page.getByTestId('clear').click();
    await nextFrame(page);
    assert.equal(await page.getByTestId('push-log').locator('li').count(), 0);
    assert.match(await page.getByTestId('log-counts').textContent(), /^0 kept \(the newest 5,000\) · 7 cleared$/);
    await post(page, live({ pushes: [deal()] }));
    assert.equal((await logLines(page)).length, 1, 'pushes after Clear show');
  });

  it(`keeps the newest ${CAP} pushes and counts the rest; live it draws the newest ${LIVE_ROWS}, paused all it keeps`, async () => {
    const { page } = await open();
    await post(page, live({ select: true }));
    const first = seq + 1;
    for (let i = 0; i < 6; i++)
      await send(page, live({ pushes: Array.from({ length: 1000 }, () => deal()), skipped: i === 5 ? 250 : 0 }));
    await nextFrame(page);
    const counts = page.getByTestId('log-counts');
    assert.equal(await counts.getAttribute('data-kept'), String(CAP));
    assert.equal(await counts.getAttribute('data-dropped'), '1000');
    assert.equal(await counts.getAttribute('data-received'), '6250');
    assert.equal(
      await counts.textContent(),
      `${LIVE_ROWS} shown (Pause to see all) · 5,000 kept (the newest 5,000) · 1,000 older not kept · 250 skipped`,
    );
    const rows = page.getByTestId('push-log').locator('li');
    assert.equal(await rows.count(), LIVE_ROWS, 'while pushes flow, only the newest are drawn');
    const time = (s) => new Date(NOW + s).toISOString().slice(20, 23);
    const millis = async (row) => (await row.textContent()).slice(9, 12);
    assert.equal(await millis(rows.first()), time(seq), 'the newest first');

    await page.getByTestId('pause').click();
    await nextFrame(page);
    assert.equal(await rows.count(), CAP, 'paused, every push kept is on the page');
    assert.equal(await millis(rows.last()), time(first + 1000), 'the oldest kept last');
    await page.getByTestId('pause').click();
    await nextFrame(page);
    assert.equal(await rows.count(), LIVE_ROWS);

    // More pushes: the oldest leave memory, and are counted.
    await post(page, live({ pushes: Array.from({ length: 10 }, () => deal()) }));
    assert.equal(await rows.count(), LIVE_ROWS);
    assert.equal(await counts.getAttribute('data-dropped'), '1010');
    assert.equal(await millis(rows.first()), time(seq));
  });

  it('a depth stream shows a live table of the best bids and asks, updated in place', async () => {
    const { page } = await open();
    await post(page, live({ select: true, books: [book()] }));
    const table = page.getByTestId('book');
    assert.equal(await table.getAttribute('data-stream'), DEPTH);
    const cells = () =>
      table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
    assert.deepEqual(await cells(), [
      ['2.000', '29990.00', '30010.00', '1.999'],
      ['1.500', '29980.00', '30020.00', '3.250'],
      ['0.750', '29970.00', '', ''],
    ]);
    assert.match(
      await table.locator('figcaption').textContent(),
      /^limit\.depth@BTCUSDT@5 · \d\d:\d\d:\d\d\.\d{3} · r 42$/,
    );
    const firstCell = await table.locator('tbody td').first().elementHandle();
    await post(page, live({ books: [book({ version: '43', bids: [['29995.00', '0.100']], asks: [] })] }));
    assert.deepEqual(await cells(), [['0.100', '29995.00', '', '']]);
    assert.equal(await firstCell.evaluate((td) => td.isConnected), true, 'the same cell, its text changed');
    await post(page, live({ books: [book({ bids: [], asks: [] })] }));
    assert.deepEqual(await cells(), [['The book is empty.']]);
    await post(page, live({ books: [book()] }));
    assert.equal((await cells()).length, 3);
  });

  it('the send box posts the typed message for the connection; Send is off unless it is open', async () => {
    const { page } = await open();
    await post(page, live({ select: true }));
    await page.getByTestId('send-text').fill('{"method": "PING"}');
    await page.getByTestId('send').click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'sendMessage', id: 'c1', text: '{"method": "PING"}' });
    assert.equal(await page.getByTestId('send-text').inputValue(), '{"method": "PING"}', 'kept, to send again');
    await post(page, live({ connection: { status: 'closing' } }));
    assert.equal(await page.getByTestId('send').isDisabled(), true);
    assert.equal(await page.getByTestId('send-text').inputValue(), '{"method": "PING"}', 'redraws keep what was typed');
  });

  it('counts frames that did not decode (Protocol Buffers) among the frames dropped', async () => {
    const { page } = await open();
    const counts = { ...connection().counts, undecodable: 2, textPush: 1, binary: 1 };
    await post(page, live({ select: true, connection: { counts } }));
    assert.match(await page.getByTestId('live-counts').innerText(), /4 frames dropped/);
  });

  it('drops what is not a valid live message', async () => {
    const { page, errors } = await open();
    await post(page, live({ select: true }));
    const before = await page.getByTestId('live-host').innerHTML();
    for (const bad of [
      live({ connection: { status: 'hacked' } }),
      live({ pushes: [{ at: 'now', stream: DEALS }] }),
      live({ pushes: Array.from({ length: 1001 }, () => deal()) }),
      live({ books: [book({ bids: [['1', '2', '3']] })] }),
      { type: 'live', connection: connection() },
      { type: 'forget' },
    ])
      await send(page, bad);
    await nextFrame(page);
    assert.equal(await page.getByTestId('live-host').innerHTML(), before, 'nothing changed');
    assert.deepEqual(errors, []);
  });

  it('takes screenshots of the stream view, dark and light: a full 5-level book and a trade log of two symbols', async () => {
    const scene = tradingScene();
    for (const theme of ['dark', 'light']) {
      const { page } = await open({ theme, width: 1100, height: 1100 });
      await post(page, scene);
      const table = page.getByTestId('book');
      assert.equal(await table.locator('tbody tr').count(), 5, 'five levels a side');
      assert.equal((await logLines(page)).length, scene.pushes.length);
      const sides = await page
        .locator('.push-summary')
        .evaluateAll((els) => els.map((e) => [e.textContent.split(' ')[0], e.dataset.side]));
      assert.ok(
        sides.every(([word, side]) => side === word.toLowerCase()),
        `a trade's side is marked for its colour: ${JSON.stringify(sides.slice(0, 4))}`,
      );
      console.log(`      screenshot: ${await shoot(page, `${theme}-live`)}`);
    }
  });
});
