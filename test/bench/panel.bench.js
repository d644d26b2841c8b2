// The stream view under load: the sandbox pushes about 2,000 messages a second for 10 seconds on one
// WebSocket connection (30 streams, fed by REST trades); the client core (WsConnection) and the
// extension's feed (core/panel/live.ts, at most one message every 50 ms) pass them to the panel's
// real page (minified, as it ships) in headless Chromium, as the extension would post them. Prints
// the frame times of the page (requestAnimationFrame timestamps: p50, p95, max), its JS heap (CDP)
// and what was shown, kept and counted. A benchmark: it prints figures and asserts nothing timed.
//
// Then the same page fed by the client reading the same pushes as JSON text and as Protocol Buffers
// wrappers (the public deployment's encoding), from a stand-in server in its own process
// (push-server.ts) paced at the same rate: the two figures side by side.
//
//   npm run bench:panel [-- --rate 2000 --seconds 10]
/* global window, document, requestAnimationFrame */
'use strict';

const { spawn } = require('node:child_process');
const { createHmac } = require('node:crypto');
const path = require('node:path');
const { createInterface } = require('node:readline');
const { Pool } = require('undici');
const { servePanel, launchChromium, openPanel, REPO } = require('../webview/harness');
const { WsConnection } = require('../../src/core/ws');
const { Budget } = require('../../src/core/budget/budget');
const { MemoryStateStore } = require('../../src/core/budget/state');
const { LiveFeed } = require('../../src/core/panel/live');
const { PUSH_STREAMS, startPushServer } = require('./push-server');

const INTERVALS = ['Min1', 'Min5', 'Min15', 'Min30', 'Min60', 'Hour4', 'Day1', 'Week1', 'Month'];

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** `tradereq sandbox --port 0 --json --no-limits` in a child process (the REST driver would meet §8's rate limit). */
async function startSandbox() {
  const child = spawn(
    process.execPath,
    ['--require', 'tsx/cjs', path.join(REPO, 'src/cli/main.ts'), 'sandbox', '--port', '0', '--json', '--no-limits'],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO },
  );
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before printing its address`)));
  });
  return { child, ...JSON.parse(line) };
}

/** Every public stream of BTCUSDT and ETHUSDT (14 each), and two of LTCBTC: §8's 30. */
function streamNames() {
  const names = [];
  for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
    names.push(`spot@public.deals.v3.api@${symbol}`, `spot@public.bookTicker.v3.api@${symbol}`);
    for (const levels of [5, 10, 20]) names.push(`spot@public.limit.depth.v3.api@${symbol}@${levels}`);
    for (const interval of INTERVALS) names.push(`spot@public.kline.v3.api@${symbol}@${interval}`);
  }
  names.push('spot@public.deals.v3.api@LTCBTC', 'spot@public.bookTicker.v3.api@LTCBTC');
  return names.slice(0, 30);
}

/** A signed LIMIT order that crosses the house's best price: BUY above / SELL below it. */
function orderPath(key, n) {
  const eth = n % 4 >= 2;
  const buy = n % 2 === 0;
  const price = eth ? (buy ? '2001' : '1999') : buy ? '30010' : '29990';
  const query = `symbol=${eth ? 'ETHUSDT' : 'BTCUSDT'}&side=${buy ? 'BUY' : 'SELL'}&type=LIMIT&quantity=0.001&price=${price}&recvWindow=60000&timestamp=${Date.now()}`;
  return `/api/v3/order?${query}&signature=${createHmac('sha256', key.secretKey).update(query).digest('hex')}`;
}

/** Places `perSecond()` trades a second until stopped. */
function drive(pool, key, perSecond) {
  let sent = 0;
  let stopped = false;
  const pending = new Set();
  const loop = async () => {
    const t0 = Date.now();
    while (!stopped) {
      const due = Math.floor(((Date.now() - t0) / 1000) * perSecond.value);
      while (sent < due) {
        const p = pool
          .request({ method: 'POST', path: orderPath(key, sent++), headers: { 'X-SERVICE-APIKEY': key.apiKey } })
          .then((res) => res.body.text())
          .catch(() => undefined)
          .finally(() => pending.delete(p));
        pending.add(p);
      }
      await new Promise((r) => setTimeout(r, 2)); // the pace's tick, not a synchronisation
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      await running;
      await Promise.all(pending);
      return sent;
    },
  };
}

/** In the page: records every animation frame's timestamp from now on. */
function recordFrames() {
  window.__frames = [];
  const tick = (ts) => {
    window.__frames.push(ts);
    if (!window.__stopFrames) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const mib = (bytes) => (bytes / (1024 * 1024)).toFixed(1);

async function heap(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return {
    used: get('JSHeapUsedSize'),
    total: get('JSHeapTotalSize'),
    nodes: get('Nodes'),
    // Seconds the page's main thread spent, by kind.
    script: get('ScriptDuration'),
    layout: get('LayoutDuration'),
    style: get('RecalcStyleDuration'),
    task: get('TaskDuration'),
  };
}

async function main() {
  const rate = option('--rate', 2000);
  const seconds = option('--seconds', 10);
  const sandbox = await startSandbox();
  const served = await servePanel({ production: true });
  const browser = await launchChromium();
  const pool = new Pool(sandbox.baseUrl, { connections: 4 });
  const connection = new WsConnection({ budget: new Budget(new MemoryStateStore()), restBaseUrl: sandbox.baseUrl });
  let feed;
  let chain = Promise.resolve();
  try {
    const { page } = await openPanel(browser, served.origin, { width: 1200, height: 1000 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const figures = { messages: 0, shown: 0, skipped: 0, measuring: false };
    feed = new LiveFeed({
      id: 'bench',
      title: 'Bench: 30 streams',
      environment: 'sandbox',
      source: connection,
      post: (m) => {
        if (figures.measuring) {
          figures.messages++;
          figures.shown += m.pushes.length;
          figures.skipped += m.skipped;
        }
        chain = chain.then(() => page.evaluate((d) => window.postMessage(d, '*'), m));
      },
    });
    const opened = await connection.connect(sandbox.wsUrl);
    if (!opened.ok) throw new Error(opened.error.message);
    const outcomes = await connection.subscribe(streamNames());
    if (outcomes.some((o) => !o.ok)) throw new Error(`not subscribed: ${JSON.stringify(outcomes.find((o) => !o.ok))}`);
    feed.select();

    // Calibrate: pushes per trade with this subscription, then trades a second for `rate` pushes a second.
    const key = sandbox.keys.find((k) => k.name === 'trade');
    const perSecond = { value: 50 };
    const driver = drive(pool, key, perSecond);
    const c0 = connection.snapshot().counts.pushes;
    await new Promise((r) => setTimeout(r, 2000)); // calibration and warm-up, not measured
    const perTrade = (connection.snapshot().counts.pushes - c0) / (2 * perSecond.value);
    perSecond.value = Math.max(1, Math.round(rate / perTrade));
    await new Promise((r) => setTimeout(r, 1000)); // the new pace settles, not measured

    const heapStart = await heap(cdp);
    await page.evaluate(recordFrames);
    figures.measuring = true;
    const pushes0 = connection.snapshot().counts.pushes;
    const t0 = performance.now();
    let heapPeak = heapStart.used;
    for (let s = 0; s < seconds; s++) {
      await new Promise((r) => setTimeout(r, 1000));
      heapPeak = Math.max(heapPeak, (await heap(cdp)).used);
    }
    figures.measuring = false;
    const elapsed = (performance.now() - t0) / 1000;
    const received = connection.snapshot().counts.pushes - pushes0;
    const frames = await page.evaluate(() => {
      window.__stopFrames = true;
      return window.__frames;
    });
    const heapEnd = await heap(cdp);
    const trades = await driver.stop();
    await chain;
    const page_ = await page.evaluate(() => {
      const counts = document.querySelector('[data-testid=log-counts]');
      return {
        kept: Number(counts?.getAttribute('data-kept')),
        dropped: Number(counts?.getAttribute('data-dropped')),
        received: Number(counts?.getAttribute('data-received')),
        rows: document.querySelectorAll('[data-testid=push-log] > li').length,
      };
    });
    report({ rate, perTrade, perSecond: perSecond.value, trades, elapsed, received, figures, frames, page: page_ });
    const busy = (k) => (((heapEnd[k] - heapStart[k]) / elapsed) * 100).toFixed(0);
    console.log(
      `panel: the page's main thread busy ${busy('task')} % of the time: script ${busy('script')} %, style ${busy('style')} %, layout ${busy('layout')} %`,
    );
    console.log(
      `panel: JS heap ${mib(heapStart.used)} MiB before, peak ${mib(heapPeak)} MiB during, ${mib(heapEnd.used)} MiB after (total ${mib(heapEnd.total)} MiB); DOM nodes ${heapStart.nodes} before, ${heapEnd.nodes} after`,
    );
    const pushServer = await startPushServer();
    try {
      for (const encoding of ['json', 'protobuf'])
        await standInRun({ browser, served, wsUrl: pushServer.wsUrl, encoding, rate, seconds });
    } finally {
      pushServer.child.kill('SIGTERM');
    }
  } finally {
    sandbox.child.kill('SIGTERM');
    feed?.dispose();
    await chain.catch(() => undefined);
    await connection.close();
    await pool.close();
    await browser.close();
    await served.close();
  }
}

/**
 * The page fed by the client reading the stand-in's pushes of `encoding` at `rate` a second: the same
 * figures as the sandbox run's, labelled with the encoding.
 */
async function standInRun({ browser, served, wsUrl, encoding, rate, seconds }) {
  const label = `panel (stand-in, ${encoding === 'json' ? 'JSON' : 'Protocol Buffers'})`;
  const connection = new WsConnection({ budget: new Budget(new MemoryStateStore()), streamEncoding: encoding });
  const { page, context } = await openPanel(browser, served.origin, { width: 1200, height: 1000 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const figures = { messages: 0, shown: 0, skipped: 0, measuring: false };
  let chain = Promise.resolve();
  const feed = new LiveFeed({
    id: `bench-${encoding}`,
    title: `Bench: ${label}`,
    environment: 'stand-in',
    source: connection,
    post: (m) => {
      if (figures.measuring) {
        figures.messages++;
        figures.shown += m.pushes.length;
        figures.skipped += m.skipped;
      }
      chain = chain.then(() => page.evaluate((d) => window.postMessage(d, '*'), m));
    },
  });
  try {
    const opened = await connection.connect(`${wsUrl}?encoding=${encoding}&rate=${rate}`);
    if (!opened.ok) throw new Error(opened.error.message);
    await connection.subscribe(PUSH_STREAMS[encoding]);
    feed.select();
    await new Promise((r) => setTimeout(r, 1000)); // warm-up, not measured
    const heapStart = await heap(cdp);
    await page.evaluate(recordFrames);
    figures.measuring = true;
    const pushes0 = connection.snapshot().counts.pushes;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    figures.measuring = false;
    const elapsed = (performance.now() - t0) / 1000;
    const received = connection.snapshot().counts.pushes - pushes0;
    const frames = await page.evaluate(() => {
      window.__stopFrames = true;
      return window.__frames;
    });
    const heapEnd = await heap(cdp);
    await connection.close();
    await chain;
    const page_ = await page.evaluate(() => {
      const counts = document.querySelector('[data-testid=log-counts]');
      return {
        kept: Number(counts?.getAttribute('data-kept')),
        dropped: Number(counts?.getAttribute('data-dropped')),
        received: Number(counts?.getAttribute('data-received')),
        rows: document.querySelectorAll('[data-testid=push-log] > li').length,
      };
    });
    report({ rate, elapsed, received, figures, frames, page: page_, label });
    const busy = (k) => (((heapEnd[k] - heapStart[k]) / elapsed) * 100).toFixed(0);
    const dropped = connection.snapshot().counts;
    console.log(
      `${label}: the page's main thread busy ${busy('task')} % of the time; JS heap ${mib(heapEnd.used)} MiB after; frames dropped by the client: ${dropped.undecodable + dropped.textPush + dropped.binary + dropped.unknown}`,
    );
  } finally {
    feed.dispose();
    await connection.close();
    await chain.catch(() => undefined);
    await context.close();
  }
}

function report({ rate, perTrade, perSecond, trades, elapsed, received, figures, frames, page, label = 'panel' }) {
  const gaps = frames
    .slice(1)
    .map((t, i) => t - frames[i])
    .sort((a, b) => a - b);
  if (trades !== undefined)
    console.log(
      `${label}: target ${rate} pushes/s: ${perTrade.toFixed(1)} pushes a trade, ${perSecond} trades/s (${trades} placed in all)`,
    );
  else console.log(`${label}: target ${rate} pushes/s, paced by the stand-in server`);
  console.log(
    `${label}: ${received} pushes in ${elapsed.toFixed(1)} s = ${Math.round(received / elapsed)}/s received; ${figures.messages} messages to the page (${(figures.messages / elapsed).toFixed(1)}/s), ${figures.shown} pushes in them, ${figures.skipped} counted only`,
  );
  console.log(
    `${label}: frames ${gaps.length + 1} (${((gaps.length + 1) / elapsed).toFixed(1)}/s); frame time p50 ${percentile(gaps, 0.5).toFixed(1)} ms, p95 ${percentile(gaps, 0.95).toFixed(1)} ms, max ${(gaps.at(-1) ?? NaN).toFixed(1)} ms`,
  );
  console.log(
    `${label}: the page keeps ${page.kept} pushes (${page.dropped} older not kept, ${page.received} received in all), ${page.rows} log rows in the DOM`,
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exitCode = 1;
});
