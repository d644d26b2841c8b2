// The response panel and the stream view for everyone (issue 23): axe-core on each state of the real
// page in each theme VS Code has (dark, light and both high-contrast ones), a walk of a rich state by
// keyboard alone, and the page in the display language (the zh-cn bundle as the extension hands it).
// Screenshots go to test-results/.
//
//   npx mocha --no-config test/webview/a11y.test.js
'use strict';

const assert = require('node:assert/strict');
const { servePanel, launchChromium, openPanel, send, nextFrame, axeViolations } = require('./harness');
const {
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
} = require('./fixtures');

const THEMES = ['dark', 'light', 'hc-dark', 'hc-light'];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];

describe('the panel’s accessibility, in a browser', function () {
  this.timeout(180_000);
  let served;
  let browser;
  const opened = [];

  before(async () => {
    served = await servePanel();
    useHistoryItem(served.entry.historyItem);
    browser = await launchChromium();
  });

  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await served?.close();
  });

  async function open(options) {
    const p = await openPanel(browser, served.origin, options);
    opened.push(p);
    return p;
  }

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
});
