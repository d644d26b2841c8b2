// Pasting a cURL command into a .tradereq file, as a person does it in the real workbench in headless
// Chromium: the command goes on the browser's clipboard, Ctrl+V in the editor, and the request lines
// appear (the extension's DocumentPasteEditProvider). A real paste is needed: VS Code's paste command
// in a browser workbench inserts the clipboard text directly, without asking paste providers.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { sharedWorkbench, openFile, screenshot } = require('./workbench');

const FILE = 'pasted.tradereq';
// The shape of the family's documentation: every parameter in the query string of a POST, signed.
const API_KEY = 'pastedApiKeyNeverCopied00000000000000000001';
const CURL =
  `curl -H "X-MEXC-APIKEY: ${API_KEY}" -X POST ` +
  `'https://api.mexc.com/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=11&recvWindow=5000` +
  `&timestamp=1700000000000&signature=6b0c2ab5e1f0a0d1c3f7e5b4a2918d7c6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b'`;

/** Polls `probe` until it returns a value, failing with `what` at the deadline. */
async function waitFor(what, probe, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50)); // poll interval, bounded by the deadline
  }
}

describe('pasting a cURL command into a .tradereq file, as a person does it', function () {
  this.timeout(180_000);
  let wb;

  before(async () => {
    wb = await sharedWorkbench();
    const file = path.join(wb.workspace, FILE);
    fs.writeFileSync(file, '# Requests pasted from the documentation\n');
    await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    // By its path: the shared workbench's Quick Open indexed the workspace before this file was written.
    await openFile(wb.page, FILE, 'Requests pasted from the documentation', file);
    // The paste provider is registered when the extension activates (its environment in the status bar).
    await wb.page.locator('.statusbar-item', { hasText: /^\W*sandbox\b/ }).waitFor();
  });

  after(async () => {
    await wb?.close();
  });

  it('Ctrl+V writes the request: parameters under [query], no signature, timestamp or API key', async () => {
    const { page } = wb;
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.evaluate((text) => navigator.clipboard.writeText(text), CURL);
    await page.keyboard.press('Control+V');
    await page.locator('.monaco-editor .view-line', { hasText: 'symbol = BTCUSDT' }).first().waitFor();
    console.log(`      screenshot: ${await screenshot(page, 'paste-curl.png')}`);
    await page.keyboard.press('Control+S');
    const file = path.join(wb.workspace, FILE);
    const text = await waitFor('the file to be saved', () => {
      const t = fs.readFileSync(file, 'utf8');
      return t.includes('recvWindow = 5000') ? t : undefined;
    });
    const lines = text.split('\n');
    const at = lines.indexOf('POST https://api.mexc.com/api/v3/order');
    assert.ok(at > 0, text);
    assert.deepEqual(lines.slice(at, at + 8), [
      'POST https://api.mexc.com/api/v3/order',
      '[query]',
      'symbol = BTCUSDT',
      'side = BUY',
      'type = LIMIT',
      'quantity = 1',
      'price = 11',
      'recvWindow = 5000',
    ]);
    assert.doesNotMatch(text, /signature =|timestamp =/);
    assert.ok(!text.includes(API_KEY), 'the API key is not copied');
    assert.match(text, /TRADEREQ_MEXC_API_KEY/, 'the file says which key profile to use');
  });
});
