// The response panel's page on large answers (`npm run bench:large-answer-panel`): the entry of an
// exchangeInfo in the public deployment's documented shape, 2,500 symbols (~1.4 MiB) and 13,500
// (~7.8 MiB), made by the core as the extension makes it (entryFromResult over the real pipeline and
// the in-process sandbox), then posted to the real page (minified, as it ships) in headless Chromium,
// beside a small answer for comparison. Prints, as medians: the time from posting the state to the
// next frame drawn, the characters posted, and the spans the body became. A benchmark: it prints
// figures and asserts nothing timed.
//
//   npm run bench:large-answer-panel [-- --runs 7]
/* global window, document, requestAnimationFrame */
'use strict';

const { servePanel, launchChromium, openPanel } = require('../webview/harness');
const { state } = require('../webview/fixtures');
const { Budget } = require('../../src/core/budget/budget');
const { MemoryStateStore } = require('../../src/core/budget/state');
const { ClockSync } = require('../../src/core/clock/sync');
const { parse } = require('../../src/core/format/parser');
const { NodeHttpSender } = require('../../src/core/net/node-http-sender');
const { entryFromResult, historyItem } = require('../../src/core/panel/entry');
const { runRequest } = require('../../src/core/request/pipeline');
const { sandboxEnvironment, sandboxKeys } = require('../../src/core/testing/sandbox');
const { startSandbox } = require('../../src/sandbox');
const { listedSymbol } = require('../support/exchange-info');

const i = process.argv.indexOf('--runs');
const RUNS = i >= 0 ? Math.max(1, Number(process.argv[i + 1]) || 7) : 7;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The panel entry of `text` sent to a sandbox listing `count` more symbols. */
async function entryOf(count, text) {
  const symbols = Array.from({ length: count }, (_, n) => listedSymbol(n));
  const sandbox = await startSandbox({ port: 0, limits: false, listedSymbols: symbols });
  const sender = new NodeHttpSender();
  try {
    const store = new MemoryStateStore();
    const doc = parse(text);
    const r = await runRequest(doc, doc.requests[0], sandboxEnvironment(sandbox.baseUrl), {
      sender,
      budget: new Budget(store),
      clock: new ClockSync(store),
      clockSync: false,
      responses: new Map(),
      key: sandboxKeys(new URL(sandbox.baseUrl).origin),
      confirm: () => false,
    });
    if (!r.ok) throw new Error(r.error.message);
    return entryFromResult(r.value, { id: `e-${count}`, at: Date.now(), title: 'exchangeInfo' });
  } finally {
    await sender.close();
    await sandbox.close();
  }
}

/** Median ms from posting the state to the next frame drawn, and the spans of the body. */
async function render(page, entry) {
  const ms = [];
  let spans = 0;
  for (let run = 0; run < RUNS; run++) {
    // Another entry first, so each run draws the body anew.
    const other = { ...entry, id: `${entry.id}-${run}` };
    const s = state({ current: other, history: [historyItem(other)] });
    const result = await page.evaluate(
      (message) =>
        new Promise((resolve) => {
          const t0 = performance.now();
          window.postMessage(message, '*');
          requestAnimationFrame(() =>
            setTimeout(() => {
              const body = document.querySelector('[data-testid="body"]');
              resolve({ ms: performance.now() - t0, spans: body ? body.querySelectorAll('span').length : -1 });
            }, 0),
          );
        }),
      { type: 'state', state: s },
    );
    ms.push(result.ms);
    spans = result.spans;
  }
  return { ms: median(ms), spans };
}

void (async () => {
  const served = await servePanel({ production: true });
  const browser = await launchChromium();
  try {
    const { page } = await openPanel(browser, served.origin, { width: 1200, height: 1000 });
    console.log(`Chromium, the panel's page minified; medians of ${RUNS} runs`);
    const cases = [
      ['one symbol (GET exchangeInfo?symbol=BTCUSDT)', 0, 'GET /api/v3/exchangeInfo\nsymbol = BTCUSDT\n'],
      ['2,500 symbols', 2_500, 'GET /api/v3/exchangeInfo\n'],
      ['13,500 symbols', 13_500, 'GET /api/v3/exchangeInfo\n'],
    ];
    for (const [label, count, text] of cases) {
      const entry = await entryOf(count, text);
      const r = await render(page, entry);
      const bytes = entry.response ? entry.response.bytes : 0;
      console.log(
        `${label}: answer ${(bytes / 1024 / 1024).toFixed(2)} MiB, posted ${JSON.stringify(entry).length} characters, ` +
          `drawn in ${r.ms.toFixed(1)} ms, body ${r.spans} spans`,
      );
    }
  } finally {
    await browser.close();
    await served.close();
  }
})();
