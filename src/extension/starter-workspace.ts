/**
 * TradeReq: Create Starter Workspace: the starter `tradereq init` writes (core/env/write-starter.ts,
 * the same checks and writing), for the deployment the user picks (the spec's, or mexc's), into a
 * folder the user picks, or into the workspace folder when it is empty. A file already there is written over only after a modal question; a folder or a link
 * in a file's place stops it. Then the starter opens: its first request file when the folder is in
 * the workspace, else the folder itself.
 */
import * as vscode from 'vscode';
import { basename, join } from 'node:path';
import { deploymentById } from '../core/catalog/deployment';
import { STARTER_DEPLOYMENTS, STARTER_REQUESTS, starterFiles, type StarterDeployment } from '../core/env/starter';
import {
  checkStarterFolder,
  readStarterFiles,
  writeStarterFiles,
  type StarterFolderCheck,
  type StarterText,
} from '../core/env/write-starter';
import { reach } from './milestones';

/** The walkthrough's link passes this: the walkthrough then opens the folder itself, and comes back in it. */
const FROM_WALKTHROUGH = 'walkthrough';

/** What the command answers when it wrote the starter; `openFolder` is the walkthrough's convention for "open this". */
interface StarterWritten {
  readonly folder: string;
  readonly openFolder?: vscode.Uri;
}

/**
 * `args`: the folder (tests, scripts), else the empty workspace folder, else a pick; a deployment's
 * id (`mexc`), else the spec's when a folder is given, else a question; FROM_WALKTHROUGH when the
 * walkthrough runs it.
 */
export async function createStarterWorkspace(
  log: vscode.LogOutputChannel,
  ...args: unknown[]
): Promise<StarterWritten | undefined> {
  const given = args.find((a) => a instanceof vscode.Uri);
  const named = STARTER_DEPLOYMENTS.find((d) => args.includes(d));
  const deployment = named ?? (given !== undefined ? 'spec' : await pickDeployment());
  if (!deployment) return undefined;
  const folder = given ?? (await emptyWorkspaceFolder()) ?? (await pickFolder());
  if (!folder) return undefined;
  if (folder.scheme !== 'file') {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('TradeReq: the starter is written to a folder on disk; {0} is not one.', folder.toString()),
    );
    return undefined;
  }
  // The extension's root: dist/extension.js sits one folder down.
  const read = readStarterFiles(join(__dirname, '..'), starterFiles(deployment));
  if (!read.ok) {
    const { path, code } = read.error;
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'TradeReq: the starter is missing from this installation ({0}: {1}): reinstall TradeReq.',
        path,
        code,
      ),
    );
    return undefined;
  }
  if (!(await writeInto(folder.fsPath, read.value, log))) return undefined;
  reach('starterCreated');
  const openFolder = await openStarter(folder, args.includes(FROM_WALKTHROUGH));
  return openFolder ? { folder: folder.toString(), openFolder } : { folder: folder.toString() };
}

/** Which deployment the project is for: the spec's first (the default), each with what it changes. */
async function pickDeployment(): Promise<StarterDeployment | undefined> {
  const items = STARTER_DEPLOYMENTS.map((id) => ({
    label: deploymentById(id)?.title ?? id,
    description: id,
    detail:
      id === 'mexc'
        ? vscode.l10n.t(
            'Environments of "deployment": "mexc" (its own address and key header) and .pb streams, decoded.',
          )
        : vscode.l10n.t('The published spec: JSON streams; the live environment at an address you write.'),
    id,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('TradeReq: the deployment the starter is for'),
    placeHolder: vscode.l10n.t('Which deployment of the service will this project talk to?'),
    // Started from the walkthrough, whose page may take the focus back a moment later: the question stays.
    ignoreFocusOut: true,
  });
  return picked?.id;
}

/** The first workspace folder that holds nothing but hidden entries (.git, .vscode, …). */
async function emptyWorkspaceFolder(): Promise<vscode.Uri | undefined> {
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(f.uri)).catch(() => undefined);
    if (entries?.every(([name]) => name.startsWith('.'))) return f.uri;
  }
  return undefined;
}

async function pickFolder(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    title: vscode.l10n.t('TradeReq: the folder of the starter workspace'),
    openLabel: vscode.l10n.t('Create Starter Here'),
  });
  return picked?.[0];
}

/** Checks every target, asks before writing over a file, writes: whether the starter was written. */
async function writeInto(dir: string, files: readonly StarterText[], log: vscode.LogOutputChannel): Promise<boolean> {
  const names = files.map((f) => f.name);
  const check = checkStarterFolder(dir, names);
  if (check.kind !== 'clear') {
    void vscode.window.showErrorMessage(refusal(dir, check));
    return false;
  }
  const overwrite = check.existing.length > 0;
  if (overwrite && !(await mayOverwrite(dir, check.existing, log))) return false;
  const done = writeStarterFiles(dir, files, overwrite);
  if (done.ok) return true;
  const { path, code, written } = done.error;
  void vscode.window.showErrorMessage(
    written.length > 0
      ? vscode.l10n.t('TradeReq: cannot write {0} ({1}); written before it: {2}.', path, code, written.join(', '))
      : vscode.l10n.t('TradeReq: cannot write {0} ({1}); nothing was written.', path, code),
  );
  return false;
}

function refusal(dir: string, check: Exclude<StarterFolderCheck, { kind: 'clear' }>): string {
  if (check.kind === 'not-a-folder') return vscode.l10n.t('TradeReq: {0} is not a folder: pick a folder.', dir);
  const { path, what } = check;
  if (what === 'folder')
    return vscode.l10n.t('TradeReq: nothing was written: {0} is a folder where the starter writes a file.', path);
  if (what === 'link')
    return vscode.l10n.t(
      'TradeReq: nothing was written: {0} is a link, and the starter never writes through one.',
      path,
    );
  return vscode.l10n.t('TradeReq: nothing was written: {0} is not a plain file.', path);
}

/** A modal question naming the files; a dialog that cannot be shown (as in tests) is a no. */
async function mayOverwrite(dir: string, existing: readonly string[], log: vscode.LogOutputChannel): Promise<boolean> {
  const overwrite = vscode.l10n.t('Overwrite');
  const question = vscode.l10n.t('Overwrite the starter’s files in {0}?', dir);
  const detail = vscode.l10n.t(
    'Written over: {0}. The folder’s other files are not touched.',
    existing.map((p) => basename(p)).join(', '),
  );
  try {
    return (await vscode.window.showWarningMessage(question, { modal: true, detail }, overwrite)) === overwrite;
  } catch (e) {
    log.warn(
      `the question to overwrite could not be shown (${e instanceof Error ? e.message : String(e)}); not written`,
    );
    return false;
  }
}

/**
 * The starter in the editor: its first request file when the folder is in the workspace; else the
 * folder, in this window when none is open, or as the user chooses. From the walkthrough, the file
 * opens beside it, or the folder to open is answered and the walkthrough opens it (and itself there).
 */
async function openStarter(folder: vscode.Uri, fromWalkthrough: boolean): Promise<vscode.Uri | undefined> {
  if (vscode.workspace.getWorkspaceFolder(folder)) {
    const first = vscode.Uri.joinPath(folder, STARTER_REQUESTS[0]!.name);
    // Beside the walkthrough, which stays in view with its next step.
    await vscode.window.showTextDocument(first, fromWalkthrough ? { viewColumn: vscode.ViewColumn.Beside } : {});
    return undefined;
  }
  if (fromWalkthrough) return folder;
  if (!vscode.workspace.workspaceFolders?.length) {
    await vscode.commands.executeCommand('vscode.openFolder', folder);
    return undefined;
  }
  const open = vscode.l10n.t('Open Folder');
  const newWindow = vscode.l10n.t('Open in New Window');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('TradeReq: wrote the starter into {0}.', folder.fsPath),
    open,
    newWindow,
  );
  if (choice)
    await vscode.commands.executeCommand('vscode.openFolder', folder, { forceNewWindow: choice === newWindow });
  return undefined;
}
