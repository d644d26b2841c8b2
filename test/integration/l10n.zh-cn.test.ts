/**
 * The extension in Simplified Chinese, in a real VS Code whose display language is zh-cn
 * (`run-vscode-tests.js --locale zh-cn`; index.ts runs `*.zh-cn.test.js` only there). Texts are
 * compared with the translation files the extension ships, a few also by their Chinese words.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
import * as vscode from 'vscode';
import type { PanelEntry } from '../../src/core/panel/protocol';
import { resultKey } from '../../src/extension/testing';
import {
  EXTENSION_ID,
  completionsAt,
  hoversAt,
  labelOf,
  openFixture,
  openWithCursor,
  tradereqApi,
  waitFor,
} from './helpers';

type Messages = Readonly<Record<string, string>>;
/** A command's title as VS Code gives it in another display language: the translation and the English. */
type Title = string | { value: string; original: string };

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
  return ext;
}

/** A translation file as the extension ships it. */
function shipped(file: string): Messages {
  return JSON.parse(fs.readFileSync(path.join(extension().extensionPath, file), 'utf8')) as Messages;
}

/** Asks the harness to find `text` in the workbench when the suite ends (run-vscode-tests.js checkWorkbench()). */
function expectShown(text: string): void {
  console.log(`workbench shows: ${text}`);
}

suite('zh-cn: the extension in Simplified Chinese', () => {
  const bundle = (): Messages => shipped('l10n/bundle.l10n.zh-cn.json');

  test('the host runs in zh-cn, and the extension has its bundle', () => {
    assert.equal(vscode.env.language, 'zh-cn');
    assert.deepEqual(vscode.l10n.bundle, bundle());
    assert.equal(vscode.l10n.t('Send'), '发送');
  });

  test('the manifest: every command title in Chinese (package.nls.zh-cn.json), its English kept as the original', () => {
    const zh = shipped('package.nls.zh-cn.json');
    const en = shipped('package.nls.json');
    const json = extension().packageJSON as { contributes: { commands: { command: string; title: Title }[] } };
    const commands = json.contributes.commands;
    assert.ok(commands.length > 20, `${commands.length} commands`);
    for (const { command, title } of commands) {
      const key = `command.${command.replace(/^tradereq\./, '')}`;
      assert.deepEqual(title, { value: zh[key], original: en[key] }, command);
    }
    assert.deepEqual(commands.find((c) => c.command === 'tradereq.sendRequest')?.title, {
      value: '发送请求',
      original: 'Send Request',
    });
  });

  test('the walkthrough in Chinese (package.nls.zh-cn.json): its title, and each step’s title, description and alt text', () => {
    const zh = shipped('package.nls.zh-cn.json');
    const text = (t: Title): string => (typeof t === 'string' ? t : t.value);
    type Step = { id: string; title: Title; description: Title; media: { altText: Title } };
    const json = extension().packageJSON as { contributes: { walkthroughs: { title: Title; steps: Step[] }[] } };
    const [walkthrough] = json.contributes.walkthroughs;
    assert.equal(text(walkthrough!.title), 'TradeReq 入门');
    for (const step of walkthrough!.steps) {
      const key = `walkthrough.getStarted.${step.id}`;
      assert.equal(text(step.title), zh[`${key}.title`], step.id);
      assert.equal(text(step.description), zh[`${key}.description`], step.id);
      assert.equal(text(step.media.altText), zh[`${key}.altText`], step.id);
    }
  });

  test('code lenses: titles and tooltips in Chinese', async () => {
    await tradereqApi();
    const doc = await openFixture('example.tradereq');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const first = lenses.filter((l) => l.range.start.line === lenses[0]?.range.start.line).map((l) => l.command);
    assert.deepEqual(
      first.map((c) => c?.title),
      ['$(play) 发送', '仅签名', '复制为 cURL', '复制为代码'],
    );
    assert.equal(first[0]?.tooltip, bundle()['Sign and send this request; the answer opens in the TradeReq panel']);
  });

  test("the Testing view's run profiles and the environment picker in Chinese", async () => {
    const api = await tradereqApi();
    assert.deepEqual(
      [api.testing.sandboxProfile, api.testing.environmentProfile, api.testing.updateProfile].map((p) => p.label),
      ['针对沙盒运行', '针对所选环境运行', '针对沙盒运行并更新快照'],
    );
    const details = (await api.environmentChoices()).flatMap((c) => (c.detail ? [c.detail] : []));
    assert.ok(details.length > 0 && details.every((d) => d.includes('密钥配置')), details.join(' | '));
  });

  test("the core's words in a bundle of their own: a send's outcome in the panel, made in lazy.js", async () => {
    const api = await tradereqApi();
    // Port 9 (discard) on loopback: nothing answers, so the send is not sent and says why.
    const text = '### time\nGET http://127.0.0.1:9/api/v3/time\n';
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'l10n-zh-cn.tradereq');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
    try {
      const entry = await vscode.commands.executeCommand<PanelEntry | undefined>('tradereq.sendRequest', file, 0);
      assert.equal(entry?.outcome, 'not-sent', JSON.stringify(entry));
      const notSent = bundle()['not sent: {0}']!.replace('{0}', '');
      assert.ok(entry.summary.startsWith(notSent), entry.summary);
      assert.equal(api.panelState()?.current?.summary, entry.summary);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });

  test('a hover renders its bold: no star left open after full-width punctuation (**常见原因**：)', async () => {
    const { doc, position } = await openWithCursor('# 7000|02\nGET /api/v3/account\n');
    const { text } = await hoversAt(doc.uri, position);
    assert.ok(text.includes('**常见原因**：'), text);
    const html = new MarkdownIt().render(text).replace(/<code>[\s\S]*?<\/code>/g, '');
    assert.ok(html.includes('<strong>常见原因</strong>：') && html.includes('<strong>处理建议</strong>：'), html);
    assert.ok(!html.includes('**'), `stars left as text: ${html}`);
  });

  test('a hover that names a command names it by its Chinese title, as the Command Palette shows it', async () => {
    const { doc, position } = await openWithCursor('# 7000|02\nGET /api/v3/account\n');
    const { text } = await hoversAt(doc.uri, position);
    const title = `TradeReq: ${shipped('package.nls.zh-cn.json')['command.explainRejected']}`;
    assert.equal(title, 'TradeReq: 解释被拒绝的请求');
    assert.ok(text.includes(`“${title}”`), text);
    assert.ok(!text.includes('Explain a Rejected Request'), text);
  });

  test("a request snippet's description in Chinese", async () => {
    const { doc, position } = await openWithCursor('|');
    const items = await completionsAt(doc.uri, position);
    const limit = items.find((i) => labelOf(i) === 'limit order' && i.kind === vscode.CompletionItemKind.Snippet);
    assert.ok(limit, `the limit snippet (offered: ${items.map(labelOf).join(', ')})`);
    assert.equal(limit.detail, 'POST /api/v3/order：限价（LIMIT）订单（数量和价格）');
    assert.equal(limit.detail, bundle()['POST /api/v3/order: a LIMIT order (quantity and price)']);
    assert.ok(
      items.every((i) => !/a LIMIT order|a MARKET order/.test(`${i.detail ?? ''}`)),
      'no English snippet left',
    );
  });

  test("the Testing view's failure message in Chinese: a request the sandbox rejects", async () => {
    const api = await tradereqApi();
    const text = '### 查询不存在的订单\nGET /api/v3/order\nsymbol = BTCUSDT\norderId = 424242\n';
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'l10n-zh-cn-testing.tradereq');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
    try {
      await api.testing.discoverAll();
      const item = await waitFor('the file in the Testing view', () => {
        const found: vscode.TestItem[] = [];
        api.testing.controller.items.get(file.toString())?.children.forEach((c) => found.push(c));
        return found[0];
      });
      const profile = api.testing.sandboxProfile;
      await profile.runHandler(
        new vscode.TestRunRequest([item], undefined, profile),
        new vscode.CancellationTokenSource().token,
      );
      const result = api.testing.results.get(resultKey(item));
      assert.equal(result?.state, 'failed', JSON.stringify(result));
      const [first, second] = result.messages[0]!.text.split('\n');
      assert.equal(first, bundle()['expected the request to be accepted (or # @expect lines for a rejection)']);
      assert.match(second!, /^400 被拒绝/, second);
    } finally {
      await vscode.commands.executeCommand('tradereq.stopSandbox');
      await vscode.workspace.fs.delete(file);
    }
  });

  // Last: it leaves a notification and the command palette open for the harness to find and photograph.
  test("a command's notification and the command palette's TradeReq commands, in Chinese in the workbench", async () => {
    await openFixture('example.tradereq');
    const listed = await vscode.commands.executeCommand<unknown[]>('tradereq.listApiKeys');
    assert.deepEqual(listed, [], 'no key profile is stored: the command says so in a notification');
    expectShown(bundle()['TradeReq: no key profiles are stored. Run "TradeReq: Add API Key".']!);
    // Filtered to the command looked for: the palette shows only the first ten or so of TradeReq's.
    const sendRequest = `TradeReq: ${shipped('package.nls.zh-cn.json')['command.sendRequest']}`;
    await vscode.commands.executeCommand('workbench.action.quickOpen', `>${sendRequest}`);
    expectShown(sendRequest);
  });
});
