import * as vscode from 'vscode';

/** Wires services and registers providers; nothing slow happens here. */
export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('TradeReq', { log: true });
  context.subscriptions.push(output);
}

export function deactivate(): void {
  // Every disposable is owned by context.subscriptions.
}
