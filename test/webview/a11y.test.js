// The response panel and the stream view for everyone (issue 23): axe-core on each state of the real
// page in each theme VS Code has (dark, light and both high-contrast ones), a walk of a rich state by
// keyboard alone, and the page in the display language (the zh-cn bundle as the extension hands it).
// Screenshots go to test-results/.
//
//   npx mocha --no-config test/webview/a11y.test.js
'use strict';

const assert = require('node:assert/strict');
const { panelSuite, send, nextFrame, axeViolations } = require('./harness');
const {
  T0,
  NOW,
  ORIGIN,
  okEntry,
  rejected,
  unknown,
  refused,
  banned,
  clockJump,
  twoMeanings,
  budget,
  useHistoryItem,
  state,
  tradingScene,
  live,
  DEALS,
  DEALS_ETH,
  DEPTH,
} = require('./fixtures');

const THEMES = ['dark', 'light', 'hc-dark', 'hc-light'];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];

/**
 * Runs in the page: the focused element's key (its data-focus, or what it is), its focus ring (outline
 * or box-shadow) and, for the element focused before, whether its ring went away when it lost focus.
 */
function focusedInPage() {
  const ring = (el) => {
    const cs = getComputedStyle(el);
    const outline =
      cs.outlineStyle === 'none' || parseFloat(cs.outlineWidth) === 0 || cs.outlineColor === 'rgba(0, 0, 0, 0)'
        ? 'none'
        : `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`;
    return `${outline} | ${cs.boxShadow}`;
  };
  const el = document.activeElement;
  const before = window.__walkBefore;
  const beforeChanged = before && before.el !== el ? ring(before.el) !== before.ring : undefined;
  if (el === null || el === document.body) return { key: null, beforeChanged };
  const testid = el.getAttribute('data-testid');
  const key =
    el.getAttribute('role') === 'tab'
      ? `tab:${el.getAttribute('data-id')}`
      : testid === 'unsubscribe'
        ? `unsubscribe:${el.getAttribute('data-stream')}`
        : (el.getAttribute('data-focus') ?? testid ?? el.tagName.toLowerCase());
  window.__walkBefore = { el, ring: ring(el) };
  return { key, ring: window.__walkBefore.ring, beforeChanged };
}

describe('the panel’s accessibility, in a browser', function () {
  this.timeout(180_000);
  const { open } = panelSuite({ onServed: (served) => useHistoryItem(served.entry.historyItem) });

  const sendState = (page, s) => send(page, { type: 'state', state: s });

  /** The panel's states, fed in turn to one page; each resolves once the page shows it. */
  function scenes(page) {
    const history = [clockJump, unknown, rejected, okEntry, twoMeanings, refused];
    const extNow = () => page.evaluate(() => Date.now() + 5000);
    return [
      ['empty', async () => {}],
      [
        'ok',
        async () => {
          await sendState(page, state({ current: okEntry, history }));
          // The tables of headers: open, so they are checked too (they stay open across states).
          await page.locator('details[data-section="response-headers"] > summary').click();
          await page.locator('details[data-section="request"] > summary').click();
          // Two sends ticked for Compare (the ticks stay across states).
          await page.locator('[data-testid="compare-tick"][data-compare="e-ok"]').check();
          await page.locator('[data-testid="compare-tick"][data-compare="e-rej"]').check();
        },
      ],
      [
        'rejected',
        async () => {
          await sendState(page, state({ history }));
          await page.getByTestId('error-code').click();
        },
      ],
      ['700003', () => sendState(page, state({ current: clockJump, history }))],
      ['unknown', () => sendState(page, state({ current: unknown, history }))],
      [
        'banned',
        async () => {
          const ban = banned(await extNow());
          await sendState(
            page,
            state({
              now: await extNow(),
              current: ban,
              history: [ban, ...history],
              budget: budget({ blocked: { status: 418, untilMs: ban.retryAtMs } }),
            }),
          );
        },
      ],
      ['refused', () => sendState(page, state({ current: refused, history, budget: undefined }))],
      ['sending', () => sendState(page, state({ current: rejected, busy: true, history }))],
      [
        'stream view',
        async () => {
          await send(page, tradingScene());
          await nextFrame(page);
        },
      ],
    ];
  }

  it('axe-core finds no serious or critical violation in any state of the panel, in any theme', async () => {
    const serious = [];
    const started = Date.now();
    for (const theme of THEMES) {
      const { page, errors } = await open({ theme, width: 1100 });
      for (const [name, show] of scenes(page)) {
        await show();
        const violations = await axeViolations(page);
        const count = (impact) => violations.filter((v) => v.impact === impact).length;
        const rules = violations.map((v) => `${v.id}(${v.impact})×${v.nodes.length}`).join(' ');
        console.log(
          `      axe ${theme.padEnd(8)} ${name.padEnd(11)} ${IMPACTS.map((i) => `${i} ${count(i)}`).join(' · ')}${rules ? `  ${rules}` : ''}`,
        );
        for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
          serious.push({ theme, state: name, rule: v.id, help: v.help, nodes: v.nodes.slice(0, 4) });
      }
      const csp = await page.evaluate(() => window.__violations.map((v) => v.directive));
      assert.deepEqual(
        csp,
        ['script-src-elem'],
        'axe went in without a CSP violation; only the un-nonced script is refused',
      );
      assert.deepEqual(errors, []);
    }
    console.log(`      axe: ${THEMES.length} themes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.deepEqual(serious, [], JSON.stringify(serious, null, 2));
  });

  it('says what changes in a live region: an answer (the banner), a wait’s start and end once each (not its ticks), a connection’s state', async () => {
    const { page } = await open({ clock: T0 });
    // Everything the live regions say, in order: each change of their text.
    await page.evaluate(() => {
      window.__said = [];
      const record = (el) =>
        new MutationObserver(() => window.__said.push(`${el.dataset.testid}: ${el.textContent}`)).observe(el, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      record(document.querySelector('[data-testid=banner]'));
      record(document.querySelector('[data-testid=announcer]'));
    });
    const said = () => page.evaluate(() => window.__said.splice(0));
    const banner = page.getByTestId('banner');
    assert.equal(await banner.getAttribute('role'), 'status');
    assert.equal(await page.getByTestId('announcer').getAttribute('role'), 'status');

    await sendState(page, state({ current: okEntry, history: [okEntry] }));
    assert.deepEqual(
      (await said()).map((x) => x.split(':')[0]),
      ['banner'],
    );
    const ban = banned(NOW);
    const banState = state({
      current: ban,
      history: [ban, okEntry],
      budget: budget({ blocked: { status: 418, untilMs: ban.retryAtMs } }),
    });
    await sendState(page, banState);
    const start = `announcer: Banned: 1 min 58 s left. Nothing is sent to ${ORIGIN} until the ban ends.`;
    assert.deepEqual(
      (await said()).filter((x) => x.startsWith('announcer')),
      [start],
    );
    assert.match(await banner.textContent(), /Banned/, 'the banner says the answer');
    assert.equal(await page.getByTestId('countdown-region').getAttribute('role'), 'timer', 'not announced as it ticks');
    await page.clock.runFor(5000);
    await sendState(page, { ...banState, now: NOW + 5000 }); // the same ban drawn again
    assert.equal(await page.getByTestId('countdown').textContent(), 'Banned: 1 min 53 s left');
    assert.deepEqual(await said(), [], 'neither the ticks nor a redraw of the same ban say anything');
    await page.clock.runFor(113_000);
    assert.deepEqual(await said(), ['announcer: Wait over: requests may be sent again.']);

    // A connection's state, each time it changes (on a page of its own: its drawing waits for animation frames).
    const other = await open();
    const announcer = other.page.getByTestId('announcer');
    await send(other.page, tradingScene());
    await nextFrame(other.page);
    assert.equal(await announcer.textContent(), 'BTCUSDT trades and the best 5 levels · Open');
    await send(other.page, live({ connection: { status: 'closed' } }));
    await nextFrame(other.page);
    assert.equal(await announcer.textContent(), 'BTCUSDT trades and the best 5 levels · Closed');
  });

  it('the budget’s and the stream view’s meters are meters to a screen reader, with their values in words', async () => {
    const { page } = await open();
    await sendState(page, state());
    const cdp = await page.context().newCDPSession(page);
    /** The accessibility node of the element `expression` evaluates to, as Chromium gives it to a screen reader. */
    const ax = async (expression) => {
      const { result } = await cdp.send('Runtime.evaluate', { expression });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', {
        objectId: result.objectId,
        fetchRelatives: false,
      });
      const node = nodes.find((n) => !n.ignored);
      const props = Object.fromEntries((node.properties ?? []).map((p) => [p.name, p.value.value]));
      return { role: node.role.value, name: node.name.value, value: node.value?.value, ...props };
    };
    // The DevTools protocol leaves valuetext empty whatever the page says (even for a slider): the attribute is read.
    const valuetext = (testid) => page.locator(`[data-testid=${testid}] [role=meter]`).getAttribute('aria-valuetext');
    const uid = await ax(`document.querySelector('[data-testid=budget-uid] [role=meter]')`);
    assert.deepEqual([uid.role, uid.valuemin, uid.valuemax, uid.value], ['meter', 0, 500, 30]);
    // Named by its label (the page's clock runs here: the seconds left may have ticked).
    assert.match(uid.name, /^Account 30\/500 left · low · frees in [1-3] s$/);
    assert.equal(await valuetext('budget-uid'), '30 of 500 left');
    // Every table has a name (its caption, a label or its heading): the headers' ones, then the stream view's.
    const tablesNamed = async (count) => {
      const names = [];
      for (let i = 0; i < count; i++) {
        const table = await ax(`document.querySelectorAll('table:not([hidden] table)')[${i}]`);
        assert.equal(table.role, 'table');
        names.push(table.name);
      }
      return names;
    };
    await page.locator('details[data-section="response-headers"] > summary').click();
    await page.locator('details[data-section="request"] > summary').click();
    assert.deepEqual(await tablesNamed(2), ['Response headers', 'Request headers (API key masked)']);
    await send(page, tradingScene());
    await nextFrame(page);
    const streams = await ax(`document.querySelector('[data-testid=meter-streams] [role=meter]')`);
    assert.deepEqual([streams.role, streams.valuemin, streams.valuemax, streams.value], ['meter', 0, 30, 3]);
    assert.equal(await valuetext('meter-streams'), '3 of 30 streams held on this connection');
    const bars = await page.locator('meter').evaluateAll((els) => els.map((m) => m.getAttribute('aria-hidden')));
    assert.ok(bars.length === 4 && bars.every((x) => x === 'true'), 'the native bars are not read twice');
    assert.deepEqual(await tablesNamed(2), ['Streams', 'Order book of limit.depth@BTCUSDT@5']);
  });

  describe('by keyboard alone', () => {
    // Newest first in the history: e-unk, e-700003, e-rej, e-ok.
    const history = [clockJump, unknown, rejected, okEntry];
    const RESPONSE_WALK = [
      'tab:',
      'error-code',
      'send-again',
      'why',
      'copy-body',
      'body',
      'summary:response-headers',
      'summary:request',
      'compare-mask',
      ...['e-unk', 'e-700003', 'e-rej', 'e-ok'].flatMap((id) => [`compare:${id}`, `history:${id}`]),
    ];
    const STREAM_WALK = [
      'tab:c1',
      'disconnect',
      ...[DEALS, DEALS_ETH, DEPTH].map((s) => `unsubscribe:${s}`),
      'pause',
      'filter',
      'clear',
      'push-log',
      'notes',
      'send-text',
      'send',
    ];

    /** A rich state: a 700003 with Send again and Why?, four sends in the history, a live connection beside it. */
    async function richPanel(theme) {
      const p = await open({ theme, width: 1100 });
      await send(p.page, { ...tradingScene(), select: false });
      await sendState(p.page, state({ current: clockJump, history }));
      await nextFrame(p.page);
      return { ...p, cdp: await p.page.context().newCDPSession(p.page) };
    }

    /** What the focused element is, its focus ring and its name and role as Chromium gives them to a screen reader. */
    async function focused(page, cdp) {
      const info = await page.evaluate(focusedInPage);
      if (info.key === null) return info;
      const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', {
        objectId: result.objectId,
        fetchRelatives: false,
      });
      const ax = nodes.find((n) => !n.ignored);
      return { ...info, role: ax?.role?.value, name: ax?.name?.value };
    }

    /** Presses Tab until the focus leaves the page's last control; every stop on the way (after `stops`). */
    async function walk(page, cdp, stops = []) {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const f = await focused(page, cdp);
        if (stops.length > 0) stops.at(-1).ringGoes = f.beforeChanged;
        if (f.key === null || stops.some((x) => x.key === f.key)) break;
        stops.push(f);
      }
      return stops;
    }

    /** Tab (or Shift+Tab) until the control `key` has the focus. */
    async function tabTo(page, key, back = false) {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
        if ((await page.evaluate(focusedInPage)).key === key) return;
      }
      assert.fail(`Tab never reached ${key}`);
    }

    function assertStops(stops, expected, theme) {
      assert.deepEqual(
        stops.map((x) => x.key),
        expected,
        `${theme}: the Tab order`,
      );
      for (const x of stops) {
        assert.notEqual(x.ring, 'none | none', `${theme}: ${x.key} shows no focus ring`);
        assert.ok(x.ringGoes !== false, `${theme}: ${x.key} looks the same focused and not (${x.ring})`);
        assert.ok(x.name && x.name.trim() !== '', `${theme}: ${x.key} (${x.role}) has no accessible name`);
      }
    }

    it('Tab visits every control of a rich state in order, each with a visible focus ring and a name, in every theme', async () => {
      for (const theme of THEMES) {
        const { page, cdp, errors } = await richPanel(theme);
        assertStops(await walk(page, cdp), RESPONSE_WALK, theme);
        // The stream view: its tab, then its controls.
        await tabTo(page, 'tab:');
        await page.keyboard.press('ArrowRight');
        const stops = await walk(page, cdp, [await focused(page, cdp)]);
        assertStops(stops, STREAM_WALK, theme);
        const name = (key) => stops.find((x) => x.key === key).name;
        assert.equal(name('push-log'), 'Pushes');
        assert.equal(name('filter'), 'Stream');
        assert.equal(name('send-text'), 'Send a message');
        assert.equal(name(`unsubscribe:${DEALS}`), `Unsubscribe ${DEALS}`);
        if (theme === 'dark') {
          // An unknown outcome: Query the order first, then the code.
          await tabTo(page, 'tab:c1', true);
          await page.keyboard.press('ArrowLeft');
          await sendState(page, state({ current: unknown, history }));
          const unknownStops = await walk(page, cdp, [await focused(page, cdp)]);
          assertStops(
            unknownStops,
            ['tab:', 'query-order', ...RESPONSE_WALK.slice(1, 2), ...RESPONSE_WALK.slice(4)],
            theme,
          );
        }
        assert.deepEqual(errors, []);
      }
    });

    it('Enter, Space and the arrow keys operate the panel: each posts what a click posts', async () => {
      const { page } = await richPanel('dark');
      const posted = async () => (await page.evaluate(() => window.__posted)).slice(1);
      const last = async () => (await posted()).at(-1);

      await tabTo(page, 'error-code');
      await page.keyboard.press('Enter');
      assert.equal(await page.getByTestId('hover-text').isVisible(), true, 'Enter shows the code’s hover text');
      await tabTo(page, 'why');
      await page.keyboard.press('Enter');
      assert.deepEqual(await last(), { type: 'why', id: 'e-700003' });
      await tabTo(page, 'send-again', true);
      await page.keyboard.press(' ');
      assert.deepEqual(await last(), { type: 'sendAgain', id: 'e-700003' });
      await tabTo(page, 'copy-body');
      await page.keyboard.press('Enter');
      assert.deepEqual(await last(), { type: 'copyBody', id: 'e-700003' });
      await sendState(page, state({ current: unknown, history }));
      await tabTo(page, 'query-order', true);
      await page.keyboard.press('Enter');
      assert.deepEqual(await last(), { type: 'queryOrder', id: 'e-unk' });

      // Two ticks, then back to Compare (enabled now).
      await tabTo(page, 'compare:e-unk');
      await page.keyboard.press(' ');
      await tabTo(page, 'compare:e-rej');
      await page.keyboard.press(' ');
      await tabTo(page, 'compare', true);
      await page.keyboard.press('Enter');
      assert.deepEqual(await last(), { type: 'compare', left: 'e-rej', right: 'e-unk', mask: false });
      // The arrows move along the history; Enter shows the entry.
      await tabTo(page, 'history:e-unk');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      assert.deepEqual(await last(), { type: 'show', id: 'e-rej' });

      // The stream view: the arrow keys along the tabs, then its controls.
      await tabTo(page, 'tab:', true);
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.getByTestId('live').isVisible(), true, 'ArrowRight shows the connection');
      await tabTo(page, `unsubscribe:${DEALS_ETH}`);
      await page.keyboard.press('Enter');
      assert.deepEqual(await last(), { type: 'unsubscribe', id: 'c1', stream: DEALS_ETH });
      await tabTo(page, 'pause');
      await page.keyboard.press(' ');
      await nextFrame(page);
      assert.equal(await page.getByTestId('pause').getAttribute('aria-pressed'), 'true');
      await tabTo(page, 'push-log');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      assert.equal(await page.locator('.push.expanded').count(), 1, 'Enter opens the line to the whole push');
      assert.equal(await page.evaluate(() => document.activeElement.classList.contains('push')), true);
      await tabTo(page, 'filter', true);
      await page.keyboard.press('ArrowDown');
      await nextFrame(page);
      assert.equal(await page.getByTestId('filter').inputValue(), DEALS, 'the arrow picks the first stream');
      await tabTo(page, 'clear');
      await page.keyboard.press('Enter');
      await nextFrame(page);
      assert.equal(await page.getByTestId('push-log').locator('li').count(), 0, 'Enter clears the log');
      await tabTo(page, 'send-text');
      await page.keyboard.type('{"method": "PING"}');
      await tabTo(page, 'send');
      await page.keyboard.press('Enter');
      assert.deepEqual(await last(), { type: 'sendMessage', id: 'c1', text: '{"method": "PING"}' });
      await tabTo(page, 'disconnect');
      await page.keyboard.press(' ');
      assert.deepEqual(await last(), { type: 'disconnect', id: 'c1' });
      assert.deepEqual(
        (await posted()).map((m) => m.type),
        ['why', 'sendAgain', 'copyBody', 'queryOrder', 'compare', 'show', 'unsubscribe', 'sendMessage', 'disconnect'],
        'nothing else was posted',
      );
    });
  });
});
