// Tests module for the activation benchmark: opens a .tradereq file in the real extension host and
// reports what activate() measured (bundle load + activate), the bundles loaded once the file is
// open, and what loading dist/language.js cost where the build has it. Run by test/bench/activation.bench.js.
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
  const ext = vscode.extensions.getExtension<{
    activationMs: number;
    loadMs: number;
    activateMs: number;
    languageMs?: () => { loadMs: number; openMs: number } | undefined;
  }>('tradereq.tradereq');
  if (!ext) throw new Error('extension tradereq.tradereq not found');
  const api = await ext.activate();
  // A build whose activation leaves the language to dist/language.js loads it once a request file is
  // open (the turn after activate()): what that costs, apart, once it has happened.
  const language = api.languageMs && (await languageCost(api.languageMs));
  const loaded = loadedBundles(ext.extensionPath);
  console.log(
    `activation: ${api.activationMs.toFixed(1)} ms (loading the code ${api.loadMs.toFixed(1)} ms + activate() ${api.activateMs.toFixed(1)} ms)`,
  );
  console.log(`activation loaded: ${JSON.stringify(loaded)}`);
  if (language) console.log(`activation language: ${JSON.stringify(language)}`);
}

/** dist/language.js's cost (loading its code, making its services) once it has loaded; polled each turn, 10 s at most. */
async function languageCost(
  cost: () => { loadMs: number; openMs: number } | undefined,
): Promise<{ loadMs: number; openMs: number }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const c = cost();
    if (c) return c;
    if (Date.now() > deadline) throw new Error('dist/language.js did not load with the request file open');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
