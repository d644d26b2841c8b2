/**
 * TradeReq: Create Starter Workspace and the walkthrough that links it (issue 23), in the real
 * extension host: the starter `tradereq init` writes, into a folder, and opened; never over a file
 * without asking; the walkthrough's links and completion events name what exists. Driven as a
 * person does it, ticks included: test/ui/walkthrough.test.js.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { STARTER_FILES, STARTER_PATH } from '../../src/core/env/starter';
import { MILESTONES } from '../../src/extension/milestones';
import { EXTENSION_ID, fixtureUri, tradereqLogContaining } from './helpers';

interface Step {
  readonly id: string;
  readonly description: string;
  readonly completionEvents: readonly string[];
}

const text = async (uri: vscode.Uri): Promise<string> =>
  new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).replace(/\r\n?/g, '\n');
const names = async (folder: vscode.Uri): Promise<string[]> =>
  (await vscode.workspace.fs.readDirectory(folder)).map(([n]) => n).sort();

suite('TradeReq: Create Starter Workspace and the walkthrough (issue 23)', () => {
  const root = (): vscode.Uri => fixtureUri('starter-workspace');
  const create = (folder: vscode.Uri): Thenable<{ folder: string } | undefined> =>
    vscode.commands.executeCommand('tradereq.createStarterWorkspace', folder);

  suiteSetup(() => vscode.workspace.fs.createDirectory(root()));
  suiteTeardown(async () => {
    const mine = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.path.startsWith(root().path + '/'));
    await vscode.window.tabGroups.close(mine);
    await vscode.workspace.fs.delete(root(), { recursive: true });
  });

  test('writes the starter tradereq init writes into a new folder of the workspace, and opens its first request file', async () => {
    const folder = vscode.Uri.joinPath(root(), 'fresh');
    assert.deepEqual(await create(folder), { folder: folder.toString() });
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.deepEqual(await names(folder), STARTER_FILES.map((f) => f.name).sort());
    for (const f of STARTER_FILES)
      assert.equal(
        await text(vscode.Uri.joinPath(folder, f.name)),
        await text(vscode.Uri.joinPath(extension.extensionUri, ...STARTER_PATH, f.name)),
        f.name,
      );
    assert.equal(
      vscode.window.activeTextEditor?.document.uri.toString(),
      vscode.Uri.joinPath(folder, 'market.tradereq').toString(),
    );
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'tradereq');
  });

  test('from the walkthrough, into a folder outside the workspace: written, and the folder answered for the walkthrough to open (its convention), this window left as it is', async () => {
    const outside = vscode.Uri.file(mkdtempSync(join(tmpdir(), 'tradereq-starter-outside-')));
    try {
      const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.toString());
      const written = await vscode.commands.executeCommand<{ folder: string; openFolder?: vscode.Uri }>(
        'tradereq.createStarterWorkspace',
        outside,
        'walkthrough',
      );
      assert.equal(written?.openFolder?.toString(), outside.toString());
      assert.deepEqual(await names(outside), STARTER_FILES.map((f) => f.name).sort());
      assert.deepEqual(
        vscode.workspace.workspaceFolders?.map((f) => f.uri.toString()),
        folders,
      );
    } finally {
      rmSync(outside.fsPath, { recursive: true, force: true });
    }
  });

  test('a starter file already there: a modal question before anything is written (refused in tests), so nothing is', async () => {
    const folder = vscode.Uri.joinPath(root(), 'mine');
    const market = vscode.Uri.joinPath(folder, 'market.tradereq');
    await vscode.workspace.fs.writeFile(market, new TextEncoder().encode('# mine\n'));
    assert.equal(await create(folder), undefined);
    // In test mode the workbench refuses every modal dialog; the refusal, with its text, goes to the log.
    const log = await tradereqLogContaining(/the question to overwrite could not be shown/);
    assert.ok(log.includes(`Overwrite the starter’s files in ${folder.fsPath}?`), log);
    assert.deepEqual(await names(folder), ['market.tradereq']);
    assert.equal(await text(market), '# mine\n');
  });

  test('a folder where a starter file goes: refused, nothing written', async () => {
    const folder = vscode.Uri.joinPath(root(), 'blocked');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'orders.tradereq'));
    assert.equal(await create(folder), undefined);
    assert.deepEqual(await names(folder), ['orders.tradereq']);
  });

  test('the walkthrough, as VS Code reads it (strings from package.nls.json): its links run commands that exist; its steps complete on commands and on the context keys the extension sets', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { walkthroughs: { title: string; steps: Step[] }[] };
    };
    const [walkthrough] = manifest.contributes.walkthroughs;
    assert.equal(walkthrough?.title, 'Get started with TradeReq');
    const commands = new Set(await vscode.commands.getCommands(true));
    const linked = walkthrough.steps.flatMap((s) =>
      [...s.description.matchAll(/\]\(command:(?:toSide:)?([\w.]+)/g)].map((m) => m[1]!),
    );
    assert.ok(linked.includes('tradereq.createStarterWorkspace') && linked.length >= 5, linked.join(', '));
    for (const id of linked) assert.ok(commands.has(id), `the link to ${id} runs a command that exists`);
    const keys = new Set<string>(Object.values(MILESTONES));
    const events = walkthrough.steps.flatMap((s) => s.completionEvents);
    for (const event of events) {
      const [kind, name] = event.split(':') as [string, string];
      assert.ok(kind === 'onCommand' ? commands.has(name) : kind === 'onContext' && keys.has(name), event);
    }
    for (const key of keys) assert.ok(events.includes(`onContext:${key}`), `a step completes on ${key}`);
  });
});
