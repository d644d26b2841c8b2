import * as vscode from 'vscode';
import type { DocumentModels } from './documents';

/** Send · Sign only · Copy as cURL · Copy as Code above every request. */
export function registerCodeLensSupport(selector: vscode.DocumentSelector, models: DocumentModels): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const provider = vscode.languages.registerCodeLensProvider(selector, {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(document) {
      const lenses: vscode.CodeLens[] = [];
      for (const r of models.get(document).requests) {
        const line = r.separator?.startLine ?? r.requestLine.range.startLine;
        const range = new vscode.Range(line, 0, line, 0);
        const args = [document.uri, r.index];
        lenses.push(
          new vscode.CodeLens(range, {
            title: '$(play) Send',
            tooltip: 'Sign and send this request; the answer opens in the TradeReq panel',
            command: 'tradereq.sendRequest',
            arguments: args,
          }),
          new vscode.CodeLens(range, {
            title: 'Sign only',
            tooltip: 'Show the exact query, body and totalParams, without sending (API key masked)',
            command: 'tradereq.signOnly',
            arguments: args,
          }),
          new vscode.CodeLens(range, {
            title: 'Copy as cURL',
            tooltip: 'Copy a curl command; the API key as a shell variable, never the secret',
            command: 'tradereq.copyAsCurl',
            arguments: args,
          }),
          new vscode.CodeLens(range, {
            title: 'Copy as Code',
            tooltip:
              'Copy a program (Python, Node, Go, shell) that signs when it runs, with keys from environment variables',
            command: 'tradereq.copyAsCode',
            arguments: args,
          }),
        );
      }
      return lenses;
    },
  });
  return vscode.Disposable.from(provider, changed);
}
