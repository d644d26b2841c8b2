// The README's screenshot, docs/images/panel.png: the response panel's own page (production bundle)
// in headless Chromium (test/webview/harness.js), showing sends of examples/ made for real: the
// sandbox exchange in this process, the pipeline of Send (runRequest) with the demo key, each
// answer made into a panel entry by the extension's own code (core/panel/entry.ts).
//
//   npm run docs:screenshot
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { servePanel, launchChromium, openPanel, send, nextFrame, REPO } = require('../test/webview/harness');
const { startSandbox } = require('../src/sandbox');
const { Budget } = require('../src/core/budget/budget');
const { FileStateStore } = require('../src/core/budget/state');
const { ClockSync } = require('../src/core/clock/sync');
const { parse } = require('../src/core/format/parser');
const { NodeHttpSender } = require('../src/core/net/node-http-sender');
const { runRequest } = require('../src/core/request/pipeline');
const { sandboxEnvironment, sandboxKeys } = require('../src/core/testing/sandbox');

const OUT = path.join(REPO, 'docs', 'images', 'panel.png');
/** What is sent, in order: [file of examples/, the request's `# @name` or `###` title]. The last is shown. */
const SENDS = [
  ['orders.tradereq', 'buy'],
  ['orders.tradereq', 'Validate an order without placing it'],
  ['rejections.tradereq', 'too-small'],
];
const VIEW = { theme: 'dark', width: 820, height: 1060 };

/** The sandbox on its usual port, so that the URLs shown are the documented ones; any free port otherwise. */
async function sandbox() {
  try {
    return await startSandbox({ port: 8780 });
  } catch {
    return startSandbox({ port: 0 });
  }
}

/** The request of `file` whose `# @name` or title is `which`. */
function requestOf(doc, which) {
  const found = doc.requests.find((r) => r.name?.text === which || r.title?.text === which);
  if (!found) throw new Error(`no request "${which}"`);
  return found;
}

/** Sends SENDS through the pipeline of Send; resolves to the panel entries, newest first, and the last budget. */
async function sendAll(baseUrl, entryFromResult) {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-screenshot-'));
  const store = new FileStateStore(state);
  const sender = new NodeHttpSender();
  const deps = {
    sender,
    budget: new Budget(store),
    clock: new ClockSync(store),
    clockSync: true,
    responses: new Map(),
    key: sandboxKeys(new URL(baseUrl).origin),
    confirm: () => true,
  };
  const entries = [];
  let budget;
  try {
    for (const [file, which] of SENDS) {
      const doc = parse(fs.readFileSync(path.join(REPO, 'examples', file), 'utf8'));
      const request = requestOf(doc, which);
      const r = await runRequest(doc, request, sandboxEnvironment(baseUrl), deps);
      if (!r.ok) throw new Error(`${which}: ${r.error.message}`);
      const title = request.title?.text ?? which;
      entries.unshift(
        entryFromResult(r.value, { id: `e${entries.length}`, at: Date.now(), title, keyProfile: 'sandbox' }),
      );
      budget = r.value.report.budget;
    }
  } finally {
    await sender.close();
    fs.rmSync(state, { recursive: true, force: true });
  }
  return { entries, budget };
}

async function main() {
  const exchange = await sandbox();
  const served = await servePanel({ production: true });
  const browser = await launchChromium();
  try {
    const { entryFromResult, historyItem, budgetState } = served.entry;
    const { entries, budget } = await sendAll(exchange.baseUrl, entryFromResult);
    const { page } = await openPanel(browser, served.origin, VIEW);
    const state = {
      current: entries[0],
      budget: budgetState(budget),
      history: entries.map(historyItem),
      now: Date.now(),
      busy: false,
    };
    await send(page, { type: 'state', state });
    await nextFrame(page);
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    await page.screenshot({ path: OUT });
    console.log(`docs:screenshot: ${path.relative(REPO, OUT)} (${fs.statSync(OUT).size} bytes)`);
  } finally {
    await browser.close();
    await served.close();
    await exchange.close();
  }
}

main().catch((e) => {
  console.error(`docs:screenshot: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
