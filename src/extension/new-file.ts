/**
 * TradeReq: New Request File: one request file of the starter (media/starter/, what `tradereq init`
 * writes) into a folder of the workspace, under a name the user gives, then opened. It never
 * writes over a file. Without a workspace folder the text opens as an untitled document. It needs
 * no trust: the text is the extension's own, and sending from it asks for trust as always.
 */
import * as vscode from 'vscode';
import { portableFileName } from '../core/convert/write';
import { STARTER_PATH, STARTER_REQUESTS, freeFileName, type StarterFile } from '../core/env/starter';
import { t } from '../core/l10n';
import { exists } from './workspace-fs';

const EXTENSION = '.tradereq';

/**
 * `where` is a folder (or a file, for its folder): the explorer's context menu gives it. `starter`
 * (a file name of STARTER_REQUESTS) and `name` skip the questions. Resolves to the URI written.
 */
export async function newRequestFile(where?: unknown, starter?: unknown, name?: unknown): Promise<string | undefined> {
  const file = typeof starter === 'string' ? STARTER_REQUESTS.find((f) => f.name === starter) : await pickStarter();
  if (!file) return undefined;
  const text = await starterText(file);
  const folder = await folderFor(where);
  if (!folder) {
    const doc = await vscode.workspace.openTextDocument({ language: 'tradereq', content: text });
    await vscode.window.showTextDocument(doc);
    return doc.uri.toString();
  }
  const taken = await namesIn(folder);
  const chosen = typeof name === 'string' ? name : await askName(folder, file, taken);
  if (chosen === undefined) return undefined;
  const problem = nameProblem(chosen, taken);
  if (problem) {
    void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: not written: {0}.', problem));
    return undefined;
  }
  const uri = vscode.Uri.joinPath(folder, withExtension(chosen));
  // A file made since the folder was read is not written over either.
  if (await exists(uri)) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('TradeReq: not written: {0} exists in {1}.', withExtension(chosen), folder.path),
    );
    return undefined;
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  await vscode.window.showTextDocument(uri);
  return uri.toString();
}

async function pickStarter(): Promise<StarterFile | undefined> {
  const picked = await vscode.window.showQuickPick(
    STARTER_REQUESTS.map((f) => ({ label: f.name.slice(0, -EXTENSION.length), description: t(f.shows), file: f })),
    { title: vscode.l10n.t('TradeReq: New Request File'), placeHolder: vscode.l10n.t('What the new file starts with') },
  );
  return picked?.file;
}

/** The starter's text, from the extension's own files (dist/extension.js sits one folder down), with \n line endings. */
async function starterText(file: StarterFile): Promise<string> {
  const uri = vscode.Uri.joinPath(vscode.Uri.file(__dirname), '..', ...STARTER_PATH, file.name);
  return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri)).replace(/\r\n?/g, '\n');
}

/** The folder given (a file's folder), else the active file's folder in the workspace, else a workspace folder. */
async function folderFor(where: unknown): Promise<vscode.Uri | undefined> {
  if (where instanceof vscode.Uri) {
    const stat = await vscode.workspace.fs.stat(where);
    return stat.type & vscode.FileType.Directory ? where : vscode.Uri.joinPath(where, '..');
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme !== 'untitled' && vscode.workspace.getWorkspaceFolder(active))
    return vscode.Uri.joinPath(active, '..');
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri;
  const placeHolder = vscode.l10n.t('The folder of the new request file');
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder }))?.uri;
}

/** The names in `folder`, lower-cased: macOS and Windows compare names so. */
async function namesIn(folder: vscode.Uri): Promise<Set<string>> {
  return new Set((await vscode.workspace.fs.readDirectory(folder)).map(([n]) => n.toLowerCase()));
}

function askName(folder: vscode.Uri, file: StarterFile, taken: Set<string>): Thenable<string | undefined> {
  const value = freeFileName(file.name, (n) => taken.has(n));
  return vscode.window.showInputBox({
    title: vscode.l10n.t('TradeReq: New Request File'),
    prompt: vscode.l10n.t("The file's name, in {0}", vscode.workspace.asRelativePath(folder, true)),
    value,
    valueSelection: [0, value.length - EXTENSION.length],
    validateInput: (v) => nameProblem(v, taken),
  });
}

function withExtension(name: string): string {
  const trimmed = name.trim();
  return trimmed.toLowerCase().endsWith(EXTENSION) ? trimmed : trimmed + EXTENSION;
}

/** Why `name` cannot be the new file's name: not one every system can hold, or taken. */
function nameProblem(name: string, taken: Set<string>): string | undefined {
  const full = withExtension(name);
  const portable = portableFileName(full.slice(0, -EXTENSION.length), EXTENSION, 'requests');
  if (full !== portable)
    return vscode.l10n.t('"{0}" is not a file name every system can hold: try {1}', full, portable);
  if (taken.has(full.toLowerCase())) return vscode.l10n.t('{0} exists in this folder: choose another name', full);
  return undefined;
}
