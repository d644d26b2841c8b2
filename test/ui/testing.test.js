// The Testing view as a person uses it, in the real workbench in headless Chromium: the request
// files of the workspace are listed without being opened, the gutter has a run button on each
// request, and "Run All Tests" runs them against the embedded sandbox (the default profile). A
// passing and a failing request; the failure's message (the expectation, the decoded code and the
// answer) shows at its # @expect line. Screenshot: test-results/testing-view.png.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openWorkbench, openFile, runCommand, screenshot, assertPortFree, screenshotOnFailure } = require('./workbench');

const FILE = 'checks.tradereq';
const TEXT = `# Checks run as tests against the sandbox.

### Connectivity
# @expect status 200
GET /api/v3/ping

### Cancel an order that is not there
# @expect code 30002
DELETE /api/v3/order
symbol = BTCUSDT
orderId = 1
`;

describe('the Testing view, as a person uses it', function () {
  this.timeout(180_000);
  let wb;
  let page;
  let workspace;
  let stateDir;
  const previousStateDir = process.env.TRADEREQ_STATE_DIR;

  before(async () => {
    await assertPortFree(8780);
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-ui-testing-state-'));
    process.env.TRADEREQ_STATE_DIR = stateDir; // the server's extension host inherits it
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-ui-testing-'));
    fs.writeFileSync(path.join(workspace, FILE), TEXT);
    fs.mkdirSync(path.join(workspace, '.vscode'));
    fs.writeFileSync(
      path.join(workspace, '.vscode', 'settings.json'),
      JSON.stringify({
        'remote.autoForwardPorts': false, // no toast about the sandbox's port over the view
        'testing.automaticallyOpenPeekView': 'failureInVisibleDocument',
      }),
    );
    wb = await openWorkbench({ workspace });
    page = wb.page;
  });

  afterEach(screenshotOnFailure(() => page));

  after(async () => {
    if (page) await runCommand(page, 'TradeReq: Stop Sandbox').catch(() => {});
    await wb?.close();
    if (previousStateDir === undefined) delete process.env.TRADEREQ_STATE_DIR;
    else process.env.TRADEREQ_STATE_DIR = previousStateDir;
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const explorer = () => page.locator('.test-explorer');
  const row = (text) => explorer().locator('.monaco-list-row', { hasText: text }).first();

  it('lists the request files of the workspace without opening them, each request below its file', async () => {
    // The extension starts when VS Code finds a .tradereq file in the workspace; then the Testing view exists.
    await page.locator('.activitybar .action-label[aria-label="Testing"]').waitFor({ timeout: 60_000 });
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    await row(FILE).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('.tabs-container .tab', { hasText: FILE }).count(), 0, 'the file is not open');
    if ((await row(FILE).getAttribute('aria-expanded')) !== 'true')
      await row(FILE).locator('.monaco-tl-twistie').click();
    await row('Connectivity').waitFor();
    await row('Cancel an order that is not there').waitFor();
  });

  it('puts a run button in the gutter of each request', async () => {
    await openFile(page, FILE, 'Checks run as tests against the sandbox');
    await page.locator('#status\\.editor\\.mode').filter({ hasText: 'TradeReq' }).waitFor();
    const glyphs = page.locator('.monaco-editor .testing-run-glyph');
    await glyphs.nth(1).waitFor();
    assert.equal(await glyphs.count(), 2);
  });

  it('Run All Tests runs them against the sandbox: one passes, one fails with its message at the # @expect line', async () => {
    await runCommand(page, 'Test: Run All Tests');
    await row('Connectivity').locator('.codicon-testing-passed-icon').waitFor({ timeout: 60_000 });
    await row('Cancel an order that is not there').locator('.codicon-testing-failed-icon').waitFor();
    // The failure's peek opens in the editor, under the "# @expect code 30002" line.
    const peek = page.locator('.monaco-editor .test-output-peek');
    await peek.waitFor();
    const message = peek.getByText('Expected @expect code 30002, got code -2011', { exact: false }).first();
    await message.waitFor();
    assert.ok(await message.isVisible());
    // The editor scrolls the peek into view after it opens: measured once the layout has settled.
    const under = await page
      .waitForFunction(
        () => {
          const box = document.querySelector('.monaco-editor .test-output-peek')?.getBoundingClientRect();
          const line = [...document.querySelectorAll('.monaco-editor .view-line')].find((l) =>
            // The editor draws spaces as no-break spaces: compared with whitespace made plain.
            l.textContent.replace(/\s+/g, ' ').includes('# @expect code 30002'),
          );
          return box !== undefined && line !== undefined && line.getBoundingClientRect().y < box.y;
        },
        undefined,
        { timeout: 10_000 },
      )
      .then(
        () => true,
        () => false,
      );
    assert.ok(under, 'the message opens right under its # @expect line');
    await page
      .locator('.notification-toast')
      .first()
      .waitFor({ state: 'hidden' })
      .catch(() => {});
    const file = await screenshot(page, 'testing-view.png');
    console.log(`      screenshot: ${file}`);
  });
});
