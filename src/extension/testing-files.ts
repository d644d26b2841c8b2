import * as vscode from 'vscode';
import { BOUNDS, formatSize } from '../core/bounds';
import type { TradeReqDocument } from '../core/format/model';
import { fileProblemText } from '../core/repo-file';
import { parse } from '../core/format/parser';
import type { DataSource } from '../core/format/directives';
import { err, type Result } from '../core/result';
import { testCases, withRows, type TestCase } from '../core/testing/cases';
import type { DataTable } from '../core/testing/data';
import type { DocumentModels } from './documents';
import { readRepositoryFile } from './workspace-fs';
import { toRange } from './documents';
import { lazy } from './lazy';
import { reach } from './milestones';
import { notOnDisk } from './sending';
import { runTests, type RunParts } from './testing-run';
import type { TestFiles, Testing } from './testing';

const PATTERN = '**/*.tradereq';
/** How long typing pauses before a file's test items are rebuilt. */
const ITEMS_AFTER_TYPING_MS = 300;

/**
 * The request files' test items and their runs, behind the Testing view's controller (testing.ts,
 * made at activation): every .tradereq file of the workspace (all folders), found without opening
 * it and kept current as files change, each request a test item with its range (so the gutter has
 * its run button). Discovery waits for the Testing view to ask. In dist/language.js: it parses.
 */
export class TestItems implements TestFiles, vscode.Disposable {
  private readonly controller: vscode.TestController;
  private discovery: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Files whose items wait for typing to pause. */
  private readonly typing = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly testing: Testing,
    private readonly models: DocumentModels,
    private readonly parts: Omit<RunParts, 'controller' | 'results' | 'caseOf' | 'fileModel' | 'discover'>,
  ) {
    this.controller = testing.controller;
    const watcher = vscode.workspace.createFileSystemWatcher(PATTERN);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => this.discovery && void this.fromDisk(uri)),
      watcher.onDidChange((uri) => this.discovery && !this.openDocument(uri) && void this.fromDisk(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      vscode.workspace.onDidOpenTextDocument((d) => this.fromDocument(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.afterTyping(e.document)),
      // Unsaved edits discarded: the file on disk is what runs now.
      vscode.workspace.onDidCloseTextDocument(
        (d) => this.controller.items.get(d.uri.toString()) && void this.fromDisk(d.uri),
      ),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.rediscover()),
    );
    // The files already open get their items (and gutter buttons) without waiting for the Testing view.
    setImmediate(() => vscode.workspace.textDocuments.forEach((d) => this.fromDocument(d)));
  }

  /** A run of one of the controller's profiles: against the sandbox or the selected environment. */
  run(
    target: 'sandbox' | 'environment',
    updateSnapshots: boolean,
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const parts: RunParts = {
      ...this.parts,
      controller: this.controller,
      results: this.testing.results,
      discover: () => this.discoverAll(),
      fileModel: (item) => this.fileModel(item),
      caseOf: (item) => caseOf.get(item),
    };
    return runTests(request, token, target, parts, updateSnapshots).finally(() => reach('testRunEnded'));
  }

  /** The Testing view's refresh: every file again. */
  refresh(): Promise<void> {
    this.discovery = undefined;
    return this.discoverAll();
  }

  /** Every request file of the workspace (bounded), read from disk unless open in an editor. */
  discoverAll(): Promise<void> {
    return (this.discovery ??= (async () => {
      const found = await vscode.workspace.findFiles(PATTERN, '**/node_modules/**', BOUNDS.testFiles);
      const seen = new Set(found.map((u) => u.toString()));
      this.controller.items.forEach((item) => {
        if (!seen.has(item.id)) this.controller.items.delete(item.id);
      });
      for (const uri of found) {
        const open = this.openDocument(uri);
        if (open) this.fromDocument(open);
        else await this.fromDisk(uri);
      }
    })());
  }

  /**
   * "TradeReq: Update Snapshots": runs the items it is given (a test item's context menu, a
   * snapshot's failure message) with the update profile; from the palette, the active request file,
   * else every file.
   */
  async updateSnapshots(args: readonly unknown[]): Promise<void> {
    const profile = this.testing.updateProfile;
    // A test item's menu passes the item; a test message's menu, `{ test, message }`.
    const given = args.map((a) => (isTestItem(a) ? a : (a as { test?: unknown } | undefined)?.test));
    let include = given.filter((i): i is vscode.TestItem => isTestItem(i) && this.owns(i));
    if (include.length === 0) {
      const active = vscode.window.activeTextEditor?.document;
      if (active?.languageId === 'tradereq' && this.fromDocument(active))
        include = [this.controller.items.get(active.uri.toString())!];
    }
    const request = new vscode.TestRunRequest(include.length > 0 ? include : undefined, undefined, profile);
    const cancel = new vscode.CancellationTokenSource();
    try {
      await profile.runHandler(request, cancel.token);
    } finally {
      cancel.dispose();
    }
  }

  /** Whether `item` is one of this controller's (a file item, or a request item of one). */
  private owns(item: vscode.TestItem): boolean {
    const file = item.parent ?? item;
    return this.controller.items.get(file.id) === file;
  }

  /** The base URL of the embedded sandbox, when it runs. */
  sandboxUrl(): string | undefined {
    return this.parts.sandbox.handle?.baseUrl;
  }

  /** The rate-limit state file the runs count in (tests fill it to make a paced run wait). */
  stateFile(): string {
    return this.parts.network.statePath();
  }

  /** After the workspace folders changed: everything again, if the Testing view asked for it already. */
  private rediscover(): void {
    if (!this.discovery) return;
    this.discovery = undefined;
    void this.discoverAll();
  }

  /** The parsed file of a file item: the open document's model, else the file on disk. */
  private async fileModel(item: vscode.TestItem): Promise<TradeReqDocument | string> {
    const uri = item.uri!;
    const open = this.openDocument(uri);
    if (open) return this.fromDocument(open) ?? this.models.get(open);
    return (await this.fromDisk(uri)) ?? vscode.l10n.t('the file cannot be read');
  }

  private openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  }

  private fromDocument(document: vscode.TextDocument): TradeReqDocument | undefined {
    if (document.languageId !== 'tradereq' || !vscode.workspace.getWorkspaceFolder(document.uri)) return undefined;
    const chars = this.models.chars(document) ?? document.getText().length;
    if (chars > BOUNDS.fileChars) return void this.tooLarge(document.uri);
    const doc = this.models.get(document);
    this.sync(document.uri, doc);
    return doc;
  }

  /** A request file not open, as the repository has it: a plain file of its folder, bounded while read (core/repo-file.ts). */
  private async fromDisk(uri: vscode.Uri): Promise<TradeReqDocument | undefined> {
    const bytes = await readRepositoryFile(uri, vscode.Uri.joinPath(uri, '..'), BOUNDS.fileChars);
    if (!bytes.ok) {
      if (bytes.error.kind === 'too-large') return void this.tooLarge(uri);
      if (bytes.error.kind === 'missing') return void this.controller.items.delete(uri.toString());
      // Not a plain file of its folder (a link out, a FIFO, a device): shown, never read.
      const item = this.fileItem(uri);
      item.children.replace([]);
      item.error = fileProblemText(vscode.workspace.asRelativePath(uri), bytes.error);
      return undefined;
    }
    const doc = parse(new TextDecoder().decode(bytes.value));
    this.sync(uri, doc);
    return doc;
  }

  private tooLarge(uri: vscode.Uri): void {
    const item = this.fileItem(uri);
    item.children.replace([]);
    item.error = vscode.l10n.t(
      'Larger than TradeReq reads ({0}): split it into smaller files.',
      formatSize(BOUNDS.fileChars),
    );
  }

  /** The file's item, with one child per request, kept (by id) across edits so results stay with them. */
  private sync(uri: vscode.Uri, doc: TradeReqDocument): void {
    const file = this.fileItem(uri);
    file.error = undefined;
    const cases = testCases(doc);
    // A `# @data` request's rows, read (once per data file, bounded) only when the file has one.
    const rows = cases.some((c) => c.data) ? rowsByRequest(cases, uri) : new Map<number, TestCase[]>();
    const children = cases.map((c) => {
      const item = file.children.get(c.id) ?? this.controller.createTestItem(c.id, c.label, uri);
      item.label = c.label;
      item.description = c.skip
        ? vscode.l10n.t('WebSocket: not run as a test')
        : c.name && c.name !== c.label
          ? c.name
          : undefined;
      item.range = toRange(c.range);
      if (!c.data) {
        // It may have had rows before an edit.
        item.children.replace([]);
        item.error = undefined;
      }
      caseOf.set(item, c.data ? this.withRows(item, uri, c, c.data, rows.get(c.index) ?? []) : c);
      return item;
    });
    file.children.replace(children);
  }

  /** A `# @data` request's item: a child per row of its file (read now), or the reason there are none; its case as the run takes it. */
  private withRows(
    item: vscode.TestItem,
    uri: vscode.Uri,
    c: TestCase,
    source: DataSource,
    rows: readonly TestCase[],
  ): TestCase {
    const problem = rows.find((r) => r.dataProblem !== undefined)?.dataProblem;
    if (problem !== undefined || rows.length === 0) {
      item.children.replace([]);
      item.error = problem ?? vscode.l10n.t('{0}: no rows', source.path);
      return { ...c, dataProblem: item.error };
    }
    item.error = undefined;
    const description =
      rows.length === 1
        ? vscode.l10n.t('1 row of {0}', source.path)
        : vscode.l10n.t('{0} rows of {1}', rows.length, source.path);
    item.description = item.description ? `${item.description} · ${description}` : description;
    const children = rows.map((r) => {
      const child = item.children.get(r.id) ?? this.controller.createTestItem(r.id, r.row!.text, uri);
      child.label = r.row!.text;
      child.range = toRange(r.range);
      caseOf.set(child, r);
      return child;
    });
    item.children.replace(children);
    return c;
  }

  private fileItem(uri: vscode.Uri): vscode.TestItem {
    const id = uri.toString();
    let item = this.controller.items.get(id);
    if (!item) {
      item = this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
      this.controller.items.add(item);
    }
    return item;
  }

  /** The items follow typing once it pauses: every request's item is rebuilt, which is no work for each key. */
  private afterTyping(document: vscode.TextDocument): void {
    if (document.languageId !== 'tradereq') return;
    const key = document.uri.toString();
    clearTimeout(this.typing.get(key));
    this.typing.set(
      key,
      setTimeout(() => {
        this.typing.delete(key);
        this.fromDocument(document);
      }, ITEMS_AFTER_TYPING_MS),
    );
  }

  dispose(): void {
    for (const t of this.typing.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}

function isTestItem(value: unknown): value is vscode.TestItem {
  return (
    typeof value === 'object' && value !== null && 'id' in value && 'children' in value && 'canResolveChildren' in value
  );
}

/** The row cases of each `# @data` request, by request (dist/lazy.js reads the files: the CSV parser loads with it). */
function rowsByRequest(cases: readonly TestCase[], uri: vscode.Uri): Map<number, TestCase[]> {
  const rowsOf = (source: DataSource): Result<DataTable, string> =>
    uri.scheme === 'file' ? lazy().loadData(uri.fsPath, source) : err(notOnDisk(source.path));
  const byRequest = new Map<number, TestCase[]>();
  for (const r of withRows(cases, rowsOf)) {
    if (!r.data) continue;
    const list = byRequest.get(r.index);
    if (list) list.push(r);
    else byRequest.set(r.index, [r]);
  }
  return byRequest;
}

/** The test case behind each request item (and each row item of a `# @data` request), as last discovered. */
const caseOf = new WeakMap<vscode.TestItem, TestCase>();
