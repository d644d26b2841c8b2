/**
 * Bold in every Markdown the editor renders from translated text closes (issue 34, point 8). In
 * CommonMark (VS Code's hovers, settings), `**` closes only when right-flanking: after full-width
 * punctuation (`：`) and before a letter it is not, and `**常见原因：**超时` showed its stars. Rendered
 * here with markdown-it, a CommonMark parser: each bundle and manifest text that holds `**`, with
 * values put in, and every hover made from the catalog under the zh-cn bundle.
 */
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { DEPLOYMENTS } from '../../../src/core/catalog/deployment';
import { endpointCatalogOf } from '../../../src/core/catalog/endpoint-catalogs';
import { ERROR_CODES } from '../../../src/core/catalog/errors';
import { hoverAt } from '../../../src/core/editor/hover';
import {
  bold,
  endpointMarkdown,
  errorCodeMarkdown,
  paramMarkdown,
  streamMarkdown,
} from '../../../src/core/editor/markdown';
import { DIRECTIVES } from '../../../src/core/format/directives';
import { parse } from '../../../src/core/format/parser';
import { SYSTEM_VARIABLES } from '../../../src/core/format/variables';
import { setL10nBundle } from '../../../src/core/l10n';
import { readMessages, zhCnBundle, type Messages } from '../../support/l10n';

const md = new MarkdownIt();

/** Stars left as text once `markdown` is rendered (code spans aside, where they are written on purpose). */
function unclosedStars(markdown: string): string[] {
  const html = md.render(markdown).replace(/<code>[\s\S]*?<\/code>/g, '');
  return [...html.matchAll(/[^\n]{0,20}\*\*[^\n]{0,20}/g)].map((m) => m[0]);
}

/** `text` with each `{N}` replaced by `value`. */
const filled = (text: string, value: string): string => text.replace(/\{\d+\}/g, value);

/** Values a placeholder takes: Chinese words, English, code, numbers, and words edged with punctuation. */
const VALUES = ['超时', 'timeout', '`symbol`', '700003', '（可选）', '"live"', '值。'];

/** The entries of `messages` (key and text alike) that write bold, each with every value put in. */
function boldTexts(messages: Messages): { where: string; markdown: string }[] {
  return Object.entries(messages)
    .flatMap(([key, text]) => [key, text].map((m) => ({ key, m })))
    .filter(({ m }) => m.includes('**'))
    .flatMap(({ key, m }) => VALUES.map((v) => ({ where: `${key} → ${m} with ${v}`, markdown: filled(m, v) })));
}

/** Every hover the catalog makes: each error code, endpoint and parameter, stream of every deployment. */
function catalogHovers(): { where: string; markdown: string }[] {
  const out: { where: string; markdown: string }[] = [];
  for (const info of ERROR_CODES) out.push({ where: `error ${info.code}`, markdown: errorCodeMarkdown(info) });
  for (const deployment of DEPLOYMENTS) {
    for (const e of endpointCatalogOf(deployment).endpoints) {
      out.push({ where: `${e.method} ${e.path}`, markdown: endpointMarkdown(e) });
      for (const p of e.params) out.push({ where: `${e.path} ${p.name}`, markdown: paramMarkdown(p, e) });
    }
    for (const s of deployment.streams)
      out.push({ where: `${deployment.id} ${s.template}`, markdown: streamMarkdown(s, undefined, deployment) });
  }
  return out;
}

/** The hovers of directives and system variables, from a document that writes each of them. */
function documentHovers(): { where: string; markdown: string }[] {
  const lines = [
    ...DIRECTIVES.map((d) => `# @${d.name}`),
    'GET /api/v3/time',
    ...SYSTEM_VARIABLES.map((v) => `x = {{${v.name}}}`),
  ];
  const doc = parse(lines.join('\n'));
  const ctx = { environment: { name: 'sandbox', baseUrl: 'http://127.0.0.1:8780' } };
  return lines.flatMap((text, line) => {
    const hover = hoverAt(
      doc,
      text,
      line,
      text.indexOf('@') >= 0 ? text.indexOf('@') + 1 : text.indexOf('{{') + 3,
      ctx,
    );
    return hover ? [{ where: text, markdown: hover.markdown }] : [];
  });
}

describe('l10n: bold closes in every Markdown made from translated text (zh-cn)', () => {
  afterEach(() => setL10nBundle(undefined));

  it('each bundle text that writes bold renders it, English and Chinese, whatever value is put in', () => {
    const texts = boldTexts(zhCnBundle());
    assert.ok(texts.length > 20, `${texts.length} texts`);
    assert.deepEqual(
      texts.filter((t) => unclosedStars(t.markdown).length > 0).map((t) => t.where),
      [],
      'put punctuation outside the stars: **常见原因**：{0}',
    );
  });

  it("each manifest text that writes bold renders it (settings' markdownDescription, the walkthrough)", () => {
    for (const file of ['package.nls.json', 'package.nls.zh-cn.json']) {
      const texts = boldTexts(readMessages(file));
      assert.ok(texts.length > 0, file);
      assert.deepEqual(
        texts.filter((t) => unclosedStars(t.markdown).length > 0).map((t) => t.where),
        [],
        file,
      );
    }
  });

  it('every hover of the catalog, the directives and the system variables renders its bold under zh-cn', () => {
    setL10nBundle(zhCnBundle());
    const hovers = [...catalogHovers(), ...documentHovers()];
    assert.ok(hovers.length > 100, `${hovers.length} hovers`);
    const open = hovers.flatMap((h) => unclosedStars(h.markdown).map((s) => `${h.where}: ${s}`));
    assert.deepEqual(open, []);
    const errors = catalogHovers().filter((h) => h.where.startsWith('error '));
    assert.ok(errors.some((h) => md.render(h.markdown).includes('<strong>常见原因</strong>')));
  });

  it("bold(): closes beside any letter, the phrase's punctuation kept outside the stars", () => {
    const cases: [string, string][] = [
      ['常见原因：', '<strong>常见原因</strong>：'],
      ['处理建议。', '<strong>处理建议</strong>。'],
      ['BUY', '<strong>BUY</strong>'],
      ['Usual cause:', '<strong>Usual cause</strong>:'],
    ];
    for (const [text, html] of cases) {
      for (const [before, after] of [
        ['中', '文'],
        ['a', 'b'],
        ['：', '，'],
        ['', ''],
      ])
        assert.equal(md.renderInline(`${before}${bold(text)}${after}`), `${before}${html}${after}`, text);
    }
    // A bracket belongs to the words: inside, closed before punctuation or a space, as hovers follow bold.
    for (const after of ['：', ': ', '（私有）', ' '])
      assert.equal(md.renderInline(`${bold('提现（旧）')}${after}`), `<strong>提现（旧）</strong>${after}`);
    assert.equal(bold('：'), '：', 'nothing but punctuation: no stars to leave open');
  });
});
