import * as vscode from 'vscode';
import { checkDocument } from '../core/check/check';
import type { NamedEnvironment } from '../core/env/constants';
import type { Diagnostic, Severity, TradeReqDocument } from '../core/format/model';
import type { DocumentModels } from './documents';
import { toRange } from './documents';
import type { Environments } from './environments';
import { lazy } from './lazy';
import { BOUNDS } from '../core/bounds';
import { OffloadedChecker } from '../core/check/offload';
import type { QuickFixes } from './quick-fixes';
import type { SettingsCache } from './settings';

/**
 * What the check step cannot see, since it reads no file: the `# @data` files of the document's
 * requests (read through dist/lazy.js, which holds the CSV parser; only for a document that has one).
 */
function dataProblems(
  document: vscode.TextDocument,
  doc: TradeReqDocument,
  environment: NamedEnvironment,
): Diagnostic[] {
  if (document.uri.scheme !== 'file' || !doc.requests.some((r) => r.directives.some((d) => d.name.text === 'data')))
    return [];
  return lazy().dataDiagnostics(doc, document.uri.fsPath, environment);
}

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/**
 * Owns the diagnostic collection: runs the core's pure check step on open, on change (debounced
 * by tradereq.diagnostics.delay) and when the environment changes. A file larger than
 * BOUNDS.workerCheckChars is checked in a worker thread, so that typing never waits for it.
 */
export class DiagnosticsManager implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('tradereq');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [this.collection];
  private readonly worker: OffloadedChecker;
  /** Documents whose check runs in the worker now, and whether they changed meanwhile. */
  private readonly inWorker = new Map<string, { again: boolean }>();
  /** Where each document was last checked (the integration tests read it). */
  private readonly runners = new Map<string, 'worker' | 'main'>();

  constructor(
    private readonly models: DocumentModels,
    private readonly environments: Environments,
    private readonly fixes: QuickFixes,
    private readonly settings: SettingsCache,
    extensionUri: vscode.Uri,
  ) {
    this.worker = new OffloadedChecker(vscode.Uri.joinPath(extensionUri, 'dist', 'check-worker.js').fsPath);
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 'now')),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, 'typing')),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      environments.onDidChange(() => this.checkAll()),
    );
    this.checkAll();
  }

  runner(uri: string): 'worker' | 'main' | undefined {
    return this.runners.get(uri);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.collection.delete(uri);
    this.fixes.forget(uri);
    clearTimeout(this.timers.get(key));
    this.runners.delete(key);
  }

  private checkAll(): void {
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 'now');
  }

  /** Checks `document` now, or after the typing delay; any other language is left at once. */
  private schedule(document: vscode.TextDocument, when: 'now' | 'typing'): void {
    if (document.languageId !== 'tradereq') return;
    const delayMs = when === 'now' ? 0 : this.settings.get().diagnosticsDelay;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.check(document);
      }, delayMs),
    );
  }

  private async check(document: vscode.TextDocument): Promise<void> {
    if (document.isClosed) return;
    await this.environments.ready(document.uri);
    const environment = this.environments.current(document.uri);
    const key = document.uri.toString();
    const size = document.offsetAt(new vscode.Position(document.lineCount, 0));
    if (size <= BOUNDS.workerCheckChars) {
      const doc = this.models.get(document);
      this.publish(
        document,
        [...checkDocument(doc, { environment }), ...dataProblems(document, doc, environment)],
        'main',
      );
      return;
    }
    const running = this.inWorker.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.inWorker.set(key, state);
    try {
      const version = document.version;
      const found = await this.worker.check(document.getText(), environment);
      if (!document.isClosed && document.version === version) this.publish(document, found, 'worker');
      else state.again = true;
    } catch {
      state.again = !document.isClosed;
    } finally {
      this.inWorker.delete(key);
      if (state.again && !document.isClosed) this.schedule(document, 'typing');
    }
  }

  private publish(document: vscode.TextDocument, found: readonly Diagnostic[], runner: 'worker' | 'main'): void {
    const shown = found.map((d) => ({ rule: d.rule, range: toRange(d.range), fix: d.fix, d }));
    this.collection.set(
      document.uri,
      shown.map(({ range, d }) => {
        const diagnostic = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
        diagnostic.source = 'tradereq';
        diagnostic.code = d.rule;
        return diagnostic;
      }),
    );
    this.fixes.remember(document.uri, shown);
    this.runners.set(document.uri.toString(), runner);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
    void this.worker.dispose();
  }
}
