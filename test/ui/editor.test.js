// UI checks in headless Chromium: a person opens a .tradereq file in the real workbench and sees it
// highlighted by the extension's grammar. Screenshots go to test-results/.
'use strict';

const assert = require('node:assert/strict');
const { sharedWorkbench, openFile, runCommand, goTo, screenshot } = require('./workbench');

describe('the editor, as a person sees it', function () {
  this.timeout(180_000);
  let wb;

  before(async () => {
    wb = await sharedWorkbench();
    await openFile(wb.page, 'grammar.tradereq', 'Requests for the grammar test');
  });

  after(async () => {
    await wb?.close();
  });

  it('shows a .tradereq file in the TradeReq language mode', async () => {
    const mode = wb.page.locator('#status\\.editor\\.mode');
    await mode.filter({ hasText: 'TradeReq' }).waitFor();
  });

  it('highlights the file: the method, a parameter name and a comment are not in the plain text colour', async () => {
    const view = wb.page.locator('.monaco-editor .view-lines').first();
    // Monaco gives the theme's default foreground the class mtk1; a coloured token has another.
    for (const text of [/^POST$/, /^price$/, /Requests/]) {
      const cls = await view.locator('span > span', { hasText: text }).first().getAttribute('class');
      assert.ok(cls && !/\bmtk1\b/.test(cls), `${text} is coloured (class ${cls})`);
    }
    const file = await screenshot(wb.page, 'editor-highlighted.png');
    console.log(`      screenshot: ${file}`);
  });

  /** The scopes VS Code's "Inspect Editor Tokens and Scopes" widget shows at line:column. */
  async function scopesAt(line, column) {
    await goTo(wb.page, line, column);
    await runCommand(wb.page, 'Developer: Inspect Editor Tokens and Scopes');
    const widget = wb.page.locator('.token-inspect-widget');
    await widget.waitFor();
    const text = await widget.innerText();
    return text;
  }

  afterEach(async () => {
    await wb.page.keyboard.press('Escape');
  });

  it('scopes a request line: the method', async () => {
    assert.match(await scopesAt(6, 2), /keyword\.other\.http-method\.tradereq/);
  });

  it('scopes a parameter name', async () => {
    assert.match(await scopesAt(8, 2), /variable\.parameter\.name\.tradereq/);
  });

  it('scopes a variable reference', async () => {
    const text = await scopesAt(7, 13);
    assert.match(text, /variable\.other\.tradereq/);
    await screenshot(wb.page, 'editor-inspect-variable.png');
  });

  it('scopes a comment', async () => {
    assert.match(await scopesAt(1, 4), /comment\.line\.tradereq/);
  });
});
