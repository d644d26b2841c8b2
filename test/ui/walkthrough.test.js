// The walkthrough "Get started with TradeReq" in the real workbench, as a new user meets it (issue 23):
// opened from the Command Palette, its five steps listed, each with its image; then its steps done
// from its own buttons in an empty workspace: the starter written and opened, the sandbox started, a
// request sent from the starter, a key added, its tests run; each step ticks itself. Screenshots go to
// test-results/ (walkthrough-steps, walkthrough-starter, walkthrough-done).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  openWorkbench,
  runCommand,
  screenshot,
  clickCodeLens,
  notification,
  clearNotifications,
  assertPortFree,
  REPO,
  screenshotOnFailure,
} = require('./workbench');

const MANIFEST = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const NLS = JSON.parse(fs.readFileSync(path.join(REPO, 'package.nls.json'), 'utf8'));
const english = (value) => NLS[/^%(.+)%$/.exec(value)[1]];
const WALKTHROUGH = MANIFEST.contributes.walkthroughs[0];
const STEPS = WALKTHROUGH.steps.map((s) => ({ id: s.id, title: english(s.title), alt: english(s.media.altText) }));
const STARTER = ['tradereq.env.json', 'market.tradereq', 'orders.tradereq', 'rejections.tradereq', 'stream.tradereq'];

describe('the walkthrough "Get started with TradeReq", as a new user meets it', function () {
  this.timeout(180_000);
  let wb;
  let page;
  let empty;
  let stateDir;
  let sandboxStarted = false;
  const previousStateDir = process.env.TRADEREQ_STATE_DIR;

  const page$ = () => page.locator('.gettingStartedContainer');
  const stepButton = (id) => page$().locator(`button.getting-started-step[data-step-id$="#${id}"]`);
  /**
   * Expands a step (a click on its title) and waits until it is the one shown and has the focus the
   * walkthrough gives it a moment later (after its slide): a quick input opened before that would
   * lose its keys to the step.
   */
  async function expand(id) {
    const expanded = stepButton(id).and(page.locator('[aria-expanded=true]'));
    // VS Code moves on to the next step by itself when one ticks, a moment later on a busy machine: a
    // click that lands just after that folds the step again, so the click is given again until it holds.
    for (let i = 0; i < 3 && !(await expanded.isVisible()); i++) {
      await stepButton(id).locator('.step-title').click();
      await expanded.waitFor({ timeout: 10_000 }).catch(() => undefined);
    }
    await expanded.waitFor();
    await stepButton(id).and(page.locator(':focus')).waitFor();
  }
  /** The step's own button (a command link of its description) by its label. */
  const action = (id, label) =>
    stepButton(id).locator('.button-container a, .button-container .monaco-button', { hasText: label });
  const ticked = (id) => stepButton(id).and(page.locator('[aria-checked=true]')).waitFor({ timeout: 30_000 });

  before(async () => {
    // A sandbox of an earlier test file's workbench ends with its server: given a moment to.
    await assertPortFree(8780, 10_000);
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-ui-state-'));
    process.env.TRADEREQ_STATE_DIR = stateDir; // the server's extension host inherits it
    // An empty folder but its settings (hidden, so still empty to TradeReq): no port-forwarding toast.
    empty = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-ui-empty-'));
    fs.mkdirSync(path.join(empty, '.vscode'));
    fs.writeFileSync(
      path.join(empty, '.vscode', 'settings.json'),
      JSON.stringify({ 'remote.autoForwardPorts': false }),
    );
    wb = await openWorkbench({ workspace: empty });
    page = wb.page;
  });

  afterEach(screenshotOnFailure(() => page));

  after(async () => {
    if (sandboxStarted && page) await runCommand(page, 'TradeReq: Stop Sandbox').catch(() => {});
    await wb?.close();
    if (previousStateDir === undefined) delete process.env.TRADEREQ_STATE_DIR;
    else process.env.TRADEREQ_STATE_DIR = previousStateDir;
    for (const dir of [stateDir, empty]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens from "Welcome: Open Walkthrough..." and lists its five steps, none done, each showing its image (the SVG labelled with its alt text)', async () => {
    await runCommand(page, 'Welcome: Open Walkthrough...');
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: english(WALKTHROUGH.title) });
    await pick.first().click();
    await page$()
      .locator('.getting-started-category-title, h2', { hasText: english(WALKTHROUGH.title) })
      .first()
      .waitFor();
    const titles = await page$().locator('button.getting-started-step .step-title').allInnerTexts();
    assert.deepEqual(
      titles.map((t) => t.trim()),
      STEPS.map((s) => s.title),
    );
    for (const step of STEPS) {
      assert.equal(await stepButton(step.id).getAttribute('aria-checked'), 'false', `${step.id} is not done yet`);
      await expand(step.id);
      // The svg media kind draws the image in a webview: the step's SVG, its title the alt text.
      const media = page$().frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      await media.locator('svg[role=img] > title', { hasText: step.alt }).waitFor({ state: 'attached' });
      assert.ok((await media.locator('svg[role=img]').boundingBox()).width > 200, `${step.id}'s image is drawn`);
      if (step.id === 'sendRequest') await screenshot(page, 'walkthrough-steps.png');
    }
  });

  it('Create Starter Workspace writes the starter into the empty workspace folder, opens market.tradereq beside the walkthrough, and the step ticks', async () => {
    await expand('createStarter');
    await action('createStarter', 'Create Starter Workspace').click();
    // It asks which deployment the project is for: the published spec, the first.
    const question = page.locator('.quick-input-widget');
    await question.locator('.quick-input-title', { hasText: 'the deployment the starter is for' }).waitFor();
    // The question stays up when the walkthrough's page takes the focus back (seen on a busy machine).
    await question.locator('.quick-input-list .monaco-list-row', { hasText: 'the published spec' }).click();
    await page.locator('.monaco-editor .view-lines', { hasText: 'Public market data' }).first().waitFor();
    await ticked('createStarter');
    assert.deepEqual(
      fs
        .readdirSync(wb.workspace)
        .filter((f) => !f.startsWith('.'))
        .sort(),
      [...STARTER].sort(),
    );
    await screenshot(page, 'walkthrough-starter.png');
  });

  it('Start Sandbox starts the sandbox exchange, and the step ticks', async () => {
    await expand('startSandbox');
    await action('startSandbox', 'Start Sandbox').click();
    sandboxStarted = true;
    await notification(page, 'sandbox exchange running at http://127.0.0.1:8780').waitFor();
    await ticked('startSandbox');
  });

  it('Send above a request of market.tradereq shows the answer in the panel, and the step ticks', async () => {
    await clickCodeLens(page, 'Server time', 'Send');
    // The response panel's webview, not the walkthrough's (which has no extension).
    const panel = page
      .frameLocator('iframe.webview.ready[src*="extensionId=tradereq.tradereq"]')
      .frameLocator('iframe#active-frame');
    await panel.locator('[data-testid=banner][data-outcome=ok]:not([data-busy])').waitFor();
    await ticked('sendRequest');
  });

  it("Add API Key stores a key profile bound to the live environment's origin, and the step ticks", async () => {
    await expand('addApiKey');
    await action('addApiKey', 'Add API Key').click();
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input.input');
    // Profile, origins, API key, secret key: the four boxes of the wizard (test/ui/sending.test.js reads them closely).
    // The first two boxes propose a value (the environment's profile and origin): typed over once it is
    // there, since a box shows its title a moment before its value and selection settle.
    for (const [n, value, proposes] of [
      [1, 'main', true],
      [2, 'https://api.example.com', true],
      [3, 'walkthroughUiTestApiKey000000000001', false],
      [4, 'walkthroughUiTestSecret0000000000000000000000000001', false],
    ]) {
      await widget.locator('.quick-input-title', { hasText: `(${n}/4)` }).waitFor();
      if (proposes) await page.waitForFunction(() => document.querySelector('.quick-input-widget input.input')?.value);
      await input.fill(value);
      assert.equal(await input.inputValue(), value);
      await input.press('Enter');
      // The walkthrough's page may take the focus back after its button ran the command: the box stays
      // (ignoreFocusOut), but an Enter that went to the page, leaving this step's box as it was, is pressed again.
      if (n < 4) {
        const next = widget.locator('.quick-input-title', { hasText: `(${n + 1}/4)` });
        const moved = await next.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        );
        const same = widget.locator('.quick-input-title', { hasText: `(${n}/4)` });
        if (!moved && (await same.isVisible()) && (await input.inputValue()) === value) await input.press('Enter');
      }
    }
    await notification(page, 'key profile "main" stored in SecretStorage, bound to https://api.example.com').waitFor();
    await ticked('addApiKey');
  });

  it('Run All Tests runs the starter against the sandbox in the Testing view, and the step ticks: every step is done', async () => {
    await expand('runTests');
    await action('runTests', 'Run All Tests').click();
    await ticked('runTests');
    for (const step of STEPS) assert.equal(await stepButton(step.id).getAttribute('aria-checked'), 'true', step.id);
    // The walkthrough alone, every step ticked.
    await page.locator('.tab', { hasText: 'Walkthrough' }).click();
    await runCommand(page, 'View: Close Editors in Other Groups');
    await runCommand(page, 'View: Hide Panel');
    await clearNotifications(page);
    await page$().locator('.getting-started-step').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'walkthrough-done.png');
  });
});
