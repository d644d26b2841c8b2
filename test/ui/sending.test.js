// Sending from the editor as a person does it, in the real workbench in headless Chromium: add a key
// in the input boxes, start the sandbox from the Command Palette and store its demo key from the
// notification, click Send above a request and read the response panel. Screenshots of the panel go
// to test-results/ (panel-accepted, panel-rejected, panel-unknown, panel-ban-countdown).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  openWorkbench,
  openFile,
  runCommand,
  screenshot,
  panelFrame,
  clickCodeLens,
  notification,
  clearNotifications,
  assertPortFree,
  filesContaining,
  screenshotOnFailure,
} = require('./workbench');

const SANDBOX = 'http://127.0.0.1:8780'; // where "TradeReq: Start Sandbox" runs it, and the built-in environment
const FILE = 'sending.tradereq';
// The key a person adds with "TradeReq: Add API Key"; made up, the sandbox does not know it.
const DESK = {
  profile: 'desk',
  apiKey: 'deskUiTestApiKey0000000000007391',
  secretKey: 'deskUiTestSecret9d41c07be2f3a58e61b0c7d9f2a4e6b8',
};

/** A request check finds two errors in, which the service would refuse (issue 34). */
const CHECK_ERRORS = {
  file: 'check-errors.tradereq',
  title: 'Sell in lower case',
  text: '# A request that check finds fault with (UI test).\n### Sell in lower case\nPOST /api/v3/order\nsymbol = BTCUSDT\nside = sell\ntype = LIMIT\nquantity = 0.001\n',
};

async function control(what, body) {
  const res = await fetch(`${SANDBOX}/_sandbox/${what}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, `POST /_sandbox/${what}: ${await res.text()}`);
}

async function sandboxLog() {
  return (await fetch(`${SANDBOX}/_sandbox/requests`)).json();
}

describe('sending from the editor, as a person does it', function () {
  this.timeout(180_000);
  let wb;
  let page;
  let panel;
  let stateDir;
  let sends = 0; // entries in the panel's history so far
  let sandboxStarted = false;
  const previousStateDir = process.env.TRADEREQ_STATE_DIR;

  /**
   * Clicks a code lens above the request titled `title`; waits until the panel shows the new entry
   * (one more in its history, the banner no longer busy) with `outcome`. Returns the banner.
   */
  async function send(title, outcome) {
    await clickCodeLens(page, title, 'Send');
    sends += 1;
    await panel
      .locator('[data-testid=history-item]')
      .nth(sends - 1)
      .waitFor();
    const banner = panel.locator(`[data-testid=banner][data-outcome=${outcome}]:not([data-busy])`);
    await banner.waitFor();
    await panel.locator('[data-testid=history-item]').first().and(panel.locator('[aria-current=true]')).waitFor();
    await inView(banner);
    return banner;
  }

  /** Waits until the top of `el` is inside the panel's viewport (a new outcome is seen however the panel was scrolled). */
  async function inView(el) {
    const deadline = Date.now() + 5000;
    while (
      !(await el.evaluate(
        (e) => e.getBoundingClientRect().top >= 0 && e.getBoundingClientRect().top < window.innerHeight,
      ))
    ) {
      if (Date.now() > deadline) throw new Error('the banner is not in view in the panel');
      await page.waitForTimeout(50); // poll interval, bounded by the deadline
    }
  }

  before(async () => {
    await assertPortFree(8780);
    // The budget, the gate (a 2-minute ban below) and the clock persist here: a fresh folder, not the user's.
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-ui-state-'));
    process.env.TRADEREQ_STATE_DIR = stateDir; // the VS Code server, and so its extension host, inherit it
    wb = await openWorkbench();
    page = wb.page;
    // No "Your application running on port 8780 is available" toast over the panel.
    fs.mkdirSync(path.join(wb.workspace, '.vscode'));
    fs.writeFileSync(
      path.join(wb.workspace, '.vscode', 'settings.json'),
      JSON.stringify({ 'remote.autoForwardPorts': false }),
    );
    // Written before the first Quick Open, which lists the workspace's files once.
    fs.writeFileSync(path.join(wb.workspace, CHECK_ERRORS.file), CHECK_ERRORS.text);
    panel = panelFrame(page);
    await openFile(page, FILE, 'Requests for the sending tests');
    await page.locator('#status\\.editor\\.mode').filter({ hasText: 'TradeReq' }).waitFor();
  });

  afterEach(screenshotOnFailure(() => page));

  after(async () => {
    // After a failure the sandbox may still run; closing the VS Code server ends its extension host, and it.
    if (sandboxStarted && page) await runCommand(page, 'TradeReq: Stop Sandbox').catch(() => {});
    await wb?.close();
    if (previousStateDir === undefined) delete process.env.TRADEREQ_STATE_DIR;
    else process.env.TRADEREQ_STATE_DIR = previousStateDir;
    if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('Add API Key asks for profile, origins, API key and secret (a password field); List API Keys shows the profile, its origins and the API key masked to its last four characters, never a value', async () => {
    await runCommand(page, 'TradeReq: Add API Key');
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input.input');
    // A box shows its title a moment before its proposed value settles: typed over once it is there.
    const step = async (n, text, proposes = false) => {
      await widget.locator('.quick-input-title', { hasText: `Add API Key (${n}/4)` }).waitFor();
      if (proposes)
        await page.waitForFunction((v) => {
          const value = document.querySelector('.quick-input-widget input.input')?.value;
          return v === true ? value : value === v;
        }, proposes);
      if (text !== undefined) {
        await input.fill(text);
        assert.equal(await input.inputValue(), text);
      }
    };
    await step(1, DESK.profile, true);
    await input.press('Enter');
    await step(2, undefined, SANDBOX);
    assert.equal(await input.inputValue(), SANDBOX, 'the origin of the environment is proposed');
    await input.press('Enter');
    await step(3, DESK.apiKey);
    assert.equal(await input.getAttribute('type'), 'text');
    await input.press('Enter');
    await step(4);
    assert.equal(await input.getAttribute('type'), 'password', 'the secret key is typed into a password field');
    await input.fill(DESK.secretKey);
    await input.press('Enter');
    await notification(
      page,
      `key profile "${DESK.profile}" stored in SecretStorage, bound to ${SANDBOX} (API key ****${DESK.apiKey.slice(-4)})`,
    ).waitFor();

    await runCommand(page, 'TradeReq: List API Keys');
    await widget
      .locator('.quick-input-title', { hasText: 'stored key profiles (API keys masked, secret keys never shown)' })
      .waitFor();
    const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: DESK.profile });
    await row.waitFor();
    // The API key as everywhere (the panel, the CLI): its last four characters.
    assert.match(
      await row.innerText(),
      new RegExp(
        `${DESK.profile}\\s*bound to ${SANDBOX.replace(/\./g, '\\.')} · API key \\*{4}${DESK.apiKey.slice(-4)}`,
      ),
    );
    const listed = await widget.innerText();
    assert.ok(!listed.includes(DESK.apiKey) && !listed.includes(DESK.secretKey), `no key value is listed:\n${listed}`);
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden' });
  });

  it('TradeReq: Start Sandbox from the Command Palette, then Store Demo Key on its notification', async () => {
    await runCommand(page, 'TradeReq: Start Sandbox');
    const toast = notification(page, `sandbox exchange running at ${SANDBOX}`);
    await toast.waitFor();
    sandboxStarted = true;
    await toast.getByRole('button', { name: 'Store Demo Key' }).click();
    await notification(
      page,
      `stored the sandbox's demo key (****0001) as profile "sandbox", bound to ${SANDBOX}`,
    ).waitFor();
    assert.deepEqual(await sandboxLog(), [], 'nothing was sent yet');
  });

  it('click Send above an order: the panel shows it accepted, with its orderId and the budget left', async () => {
    const banner = await send('Buy at a limit price', 'ok');
    assert.match(await banner.innerText(), /OK\s+HTTP 200\s+POST \/api\/v3\/order/);
    const body = JSON.parse(await panel.locator('[data-testid=body]').innerText());
    assert.match(body.orderId, /^\d+$/);
    assert.equal(body.status, 'NEW');
    assert.match(await panel.locator('[data-testid=status]').innerText(), /200\s+Request accepted/);
    assert.match(await panel.locator('[data-testid=budget-ip]').innerText(), /IP \d+\/500 left/);
    assert.match(await panel.locator('[data-testid=budget-uid]').innerText(), /Account 499\/500 left/);
    await clearNotifications(page);
    await screenshot(page, 'panel-accepted.png');
  });

  it('click Send above an order too small: rejected, with 30002 decoded, its meaning, cause and what to do', async () => {
    const banner = await send("Quantity below the symbol's minimum", 'rejected');
    assert.match(await banner.innerText(), /Rejected\s+HTTP 400/i);
    assert.match(await panel.locator('[data-testid=error-code]').innerText(), /30002/);
    assert.ok((await panel.locator('[data-testid=meanings]').innerText()).length > 10, 'the meaning of 30002 is shown');
    assert.ok((await panel.locator('[data-testid=cause]').innerText()).length > 10, 'the usual cause is shown');
    assert.ok((await panel.locator('[data-testid=action]').innerText()).length > 10, 'what to do is shown');
    await clearNotifications(page);
    await screenshot(page, 'panel-rejected.png');
  });

  it('a request with errors that check finds asks first, listing them (issue 34); Cancel sends nothing, Send anyway sends it', async () => {
    const title = CHECK_ERRORS.title;
    await openFile(page, CHECK_ERRORS.file, 'A request that check finds fault with');
    try {
      const orders = async () => (await sandboxLog()).filter((e) => e.path === '/api/v3/order').length;
      const before = await orders();
      await clickCodeLens(page, title, 'Send');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor();
      const question = await dialog.innerText();
      for (const part of [
        `"${title}" has 2 errors that check found: the service would refuse it. Send it anyway?`,
        'Line 5: side "sell" is not an allowed value: BUY, SELL',
        '(enum-value)',
        'Line 6: A LIMIT order needs "price"',
        '(missing-param)',
      ])
        assert.ok(question.includes(part), question);
      await screenshot(page, 'check-errors-dialog.png');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await orders(), before, 'Cancel sends nothing');

      await clickCodeLens(page, title, 'Send');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Send anyway' }).click();
      sends += 1;
      await panel
        .locator('[data-testid=history-item]')
        .nth(sends - 1)
        .waitFor();
      await panel.locator('[data-testid=banner][data-outcome=rejected]:not([data-busy])', { hasText: title }).waitFor();
      assert.match(await panel.locator('[data-testid=error-code]').innerText(), /33333/);
      assert.equal(await orders(), before + 1, 'Send anyway sent it, once');
    } finally {
      // Its tab closed, sending.tradereq is the active editor again, as it was, for the tests after this one.
      const tab = page.locator('.tabs-container .tab', { hasText: CHECK_ERRORS.file });
      await tab.hover();
      await tab.locator('.tab-actions .action-label').click();
      await tab.waitFor({ state: 'detached' });
    }
  });

  it('a request signed with the added key shows the API key masked; the sandbox does not know that key (10072)', async () => {
    await send('Open orders, signed with the key profile "desk"', 'rejected');
    assert.match(await panel.locator('[data-testid=error-code]').innerText(), /10072/);
    await panel.locator('summary', { hasText: 'Signed request' }).click();
    const headers = await panel.locator('[data-testid=request-headers]').innerText();
    assert.match(headers, new RegExp(`X-SERVICE-APIKEY\\s+\\*{4}${DESK.apiKey.slice(-4)}`), headers);
    await panel.locator('summary', { hasText: 'Signed request' }).click();
  });

  it('a trade signed with the user\'s own key asks though nothing in the workspace asks for it; Cancel sends nothing; after "Ask Before Trades with a Key…" → "Send trades without asking" it goes unasked', async () => {
    const title = 'Cancel an order, signed with the key profile "desk"';
    const before = (await sandboxLog()).length;
    await clickCodeLens(page, title, 'Send');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    const question = await dialog.innerText();
    assert.ok(question.includes('Send DELETE /api/v3/order: symbol BTCUSDT, orderId 1?'), question);
    assert.ok(question.includes('Why you are asked: it can trade with your key profile "desk".'), question);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await notification(page, 'nothing was sent').waitFor();
    assert.equal((await sandboxLog()).length, before, 'nothing reached the sandbox');
    await clearNotifications(page);

    // The key's owner decides, for this key, in a place no repository writes (SecretStorage).
    await runCommand(page, 'TradeReq: Ask Before Trades with a Key…');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'desk' }).first().click();
    await widget.locator('.quick-input-title', { hasText: 'trades signed with key profile "desk"' }).waitFor();
    // Picked by typing: the pointer, left over the first row by the click before, can raise that row's hover over this one.
    await widget.locator('.quick-input-box input').fill('Send trades without asking');
    await widget
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Send trades without asking' })
      .waitFor();
    await page.keyboard.press('Enter');
    await notification(page, 'trades signed with key profile "desk" are sent without asking').waitFor();
    await clearNotifications(page);

    await send(title, 'rejected');
    assert.match(await panel.locator('[data-testid=error-code]').innerText(), /10072/);
    assert.deepEqual(
      (await sandboxLog()).slice(before).map((e) => `${e.method} ${e.path}`),
      ['DELETE /api/v3/order'],
      'sent without a dialog (the sandbox does not know the key)',
    );
  });

  it('after an injected 503 the panel says the outcome is unknown and offers to query the order; Query the order shows it, NEW', async () => {
    await control('fault', { status: 503, count: 1, path: '/api/v3/order' });
    const banner = await send('Buy at a limit price', 'unknown');
    const text = await banner.innerText();
    assert.match(text, /HTTP 503/);
    assert.ok(text.includes('The operation may have succeeded: check before retrying.'), text);
    const query = banner.locator('[data-testid=query-order]');
    assert.equal(await query.innerText(), 'Query the order');
    assert.match(text, /origClientOrderId\s+[A-Za-z0-9]{32}/, 'the order is named by its newClientOrderId');
    await clearNotifications(page);
    await screenshot(page, 'panel-unknown.png');

    await query.click();
    sends += 1;
    await panel
      .locator('[data-testid=history-item]')
      .nth(sends - 1)
      .waitFor();
    const found = panel.locator('[data-testid=banner][data-outcome=ok]:not([data-busy])', {
      hasText: 'GET /api/v3/order',
    });
    await found.waitFor();
    const order = JSON.parse(await panel.locator('[data-testid=body]').innerText());
    assert.equal(order.status, 'NEW', 'the order was placed although the answer was a 503');
    assert.ok(text.includes(order.clientOrderId), 'it is the order whose outcome was unknown');
  });

  it('an environment with "confirm": true asks in a dialog naming method, path, symbol, side, quantity and price; clicking Send sends the order', async () => {
    const envFile = path.join(wb.workspace, 'tradereq.env.json');
    const statusItem = (name) => page.locator('.statusbar-item', { hasText: new RegExp(`^\\W*${name}\\b`) });
    // The status bar names the environment while a request file is the active editor.
    await page.locator('.monaco-editor .view-line', { hasText: '@symbol = BTCUSDT' }).click();
    fs.writeFileSync(envFile, JSON.stringify({ guarded: { baseUrl: SANDBOX, key: 'sandbox', confirm: true } }));
    try {
      await statusItem('guarded').waitFor();
      const before = (await sandboxLog()).length;
      await clickCodeLens(page, 'Buy at a limit price', 'Send');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor();
      const question = await dialog.innerText();
      assert.ok(
        question.includes(
          'Send POST /api/v3/order: symbol BTCUSDT, side BUY, type LIMIT, quantity 0.001, price 30000?',
        ),
        question,
      );
      assert.ok(
        question.includes(
          `To ${SANDBOX} (environment "guarded"). Why you are asked: environment "guarded" has "confirm": true.`,
        ),
        question,
      );
      assert.equal((await sandboxLog()).length, before, 'nothing is sent while the dialog is open');
      await screenshot(page, 'confirm-dialog.png');
      await dialog.getByRole('button', { name: 'Send', exact: true }).click();
      sends += 1;
      await panel
        .locator('[data-testid=history-item]')
        .nth(sends - 1)
        .waitFor();
      const banner = panel.locator('[data-testid=banner][data-outcome=ok]:not([data-busy])', { hasText: 'guarded' });
      await banner.waitFor();
      assert.match(await banner.innerText(), /POST \/api\/v3\/order/);
      assert.deepEqual(
        (await sandboxLog()).slice(before).map((e) => `${e.method} ${e.path} ${e.status}`),
        ['POST /api/v3/order 200'],
      );
    } finally {
      fs.rmSync(envFile, { force: true });
    }
    await statusItem('sandbox').waitFor();
  });

  it('after a 429 and a request during the wait, a 418 ban: the panel counts it down, and the next Send is refused without reaching the sandbox', async () => {
    // Fill the IP budget of a fresh sandbox (exchangeInfo weighs 10 of 500 per 10 s) up to the 429, then one more: banned.
    await control('reset', {});
    const direct = async () => {
      const res = await fetch(`${SANDBOX}/api/v3/exchangeInfo`);
      await res.arrayBuffer();
      return res.status;
    };
    let status;
    for (let i = 0; (status = await direct()) === 200; i++)
      assert.ok(i < 50, 'a 429 after at most 50 requests of weight 10');
    assert.equal(status, 429);
    assert.equal(await direct(), 418, 'a request during the Retry-After wait gets the IP banned');
    const banner = await send('Symbols and their filters', 'rejected');
    // The ban, not the code 429 of its body (issue 19, point 9).
    assert.match(await banner.innerText(), /Banned\s+HTTP 418/);
    assert.match(await banner.innerText(), /banned this IP for repeated rate limit violations/);
    assert.equal(await panel.locator('[data-testid=error-code]').count(), 0, 'no 429 badge beside HTTP 418');
    // The countdown in the budget's place: no budget bar while the ban holds.
    const countdown = panel.locator('[data-section=budget] [data-testid=countdown]');
    assert.match(
      await countdown.innerText(),
      /^Banned: (2 min|1 min 5\d s) left$/,
      'a ban of 2 minutes, counting down',
    );
    assert.match(
      await panel.locator('[data-testid=countdown-region]').innerText(),
      /Nothing is sent to http:\/\/127\.0\.0\.1:8780 until the ban ends/,
    );
    assert.equal(await panel.locator('[data-testid=budget-ip]').count(), 0);
    await clearNotifications(page);
    await screenshot(page, 'panel-ban-countdown.png');

    const reached = (await sandboxLog()).length;
    const refused = await send('Symbols and their filters', 'refused');
    assert.match(await refused.innerText(), /banned this IP .*nothing is sent to http:\/\/127\.0\.0\.1:8780/);
    assert.equal((await refused.innerText()).match(/refused/gi).length, 1, 'the badge says "Refused", once');
    assert.match(await countdown.innerText(), /^Banned: (2 min|1 min 5\d s) left$/);
    assert.equal((await sandboxLog()).length, reached, 'the refused request never reached the sandbox');
    await page.locator('.statusbar-item', { hasText: /sandbox.*banned \d+ s/ }).waitFor();
    await screenshot(page, 'panel-ban-refused.png');
  });

  it('the secret key is nowhere: not in the TradeReq output, the panel, the workspace or the files of the VS Code server', async () => {
    await runCommand(page, 'Output: Show Output Channels...');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: /^TradeReq$/ })
      .first()
      .click();
    const output = page.locator('.output-view .view-lines');
    await output.filter({ hasText: 'GET http://127.0.0.1:8780/api/v3/exchangeInfo (sandbox) → refused' }).waitFor();
    const shown = await output.innerText();
    const panelText = await panel.locator('body').innerText();
    // The whole log, as written to disk (the view shows its end).
    const logs = filesContaining(
      [wb.server.dirs.base],
      [`stored key profile "${DESK.profile}" bound to ${SANDBOX}`],
    ).map((f) => f.file);
    assert.equal(logs.length, 1, `one log file of the TradeReq channel: ${logs.join(', ')}`);
    assert.match(path.basename(logs[0]), /TradeReq\.log$/);
    for (const [where, text] of [
      ['the TradeReq output', shown],
      ['the log file', fs.readFileSync(logs[0], 'utf8')],
      ['the panel', panelText],
    ]) {
      for (const value of [DESK.secretKey, DESK.apiKey])
        assert.ok(!text.includes(value), `${where} does not hold ${value}`);
    }
    assert.ok(fs.existsSync(path.join(stateDir, 'state.json')), 'the extension host used the fresh state folder');
    const found = filesContaining([wb.workspace, stateDir, wb.server.dirs.base], [DESK.secretKey, DESK.apiKey]);
    assert.deepEqual(found, [], 'no file holds a value of the key');
  });

  it('TradeReq: Stop Sandbox stops it: port 8780 is free again', async () => {
    await runCommand(page, 'TradeReq: Stop Sandbox');
    await assertPortFree(8780, 10_000);
    sandboxStarted = false;
  });
});
