import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { FileStateStore } from '../core/budget/state';
import { ClockSync } from '../core/clock/sync';
import { registerCompletionSupport } from './completion';
import { DiagnosticsManager, registerQuickFixes } from './diagnostics';
import { DocumentModels } from './documents';
import { Environments } from './environments';
import { registerHoverSupport } from './hover';
import { Symbols } from './symbols';

const SELECTOR: vscode.DocumentSelector = { language: 'tradereq' };

/** Set by the bundle's first line (esbuild banner): when the extension's code started loading. */
declare const __tradereqLoadStart: number | undefined;
const loadStart = typeof __tradereqLoadStart === 'number' ? __tradereqLoadStart : performance.now();

/** What activate() returns: the time from loading the bundle to the end of activate(), for the activation benchmark. */
export interface TradeReqApi {
  readonly activationMs: number;
}

/** Wires services and registers providers; nothing slow happens here (files load on first use). */
export function activate(context: vscode.ExtensionContext): TradeReqApi {
  const log = vscode.window.createOutputChannel('TradeReq', { log: true });
  const models = new DocumentModels();
  const environments = new Environments(context.workspaceState, log);
  const symbols = new Symbols(models, log);
  const clock = new ClockSync(new FileStateStore());
  const clockSample = () => {
    const env = environments.current();
    try {
      return clock.sample(new URL(env.baseUrl).origin);
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
  return { activationMs: performance.now() - loadStart };
}

export function deactivate(): void {
  // Every disposable is owned by context.subscriptions.
}
