// The response panel's own code in headless Chromium, outside VS Code: the bundle of src/webview/main.ts
// in the document of src/webview/html.ts (with its CSP), fed `state` messages as the extension would
// send them. A fake acquireVsCodeApi records what the panel posts. Screenshots go to test-results/.
//
//   npx mocha --no-config test/webview/preview.test.js
'use strict';

const assert = require('node:assert/strict');
const { panelSuite, send, shoot } = require('./harness');

/** The page's clock (faked, paused here once loaded); the extension's clock runs 5 s ahead of it, so countdowns must use the offset. */
const {
  T0,
  NOW,
  HOSTILE_IMG,
  HOSTILE_SCRIPT,
  UNKNOWN_SENTENCE,
  HOVER_30002,
  rejected,
  twoMeanings,
  unknown,
  unknownNoId,
  REFUSAL,
  refused,
  notSent,
  okEntry,
  ACTION_700003,
  clockJump,
  badSignature,
  banned,
  hostile,
  budget,
  useHistoryItem,
  state,
} = require('./fixtures');

describe('the response panel, in a browser', function () {
  this.timeout(90_000);

  // A fresh page with the panel, on a fake clock at T0; resolves once the panel said `ready`.
  const suite = panelSuite({ onServed: (served) => useHistoryItem(served.entry.historyItem), defaults: { clock: T0 } });
  const openPanel = suite.open;

  const sendState = (page, s) => send(page, { type: 'state', state: s });
  const posted = (page) => page.evaluate(() => window.__posted);
  const text = (page, testid) => page.getByTestId(testid).first().textContent();

  it('posts ready once on load, and shows an empty state before any state arrives', async () => {
    const { page } = await openPanel();
    assert.deepEqual(await posted(page), [{ type: 'ready' }]);
    assert.equal(await page.getByTestId('banner').getAttribute('data-outcome'), 'none');
    assert.match(await text(page, 'banner'), /No request sent yet/);
  });

  it('shows every value from the state as text: markup in title, msg, body and headers makes no element and runs nothing', async () => {
    const p = await openPanel();
    const { page } = p;
    await sendState(page, state({ current: hostile, history: [hostile, okEntry] }));
    await page.locator('details[data-section="response-headers"] > summary').click();
    await page.locator('details[data-section="request"] > summary').click();

    assert.equal(await page.locator('img, iframe, object, embed').count(), 0, 'no element made from data');
    assert.equal(await page.locator('script').count(), 3, 'only the page’s own three scripts');
    assert.equal(await page.title(), 'TradeReq <b>response</b>');
    assert.equal(await text(page, 'msg'), `${HOSTILE_IMG}${HOSTILE_SCRIPT}`);
    assert.match(await text(page, 'body'), new RegExp(escapeRe(`"msg": "${HOSTILE_IMG}"`)));
    assert.match(await text(page, 'body'), new RegExp(escapeRe(HOSTILE_SCRIPT)));
    assert.match(await text(page, 'banner'), new RegExp(escapeRe(HOSTILE_IMG)));
    assert.match(await text(page, 'response-headers'), new RegExp(escapeRe(`${HOSTILE_IMG}${HOSTILE_SCRIPT}`)));
    assert.equal(await page.getByTestId('error-code').getAttribute('title'), `33333: ${HOSTILE_SCRIPT}`);

    // The hostile id goes back to the extension exactly as it came, as data.
    await page.getByTestId('history-item').first().click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'show', id: hostile.id });

    await shoot(page, 'dark-hostile');
    assert.deepEqual(p.dialogs, [], 'no dialog opened');
    assert.deepEqual(p.errors, []);
  });

  it('the CSP blocks an inline script without the nonce; the panel itself causes no violation (it evaluates no code)', async () => {
    const { page } = await openPanel();
    await sendState(page, state());
    assert.equal(await page.evaluate(() => window.__inlineRan), undefined, 'the inline script did not run');
    const violations = await page.evaluate(() => window.__violations);
    assert.deepEqual(
      violations.map((v) => v.directive),
      ['script-src-elem'],
      `exactly the un-nonced inline script is refused: ${JSON.stringify(violations)}`,
    );
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /^default-src 'none'; style-src http:\/\/127\.0\.0\.1:\d+; script-src 'nonce-[A-Za-z0-9+/=]+'; /);
    assert.equal(await page.locator('[style]').count(), 0, 'no inline style attribute anywhere');
    assert.equal(
      await page.evaluate(
        () =>
          Array.from(document.querySelectorAll('*')).filter((el) =>
            Array.from(el.attributes).some((a) => a.name.startsWith('on')),
          ).length,
      ),
      0,
      'no inline handler attribute anywhere',
    );
  });

  it('panelHtml escapes what it interpolates and refuses a nonce or CSP source that could break the policy', () => {
    const doc = suite.served().html.panelHtml({
      cspSource: 'https://*.vscode-cdn.net',
      nonce: 'abcdefghijklmnop0123==',
      scriptUri: 'https://x/a.js?"><script>',
      styleUri: 'https://x/p.css',
      title: '</title><script>alert(1)</script>',
    });
    assert.ok(!doc.includes('"><script>'), 'script URI escaped');
    assert.ok(doc.includes('&lt;/title&gt;&lt;script&gt;'), 'title escaped');
    assert.ok(doc.includes(`script-src 'nonce-abcdefghijklmnop0123=='`));
    assert.throws(() =>
      suite.served().html.panelHtml({
        cspSource: "x; script-src 'unsafe-inline'",
        nonce: 'abcdefghijklmnop0123==',
        scriptUri: '',
        styleUri: '',
        title: '',
      }),
    );
    assert.throws(() =>
      suite.served().html.panelHtml({
        cspSource: 'https://x',
        nonce: "abc' 'unsafe-inline",
        scriptUri: '',
        styleUri: '',
        title: '',
      }),
    );
    // VS Code in a browser gives a quoted keyword as the webview source: it must be accepted as it is.
    const web = suite.served().html.panelHtml({
      cspSource: "'self' https://*.vscode-cdn.net",
      nonce: 'abcdefghijklmnop0123==',
      scriptUri: 'https://x/a.js',
      styleUri: 'https://x/p.css',
      title: 't',
    });
    assert.ok(web.includes("style-src 'self' https://*.vscode-cdn.net;"));
    assert.throws(() =>
      suite.served().html.panelHtml({
        cspSource: "'self' 'unsafe-inline'",
        nonce: 'abcdefghijklmnop0123==',
        scriptUri: '',
        styleUri: '',
        title: '',
      }),
    );
  });

  it('the banner shows an ok outcome, with status, expectations, body, headers and timings below', async () => {
    const { page } = await openPanel();
    await sendState(page, state({ current: okEntry, history: [okEntry] }));
    assert.equal(await page.getByTestId('banner').getAttribute('data-outcome'), 'ok');
    assert.equal(await text(page, 'outcome'), 'OK');
    assert.match(await text(page, 'status'), /^200\s*Request accepted$/);
    assert.match(await text(page, 'expectations'), /status == 200/);
    assert.match(await text(page, 'body'), /"orderId": "5432101"/);
    assert.equal(await page.locator('[data-testid="body"] .j-key').first().textContent(), '"symbol"');
    assert.equal(await text(page, 'timings'), 'Connect12 msFirst byte84 msTotal97 ms');
    await page.getByTestId('copy-body').click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'copyBody', id: 'e-ok' });
    await shoot(page, 'dark-ok');
  });

  it('# @expect snapshot, which Send does not compare (issue 34): a dash and "not checked", never ✔, and not counted as passed', async () => {
    const { page } = await openPanel();
    const snap = {
      text: '@expect snapshot (compared by tradereq test and the Testing view)',
      passed: true,
      actual: 'ok',
    };
    const entry = { ...okEntry, id: 'e-snap', expectations: [...okEntry.expectations, { ...snap, checked: false }] };
    await sendState(page, state({ current: entry, history: [entry] }));
    const shown = await text(page, 'expectations');
    assert.match(await page.locator('body').innerText(), /2 of 2 passed/);
    assert.match(shown, /–Not checked by Send: @expect snapshot \(compared by tradereq test/);
    assert.doesNotMatch(shown, /✔Passed: @expect snapshot/);
  });

  it('the banner shows a rejection: the code, every meaning, the cause and what to do; a 700003 (issue 19, point 1) names the offset measured again and offers Send again, which posts the entry id once, never without sendAgain, never for an unknown outcome', async () => {
    const p = await openPanel();
    const { page } = p;
    await sendState(page, state());
    const banner = page.getByTestId('banner');
    assert.equal(await banner.getAttribute('data-outcome'), 'rejected');
    assert.equal(await banner.getAttribute('role'), 'status');
    assert.equal(await banner.getAttribute('aria-live'), 'polite');
    assert.equal(await text(page, 'outcome'), 'Rejected');
    assert.equal(await text(page, 'meanings'), 'Trade volume is below the minimum');
    assert.equal(await text(page, 'cause'), rejected.error.cause);
    assert.equal(await text(page, 'action'), rejected.error.action);
    assert.match(await text(page, 'banner'), /What to do/);
    assert.match(await text(page, 'expectations'), /Failed: status == 200 got 400/);

    await sendState(page, state({ current: twoMeanings }));
    assert.match(
      await text(page, 'meanings'),
      /The spec gives 2 meanings for this code:Pair not foundUser information error/,
    );

    // A 700003 after the server clock moved: the new offset, and the editor's next step.
    await sendState(page, state({ current: clockJump, history: [clockJump, rejected] }));
    assert.equal(await text(page, 'outcome'), 'Rejected');
    assert.match(await text(page, 'error-code'), /700003/);
    assert.match(await text(page, 'clock-note'), /measured again: your clock is 30002 ms behind the server/);
    const action = await text(page, 'action');
    assert.match(action, /Nothing was processed.*Send again/);
    assert.doesNotMatch(action, /--no-clock-sync|run the command/i, 'the editor’s next step, not the command line’s');
    const again = page.getByTestId('send-again');
    assert.equal(await again.textContent(), 'Send again');
    await again.click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'sendAgain', id: 'e-700003' });
    assert.equal(await again.isDisabled(), true, 'pressed once, sent once');
    await shoot(page, 'dark-send-again');

    // sendAgain unset (a timestamp written in the request, a send of an earlier session): the spec's advice, no button.
    const written = { ...clockJump, id: 'e-700003-written', sendAgain: undefined };
    await sendState(page, state({ current: written, history: [written] }));
    assert.equal(await page.getByTestId('send-again').count(), 0);
    assert.equal(await text(page, 'action'), ACTION_700003);
    // An unknown outcome may have been carried out: never sent again from here.
    await sendState(page, state({ current: { ...unknown, sendAgain: true }, history: [unknown] }));
    assert.equal(await page.getByTestId('send-again').count(), 0);
    assert.equal((await posted(page)).filter((m) => m.type === 'sendAgain').length, 1);
    assert.deepEqual(p.errors, []);
  });

  it('a rejection its # @expect lines asked for (issue 34): "Rejected as expected" in the tone of a pass, the pass line first, §5 rule 9 said once, no Send again or Why?', async () => {
    const p = await openPanel();
    const { page } = p;
    const asked = {
      ...clockJump,
      id: 'e-700003-asked',
      expected: true,
      expectations: [{ text: '@expect code 700003', passed: true, actual: 'code 700003' }],
    };
    const banner = page.getByTestId('banner');
    const tone = () => banner.evaluate((b) => getComputedStyle(b).borderLeftColor);
    await sendState(page, state({ current: okEntry, history: [okEntry] }));
    const okTone = await tone();
    await sendState(page, state({ current: clockJump, history: [clockJump] }));
    const rejectedTone = await tone();
    await sendState(page, state({ current: asked, history: [asked, clockJump] }));

    assert.equal(await banner.getAttribute('data-outcome'), 'rejected');
    assert.equal(await banner.getAttribute('data-expected'), 'true');
    assert.equal(await text(page, 'outcome'), 'Rejected as expected');
    assert.notEqual(okTone, rejectedTone);
    assert.equal(await tone(), okTone, 'the tone of a pass, not of a failure');
    // Under the head and its meta line, the pass line comes first, before the code.
    const order = await banner.evaluate((b) => [...b.children].map((c) => c.className));
    assert.deepEqual(order.slice(0, 4), ['banner-head', 'banner-meta', 'banner-text expected-pass', 'error-block']);
    assert.equal(
      await text(page, 'expected-pass'),
      '✔ Passed: the service rejected the request as its expectation says (@expect code 700003).',
    );
    const shown = await banner.innerText();
    assert.equal(shown.match(/§5 rule 9/g)?.length, 1, `the timing rule once:\n${shown}`);
    assert.match(await text(page, 'cause'), /§5 rule 9/);
    for (const testid of ['clock-note', 'action', 'send-again', 'why'])
      assert.equal(await page.getByTestId(testid).count(), 0, `no ${testid}: nothing is to be done`);
    assert.match(await page.getByTestId('history-item').first().textContent(), /As expected/);
    assert.match(await page.getByTestId('history-item').nth(1).textContent(), /Rejected/);
    await shoot(page, 'dark-rejected-as-expected');

    // The same rejection not asked for stays a failure, with its note and next step.
    await sendState(page, state({ current: clockJump, history: [clockJump] }));
    assert.equal(await text(page, 'outcome'), 'Rejected');
    assert.equal(await banner.getAttribute('data-expected'), null);
    assert.equal(await page.getByTestId('expected-pass').count(), 0);
    assert.deepEqual(p.errors, []);
  });

  it('Why? (issue 22): a signed request rejected with 700002 offers a Why? button, reached by Tab from the error code; a click and Enter each post the entry id; none on an ok entry, another code or an unsigned request', async () => {
    const p = await openPanel();
    const { page } = p;
    await sendState(page, state({ current: okEntry, history: [okEntry] }));
    assert.equal(await page.getByTestId('why').count(), 0, 'no Why? on an ok answer');
    await sendState(page, state({ current: badSignature, history: [badSignature, okEntry] }));
    const why = page.getByTestId('why');
    assert.equal(await why.evaluate((el) => el.tagName), 'BUTTON');
    assert.equal(await why.textContent(), 'Why?');
    assert.match(
      await why.getAttribute('aria-label'),
      /^Why\? Explain this rejection/,
      'its name starts with its text',
    );
    await why.click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'why', id: 'e-700002' });
    await page.getByTestId('error-code').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'why');
    await page.keyboard.press('Enter');
    assert.equal((await posted(page)).filter((m) => m.type === 'why').length, 2, 'Enter posts it too');

    for (const other of [
      rejected,
      { ...badSignature, id: 'e-unsigned', request: { ...badSignature.request, signed: false } },
    ]) {
      await sendState(page, state({ current: other, history: [other] }));
      assert.equal(await page.getByTestId('why').count(), 0, `no Why? on ${other.id}`);
    }
    assert.deepEqual(p.errors, []);
  });

  it('an error code carries the editor’s hover text: as title, as its accessible description, and shown in place from the keyboard', async () => {
    const { page } = await openPanel();
    await sendState(page, state());
    const code = page.getByTestId('error-code');
    assert.equal(await code.getAttribute('title'), HOVER_30002);
    const described = await code.evaluate(
      (el) => document.getElementById(el.getAttribute('aria-describedby')).textContent,
    );
    assert.equal(described, HOVER_30002);

    // What a screen reader gets: Chromium's accessibility tree for the code.
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: '[data-testid="error-code"]',
    });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const ax = nodes.find((n) => !n.ignored);
    assert.equal(ax.role.value, 'button');
    assert.equal(ax.name.value, 'Error code 30002');
    assert.equal(ax.description.value.replace(/\s+/g, ' '), HOVER_30002.replace(/\s+/g, ' '));

    // The first Tab stop of the page is the code in the banner; Enter shows the hover text.
    assert.equal(await page.getByTestId('hover-text').isVisible(), false);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-testid')), 'error-code');
    await page.keyboard.press('Enter');
    assert.equal(await page.getByTestId('hover-text').isVisible(), true);
    assert.equal(await code.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.getByTestId('hover-text').innerText(), HOVER_30002);
    assert.deepEqual(await posted(page), [{ type: 'ready' }], 'a local toggle posts nothing');
    await shoot(page, 'dark-hover-text');
  });

  it('an unknown outcome says it may have succeeded, in the warning tone (never the error tone), and offers “Query the order”', async () => {
    const p = await openPanel();
    const { page } = p;
    await sendState(page, state({ current: unknown, history: [unknown, rejected] }));
    const banner = page.getByTestId('banner');
    assert.equal(await banner.getAttribute('data-outcome'), 'unknown');
    assert.equal(await text(page, 'outcome'), 'Outcome unknown');
    assert.equal(await text(page, 'unknown-sentence'), UNKNOWN_SENTENCE);
    const tone = await banner.evaluate((el) => getComputedStyle(el).borderLeftColor);
    assert.equal(tone, 'rgb(204, 167, 0)', 'the warning colour of the dark theme');

    await page.getByTestId('query-order').click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'queryOrder', id: 'e-unk' });
    await page.getByTestId('query-order').focus();
    await page.keyboard.press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'queryOrder', id: 'e-unk' });
    await shoot(page, 'dark-unknown');

    await sendState(page, state({ current: unknownNoId, history: [unknownNoId] }));
    assert.equal(await page.getByTestId('query-order').count(), 0, 'no id, no query');
    assert.match(await text(page, 'banner'), /list the open orders/);
    assert.deepEqual(p.errors, []);
  });

  it('the banner shows refused and not-sent neutrally, with what happened', async () => {
    const { page } = await openPanel();
    await sendState(page, state({ current: refused, history: [refused], budget: undefined }));
    assert.equal(await page.getByTestId('banner').getAttribute('data-outcome'), 'refused');
    assert.equal(await text(page, 'outcome'), 'Refused');
    assert.equal(await text(page, 'summary'), REFUSAL);
    assert.equal((await text(page, 'banner')).match(/refused/gi).length, 1, 'the badge says "Refused", once');
    assert.match(await text(page, 'status'), /No HTTP status/);
    assert.equal(await page.getByTestId('body').count(), 0);

    await sendState(page, state({ current: notSent, history: [notSent] }));
    assert.equal(await page.getByTestId('banner').getAttribute('data-outcome'), 'not-sent');
    assert.equal(await text(page, 'outcome'), 'Not sent');
    assert.equal(await text(page, 'summary'), notSent.reason);
    assert.equal((await text(page, 'banner')).match(/not sent/gi).length, 1, 'the badge says "Not sent", once');
    const tone = await page.getByTestId('banner').evaluate((el) => getComputedStyle(el).borderLeftColor);
    assert.equal(tone, 'rgb(157, 157, 157)', 'neutral: the description colour');
  });

  it('shows "Sending…" while busy, animated only when the user allows motion', async () => {
    const { page } = await openPanel();
    await sendState(page, state({ busy: true }));
    assert.equal(await text(page, 'busy'), 'Sending…');
    assert.equal(await page.getByTestId('banner').getAttribute('data-busy'), 'true');
    const animation = () => page.locator('.spinner').evaluate((el) => getComputedStyle(el).animationName);
    assert.equal(await animation(), 'none', 'prefers-reduced-motion: reduce');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    assert.equal(await animation(), 'panel-spin');
    await sendState(page, state({ busy: false }));
    assert.equal(await page.getByTestId('busy').count(), 0);
  });

  it('history: newest first, the shown entry marked aria-current, click or Enter posts show, focus kept across states', async () => {
    const { page } = await openPanel();
    // Given out of order: the panel lists newest first.
    await sendState(page, state({ current: okEntry, history: [twoMeanings, okEntry, rejected] }));
    const items = page.getByTestId('history-item');
    assert.equal(await items.count(), 3);
    assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))), [
      'e-rej',
      'e-two',
      'e-ok',
    ]);
    assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute('aria-current'))), [
      null,
      null,
      'true',
    ]);
    const first = await items.first().textContent();
    assert.match(first, /13:02:14POST\/api\/v3\/orderRejected400/);

    await items.nth(1).click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'show', id: 'e-two' });

    await items.nth(0).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'show', id: 'e-two' });
    // The extension answers with the entry shown: the focus stays on its history item.
    await sendState(page, state({ current: twoMeanings, history: [twoMeanings, okEntry, rejected] }));
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-id')), 'e-two');
    assert.equal(
      await page.locator('[data-testid="history-item"][aria-current="true"]').getAttribute('data-id'),
      'e-two',
    );
    await page.keyboard.press(' ');
    assert.deepEqual((await posted(page)).at(-1), { type: 'show', id: 'e-two' });
    await shoot(page, 'dark-keyboard-focus');
  });

  it('Compare Two Answers (issue 21): tick two sends, Compare posts both ids, the older on the left, with the mask toggle; by mouse and by keyboard', async () => {
    const { page } = await openPanel();
    // Newest first: e-rej (NOW - 2 s), e-two (NOW - 20 s), e-ok (NOW - 60 s).
    await sendState(page, state({ current: okEntry, history: [twoMeanings, okEntry, rejected] }));
    const compare = page.getByTestId('compare');
    const tick = (id) => page.locator(`[data-testid="compare-tick"][data-compare="${id}"]`);
    const compares = async () => (await posted(page)).filter((m) => m.type === 'compare');
    assert.equal(await page.getByTestId('compare-tick').count(), 3);
    assert.equal(await compare.isDisabled(), true, 'nothing ticked: Compare is disabled');
    assert.match(await text(page, 'compare-hint'), /Tick two sends to compare their answers \(0 of 2 ticked\)/);
    assert.match(
      await tick('e-two').getAttribute('aria-label'),
      /^Compare GET \/api\/v3\/ticker\/price, sandbox, 13:01:56$/,
    );
    assert.equal(
      await compare.getAttribute('aria-describedby'),
      await page.getByTestId('compare-hint').getAttribute('id'),
    );

    // The mouse: the newest, then the oldest.
    await tick('e-rej').click();
    assert.equal(await compare.isDisabled(), true, 'one ticked: still disabled');
    await tick('e-ok').click();
    assert.equal(await compare.isDisabled(), false);
    await compare.click();
    assert.deepEqual(await compares(), [{ type: 'compare', left: 'e-ok', right: 'e-rej', mask: false }]);

    // The keyboard: Space ticks a third (the first ticked, e-rej, is unticked) and keeps the focus on it,
    // Space on the mask toggle, Enter on Compare.
    await tick('e-two').focus();
    await page.keyboard.press(' ');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-focus')), 'compare:e-two');
    assert.deepEqual(await page.getByTestId('compare-tick').evaluateAll((els) => els.map((e) => e.checked)), [
      false,
      true,
      true,
    ]);
    await page.getByTestId('compare-mask').focus();
    await page.keyboard.press(' ');
    assert.equal(await page.getByTestId('compare-mask').isChecked(), true);
    await compare.focus();
    await page.keyboard.press('Enter');
    assert.deepEqual((await compares()).at(-1), { type: 'compare', left: 'e-ok', right: 'e-two', mask: true });

    // Ticks and the toggle hold across states; a send that left the history is no longer ticked.
    await sendState(page, state({ current: twoMeanings, history: [twoMeanings, rejected] }));
    assert.equal(await page.getByTestId('compare-mask').isChecked(), true);
    assert.equal(await tick('e-two').isChecked(), true);
    assert.equal(await compare.isDisabled(), true, 'e-ok left the history');
    assert.equal((await compares()).length, 2, 'nothing posted but by Compare');
    await shoot(page, 'dark-compare');
  });

  it('the countdown ticks each second on the extension’s clock in the budget’s place: a Retry-After wait, then a ban (issue 19, point 9)', async () => {
    const { page } = await openPanel();
    const inBudget = (testid) => page.locator(`[data-section="budget"] [data-testid="${testid}"]`);
    // The extension's clock is 5 s ahead of the page's: 12 s left means 12 s, not 17.
    await sendState(page, state({ budget: budget({ blocked: { status: 429, untilMs: NOW + 12_000 } }) }));
    assert.equal(await inBudget('countdown').textContent(), 'Retry-After: 12 s');
    assert.equal(await page.getByTestId('budget-ip').count(), 0, 'no budget bar while the wait holds');
    assert.equal(await page.getByTestId('budget-uid').count(), 0);
    await page.clock.runFor(1000);
    assert.equal(await text(page, 'countdown'), 'Retry-After: 11 s');
    await page.clock.runFor(5000);
    assert.equal(await text(page, 'countdown'), 'Retry-After: 6 s');
    await shoot(page, 'dark-retry-after');
    await page.clock.runFor(6000);
    assert.equal(await text(page, 'countdown'), 'Wait over: requests may be sent again.');
    // The window has passed since the reading: the bars come back, full.
    assert.equal(await page.getByTestId('budget-ip').locator('label').textContent(), 'IP 500/500 left');

    const pageNow = await page.evaluate(() => Date.now());
    const extNow = pageNow + 5000;
    const ban = banned(extNow);
    await sendState(
      page,
      state({
        now: extNow,
        current: ban,
        history: [ban, rejected],
        budget: budget({ blocked: { status: 418, untilMs: ban.retryAtMs } }),
      }),
    );
    // The banner shows the ban, not the body's code 429 and its advice (which is to avoid the ban).
    assert.equal(await text(page, 'outcome'), 'Banned');
    assert.match(await text(page, 'banner'), /HTTP 418/);
    assert.equal(await page.getByTestId('error-code').count(), 0, 'no 429 badge beside HTTP 418');
    assert.equal(await page.getByTestId('action').count(), 0, 'no advice on avoiding a ban already in force');
    assert.match(await text(page, 'ban'), /banned this IP for repeated rate limit violations/);
    assert.match(await page.getByTestId('history-item').first().textContent(), /Banned418$/);
    assert.equal(await inBudget('countdown').textContent(), 'Banned: 1 min 58 s left');
    assert.equal(await page.getByTestId('budget-ip').count(), 0, 'the countdown replaces the budget bar');
    assert.doesNotMatch(await text(page, 'countdown-region'), /repeated rate limit violations/, 'said once');
    await shoot(page, 'dark-ban');
    await page.clock.runFor(58_000);
    assert.equal(await text(page, 'countdown'), 'Banned: 1 min left');
    await page.clock.runFor(1000);
    assert.equal(await text(page, 'countdown'), 'Banned: 59 s left');

    // Without the budget's state (the entry alone knows the ban) the countdown still takes the budget's place.
    await sendState(page, state({ now: extNow + 59_000, current: ban, history: [ban], budget: undefined }));
    assert.equal(await inBudget('countdown').textContent(), 'Banned: 59 s left');

    // A wait already over when the state arrives shows no countdown at all.
    await sendState(
      page,
      state({ now: extNow + 200_000, budget: budget({ blocked: { status: 429, untilMs: extNow } }) }),
    );
    assert.equal(await page.getByTestId('countdown').count(), 0);
    assert.equal(await page.getByTestId('countdown-region').isHidden(), true);
    assert.equal(await page.getByTestId('budget-ip').count(), 1);
  });

  it('budget: a labelled meter per counter, the warning style under 10 % left, the time until it frees up ticking', async () => {
    const { page } = await openPanel();
    await sendState(page, state());
    const ip = page.getByTestId('budget-ip');
    const uid = page.getByTestId('budget-uid');
    assert.equal(await ip.locator('label').textContent(), 'IP 480/500 left · frees in 7 s');
    assert.equal(await uid.locator('label').textContent(), 'Account 30/500 left · low · frees in 3 s');
    assert.deepEqual(await ip.locator('meter').evaluate((m) => [m.min, m.max, m.value, m.labels[0].textContent]), [
      0,
      500,
      480,
      'IP 480/500 left · frees in 7 s',
    ]);
    assert.equal(await ip.evaluate((el) => el.classList.contains('low')), false);
    assert.equal(await uid.evaluate((el) => el.classList.contains('low')), true);

    await page.clock.runFor(4000);
    assert.equal(await ip.locator('label').textContent(), 'IP 480/500 left · frees in 3 s');
    assert.equal(await uid.locator('label').textContent(), 'Account 30+/500 left · low · all free in 6 s');
    await page.clock.runFor(6000);
    // §8: a 10 s window; everything counted at `now` has left it.
    assert.equal(await ip.locator('label').textContent(), 'IP 500/500 left');
    assert.equal(await uid.locator('label').textContent(), 'Account 500/500 left');
    assert.equal(await uid.locator('meter').evaluate((m) => m.value), 500);
  });

  it('ignores what is not a valid message: other types, broken states, non-objects', async () => {
    const p = await openPanel();
    const { page } = p;
    await sendState(page, state());
    const before = await page.locator('#app').innerHTML();
    for (const bad of [
      'state',
      null,
      42,
      { type: 'evil', state: state() },
      { type: 'state' },
      { type: 'state', state: { ...state(), history: 'x' } },
      { type: 'state', state: { ...state(), now: 'soon' } },
      { type: 'state', state: { ...state(), current: { ...okEntry, outcome: 'pwned' } } },
      {
        type: 'state',
        state: {
          ...state(),
          history: Array.from({ length: 51 }, (_, i) => suite.served().entry.historyItem({ ...okEntry, id: `h${i}` })),
        },
      },
    ]) {
      await send(page, bad);
    }
    assert.equal(await page.locator('#app').innerHTML(), before, 'nothing changed');
    assert.deepEqual(p.errors, []);
  });

  it('after a reload it shows the last state at once, until the extension answers', async () => {
    const { page } = await openPanel();
    await sendState(page, state({ current: unknown, history: [unknown] }));
    await page.reload();
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
    assert.equal(await page.getByTestId('banner').getAttribute('data-outcome'), 'unknown');
  });

  it('takes screenshots in a dark and a light theme', async () => {
    for (const theme of ['dark', 'light']) {
      const { page } = await openPanel({ theme, width: 760 });
      await sendState(page, state({ budget: budget({ blocked: { status: 429, untilMs: NOW + 12_000 } }) }));
      await page.locator('details[data-section="request"] > summary').click();
      console.log(`      screenshot: ${await shoot(page, `${theme}-rejected`)}`);
      await sendState(
        page,
        state({ current: unknown, history: [unknown, rejected, okEntry, twoMeanings, refused, notSent] }),
      );
      console.log(`      screenshot: ${await shoot(page, `${theme}-unknown`)}`);
      await sendState(
        page,
        state({ current: okEntry, busy: true, history: [unknown, rejected, okEntry, twoMeanings, refused, notSent] }),
      );
      console.log(`      screenshot: ${await shoot(page, `${theme}-busy`)}`);
    }
    const narrow = await openPanel({ theme: 'dark', width: 420, height: 900 });
    await sendState(
      narrow.page,
      state({
        current: unknown,
        history: [unknown, rejected, okEntry, twoMeanings],
        budget: budget({ blocked: { status: 418, untilMs: NOW + 118_000 } }),
      }),
    );
    console.log(`      screenshot: ${await shoot(narrow.page, 'dark-narrow-unknown-banned')}`);
    const { page } = await openPanel({ theme: 'light', width: 1360, height: 900 });
    await sendState(
      page,
      state({ current: okEntry, history: [unknown, rejected, okEntry, twoMeanings, refused, notSent] }),
    );
    console.log(`      screenshot: ${await shoot(page, 'light-wide-ok')}`);
  });
});

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
