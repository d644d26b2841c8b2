import * as vscode from 'vscode';
import { isWebSocket, type RequestBlock } from '../core/format/model';
import type { DocumentModels } from './documents';

/** What the lenses of WebSocket requests need of the live connections. */
interface LensConnections {
  /** The id of the open (or opening) connection of a request, if any. */
  connectionOf(uri: string, index: number): string | undefined;
}

/**
 * Send · Sign only · Copy as cURL · Copy as Code above every HTTP request; Connect, or Disconnect
 * while connected, above a WebSocket one (registered at activation by providers.ts, whose event
 * language.ts fires when a connection opens or closes).
 */
export function codeLensProvider(models: DocumentModels, connections: LensConnections): vscode.CodeLensProvider {
  return {
    provideCodeLenses(document) {
      const lenses: vscode.CodeLens[] = [];
      for (const r of models.get(document).requests) {
        const line = r.separator?.startLine ?? r.requestLine.range.startLine;
        const range = new vscode.Range(line, 0, line, 0);
        const args = [document.uri, r.index];
        const commands = isWebSocket(r) ? wsLenses(connections, document, r) : httpLenses();
        for (const c of commands) lenses.push(new vscode.CodeLens(range, { ...c, arguments: args }));
      }
      return lenses;
    },
  };
}

function httpLenses(): Omit<vscode.Command, 'arguments'>[] {
  return [
    {
      title: `$(play) ${vscode.l10n.t('Send')}`,
      tooltip: vscode.l10n.t('Sign and send this request; the answer opens in the TradeReq panel'),
      command: 'tradereq.sendRequest',
    },
    {
      title: vscode.l10n.t('Sign only'),
      tooltip: vscode.l10n.t('Show the exact query, body and totalParams, without sending (API key masked)'),
      command: 'tradereq.signOnly',
    },
    {
      title: vscode.l10n.t('Copy as cURL'),
      tooltip: vscode.l10n.t('Copy a curl command; the API key as a shell variable, never the secret'),
      command: 'tradereq.copyAsCurl',
    },
    {
      title: vscode.l10n.t('Copy as Code'),
      tooltip: vscode.l10n.t(
        'Copy a program (Python, Node, Go, shell) that signs when it runs, with keys from environment variables',
      ),
      command: 'tradereq.copyAsCode',
    },
  ];
}

function wsLenses(
  connections: LensConnections,
  document: vscode.TextDocument,
  r: RequestBlock,
): Omit<vscode.Command, 'arguments'>[] {
  if (connections.connectionOf(document.uri.toString(), r.index) === undefined)
    return [
      {
        title: `$(plug) ${vscode.l10n.t('Connect')}`,
        tooltip: vscode.l10n.t(
          'Open this WebSocket connection, subscribe its streams and show its pushes live in the TradeReq panel',
        ),
        command: 'tradereq.connect',
      },
    ];
  return [
    {
      title: `$(debug-disconnect) ${vscode.l10n.t('Disconnect')}`,
      tooltip: vscode.l10n.t('Close this connection (its listen key, if any, is closed too)'),
      command: 'tradereq.disconnect',
    },
    {
      title: vscode.l10n.t('Show stream'),
      tooltip: vscode.l10n.t('Bring its stream view to the front in the TradeReq panel'),
      command: 'tradereq.connect',
    },
  ];
}
