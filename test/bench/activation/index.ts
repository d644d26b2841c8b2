// Tests module for the activation benchmark: opens a .tradereq file in the real extension host and
// reports what activate() measured (bundle load + activate). Run by test/bench/activation.bench.js.
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'example.tradereq'));
  await vscode.window.showTextDocument(doc);
  const ext = vscode.extensions.getExtension<{ activationMs: number; loadMs: number; activateMs: number }>(
    'tradereq.tradereq',
  );
  if (!ext) throw new Error('extension tradereq.tradereq not found');
  const api = await ext.activate();
  console.log(
    `activation: ${api.activationMs.toFixed(1)} ms (loading the code ${api.loadMs.toFixed(1)} ms + activate() ${api.activateMs.toFixed(1)} ms)`,
  );
}
