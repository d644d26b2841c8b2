import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { registerCompletionSupport } from './completion';
import { DiagnosticsManager, registerQuickFixes } from './diagnostics';
import { DocumentModels } from './documents';
import { Environments } from './environments';
import { lazy } from './lazy';
import { registerHoverSupport } from './hover';
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

  context.subscriptions.push(
    log,
    models,
    environments,
    symbols,
    new DiagnosticsManager(models, environments),
    registerCompletionSupport(SELECTOR, models, environments, symbols),
    registerHoverSupport(SELECTOR, models, environments, clockSample),
    registerQuickFixes(SELECTOR),
    vscode.commands.registerCommand('tradereq.selectEnvironment', async () => {
      await environments.ready();
      const current = environments.current().name;
      const picked = await vscode.window.showQuickPick(
        environments.all().map((e) => ({ label: e.name, description: e.baseUrl, detail: e.key ? `key profile ${e.key}${e.confirm ? ' · asks before every order' : ''}` : 'no key profile', picked: e.name === current })),
        { title: 'TradeReq: environment for sending, completion and checks', placeHolder: environments.error() ?? `Current: ${current}` },
      );
      if (picked) await environments.select(picked.label);
    }),
    vscode.commands.registerCommand('tradereq.refreshSymbols', async () => {
      await environments.ready();
      symbols.refresh();
      const env = environments.current();
      const list = await symbols.exchangeInfo(env.baseUrl);
      void vscode.window.showInformationMessage(list.length > 0 ? `TradeReq: ${list.length} symbols from the exchangeInfo of ${env.name}.` : `TradeReq: no symbols from ${env.baseUrl} (see the TradeReq output). Completion uses the tradereq.symbols setting and the workspace's files.`);
    }),
  );
  const activateMs = performance.now() - activateStart;
  const loadMs = typeof __tradereqLoadStart === 'number' && typeof __tradereqLoadEnd === 'number' ? __tradereqLoadEnd - __tradereqLoadStart : 0;
  return { activationMs: loadMs + activateMs, loadMs, activateMs };
}

export function deactivate(): void {
  // Every disposable is owned by context.subscriptions.
}
