// Completion and hover in the real workbench, as a person uses them: type in a request and pick
// from the suggest widget; hover over an error code. Screenshots go to test-results/.
'use strict';

const assert = require('node:assert/strict');
const { sharedWorkbench, openFile, goTo, screenshot } = require('./workbench');

describe('completion and hover, as a person uses them', function () {
  this.timeout(180_000);
  let wb;

  before(async () => {
    wb = await sharedWorkbench();
    await openFile(wb.page, 'orders.tradereq', 'Orders on the sandbox exchange');
    // The extension's language is set once its contribution is registered.
    await wb.page.locator('#status\\.editor\\.mode').filter({ hasText: 'TradeReq' }).waitFor();
    // The language mode is set before the extension has activated; its code lenses show once it has
    // (and with them its hover provider): a hover asked for earlier finds nothing and is not retried.
    await wb.page.locator('.monaco-editor .codelens-decoration').first().waitFor();
  });

  after(async () => {
    await wb?.close();
  });

  it('hovering over the error code of "# @expect code 700003" explains it', async () => {
    const { page } = wb;
    // Line 16 is "# @expect code 700003"; the code starts at column 16. (This test runs before the one that types.)
    await goTo(page, 16, 18);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const hover = page
      .locator('.monaco-hover:not(.hidden)')
      .filter({ hasText: 'Timestamp is outside of the recvWindow' });
    await hover.first().waitFor();
    const text = await hover.first().innerText();
    for (const part of ['700003', 'Usual cause:', 'What to do:', 'timestamp < serverTime + 1000'])
      assert.ok(text.includes(part), `the hover shows "${part}":\n${text}`);
    const file = await screenshot(page, 'hover-error-code.png');
    console.log(`      screenshot: ${file}`);
  });

  it('typing "si" on a new line inside a request lists side, and not signature', async () => {
    const { page } = wb;
    await page.keyboard.press('Escape');
    // After "symbol = {{symbol}}" (line 9) of the buy request, which still lacks its side.
    await goTo(page, 9, 1);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('si');

    const widget = page.locator('.suggest-widget.visible');
    await widget
      .locator('.monaco-list-row .label-name', { hasText: /^side$/ })
      .first()
      .waitFor();
    const labels = await widget.locator('.monaco-list-row .label-name').allInnerTexts();
    assert.ok(labels.includes('side'), `side is listed (listed: ${labels.join(', ')})`);
    assert.ok(!labels.includes('signature'), `signature is not listed (listed: ${labels.join(', ')})`);
    // The focused item says why: required, its type and values.
    await widget.locator('.monaco-list-row.focused .label-name', { hasText: /^side$/ }).waitFor();
    assert.match(
      await widget.locator('.monaco-list-row.focused .details-label').innerText(),
      /^required · enum · BUY or SELL/,
    );

    // Ctrl+Space on an open list shows the focused item's documentation beside it (a fresh profile starts without).
    const details = page.locator('.suggest-details-container .suggest-details').filter({ hasText: 'Order direction' });
    if (!(await details.isVisible())) await page.keyboard.press('Control+Space');
    await details.waitFor();
    const file = await screenshot(page, 'completion.png');
    console.log(`      screenshot: ${file}`);

    // Choosing it writes "side = " and opens the values.
    await page.keyboard.press('Enter');
    await page.locator('.suggest-widget.visible .monaco-list-row .label-name', { hasText: /^BUY$/ }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-lines').filter({ hasText: 'side = BUY' }).first().waitFor();
  });

  it('Enter at the end of a ### title starts a new line: nothing is completed in a title (issue 34)', async () => {
    const { page } = wb;
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    // "order" was a snippet's prefix, and orderId a word of the workspace's files: either took the Enter.
    await page.keyboard.type('### My own sell order');
    await page.keyboard.press('Enter');
    await page.keyboard.type('GET /api/v3/time');
    const lines = page.locator('.monaco-editor .view-lines .view-line');
    await lines.filter({ hasText: 'GET /api/v3/time' }).first().waitFor();
    const shown = (await lines.allInnerTexts()).map((l) => l.replace(/\u00a0/g, ' '));
    assert.ok(shown.includes('### My own sell order'), `the title stands alone on its line:\n${shown.join('\n')}`);
    assert.ok(shown.includes('GET /api/v3/time'), `the request line follows on a new line:\n${shown.join('\n')}`);
  });
});
