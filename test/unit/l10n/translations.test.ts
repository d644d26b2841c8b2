/**
 * Every message has its Simplified Chinese translation (issue 23): each key the sources ask for
 * (test/support/l10n.ts KEY_SOURCES) in l10n/bundle.l10n.zh-cn.json, each manifest string
 * (package.nls.json) in package.nls.zh-cn.json, with the same `{N}` placeholders; no translation
 * that nothing asks for (stale); the files as the team keeps them (sorted, two spaces, LF).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/cli';
import {
  KEY_SOURCES,
  l10nCalls,
  manifestKeys,
  manifestTexts,
  placeholders,
  readMessages,
  type Messages,
} from '../../support/l10n';

const BUNDLE = 'l10n/bundle.l10n.zh-cn.json';
const NLS = 'package.nls.json';
const NLS_ZH = 'package.nls.zh-cn.json';
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;

/**
 * Whether a text is words (`Send the order`) that a translation left as they were; a name, an
 * abbreviation or one technical word may read the same in Chinese (`TradeReq`, `HTTP {0}`, `Ping`).
 */
const wordsIn = (text: string): boolean => (text.match(/\b[A-Za-z][a-z]+\b/g) ?? []).length >= 2;

/** What is wrong with `translations` for `keys`: a missing key, other placeholders, a stale translation. */
function problems(keys: ReadonlySet<string>, translations: Messages): string[] {
  const out: string[] = [];
  for (const key of keys) {
    const text = translations[key];
    if (text === undefined) out.push(`missing: ${JSON.stringify(key)}`);
    else if (placeholders(text).join() !== placeholders(key).join())
      out.push(`placeholders differ: ${JSON.stringify(key)} → ${JSON.stringify(text)}`);
    else if (text === key && wordsIn(key)) out.push(`not translated: ${JSON.stringify(key)}`);
  }
  for (const key of Object.keys(translations))
    if (!keys.has(key)) out.push(`stale (nothing uses it): ${JSON.stringify(key)}`);
  return out;
}

/** The file as the team keeps it: a flat object sorted by key, two spaces, LF, a final newline. */
function assertKeptSorted(file: string): void {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const messages = JSON.parse(text) as Messages;
  const sorted = Object.fromEntries(Object.entries(messages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  assert.equal(text, JSON.stringify(sorted, null, 2) + '\n', `${file}: sorted by key, two spaces, LF`);
}

describe('l10n: translations are complete (zh-cn)', () => {
  it('every key of every key source has its translation in the bundle, with the same placeholders, and none is stale', () => {
    const keys = new Set(KEY_SOURCES.flatMap((s) => s.keys()));
    for (const source of KEY_SOURCES) assert.ok(source.keys().length > 0, `${source.name}: no key found`);
    assert.deepEqual(problems(keys, readMessages(BUNDLE)), []);
  });

  it('the manifest: each string a person reads is a %key% of package.nls.json, and each key is translated', () => {
    const literal = manifestTexts(manifest).filter((t) => !/^%[^%]+%$/.test(t.text));
    assert.deepEqual(
      literal.map((t) => `${t.path}: ${t.text}`),
      [],
      'use "%key%" and add the text to package.nls.json',
    );
    const used = new Set(manifestKeys(manifest));
    const english = readMessages(NLS);
    assert.deepEqual(
      [...used].filter((k) => english[k] === undefined),
      [],
      `every %key% of package.json in ${NLS}`,
    );
    assert.deepEqual(
      Object.keys(english).filter((k) => !used.has(k)),
      [],
      `${NLS}: keys package.json does not use`,
    );
    const translated = new Set(Object.keys(english));
    assert.deepEqual(problems(translated, readMessages(NLS_ZH)), []);
    for (const key of translated)
      assert.deepEqual(placeholders(readMessages(NLS_ZH)[key] ?? ''), placeholders(english[key]!), key);
  });

  it('the files are kept sorted, and VS Code finds the bundles (package.json "l10n")', () => {
    for (const file of [BUNDLE, NLS, NLS_ZH]) assertKeptSorted(file);
    assert.equal(manifest['l10n'], './l10n');
    assert.ok(existsSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json')));
  });

  it('reads the keys of a source text: vscode.l10n.t, l10n.t and core/l10n.ts t (renamed too); a key that is not a literal is a problem', () => {
    const text = [
      "import { t as tr } from '../core/l10n';",
      "vscode.l10n.t('Sent {0}', n); l10n.t(`Sent`); tr('Core {0}', x);",
      'tr(entry.text); t("not the translator: no import");',
      'vscode.l10n.t(`Sent ${n}`); vscode.l10n.t(message);',
    ].join('\n');
    const calls = l10nCalls('sample.ts', text);
    assert.deepEqual(
      calls.map((c) => [c.line, c.key, c.problem]),
      [
        [2, 'Sent {0}', undefined],
        [2, 'Sent', undefined],
        [2, 'Core {0}', undefined],
        [3, undefined, undefined],
        [4, undefined, 'the key is not a string literal'],
        [4, undefined, 'the key is not a string literal'],
      ],
    );
  });

  it('reports what is wrong: a missing key, other placeholders, an untranslated text, a stale one', () => {
    const keys = new Set(['Sent {0} in {1} ms', 'Send the order', 'Cancel', 'TradeReq', 'HTTP {0}', 'Ping']);
    const translations = {
      ...{ 'Sent {0} in {1} ms': '已发送 {0}', 'Send the order': 'Send the order', TradeReq: 'TradeReq' },
      ...{ 'HTTP {0}': 'HTTP {0}', Ping: 'Ping' },
      Old: '旧的',
    };
    assert.deepEqual(problems(keys, translations), [
      'placeholders differ: "Sent {0} in {1} ms" → "已发送 {0}"',
      'not translated: "Send the order"',
      'missing: "Cancel"',
      'stale (nothing uses it): "Old"',
    ]);
  });
});
