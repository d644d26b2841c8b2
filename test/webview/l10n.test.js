// The panel's words in the display language (issue 23): every t() message of src/webview has its
// Simplified Chinese translation; panelHtml writes the language and the bundle as the extension hands
// them (escaped); the real page in Chromium reads them once, speaks Chinese with the zh-cn bundle, and
// stays English with a bundle that is not a bounded flat record of strings. Screenshots of the panel
// in Chinese go to test-results/panel-zh-cn-*.png.
//
//   npx mocha --no-config test/webview/l10n.test.js
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { REPO, panelSuite, send, nextFrame, axeViolations, shoot } = require('./harness');
const { okEntry, rejected, unknown, twoMeanings, useHistoryItem, state, tradingScene } = require('./fixtures');

const BUNDLE_FILE = path.join(REPO, 'l10n', 'bundle.l10n.zh-cn.json');
const BUNDLE_TEXT = fs.readFileSync(BUNDLE_FILE, 'utf8');
const ZH = JSON.parse(BUNDLE_TEXT);

/**
 * The messages of the page (t() in src/webview) and of its panel (vscode.l10n.t in
 * src/extension/panel.ts), by file; any first argument that is not a string literal is a finding.
 */
function messages() {
  const files = [
    ...fs.readdirSync(path.join(REPO, 'src', 'webview')).map((f) => path.join('src', 'webview', f)),
    path.join('src', 'extension', 'panel.ts'),
  ].filter((f) => f.endsWith('.ts'));
  const found = new Set();
  const notLiteral = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(REPO, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const visit = (node) => {
      if (ts.isCallExpression(node) && isTranslator(node.expression)) {
        const first = node.arguments[0];
        if (first !== undefined && ts.isStringLiteral(first)) found.add(first.text);
        else notLiteral.push(`${file}: ${node.getText().slice(0, 80)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { found: [...found], notLiteral };
}

function isTranslator(callee) {
  if (ts.isIdentifier(callee)) return callee.text === 't';
  return (
    ts.isPropertyAccessExpression(callee) && callee.name.text === 't' && callee.expression.getText() === 'vscode.l10n'
  );
}

/**
 * A state as the extension makes it in Chinese: the core translates the texts it puts in an entry
 * (meanings, causes, titles, notes) where it makes them; here the fixture's English texts that are
 * keys of the bundle stand for that. The service's own message stays as the server sent it.
 */
function inChinese(value, key) {
  if (key === 'hoverText') return hoverInChinese(value);
  if (typeof value === 'string') return key === 'msg' ? value : (ZH[value] ?? value);
  if (Array.isArray(value)) return value.map((v) => inChinese(v));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inChinese(v, k)]));
  return value;
}

/** An error code's hover text (errorCodeMarkdown as plain text) made again of the bundle's words. */
function hoverInChinese(text) {
  const m = /^(\d+): (.*)\n\nUsual cause: (.*)\n\nWhat to do: (.*)$/.exec(text);
  if (!m) return text;
  const plain = (key, value) => ZH[key].replace(/\*\*/g, '').replace('{0}', ZH[value] ?? value);
  const [, code, meaning, cause, action] = m;
  return [
    `${code}: ${ZH[meaning] ?? meaning}`,
    plain('**Usual cause:** {0}', cause),
    plain('**What to do:** {0}', action),
  ].join('\n\n');
}

const placeholders = (text) => [...text.matchAll(/\{(\d+)\}/g)].map((m) => m[1]).sort();

describe('the panel in the display language', function () {
  this.timeout(120_000);

  describe('its messages', () => {
    it('every message of the page is a string literal with a Simplified Chinese translation that keeps its {N} values', () => {
      const { found, notLiteral } = messages();
      assert.ok(found.length > 100, `only ${found.length} messages found`);
      assert.deepEqual(notLiteral, [], 't() takes the English text itself, values through {N}');
      assert.deepEqual(
        found.filter((m) => typeof ZH[m] !== 'string' || ZH[m].trim() === ''),
        [],
        'messages with no translation',
      );
      assert.deepEqual(
        found.filter((m) => placeholders(m).join() !== placeholders(ZH[m]).join()),
        [],
        'translations whose {N} differ from the English',
      );
    });

    it('l10n/bundle.l10n.zh-cn.json is a flat object of strings, sorted by key, two-space indented, LF', () => {
      assert.ok(Object.values(ZH).every((v) => typeof v === 'string'));
      const keys = Object.keys(ZH);
      assert.deepEqual(keys, [...keys].sort(), 'sorted by key');
      assert.equal(BUNDLE_TEXT, `${JSON.stringify(ZH, null, 2)}\n`);
    });
  });

  describe('in a browser', () => {
    const suite = panelSuite({ onServed: (served) => useHistoryItem(served.entry.historyItem) });
    const { open } = suite;

    const history = [unknown, rejected, okEntry, twoMeanings];
    const text = (page, testid) => page.getByTestId(testid).first().textContent();

    /** The page's own English words still on the page (in text or in a name, title or placeholder). */
    function englishLeft(page) {
      const english = messages().found.filter((k) => ZH[k] !== k && !/\{\d+\}/.test(k));
      return page.evaluate((words) => {
        const seen = new Set();
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) seen.add(n.textContent.trim());
        for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [data-empty]'))
          for (const name of ['aria-label', 'title', 'placeholder', 'data-empty']) seen.add(el.getAttribute(name));
        return words.filter((w) => seen.has(w));
      }, english);
    }

    it('with the zh-cn bundle the page speaks Simplified Chinese: the document’s lang, every word it shows, its announcements', async () => {
      const shots = [];
      for (const theme of ['dark', 'light']) {
        const { page, errors } = await open({ theme, locale: 'zh-cn', width: 1100 });
        assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-cn');
        assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-l10n')), false, 'read once');
        assert.match(await text(page, 'banner'), /^尚未发送请求/);

        await sendState(page, inChinese(state({ history })));
        await page.getByTestId('error-code').click();
        await page.locator('[data-testid="compare-tick"][data-compare="e-ok"]').check();
        await page.locator('details[data-section="request"] > summary').click();
        assert.equal(await text(page, 'outcome'), '被拒绝');
        assert.match(await text(page, 'banner'), /原因.*处理办法/);
        // The page's clock runs here: the seconds left may have ticked.
        assert.match(
          await page.getByTestId('budget-uid').locator('label').textContent(),
          /^账户 剩余 30\/500 · 偏低 · [1-3] 秒后释放$/,
        );
        assert.equal(
          await page.getByTestId('budget-uid').locator('[role=meter]').getAttribute('aria-valuetext'),
          '剩余 30/500',
        );
        assert.equal(await page.getByTestId('history-pane').getAttribute('aria-label'), '历史记录');
        assert.match(await text(page, 'compare-hint'), /^勾选两次发送以比较其响应（已勾选 1\/2）。$/);
        assert.deepEqual(await englishLeft(page), [], 'no English word of the page left');
        shots.push(await shoot(page, `${theme}-rejected`, 'panel-zh-cn'));

        await send(page, tradingScene());
        await nextFrame(page);
        assert.equal(await text(page, 'live-status'), '已连接');
        assert.equal(
          await page.getByTestId('announcer').textContent(),
          'BTCUSDT trades and the best 5 levels · 已连接',
        );
        assert.deepEqual(await englishLeft(page), [], 'no English word of the stream view left');
        shots.push(await shoot(page, `${theme}-stream`, 'panel-zh-cn'));
        if (theme === 'dark') {
          const serious = (await axeViolations(page)).filter((v) => ['serious', 'critical'].includes(v.impact));
          assert.deepEqual(serious, [], 'axe-core on the page in Chinese');
        }
        assert.deepEqual(errors, []);
      }
      for (const shot of shots) console.log(`      screenshot: ${shot}`);
    });

    it('a bundle that is no bounded flat record of strings leaves the page English; a translation with markup stays text', async () => {
      const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`message ${i}`, `消息 ${i}`]));
      const bad = {
        nested: { Rejected: { text: '被拒绝' } },
        number: { Rejected: 42, Status: '状态' },
        many: { ...many, Rejected: '被拒绝' },
        huge: { Rejected: '被拒绝', padding: 'x'.repeat(1024 * 1024) },
      };
      for (const [name, l10n] of Object.entries(bad)) {
        suite.served().addPage({ theme: 'dark', locale: name, lang: 'zh-cn', l10n });
        const { page, errors } = await open({ locale: name });
        await sendState(page, state({ history }));
        assert.equal(await text(page, 'outcome'), 'Rejected', `${name}: English`);
        assert.equal(await text(page, 'compare-hint'), 'Tick two sends to compare their answers (0 of 2 ticked).');
        assert.deepEqual(errors, [], name);
      }

      const markup = '<img src=x onerror=alert(1)>"><script>alert(2)</script>';
      suite
        .served()
        .addPage({ theme: 'dark', locale: 'markup', lang: 'zh-cn', l10n: { Rejected: markup, History: markup } });
      const p = await open({ locale: 'markup' });
      await sendState(p.page, state({ history }));
      assert.equal(await text(p.page, 'outcome'), markup, 'shown as text, exactly');
      assert.equal(await p.page.getByTestId('history-pane').getAttribute('aria-label'), markup);
      assert.equal(await p.page.locator('img').count(), 0);
      assert.equal(await p.page.locator('script').count(), 3, 'only the page’s own three scripts');
      assert.deepEqual(p.dialogs, []);
    });

    it('panelHtml writes the display language’s tag only when it is one, and the bundle escaped in one attribute', () => {
      const base = {
        cspSource: 'https://x',
        nonce: 'abcdefghijklmnop0123==',
        scriptUri: 'https://x/p.js',
        styleUri: 'https://x/p.css',
        title: 't',
      };
      const lang = (doc) => /<html lang="([^"]*)"/.exec(doc)?.[1];
      assert.equal(lang(suite.served().html.panelHtml(base)), 'en');
      assert.equal(lang(suite.served().html.panelHtml({ ...base, lang: 'zh-cn' })), 'zh-cn');
      assert.equal(lang(suite.served().html.panelHtml({ ...base, lang: 'pt-br' })), 'pt-br');
      for (const hostile of ['zh-cn" onload="alert(1)', 'en><script>', '', 'x'])
        assert.equal(lang(suite.served().html.panelHtml({ ...base, lang: hostile })), 'en', hostile);
      assert.doesNotMatch(suite.served().html.panelHtml(base), /data-l10n/, 'English: no bundle');
      const doc = suite.served().html.panelHtml({ ...base, l10n: { 'a"b': '"><script>alert(1)</script>&amp;' } });
      assert.doesNotMatch(doc, /<script>alert/);
      const attribute = /data-l10n="([^"]*)"/.exec(doc)[1];
      const unescaped = attribute
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      assert.deepEqual(JSON.parse(unescaped), { 'a"b': '"><script>alert(1)</script>&amp;' });
    });

    const sendState = (page, s) => send(page, { type: 'state', state: s });
  });
});
