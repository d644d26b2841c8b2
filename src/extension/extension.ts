import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { PanelStateT } from '../core/panel/protocol';
import { registerCodeLensSupport } from './codelens';
import { registerCommands, SignedDocuments } from './commands';
import { registerCompletionSupport } from './completion';
import { DiagnosticsManager, registerQuickFixes } from './diagnostics';
import { DocumentModels } from './documents';
import { Environments } from './environments';
import { lazy } from './lazy';
import { History } from './history';
import { registerHoverSupport } from './hover';
import { KeyStore } from './keys';
import { ResponsePanel } from './panel';
import { Sending } from './sending';
import { StatusBar } from './statusbar';
import { Symbols } from './symbols';

const SELECTOR: vscode.DocumentSelector = { language: 'tradereq' };

/** Set by the bundle's first and last lines (esbuild banner and footer): when loading started and ended. */
declare const __tradereqLoadStart: number | undefined;
declare let __tradereqLoadEnd: number | undefined;

/** What activate() returns, for the activation benchmark: the extension's own cost, loading its code plus activate(). */
export interface TradeReqApi {
  readonly activationMs: number;
  readonly loadMs: number;
  readonly activateMs: number;
  /** What the response panel shows now (tests read it; it holds nothing secret). */
  panelState(): PanelStateT | undefined;
  /** Where a document's diagnostics were last computed: in a worker thread (large files) or on the main one. */
  diagnosticsRunner(uri: string): 'worker' | 'main' | undefined;
}

/** Wires services and registers providers; nothing slow happens here (files load on first use). */
export function activate(context: vscode.ExtensionContext): TradeReqApi {
  const activateStart = performance.now();
  const log = vscode.window.createOutputChannel('TradeReq', { log: true });
  const models = new DocumentModels();
  const environments = new Environments(context.workspaceState, log);
  const symbols = new Symbols(models, log);
  // The clock offset for hover on 700003, read from the state the command line shares.
  const clockSample = () => {
    const { ClockSync, FileStateStore } = lazy();
    try {
      return new ClockSync(new FileStateStore()).sample(new URL(environments.current().baseUrl).origin);
    } catch {
      return undefined;
    }
  };

  const keys = new KeyStore(context.secrets, log);
  const history = new History(context.workspaceState);
  // The panel's handlers reach the sending service, which needs the panel: tied after both exist.
  const late: { sending?: Sending } = {};
  const panel = new ResponsePanel(
    context.extensionUri,
    {
      show: (id) => {
        const entry = history.find(id);
        if (entry) late.sending?.showEntry(entry);
      },
      queryOrder: (id) => void late.sending?.queryOrder(id),
      copyBody: (id) => {
        const body = history.find(id)?.response?.body;
        if (body !== undefined) void vscode.env.clipboard.writeText(body);
      },
    },
    log,
  );
  const sending = (late.sending = new Sending(models, environments, keys, history, panel, log));
  const statusBar = new StatusBar(environments, (origin) => sending.budgetViewIfLoaded(origin));
  const signedDocs = new SignedDocuments();
  const diagnostics = new DiagnosticsManager(models, environments, context.extensionUri);

  context.subscriptions.push(
    log,
    models,
    environments,
    symbols,
    panel,
    sending,
    statusBar,
    signedDocs,
    sending.onDidSend(() => statusBar.refresh()),
    environments.onDidChange(() => statusBar.refresh()),
    vscode.window.onDidChangeActiveTextEditor(() => statusBar.refresh()),
    registerCodeLensSupport(SELECTOR, models),
    ...registerCommands(context, sending, keys, environments, signedDocs),
    diagnostics,
    registerCompletionSupport(SELECTOR, models, environments, symbols),
    registerHoverSupport(SELECTOR, models, environments, clockSample),
    registerQuickFixes(SELECTOR),
    vscode.commands.registerCommand('tradereq.selectEnvironment', async () => {
      await environments.ready();
      const current = environments.current().name;
      const picked = await vscode.window.showQuickPick(
        environments.all().map((e) => ({
          label: e.name,
          description: e.baseUrl,
          detail: e.key ? `key profile ${e.key}${e.confirm ? ' · asks before every order' : ''}` : 'no key profile',
          picked: e.name === current,
        })),
        {
          title: 'TradeReq: environment for sending, completion and checks',
          placeHolder: environments.error() ?? `Current: ${current}`,
        },
      );
      if (picked) await environments.select(picked.label);
    }),
    vscode.commands.registerCommand('tradereq.refreshSymbols', async () => {
      await environments.ready();
      symbols.refresh();
      const env = environments.current();
      const list = await symbols.exchangeInfo(env.baseUrl);
      void vscode.window.showInformationMessage(
        list.length > 0
          ? `TradeReq: ${list.length} symbols from the exchangeInfo of ${env.name}.`
          : `TradeReq: no symbols from ${env.baseUrl} (see the TradeReq output). Completion uses the tradereq.symbols setting and the workspace's files.`,
      );
    }),
  );
  void environments.ready().then(() => statusBar.refresh());
  const activateMs = performance.now() - activateStart;
  const loadMs =
    typeof __tradereqLoadStart === 'number' && typeof __tradereqLoadEnd === 'number'
      ? __tradereqLoadEnd - __tradereqLoadStart
      : 0;
  return {
    activationMs: loadMs + activateMs,
    loadMs,
    activateMs,
    panelState: () => panel.current(),
    diagnosticsRunner: (uri) => diagnostics.runner(uri),
  };
}

export function deactivate(): void {
  // Every disposable is owned by context.subscriptions.
}
