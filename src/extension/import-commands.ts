/**
 * Import in the editor: a cURL command (input box, clipboard, or pasted into a .tradereq file), a
 * Postman collection v2.1 (with an environment) and a .http / .rest file. The importers of
 * src/core/convert load on first use; what they could not carry over is always shown.
 */
import * as vscode from 'vscode';
import { IMPORT_LIMITS, type ImportResult, type ImportedFile } from '../core/convert/import-result';
import type { Environments } from './environments';
import { tools } from './lazy';
import { CURL_PASTE_KIND } from './providers';
import { exists } from './workspace-fs';

export interface ImportParts {
  readonly environments: Environments;
}

/** What an import wrote (file URIs as strings), the headline and the notes it showed: for tests. */
export interface ImportOutcome {
  readonly files: readonly string[];
  readonly headline: string;
  readonly notes: readonly string[];
}

/** A cURL command as written in documentation: `curl …`, maybe after a `$ ` prompt. */
function looksLikeCurl(text: string): boolean {
  return /^\s*(?:\$\s*)?curl(?:\.exe)?\s/.test(text) && text.length <= IMPORT_LIMITS.maxInputChars;
}

/** The notes as comment lines, so a pasted request says what it could not carry over. */
function notesAsComments(notes: readonly string[]): string {
  if (notes.length === 0) return '';
  const lines = notes.map((n) => `# - ${n.replace(/[\r\n\u2028\u2029]+/g, ' ')}`);
  return [`# ${notCarriedOver()}`, ...lines].join('\n') + '\n';
}

/** The heading of what an import could not carry over. */
function notCarriedOver(): string {
  return vscode.l10n.t('Not carried over as it was:');
}

/** Shows what was done, and what was not carried over (all of it, on request); does not wait for the user. */
function report(headline: string, notes: readonly string[]): void {
  if (notes.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('TradeReq: {0}', headline));
    return;
  }
  const details = vscode.l10n.t('Show Details');
  const first = notes[0]!.length > 160 ? notes[0]!.slice(0, 160) + '…' : notes[0]!;
  const message =
    notes.length > 1
      ? vscode.l10n.t('TradeReq: {0} Not carried over as it was: {1} (and {2} more)', headline, first, notes.length - 1)
      : vscode.l10n.t('TradeReq: {0} Not carried over as it was: {1}', headline, first);
  void vscode.window.showWarningMessage(message, details).then(async (choice) => {
    if (choice !== details) return;
    const content = [headline, '', notCarriedOver(), ...notes.map((n) => `- ${n}`)].join('\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content, language: 'plaintext' }));
  });
}

/** The request text from a cURL command, or undefined after saying why it could not be read. */
function curlText(
  environments: Environments,
  input: string,
  uri?: vscode.Uri,
): { text: string; result: ImportResult } | undefined {
  const result = tools().importCurl(input, { baseUrl: environments.current(uri).baseUrl });
  if (!result.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: not imported: {0}', result.error));
    return undefined;
  }
  return { text: result.value.files[0]!.text, result: result.value };
}

async function askCurl(): Promise<string | undefined> {
  const clipboard = await vscode.env.clipboard.readText();
  if (looksLikeCurl(clipboard)) return clipboard;
  return vscode.window.showInputBox({
    title: vscode.l10n.t('TradeReq: Import from cURL'),
    prompt: vscode.l10n.t('A cURL command, e.g. from the API documentation (or copy one first: the clipboard is read)'),
    placeHolder: "curl -X POST 'https://api.example.com/api/v3/order?symbol=BTCUSDT&…'", // l10n-ignore: a command as written
    ignoreFocusOut: true,
    validateInput: (v) => (looksLikeCurl(v) ? undefined : vscode.l10n.t('Give a command that starts with curl')),
  });
}

/**
 * Import from cURL: `input`, else the clipboard when it holds a cURL command, else an input box.
 * The request is added at the end of the active .tradereq file, or opens in a new one.
 */
export async function importFromCurl(parts: ImportParts, input?: unknown): Promise<ImportOutcome | undefined> {
  await parts.environments.ready();
  const command = typeof input === 'string' ? input : await askCurl();
  if (command === undefined) return undefined;
  const imported = curlText(parts.environments, command);
  if (!imported) return undefined;
  const editor = vscode.window.activeTextEditor;
  let uri: vscode.Uri;
  if (editor?.document.languageId === 'tradereq') {
    const doc = editor.document;
    const last = doc.lineAt(doc.lineCount - 1);
    const gap = doc.getText().trim().length === 0 ? '' : last.text.length > 0 ? '\n\n' : '\n';
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, last.range.end, gap + imported.text);
    await vscode.workspace.applyEdit(edit);
    const end = new vscode.Position(doc.lineCount - 1, 0);
    editor.revealRange(new vscode.Range(end, end));
    uri = doc.uri;
  } else {
    const doc = await vscode.workspace.openTextDocument({ language: 'tradereq', content: imported.text });
    await vscode.window.showTextDocument(doc);
    uri = doc.uri;
  }
  const headline = vscode.l10n.t('imported 1 request from the cURL command.');
  report(headline, imported.result.notes);
  return { files: [uri.toString()], headline, notes: imported.result.notes };
}

/**
 * A cURL command pasted into a .tradereq file becomes a request (the plain text stays one click
 * away in the paste widget). The notes go in as comments. Registered at activation by providers.ts.
 */
export class CurlPaste implements vscode.DocumentPasteEditProvider {
  constructor(private readonly environments: Environments) {}

  async provideDocumentPasteEdits(
    document: vscode.TextDocument,
    ranges: readonly vscode.Range[],
    dataTransfer: vscode.DataTransfer,
    _context: vscode.DocumentPasteEditContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.DocumentPasteEdit[] | undefined> {
    const pasted = await dataTransfer.get('text/plain')?.asString();
    if (pasted === undefined || ranges.length !== 1 || token.isCancellationRequested || !looksLikeCurl(pasted))
      return undefined;
    // The base URL of this file's environment, so that a URL on it becomes a path.
    await this.environments.ready(document.uri);
    const imported = curlText(this.environments, pasted, document.uri);
    if (!imported) return undefined;
    const start = ranges[0]!.start;
    const before = document.lineAt(start.line).text.slice(0, start.character);
    const text = (before.trim().length > 0 ? '\n' : '') + imported.text + notesAsComments(imported.result.notes);
    const title = vscode.l10n.t('TradeReq request from the cURL command');
    return [new vscode.DocumentPasteEdit(text, title, CURL_PASTE_KIND)];
  }
}

/** The text of a file chosen for import, bounded; undefined after saying why it cannot be read. */
async function readInput(uri: vscode.Uri): Promise<string | undefined> {
  const name = uri.path.split('/').pop() ?? uri.toString();
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) throw new Error(vscode.l10n.t('it is a folder: choose a file'));
    if (stat.size > IMPORT_LIMITS.maxInputChars * 4)
      throw new Error(vscode.l10n.t('it is too large to import ({0} bytes)', stat.size));
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    const why =
      e instanceof vscode.FileSystemError
        ? e.code === 'FileNotFound'
          ? vscode.l10n.t('no such file')
          : vscode.l10n.t('cannot read it ({0})', e.code)
        : e instanceof Error
          ? e.message
          : String(e);
    void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: {0}: {1}', name, why));
    return undefined;
  }
}

/** Writes the files into `folder` (asking before overwriting any); their URIs, or undefined when not written. */
async function writeAll(folder: vscode.Uri, files: readonly ImportedFile[]): Promise<vscode.Uri[] | undefined> {
  // The importers name files themselves; a name that would leave the folder is a bug, never written.
  if (files.some((f) => f.path.split(/[\\/]/).some((part) => part === '..' || part === '') || f.path.startsWith('/')))
    throw new Error('an import named a file outside the folder'); // l10n-ignore: a bug, never a user's doing
  const targets = files.map((f) => ({ uri: vscode.Uri.joinPath(folder, f.path), text: f.text }));
  const existing = [];
  for (const t of targets) if (await exists(t.uri)) existing.push(t.uri.path.split('/').pop()!);
  if (existing.length > 0) {
    const overwrite = vscode.l10n.t('Overwrite');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        '{0} of the files exist in {1}: {2}. Overwrite them?',
        existing.length,
        folder.path,
        existing.join(', '),
      ),
      { modal: true },
      overwrite,
    );
    if (answer !== overwrite) return undefined;
  }
  await vscode.workspace.fs.createDirectory(folder);
  for (const t of targets) await vscode.workspace.fs.writeFile(t.uri, new TextEncoder().encode(t.text));
  return targets.map((t) => t.uri);
}

async function pickFile(title: string, filters: Record<string, string[]>): Promise<vscode.Uri | undefined> {
  const openLabel = vscode.l10n.t('Import');
  const picked = await vscode.window.showOpenDialog({ title, filters, canSelectMany: false, openLabel });
  return picked?.[0];
}

async function pickFolder(title: string, near?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Import Here'),
    defaultUri: near ?? vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return picked?.[0];
}

/** Writes an import's files, opens the first request file and shows what was not carried over. */
async function finish(
  folder: vscode.Uri,
  result: ImportResult,
  files: ImportedFile[],
): Promise<ImportOutcome | undefined> {
  const written = await writeAll(folder, files);
  if (!written) return undefined;
  const first = written.find((u) => u.path.endsWith('.tradereq'));
  if (first) await vscode.window.showTextDocument(first);
  const names = written.map((u) => u.path.split('/').pop()).join(', ');
  const headline =
    result.requestCount === 1
      ? vscode.l10n.t('imported 1 request into {0}: {1}.', folder.path, names)
      : vscode.l10n.t('imported {0} requests into {1}: {2}.', result.requestCount, folder.path, names);
  report(headline, result.notes);
  return { files: written.map((u) => u.toString()), headline, notes: result.notes };
}

async function askEnvironment(): Promise<{ uri?: vscode.Uri } | undefined> {
  const none = vscode.l10n.t('Without an environment');
  const picked = await vscode.window.showQuickPick([none, vscode.l10n.t('With a Postman environment…')], {
    title: vscode.l10n.t('TradeReq: Import Postman Collection'),
    placeHolder: vscode.l10n.t(
      "A Postman environment's variables and base URL go into tradereq.env.json (never its secrets)",
    ),
  });
  if (picked === undefined) return undefined;
  if (picked === none) return {};
  const uri = await pickFile(vscode.l10n.t('TradeReq: the Postman environment'), {
    [vscode.l10n.t('Postman environment')]: ['json'],
  });
  return uri ? { uri } : undefined;
}

/**
 * Import Postman Collection: one .tradereq file per folder, and tradereq.env.json from the
 * environment. The arguments (collection, output folder, environment) skip the dialogs.
 */
export async function importPostmanCollection(
  collection?: unknown,
  out?: unknown,
  environment?: unknown,
): Promise<ImportOutcome | undefined> {
  const given = collection instanceof vscode.Uri;
  const source = given
    ? collection
    : await pickFile(vscode.l10n.t('TradeReq: Import Postman Collection'), {
        [vscode.l10n.t('Postman collection v2.1')]: ['json'],
      });
  if (!source) return undefined;
  const env = given ? { uri: environment instanceof vscode.Uri ? environment : undefined } : await askEnvironment();
  if (!env) return undefined;
  const folder =
    out instanceof vscode.Uri ? out : await pickFolder(vscode.l10n.t('TradeReq: the folder to import into'));
  if (!folder) return undefined;
  const text = await readInput(source);
  const envText = env.uri ? await readInput(env.uri) : undefined;
  if (text === undefined || (env.uri && envText === undefined)) return undefined;
  const result = tools().importPostman(text, envText);
  if (!result.ok) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('TradeReq: {0}: {1}', source.path.split('/').pop() ?? '', result.error),
    );
    return undefined;
  }
  const files = [...result.value.files];
  if (result.value.environment && Object.keys(result.value.environment).length > 0)
    files.push({ path: 'tradereq.env.json', text: JSON.stringify(result.value.environment, null, 2) + '\n' });
  return finish(folder, result.value, files);
}

/**
 * Import .http File: a .http / .rest file as one .tradereq file; a URL under the base URL of an
 * environment the file will use becomes a path. The arguments skip the dialogs.
 */
export async function importHttpFile(
  parts: ImportParts,
  source?: unknown,
  out?: unknown,
): Promise<ImportOutcome | undefined> {
  const file =
    source instanceof vscode.Uri
      ? source
      : await pickFile(vscode.l10n.t('TradeReq: Import .http File'), {
          [vscode.l10n.t('HTTP requests')]: ['http', 'rest'],
        });
  if (!file) return undefined;
  const folder =
    out instanceof vscode.Uri
      ? out
      : await pickFolder(vscode.l10n.t('TradeReq: the folder to import into'), vscode.Uri.joinPath(file, '..'));
  if (!folder) return undefined;
  const text = await readInput(file);
  if (text === undefined) return undefined;
  const sourceName = file.path.split('/').pop()!;
  // The environments a file in `folder` uses, as a request file there would find them.
  const written = vscode.Uri.joinPath(folder, 'imported.tradereq');
  await parts.environments.ready(written);
  // A tradereq.env.json that cannot be read names no environment to write paths for.
  const environments =
    parts.environments.error(written) === undefined
      ? { list: parts.environments.all(written), current: parts.environments.current(written) }
      : undefined;
  // The importer names the file after the source, a name every system can hold.
  const result = tools().importHttpFile(text, { sourceName, ...(environments ? { environments } : {}) });
  if (!result.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: {0}: {1}', sourceName, result.error));
    return undefined;
  }
  return finish(folder, result.value, [...result.value.files]);
}
