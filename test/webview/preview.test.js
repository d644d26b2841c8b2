// The response panel's own code in headless Chromium, outside VS Code: the bundle of src/webview/main.ts
// in the document of src/webview/html.ts (with its CSP), fed `state` messages as the extension would
// send them. A fake acquireVsCodeApi records what the panel posts. Screenshots go to test-results/.
//
//   npx mocha --no-config test/webview/preview.test.js
'use strict';

const assert = require('node:assert/strict');
const { servePanel, launchChromium, openPanel: open, send, shoot } = require('./harness');

/** The page's clock (faked, paused here once loaded); the extension's clock runs 5 s ahead of it, so countdowns must use the offset. */
const T0 = Date.UTC(2025, 2, 14, 13, 2, 11);
const NOW = T0 + 5000;

const HOSTILE_IMG = '<img src=x onerror=alert(1)>';
const HOSTILE_SCRIPT = '</script><script>alert(2)</script>';
const UNKNOWN_SENTENCE = 'The operation may have succeeded: check before retrying.';

// ---- Fixtures: states as the extension would send them --------------------------------------------

const ORIGIN = 'https://api.sandbox.example';

function entry(over) {
  const query =
    'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.0001&price=20000&recvWindow=5000&timestamp=1741957331000';
  const signature = 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71';
  return {
    id: 'e-ok',
    at: NOW - 60_000,
    title: 'Place a limit order',
    environment: 'sandbox',
    request: {
      method: 'POST',
      url: `${ORIGIN}/api/v3/order?${query}&signature=${signature}`,
      query: `${query}&signature=${signature}`,
      body: '',
      totalParams: query,
      headers: [
        // As maskApiKey (src/core/env/keys.ts) masks it everywhere: the last four characters.
        ['X-SERVICE-APIKEY', '****3fa2'],
        ['Content-Type', 'application/json'],
        ['User-Agent', 'TradeReq/0.1.0'],
      ],
      signed: true,
    },
    outcome: 'ok',
    summary: '200 ok',
    status: 200,
    statusMeaning: 'Request accepted',
    response: {
      body: JSON.stringify(
        {
          symbol: 'BTCUSDT',
          orderId: '5432101',
          clientOrderId: 'tr-2025-0314-001',
          price: '20000',
          origQty: '0.0001',
          type: 'LIMIT',
          side: 'BUY',
          status: 'NEW',
          isWorking: true,
          transactTime: 1741957331412,
        },
        null,
        2,
      ),
      isJson: true,
      truncated: false,
      bytes: 241,
      headers: [
        ['content-type', 'application/json;charset=UTF-8'],
        ['date', 'Fri, 14 Mar 2025 13:02:11 GMT'],
        ['x-request-id', '7e1c0b7a-51c4-4d3f-9f11-2ab0c1d3e4f5'],
      ],
    },
    timings: { connectMs: 12.4, firstByteMs: 84.2, totalMs: 96.7 },
    expectations: [
      { text: 'status == 200', passed: true, actual: '200' },
      { text: 'body.status in ["NEW", "FILLED"]', passed: true, actual: '"NEW"' },
    ],
    ...over,
  };
}

const HOVER_30002 =
  '30002: Trade volume is below the minimum\n\nUsual cause: the quantity times the price is under the symbol’s minimum order size.\n\nWhat to do: raise quantity so that quantity × price reaches the minimum of the symbol (see exchangeInfo).';

const rejected = entry({
  id: 'e-rej',
  at: NOW - 2_000,
  outcome: 'rejected',
  summary: '400 rejected: 30002 Trade volume is below the minimum',
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 30002,
    meanings: ['Trade volume is below the minimum'],
    cause: 'The quantity times the price is under the symbol’s minimum order size.',
    action: 'Raise quantity so that quantity × price reaches the minimum of the symbol (see exchangeInfo).',
    hoverText: HOVER_30002,
  },
  msg: 'quantity below minimum',
  response: {
    body: '{\n  "code": 30002,\n  "msg": "quantity below minimum"\n}',
    isJson: true,
    truncated: false,
    bytes: 50,
    headers: [['content-type', 'application/json']],
  },
  timings: { connectMs: 11.9, firstByteMs: 71.3, totalMs: 73.8 },
  expectations: [{ text: 'status == 200', passed: false, actual: '400' }],
});

const twoMeanings = entry({
  id: 'e-two',
  at: NOW - 20_000,
  request: { ...entry({}).request, method: 'GET', url: `${ORIGIN}/api/v3/ticker/price?symbol=BTC-USDT` },
  outcome: 'rejected',
  summary: '400 rejected: 730001 pair not found; also user information error',
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 730001,
    meanings: ['Pair not found', 'User information error'],
    action: 'Check the symbol: upper-case letters with no separator (BTCUSDT).',
    hoverText: '730001 has 2 meanings in the spec (§7.2):\n- Pair not found\n- User information error',
  },
  response: { body: '{"code":730001,"msg":"pair not found"}', isJson: true, truncated: false, bytes: 38, headers: [] },
  expectations: [],
});

const UNKNOWN_ACTION =
  'The outcome of the operation is unknown and may have succeeded: check before retrying (for an order, query it by orderId or origClientOrderId, or list open orders). Never retry an order blindly: a retry can place it twice.';

const unknown = entry({
  id: 'e-unk',
  at: NOW - 1_000,
  outcome: 'unknown',
  summary: 'outcome unknown: 503 service not available, try again',
  status: 503,
  statusMeaning:
    'Internal error of the service; the outcome of the operation is unknown and may have succeeded: check before retrying, never treat it as a failure',
  error: {
    code: 503,
    meanings: ['Service not available, try again'],
    action: UNKNOWN_ACTION,
    hoverText: `503: Service not available, try again\n\nWhat to do: ${UNKNOWN_ACTION}`,
  },
  response: {
    body: '{"code":503,"msg":"service not available"}',
    isJson: true,
    truncated: false,
    bytes: 42,
    headers: [['content-type', 'application/json']],
  },
  orderRef: { symbol: 'BTCUSDT', origClientOrderId: 'tr-2025-0314-002' },
  timings: { connectMs: 12.1, firstByteMs: 5012.5, totalMs: 5013.0 },
  expectations: [],
});

const unknownNoId = entry({ ...unknown, id: 'e-unk-noid', orderRef: { symbol: 'BTCUSDT' } });

const REFUSAL = `The service asked to back off (429): nothing is sent to ${ORIGIN} for 12 s more (Retry-After). Sending now would get this IP banned (§8 rule 2).`;

const refused = entry({
  id: 'e-ref',
  at: NOW - 500,
  outcome: 'refused',
  summary: `refused: ${REFUSAL}`,
  reason: REFUSAL,
  status: undefined,
  statusMeaning: undefined,
  response: undefined,
  timings: undefined,
  expectations: [],
});

const notSent = entry({
  id: 'e-ns',
  at: NOW - 400,
  outcome: 'not-sent',
  summary: 'not sent: connect ECONNREFUSED 127.0.0.1:8443: start the sandbox or check baseUrl in tradereq.env.json',
  reason: 'connect ECONNREFUSED 127.0.0.1:8443: start the sandbox or check baseUrl in tradereq.env.json',
  status: undefined,
  statusMeaning: undefined,
  response: undefined,
  timings: undefined,
  expectations: [],
});

const okEntry = entry({});

// A 700003 after the server clock moved (issue 19, point 1), as entryFromResult makes it from the sandbox's answer.
const CLOCK_NOTE =
  'The service processes a request only when timestamp < serverTime + 1000 and serverTime − timestamp ≤ recvWindow (5000 ms) (spec §5 rule 9). The server clock was measured again: your clock is 30002 ms behind the server (before: 0 ms behind the server); the next send uses the new offset.';
const ACTION_700003 =
  'Nothing was processed, so sending again is safe: after a 700003 TradeReq measures the server clock offset again at once, for the next send. If it is refused again, leave clock sync on, do not write timestamp by hand, and set the system clock. Keep recvWindow at the default 5000 rather than widening it to hide skew.';

const clockJump = entry({
  id: 'e-700003',
  at: NOW - 1_500,
  title: 'Account',
  request: {
    ...entry({}).request,
    method: 'GET',
    url: `${ORIGIN}/api/v3/account?timestamp=1741957331000&signature=4b3ce56d3a25837901545acf2a11d937d46768f4605e5503b94063a1e09d54cf`,
    body: '',
  },
  outcome: 'rejected',
  summary: `400 rejected: 700003 Timestamp is outside of the recvWindow ${CLOCK_NOTE}`,
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 700003,
    meanings: ['Timestamp is outside of the recvWindow'],
    cause:
      'A request is processed only when timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow (§5 rule 9).',
    action: ACTION_700003,
    hoverText: `700003: Timestamp is outside of the recvWindow\n\nWhat to do: ${ACTION_700003}`,
  },
  msg: 'Timestamp is outside of the recvWindow. timestamp 1741957331000 is 30012 ms behind the server time 1741957361012 (recvWindow 5000); check the clock offset against GET /api/v3/time.',
  note: CLOCK_NOTE,
  sendAgain: true,
  response: {
    body: '{\n  "code": 700003,\n  "msg": "Timestamp is outside of the recvWindow."\n}',
    isJson: true,
    truncated: false,
    bytes: 204,
    headers: [['content-type', 'application/json']],
  },
  expectations: [],
});

// A 700002 as the sandbox answers it (issue 22): the panel offers Why?, the signature doctor on what TradeReq sent.
const badSignature = entry({
  ...rejected,
  id: 'e-700002',
  summary: '401 rejected: 700002 Signature for this request is not valid',
  status: 401,
  error: {
    code: 700002,
    meanings: ['Signature for this request is not valid'],
    hoverText: '700002: Signature for this request is not valid',
  },
  msg: 'Signature for this request is not valid.',
});

// A 418 as the sandbox answers it (docs/service.md §7.1): an error body whose code is 429.
const ACTION_429 =
  'Stop sending and wait the number of seconds in the Retry-After header. Continuing after 429 leads to an automatic IP ban of 2 minutes up to 3 days (§8 rules 1-4); spread requests out.';

function banned(extNow) {
  return entry({
    ...rejected,
    id: 'e-418',
    at: extNow - 100,
    status: 418,
    summary:
      '418 rejected: The IP is banned because of repeated rate limit violations; Retry-After gives the seconds until the ban ends (Retry-After 118 s)',
    statusMeaning:
      'The IP is banned because of repeated rate limit violations; Retry-After gives the seconds until the ban ends',
    retryAtMs: extNow + 118_000,
    error: {
      code: 429,
      meanings: ['Too many requests'],
      cause: 'The request rate limit was exceeded (§8).',
      action: ACTION_429,
      hoverText: `429: Too many requests\n\nWhat to do: ${ACTION_429}`,
    },
    msg: 'The IP 127.0.0.1 is banned for 118 s (Retry-After) for sending after a 429; bans grow with repeat offences (§8 rules 2-3).',
    response: {
      body: '{\n  "code": 429,\n  "msg": "The IP 127.0.0.1 is banned for 118 s"\n}',
      isJson: true,
      truncated: false,
      bytes: 60,
      headers: [['retry-after', '118']],
    },
    expectations: [],
  });
}

const hostile = entry({
  id: `"><img src=x onerror=alert(3)>`,
  at: NOW - 300,
  title: `${HOSTILE_IMG} ${HOSTILE_SCRIPT}`,
  environment: HOSTILE_SCRIPT,
  outcome: 'rejected',
  summary: `400 rejected: ${HOSTILE_IMG}`,
  status: 400,
  statusMeaning: "Malformed request; the fault is the sender's",
  error: {
    code: 33333,
    meanings: [HOSTILE_IMG],
    cause: HOSTILE_SCRIPT,
    action: HOSTILE_IMG,
    hoverText: `33333: ${HOSTILE_SCRIPT}`,
  },
  msg: `${HOSTILE_IMG}${HOSTILE_SCRIPT}`,
  response: {
    body: `{\n  "code": 33333,\n  "msg": "${HOSTILE_IMG}",\n  "x": "${HOSTILE_SCRIPT}"\n}`,
    isJson: true,
    truncated: true,
    bytes: 123456,
    headers: [
      [HOSTILE_IMG, HOSTILE_SCRIPT],
      ['x-evil', HOSTILE_IMG],
    ],
  },
  expectations: [{ text: HOSTILE_IMG, passed: false, actual: HOSTILE_SCRIPT }],
});

function budget(over = {}) {
  return {
    origin: ORIGIN,
    ip: { mode: 'ip', limit: 500, used: 20, remaining: 480, freesInMs: 7000 },
    uid: { mode: 'uid', limit: 500, used: 470, remaining: 30, freesInMs: 3000 },
    ...over,
  };
}

/** The extension's own historyItem() (src/core/panel/entry.ts), bundled in before(). */
let historyItem;

function state(over = {}) {
  const s = {
    current: rejected,
    budget: budget(),
    history: [rejected, okEntry, twoMeanings],
    now: NOW,
    busy: false,
    ...over,
  };
  return {
    ...s,
    history: Array.isArray(s.history) ? s.history.map((e) => (e.request ? historyItem(e) : e)) : s.history,
  };
}

describe('the response panel, in a browser', function () {
  this.timeout(90_000);

  let served;
  let origin;
  let browser;
  let html;
  const opened = [];

  before(async () => {
    served = await servePanel();
    ({ origin, html } = served);
    historyItem = served.entry.historyItem;
    browser = await launchChromium();
  });

  // Each test's pages closed when it ends: a browser holding every earlier page slows down as it goes.
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });

  after(async () => {
    for (const p of opened) await p.context.close().catch(() => {});
    await browser?.close().catch(() => {});
    await served?.close();
  });

  /** A fresh page with the panel, on a fake clock at T0; resolves once the panel said `ready`. */
  async function openPanel(options = {}) {
    const p = await open(browser, origin, { ...options, clock: T0 });
    opened.push(p);
    return p;
  }

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
    const doc = html.panelHtml({
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
      html.panelHtml({
        cspSource: "x; script-src 'unsafe-inline'",
        nonce: 'abcdefghijklmnop0123==',
        scriptUri: '',
        styleUri: '',
        title: '',
      }),
    );
    assert.throws(() =>
      html.panelHtml({ cspSource: 'https://x', nonce: "abc' 'unsafe-inline", scriptUri: '', styleUri: '', title: '' }),
    );
    // VS Code in a browser gives a quoted keyword as the webview source: it must be accepted as it is.
    const web = html.panelHtml({
      cspSource: "'self' https://*.vscode-cdn.net",
      nonce: 'abcdefghijklmnop0123==',
      scriptUri: 'https://x/a.js',
      styleUri: 'https://x/p.css',
      title: 't',
    });
    assert.ok(web.includes("style-src 'self' https://*.vscode-cdn.net;"));
    assert.throws(() =>
      html.panelHtml({
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
        state: { ...state(), history: Array.from({ length: 51 }, (_, i) => historyItem({ ...okEntry, id: `h${i}` })) },
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
