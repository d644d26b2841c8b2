// The response panel's own page in headless Chromium, outside VS Code: the bundle of
// src/webview/main.ts in the document of src/webview/html.ts (with its CSP and a theme sheet standing
// in for VS Code's), served on loopback, fed messages as the extension would post them. A fake
// acquireVsCodeApi records what the panel posts. Shared by the panel's tests (test/webview/) and its
// benchmark (test/bench/panel.bench.js).
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const esbuild = require('esbuild');
const { chromium } = require('playwright-core');

const REPO = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(REPO, 'test-results');
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// ---- Theme variables as VS Code sets them (Dark Modern, Light Modern, Dark and Light High Contrast) ---

const COMMON_VARS = {
  '--vscode-font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-font-weight': 'normal',
  '--vscode-editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
  '--vscode-editor-font-size': '12.5px',
};
const THEMES = {
  dark: {
    '--vscode-foreground': '#cccccc',
    '--vscode-editor-foreground': '#cccccc',
    '--vscode-editor-background': '#1f1f1f',
    '--vscode-descriptionForeground': '#9d9d9d',
    '--vscode-focusBorder': '#0078d4',
    '--vscode-button-background': '#0078d4',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-hoverBackground': '#026ec1',
    '--vscode-button-border': '#ffffff12',
    '--vscode-button-secondaryBackground': '#313131',
    '--vscode-button-secondaryForeground': '#cccccc',
    '--vscode-button-secondaryHoverBackground': '#3c3c3c',
    '--vscode-testing-iconPassed': '#73c991',
    '--vscode-editorError-foreground': '#f14c4c',
    '--vscode-editorWarning-foreground': '#cca700',
    '--vscode-panel-border': '#2b2b2b',
    '--vscode-widget-border': '#313131',
    '--vscode-textCodeBlock-background': '#2b2b2b',
    '--vscode-list-hoverBackground': '#2a2d2e',
    '--vscode-list-inactiveSelectionBackground': '#37373d',
    '--vscode-progressBar-background': '#0078d4',
    '--vscode-input-background': '#313131',
    '--vscode-input-foreground': '#cccccc',
    '--vscode-input-border': '#3c3c3c',
    '--vscode-debugTokenExpression-name': '#c586c0',
    '--vscode-debugTokenExpression-string': '#ce9178',
    '--vscode-debugTokenExpression-number': '#b5cea8',
    '--vscode-debugTokenExpression-boolean': '#4e94ce',
    '--vscode-editorHoverWidget-background': '#202020',
    '--vscode-editorHoverWidget-foreground': '#cccccc',
    '--vscode-editorHoverWidget-border': '#454545',
  },
  light: {
    '--vscode-foreground': '#3b3b3b',
    '--vscode-editor-foreground': '#3b3b3b',
    '--vscode-editor-background': '#ffffff',
    '--vscode-descriptionForeground': '#616161',
    '--vscode-focusBorder': '#005fb8',
    '--vscode-button-background': '#005fb8',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-hoverBackground': '#0258a8',
    '--vscode-button-border': '#0000001a',
    '--vscode-button-secondaryBackground': '#e5e5e5',
    '--vscode-button-secondaryForeground': '#3b3b3b',
    '--vscode-button-secondaryHoverBackground': '#cccccc',
    '--vscode-testing-iconPassed': '#388a34',
    '--vscode-editorError-foreground': '#e51400',
    '--vscode-editorWarning-foreground': '#bf8803',
    '--vscode-panel-border': '#e5e5e5',
    '--vscode-widget-border': '#e5e5e5',
    '--vscode-textCodeBlock-background': '#f5f5f5',
    '--vscode-list-hoverBackground': '#f2f2f2',
    '--vscode-list-inactiveSelectionBackground': '#e4e6f1',
    '--vscode-progressBar-background': '#005fb8',
    '--vscode-input-background': '#ffffff',
    '--vscode-input-foreground': '#3b3b3b',
    '--vscode-input-border': '#cecece',
    '--vscode-debugTokenExpression-name': '#9b46b0',
    '--vscode-debugTokenExpression-string': '#a31515',
    '--vscode-debugTokenExpression-number': '#098658',
    '--vscode-debugTokenExpression-boolean': '#0000ff',
    '--vscode-editorHoverWidget-background': '#f8f8f8',
    '--vscode-editorHoverWidget-foreground': '#3b3b3b',
    '--vscode-editorHoverWidget-border': '#c8c8c8',
  },
  // VS Code's defaults for the high-contrast themes (its colour registry); a colour it leaves unset
  // there (button.secondaryBackground, list.inactiveSelectionBackground) is not set in the webview either.
  'hc-dark': {
    '--vscode-foreground': '#ffffff',
    '--vscode-editor-foreground': '#ffffff',
    '--vscode-editor-background': '#000000',
    '--vscode-descriptionForeground': 'rgba(255, 255, 255, 0.7)',
    '--vscode-focusBorder': '#f38518',
    '--vscode-contrastBorder': '#6fc3df',
    '--vscode-contrastActiveBorder': '#f38518',
    '--vscode-button-background': '#000000',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-hoverBackground': '#000000',
    '--vscode-button-border': '#6fc3df',
    '--vscode-button-secondaryForeground': '#ffffff',
    '--vscode-testing-iconPassed': '#73c991',
    '--vscode-editorError-foreground': '#f48771',
    '--vscode-editorWarning-foreground': '#ffd370',
    '--vscode-panel-border': '#6fc3df',
    '--vscode-widget-border': '#6fc3df',
    '--vscode-textCodeBlock-background': '#000000',
    '--vscode-list-hoverBackground': 'rgba(255, 255, 255, 0.1)',
    '--vscode-progressBar-background': '#6fc3df',
    '--vscode-input-background': '#000000',
    '--vscode-input-foreground': '#ffffff',
    '--vscode-input-border': '#6fc3df',
    '--vscode-inputValidation-errorBorder': '#6fc3df',
    '--vscode-debugTokenExpression-name': '#ffffff',
    '--vscode-debugTokenExpression-string': '#f48771',
    '--vscode-debugTokenExpression-number': '#89d185',
    '--vscode-debugTokenExpression-boolean': '#75bdfe',
    '--vscode-editorHoverWidget-background': '#0c141f',
    '--vscode-editorHoverWidget-foreground': '#ffffff',
    '--vscode-editorHoverWidget-border': '#6fc3df',
  },
  'hc-light': {
    '--vscode-foreground': '#292929',
    '--vscode-editor-foreground': '#292929',
    '--vscode-editor-background': '#ffffff',
    '--vscode-descriptionForeground': 'rgba(41, 41, 41, 0.7)',
    '--vscode-focusBorder': '#006bbd',
    '--vscode-contrastBorder': '#0f4a85',
    '--vscode-contrastActiveBorder': '#006bbd',
    '--vscode-button-background': '#0f4a85',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-hoverBackground': '#0f4a85',
    '--vscode-button-border': '#0f4a85',
    '--vscode-button-secondaryBackground': '#ffffff',
    '--vscode-button-secondaryForeground': '#292929',
    '--vscode-testing-iconPassed': '#007100',
    '--vscode-editorError-foreground': '#b5200d',
    '--vscode-editorWarning-foreground': '#895503',
    '--vscode-panel-border': '#0f4a85',
    '--vscode-widget-border': '#0f4a85',
    '--vscode-textCodeBlock-background': '#f2f2f2',
    '--vscode-list-hoverBackground': 'rgba(15, 74, 133, 0.1)',
    '--vscode-list-inactiveSelectionBackground': 'rgba(15, 74, 133, 0.1)',
    '--vscode-progressBar-background': '#0f4a85',
    '--vscode-input-background': '#ffffff',
    '--vscode-input-foreground': '#292929',
    '--vscode-input-border': '#0f4a85',
    '--vscode-inputValidation-errorBorder': '#0f4a85',
    '--vscode-debugTokenExpression-name': '#292929',
    '--vscode-debugTokenExpression-string': '#a31515',
    '--vscode-debugTokenExpression-number': '#098658',
    '--vscode-debugTokenExpression-boolean': '#0000ff',
    '--vscode-editorHoverWidget-background': '#ffffff',
    '--vscode-editorHoverWidget-foreground': '#292929',
    '--vscode-editorHoverWidget-border': '#0f4a85',
  },
};

/** The classes VS Code's webview host puts on the body for each kind of theme, and the colour scheme it reports. */
const THEME_KIND = {
  dark: { body: 'vscode-dark', scheme: 'dark' },
  light: { body: 'vscode-light', scheme: 'light' },
  'hc-dark': { body: 'vscode-high-contrast', scheme: 'dark' },
  'hc-light': { body: 'vscode-high-contrast-light vscode-high-contrast', scheme: 'light' },
};

function themeCss(theme) {
  const vars = { ...COMMON_VARS, ...THEMES[theme] };
  return `body {\n${Object.entries(vars)
    .map(([k, v]) => `  ${k}: ${v};`)
    .join('\n')}\n}\n`;
}

/** Runs in the page before the bundle: the webview's API, recording what the panel posts. */
function fakeVsCodeApi() {
  window.__posted = [];
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI }),
  );
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may be called only once');
    acquired = true;
    return Object.freeze({
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => {
        const s = sessionStorage.getItem('vscode-state');
        return s === null ? undefined : JSON.parse(s);
      },
      setState: (s) => sessionStorage.setItem('vscode-state', JSON.stringify(s)),
    });
  };
}

/** A nonce as the extension makes one (src/extension/panel.ts): 16 random bytes, base64. */
function newNonce() {
  return randomBytes(16).toString('base64');
}

/**
 * Builds the panel's bundle (minified with `production`, as `npm run build:production` does) and
 * the core modules the tests use, writes a page per theme and serves them on loopback.
 * Resolves to { origin, html, entry, tmp, close() }.
 */
async function servePanel({ production = false } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-webview-'));
  await esbuild.build({
    entryPoints: [path.join(REPO, 'src/webview/main.ts')],
    outfile: path.join(tmp, 'webview.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: production,
    tsconfig: path.join(REPO, 'src/webview/tsconfig.json'),
    logLevel: 'warning',
  });
  await esbuild.build({
    entryPoints: {
      html: path.join(REPO, 'src/webview/html.ts'),
      entry: path.join(REPO, 'src/core/panel/entry.ts'),
    },
    outdir: tmp,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  });
  const html = require(path.join(tmp, 'html.cjs'));
  const entry = require(path.join(tmp, 'entry.cjs'));
  const server = http.createServer((req, res) => {
    const name = new URL(req.url, 'http://x').pathname.slice(1);
    const types = { js: 'text/javascript', css: 'text/css', html: 'text/html' };
    const file = name === 'panel.css' ? path.join(REPO, 'media/panel.css') : path.join(tmp, path.basename(name));
    if (!/^[\w.-]+$/.test(name) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': `${types[path.extname(file).slice(1)] ?? 'application/octet-stream'}; charset=utf-8`,
      'cache-control': 'no-store',
    });
    res.end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const zhCn = JSON.parse(fs.readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'));
  for (const theme of Object.keys(THEMES)) {
    writePage(tmp, html, origin, { theme });
    writePage(tmp, html, origin, { theme, locale: 'zh-cn', lang: 'zh-cn', l10n: zhCn });
  }
  const close = async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  /** A page of its own (a test's bundle or language), opened with openPanel's `locale`. */
  const addPage = (options) => writePage(tmp, html, origin, options);
  return { origin, html, entry, tmp, close, addPage };
}

/**
 * The page of one theme (and language: `locale` names the page, `lang` and `l10n` go to panelHtml as
 * the extension passes them): the theme sheet stands in for VS Code's; the fake API comes by nonce
 * before the bundle; the last script has no nonce, so the CSP must block it.
 */
function writePage(tmp, html, origin, { theme, locale, lang, l10n }) {
  fs.writeFileSync(path.join(tmp, `theme-${theme}.css`), themeCss(theme));
  const nonce = newNonce();
  let doc = html.panelHtml({
    cspSource: origin,
    nonce,
    scriptUri: `${origin}/webview.js`,
    styleUri: `${origin}/panel.css`,
    title: 'TradeReq <b>response</b>',
    lang,
    l10n,
  });
  doc = doc.replace(
    '</head>',
    `<link rel="stylesheet" href="${origin}/theme-${theme}.css">\n<script nonce="${nonce}">(${fakeVsCodeApi.toString()})();</script>\n<script>window.__inlineRan = true;</script>\n</head>`,
  );
  doc = doc.replace(/<body(?=[ >])/, `<body class="${THEME_KIND[theme].body}"`);
  fs.writeFileSync(path.join(tmp, pageName(theme, locale)), doc);
}

function pageName(theme, locale) {
  return locale === undefined ? `panel-${theme}.html` : `panel-${theme}-${locale}.html`;
}

async function launchChromium(extraArgs = []) {
  const executablePath = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * A fresh page with the panel; resolves once the panel said `ready`. With `clock`, time flows while
 * the page loads, then stands still at `clock` (ms): it moves only by page.clock.runFor().
 */
async function openPanel(
  browser,
  origin,
  { theme = 'dark', locale, width = 860, height = 1000, reducedMotion = 'reduce', clock } = {},
) {
  const colorScheme = THEME_KIND[theme].scheme;
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, reducedMotion });
  const page = await context.newPage();
  const p = { context, page, dialogs: [], errors: [] };
  page.on('dialog', (d) => {
    p.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on('pageerror', (e) => p.errors.push(e.message));
  if (clock !== undefined) await page.clock.install({ time: clock - 10_000 });
  await page.goto(`${origin}/${pageName(theme, locale)}`);
  await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  if (clock !== undefined) await page.clock.pauseAt(clock);
  return p;
}

/** Posts a message to the panel and resolves after the panel's own listener has run (it was added first). */
async function send(page, data) {
  await page.evaluate(
    (d) =>
      new Promise((resolve) => {
        window.addEventListener('message', () => resolve(), { once: true });
        window.postMessage(d, '*');
      }),
    data,
  );
}

/** Resolves after the page drew its next animation frame (the panel redraws in one). */
function nextFrame(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/**
 * axe-core's violations on the page as it is now. Its source goes in through Playwright's evaluate
 * (the DevTools protocol, which the page's CSP does not govern): the panel's own CSP stays as it is.
 */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  }
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`),
    }));
  });
}

async function shoot(page, name, prefix = 'panel-preview') {
  fs.mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${prefix}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * A mocha suite's panel in Chromium: one page server and one browser for the suite (its `before` and
 * `after`), each test's pages closed when it ends (a browser holding every earlier page slows down as
 * it goes). `open(options)` gives a fresh page with the panel; `served()` the page server.
 */
function panelSuite({ onServed = () => {}, defaults = {} } = {}) {
  let served;
  let browser;
  const opened = [];
  before(async () => {
    served = await servePanel();
    onServed(served);
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });
  after(async () => {
    for (const p of opened) await p.context.close().catch(() => {});
    await browser?.close().catch(() => {});
    await served?.close();
  });
  return {
    served: () => served,
    async open(options = {}) {
      const p = await openPanel(browser, served.origin, { ...defaults, ...options });
      opened.push(p);
      return p;
    },
  };
}

module.exports = {
  REPO,
  panelSuite,
  servePanel,
  launchChromium,
  openPanel,
  send,
  nextFrame,
  axeViolations,
  shoot,
};
