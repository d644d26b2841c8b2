// Tests module for the activation benchmark: opens a .tradereq file in the real extension host and
// reports what activate() measured (bundle load + activate) and the bundles loaded by its end. Run by test/bench/activation.bench.js.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** The extension's bundles in Node's module cache (what activation loaded), by file name under dist/, in bytes. */
function loadedBundles(root: string): Record<string, number> {
  const dist = path.join(root, 'dist') + path.sep;
  const files = Object.keys(require.cache).filter((f) => f.startsWith(dist));
  return Object.fromEntries(files.map((f) => [path.relative(dist, f).replaceAll(path.sep, '/'), fs.statSync(f).size]));
}

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
  const loaded = loadedBundles(ext.extensionPath);
  console.log(
    `activation: ${api.activationMs.toFixed(1)} ms (loading the code ${api.loadMs.toFixed(1)} ms + activate() ${api.activateMs.toFixed(1)} ms)`,
  );
  console.log(`activation loaded: ${JSON.stringify(loaded)}`);
}
