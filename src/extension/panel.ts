import * as vscode from 'vscode';
import { nodeCrypto } from '../core/node-lazy';
import type { FromPanel, LiveMessage, PanelState } from '../core/panel/protocol';
import { panelHtml } from '../webview/html';
import { lazy } from './lazy';

/** A fresh nonce for each render of the page: 128 bits from a CSPRNG. */
function newNonce(): string {
  return nodeCrypto().randomBytes(16).toString('base64');
}

export interface PanelHandlers {
  show(id: string): void;
  queryOrder(id: string): void;
  copyBody(id: string): void;
  /** Send again, on an entry whose 700003 measured the clock again. */
  sendAgain(id: string): void;
  /** The page (re)loaded: it needs the live connections again. */
  ready(): void;
  unsubscribe(id: string, stream: string): void;
  sendMessage(id: string, text: string): void;
  disconnect(id: string): void;
  forget(id: string): void;
  /** Compare Two Answers: the entries' answers in VS Code's diff editor. */
  compare(left: string, right: string, mask: boolean): void;
  /** Why?: the signature doctor on what TradeReq sent for the entry. */
  why(id: string): void;
}

/**
 * The one response panel, reused: the response of the last send and the live connections' stream
 * views. Its content comes from dist/webview only; every message from it is validated and unknown
 * ones are dropped.
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
    this.open(reveal);
    void this.panel?.webview.postMessage({ type: 'state', state });
  }

  /**
   * A stream view message. One that brings a connection to the front (after Connect) opens the
   * panel; the others are dropped while it is closed (it gets everything again when it loads).
   */
  post(message: LiveMessage | { type: 'forget'; id: string }): void {
    if (message.type === 'live' && message.select) this.open(true);
    void this.panel?.webview.postMessage(message);
  }

  private open(reveal: boolean): void {
    if (this.panel) {
      if (reveal) this.panel.reveal(undefined, true);
      return;
    }
    const title = vscode.l10n.t('TradeReq Response');
    this.panel = vscode.window.createWebviewPanel(
      'tradereq.response',
      title,
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
      title,
      // The page speaks the display language: its tag, and the bundle its t() reads (undefined: English).
      lang: vscode.env.language,
      l10n: vscode.l10n.bundle,
    });
    webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
    this.panel.onDidDispose(() => (this.panel = undefined));
  }

  /** A message from the page (or from a test, as the page posts it): validated, then handled. */
  receive(raw: unknown): void {
    const parsed = lazy().FromPanelSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn('dropped a message from the response panel that does not fit the protocol');
      return;
    }
    const m: FromPanel = parsed.data;
    const h = this.handlers;
    switch (m.type) {
      case 'ready':
        if (this.state) void this.panel?.webview.postMessage({ type: 'state', state: this.state });
        return h.ready();
      case 'show':
        return h.show(m.id);
      case 'queryOrder':
        return h.queryOrder(m.id);
      case 'copyBody':
        return h.copyBody(m.id);
      case 'sendAgain':
        return h.sendAgain(m.id);
      case 'unsubscribe':
        return h.unsubscribe(m.id, m.stream);
      case 'sendMessage':
        return h.sendMessage(m.id, m.text);
      case 'disconnect':
        return h.disconnect(m.id);
      case 'forget':
        return h.forget(m.id);
      case 'compare':
        return h.compare(m.left, m.right, m.mask);
      case 'why':
        return h.why(m.id);
    }
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
