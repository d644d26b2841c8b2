import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'tradereq.tradereq';

/** Polls until `probe` returns a value; fails with `what` at the deadline (no fixed sleeps). */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function fixtureUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the fixture workspace folder is open');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function openFixture(name: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(fixtureUri(name));
  await vscode.window.showTextDocument(doc);
  return doc;
}
