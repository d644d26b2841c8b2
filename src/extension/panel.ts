import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { FromPanel, PanelState } from '../core/panel/protocol';
import { panelHtml } from '../webview/html';
import { lazy } from './lazy';

/** A fresh nonce for each render of the page: 128 bits from a CSPRNG. */
function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export interface PanelHandlers {
  show(id: string): void;
  queryOrder(id: string): void;
  copyBody(id: string): void;
}

/**
 * The one response panel, reused. Its content comes from dist/webview only; every message from it is
 * validated and unknown ones are dropped.
 */
export class ResponsePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private state: PanelState | undefined;
  private readonly root: vscode.Uri;

  constructor(
    extensionUri: vscode.Uri,
    private readonly handlers: PanelHandlers,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  }

  /** The last state shown (for tests and for reopening the panel). */
  current(): PanelState | undefined {
    return this.state;
  }

  show(state: PanelState, reveal = true): void {
    this.state = state;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        'tradereq.response',
        'TradeReq Response',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        {
          enableScripts: true,
          enableForms: false,
          localResourceRoots: [this.root],
        },
      );
      const webview = this.panel.webview;
      webview.html = panelHtml({
        cspSource: webview.cspSource,
        nonce: newNonce(),
        scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.root, 'panel.js')).toString(),
        styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.root, 'panel.css')).toString(),
        title: 'TradeReq Response',
      });
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
      this.panel.onDidDispose(() => (this.panel = undefined));
    } else if (reveal) {
      this.panel.reveal(undefined, true);
    }
    void this.panel.webview.postMessage({ type: 'state', state });
  }

  private receive(raw: unknown): void {
    const parsed = lazy().FromPanelSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn('dropped a message from the response panel that does not fit the protocol');
      return;
    }
    const m: FromPanel = parsed.data;
    switch (m.type) {
      case 'ready':
        if (this.state) void this.panel?.webview.postMessage({ type: 'state', state: this.state });
        break;
      case 'show':
        this.handlers.show(m.id);
        break;
      case 'queryOrder':
        this.handlers.queryOrder(m.id);
        break;
      case 'copyBody':
        this.handlers.copyBody(m.id);
        break;
    }
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
