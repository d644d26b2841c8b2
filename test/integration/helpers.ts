import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TradeReqApi } from '../../src/extension/extension';

export const EXTENSION_ID = 'tradereq.tradereq';
export const ENV_FILE = 'tradereq.env.json';

/** Polls until `probe` returns a value; fails with `what` at the deadline (no fixed sleeps). */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15000,
): Promise<T> {
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

/**
 * Opens an untitled tradereq document from `text`, where `|` marks the cursor; returns the
 * document and the cursor position (the marker is removed).
 */
export async function openWithCursor(text: string): Promise<{ doc: vscode.TextDocument; position: vscode.Position }> {
  const at = text.indexOf('|');
  assert.ok(at >= 0 && text.indexOf('|', at + 1) < 0, 'the text marks the cursor with one |');
  const doc = await vscode.workspace.openTextDocument({
    language: 'tradereq',
    content: text.slice(0, at) + text.slice(at + 1),
  });
  return { doc, position: doc.positionAt(at) };
}

/**
 * Writes tradereq.env.json with the one environment `name` (so it is the current one) and waits
 * until the extension uses it: completion offers its variable `inUse`, whose value is `name`.
 */
export async function useOnlyEnvironment(
  name: string,
  environment: Record<string, unknown>,
  variables: Record<string, string> = {},
): Promise<void> {
  const file = { [name]: { ...environment, variables: { ...variables, inUse: name } } };
  await vscode.workspace.fs.writeFile(fixtureUri(ENV_FILE), new TextEncoder().encode(JSON.stringify(file, null, 2)));
  const { doc, position } = await openWithCursor('GET /api/v3/openOrders\nsymbol = {{|');
  await waitFor(`the environment "${name}" to be the current one`, async () =>
    (await completionsAt(doc.uri, position)).some(
      (i) => labelOf(i) === 'inUse' && i.detail === `environment ${name} = ${name}`,
    ),
  );
}

/** Deletes tradereq.env.json and waits until the extension uses the built-in environment again. */
export async function useBuiltInEnvironment(): Promise<void> {
  await vscode.workspace.fs.delete(fixtureUri(ENV_FILE));
  const { doc, position } = await openWithCursor('GET /api/v3/openOrders\nsymbol = {{|');
  await waitFor('the built-in sandbox environment again', async () =>
    (await completionsAt(doc.uri, position)).every((i) => labelOf(i) !== 'inUse'),
  );
}

/** The label of a completion item as a string. */
export function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

/** The completion items every provider gives at `position`. */
export async function completionsAt(uri: vscode.Uri, position: vscode.Position): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    uri,
    position,
  );
  return list.items;
}

/** The hovers at `position`: the text of every one, joined, and the range the first one covers. */
export async function hoversAt(
  uri: vscode.Uri,
  position: vscode.Position,
): Promise<{ text: string; range: vscode.Range | undefined }> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  const text = hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
  return { text, range: hovers[0]?.range };
}

/** The 0-based number of the one line of `doc` whose text, trimmed, equals `text`. */
export function lineOf(doc: vscode.TextDocument, text: string): number {
  const found: number[] = [];
  for (let i = 0; i < doc.lineCount; i++) if (doc.lineAt(i).text.trim() === text) found.push(i);
  assert.equal(found.length, 1, `exactly one line "${text}" in ${doc.uri.path}`);
  return found[0]!;
}

/** The position of the first `needle` on the one line whose text, trimmed, is `lineText`, plus `offset` characters. */
export function positionOf(doc: vscode.TextDocument, lineText: string, needle: string, offset = 0): vscode.Position {
  const line = lineOf(doc, lineText);
  const at = doc.lineAt(line).text.indexOf(needle);
  assert.ok(at >= 0, `"${needle}" on line ${line + 1} of ${doc.uri.path}`);
  return new vscode.Position(line, at + offset);
}

/** The range of the first `needle` on the one line whose text, trimmed, is `lineText`. */
export function rangeOf(doc: vscode.TextDocument, lineText: string, needle: string): vscode.Range {
  const start = positionOf(doc, lineText, needle);
  return new vscode.Range(start, start.translate(0, needle.length));
}

/** The diagnostics TradeReq reports for `uri` (not those of other sources). */
export function tradereqDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tradereq');
}

/** The rule of a diagnostic (its code) as a string. */
export function ruleOf(d: vscode.Diagnostic): string {
  return String(typeof d.code === 'object' ? d.code.value : d.code);
}

/** `promise`, or a failure naming `what` after `timeoutMs`. */
export async function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The API activate() returns (panelState() among it), once the extension is active. */
export async function tradereqApi(): Promise<TradeReqApi> {
  const ext = vscode.extensions.getExtension<TradeReqApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
  return ext.activate();
}

/**
 * What "TradeReq: List API Keys" returns: it shows a quick pick of the profiles and resolves when
 * that closes, so the pick is closed as soon as it is up (polled, with a deadline).
 */
export async function listedKeyProfiles(): Promise<{ profile: string; origins: string[] }[]> {
  let listed: { profile: string; origins: string[] }[] | undefined;
  let failed: unknown;
  void Promise.resolve(
    vscode.commands.executeCommand<{ profile: string; origins: string[] }[]>('tradereq.listApiKeys'),
  ).then(
    (v) => (listed = v),
    (e: unknown) => (failed = e ?? new Error('tradereq.listApiKeys failed')),
  );
  await waitFor('List API Keys to close', async () => {
    if (listed || failed) return true;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return listed !== undefined || failed !== undefined;
  });
  if (failed) throw failed instanceof Error ? failed : new Error('tradereq.listApiKeys failed', { cause: failed });
  return listed!;
}

/**
 * The port of the loopback origin the key profile "sandbox" is bound to, or 0 when there is none. A
 * modal dialog (binding to a new origin) cannot be answered in the test host, so a suite starts its
 * sandbox on the origin an earlier suite's profile is bound to.
 */
export async function demoKeyPort(): Promise<number> {
  const stored = (await listedKeyProfiles()).find((p) => p.profile === 'sandbox');
  const loopback = stored?.origins.find((o) => /^http:\/\/127\.0\.0\.1:\d+$/.test(o));
  assert.ok(
    stored === undefined || loopback,
    `profile "sandbox" is bound to a loopback origin: ${stored?.origins.join(', ')}`,
  );
  return loopback ? Number(new URL(loopback).port) : 0;
}

/** With no profile "sandbox", stores the demo key through the notification that `sendSigned` (a signed send) offers. */
export async function storeDemoKeyIfMissing(sendSigned: () => Thenable<unknown>): Promise<void> {
  if ((await listedKeyProfiles()).some((p) => p.profile === 'sandbox')) return;
  assert.equal(await sendSigned(), undefined, 'nothing is sent without a key');
  await waitFor('the key profile "sandbox" stored', async () => {
    await vscode.commands.executeCommand('notification.acceptPrimaryAction');
    return (await listedKeyProfiles()).some((p) => p.profile === 'sandbox');
  });
}

/**
 * Ids VS Code gives the extension's "TradeReq" log output channel: `<extension id>.<name>` in
 * VS Code 1.100, `<extension id>.<name of its log file>` in 1.139. The test accepts only these two.
 */
const LOG_CHANNEL_IDS = [`${EXTENSION_ID}.TradeReq`, `${EXTENSION_ID}.TradeReq.log`];

/** Shows the "TradeReq" log output channel through the command VS Code registers for it. */
async function showTradereqLog(): Promise<void> {
  const show = await waitFor('the command that shows the TradeReq output channel', async () => {
    const commands = new Set(await vscode.commands.getCommands());
    return LOG_CHANNEL_IDS.map((id) => `workbench.action.output.show.${id}`).find((c) => commands.has(c));
  });
  await vscode.commands.executeCommand(show);
}

/** The text of the "TradeReq" log output channel, once it contains `expected` (shown in the panel to be readable). */
export async function tradereqLogContaining(expected: string | RegExp): Promise<string> {
  await showTradereqLog();
  return waitFor(`the TradeReq output channel to show ${String(expected)}`, () => {
    const doc = vscode.workspace.textDocuments.find(
      (d) => d.uri.scheme === 'output' && LOG_CHANNEL_IDS.some((id) => d.uri.path.endsWith(id)),
    );
    const text = doc?.getText();
    if (text === undefined) return undefined;
    return (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) ? text : undefined;
  });
}
