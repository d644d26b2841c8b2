/**
 * The extension's own words go through the l10n layer (issue 23): every string or template literal
 * of src/extension that carries words to the user is the key of `vscode.l10n.t` (or core's `t`).
 *
 * What is not user-facing, and so stays English and outside the bundle (the one place this is said):
 * - log lines of the TradeReq output channel (`log.info(…)` and the like), as VS Code's own logs;
 * - ids: command ids, context keys, URI schemes, setting names, file names and globs, the values of
 *   the service's protocol (a stream name, a JSON message), codicons (`$(play)`);
 * - internal errors, which only a bug throws (marked `// l10n-ignore: why`);
 * - names that are the same in every language: TradeReq, VS Code, cURL, Postman (marked when the
 *   test would take them for words);
 * - what the core and the panel's page write: core/l10n.ts's `t()` translates those where they are made.
 * The guard is narrow: a literal reads as words when it holds two words, or one capitalised word,
 * or any word where the user reads it (a notification, a pick, an input box, a status bar item, a
 * code lens, the Testing view). A lone lower-case word held in a variable first is not seen: review.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/cli';
import { bypasses, l10nCalls, readsAsText, sourceFiles } from '../../support/l10n';

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const found = (text: string): string[] => bypasses('planted.ts', text).map((b) => b.text);

describe('l10n: the extension’s strings go through vscode.l10n.t', () => {
  it('no literal of src/extension carries words to the user without the l10n layer', () => {
    const files = sourceFiles('src/extension');
    assert.ok(files.length > 30, `the extension's sources are read (${files.length})`);
    const all = files.flatMap((f) => bypasses(f, read(f)));
    assert.deepEqual(
      all.map((b) => `${b.file}:${b.line}: ${b.text}`),
      [],
      'wrap each in vscode.l10n.t(…) and translate it in l10n/bundle.l10n.zh-cn.json, or mark it // l10n-ignore: why',
    );
  });

  // Activation (extension.ts) makes nothing that speaks the core's words: the services are made by dist/language.js.
  it("language.js's open() hands VS Code's bundle to the core's messages before it makes anything", () => {
    const source = read('src/extension/language.ts');
    const open = /export function open\([^)]*\)[^{]*\{([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
    const load = open.indexOf('setL10nBundle(vscode.l10n.bundle);');
    assert.ok(load >= 0, 'open() calls setL10nBundle(vscode.l10n.bundle)');
    assert.ok(load < open.indexOf('createServices('), 'before the services are made');
  });

  it('every key of src/ is a string literal, as the completeness test reads it', () => {
    const problems = sourceFiles('src').flatMap((f) => l10nCalls(f, read(f)).filter((c) => c.problem !== undefined));
    assert.deepEqual(
      problems.map((c) => `${c.file}:${c.line}: ${c.problem}`),
      [],
    );
  });

  it('finds a planted bypass: a notification, a button, a template, a status bar text, an error shown', () => {
    const planted = [
      "vscode.window.showInformationMessage('TradeReq: done.');",
      "const remove = 'Remove';",
      'void vscode.window.showErrorMessage(`TradeReq: not sent: ${why}`);',
      "item.text = blocked ? 'banned' : `$(globe) ${name}`;",
      "vscode.window.showQuickPick(items, { title: 'Pick one' });",
      "throw new Error('it is a folder: choose a file');",
      "vscode.l10n.t('{0} left', `${n} of the budget`);",
    ].join('\n');
    assert.deepEqual(found(planted), [
      'TradeReq: done.',
      'Remove',
      'TradeReq: not sent: ${…}',
      'banned',
      'Pick one',
      'it is a folder: choose a file',
      '${…} of the budget',
    ]);
  });

  it('allows what the layer does not translate: keys, log lines, ids, types, comparisons, marked literals', () => {
    const allowed = [
      "vscode.window.showInformationMessage(vscode.l10n.t('TradeReq: done in {0} ms.', ms));",
      "import { t } from '../core/l10n';",
      "const label = t('Python 3 with requests');",
      'log.info(`sent ${method} to ${url}: ${reason}`);',
      "this.parts.log.warn('the confirmation dialog could not be shown');",
      "vscode.commands.executeCommand('tradereq.addApiKey', profile, 'https://api.example.com');",
      "const item = vscode.window.createStatusBarItem('tradereq.status', 1, 50);",
      "type Kind = 'sandbox environment' | 'the other one';",
      "if (e.code === 'File Not Found') return;",
      'const sample = \'{"method": "PING"}\'; // l10n-ignore: the service\'s own JSON',
      '// l10n-ignore: a bug, never shown',
      "throw new Error('an import named a file outside the folder');",
      'item.text = `$(globe) ${name} · ${left}/500`;',
    ].join('\n');
    assert.deepEqual(found(allowed), []);
    assert.deepEqual(found("const x = 'two words'; // l10n-ignore:"), ['two words'], 'a marker names its reason');
  });

  it('reads words as a person does', () => {
    assert.equal(readsAsText('no origin', false), true);
    assert.equal(readsAsText('Response:', false), true);
    assert.equal(readsAsText('$(play) Send', false), true);
    assert.equal(readsAsText('banned', true), true);
    assert.equal(readsAsText('banned', false), false);
    for (const id of ['tradereq.sendRequest', '**/*.tradereq', 'text/plain', 'FileNotFound', '$(plug)', ' · ', 'id=1'])
      assert.equal(readsAsText(id, true), false, id);
  });
});
