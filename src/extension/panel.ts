import * as vscode from 'vscode';
import { nodeCrypto } from '../core/node-lazy';
import type { FromPanel, LiveMessage, PanelState } from '../core/panel/protocol';
import { panelHtml } from '../webview/html';
import { lazy } from './lazy';

/** A fresh nonce for each render of the page: 128 bits from a CSPRNG. */
function newNonce(): string {
  return nodeCrypto().randomBytes(16).toString('base64');
}

/**
 * The one response panel, reused: the response of the last send and the live connections' stream
 * views. Its content comes from dist/webview only; every message from it is validated and unknown
 * ones are dropped. It reports what the user did (onDidAct); the services it concerns act on it.
 */
export class ResponsePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private state: PanelState | undefined;
  private readonly root: vscode.Uri;
  private readonly acted = new vscode.EventEmitter<FromPanel>();
  /** What the user did in the page (a button, a message typed), validated; `ready` when the page (re)loaded. */
  readonly onDidAct = this.acted.event;

  constructor(
    extensionUri: vscode.Uri,
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

  /** A message from the page (or from a test, as the page posts it): validated, then reported. */
  receive(raw: unknown): void {
    const parsed = lazy().FromPanelSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn('dropped a message from the response panel that does not fit the protocol');
      return;
    }
    const m: FromPanel = parsed.data;
    // A page that (re)loaded gets what the panel showed; the live connections come from their owner.
    if (m.type === 'ready' && this.state) void this.panel?.webview.postMessage({ type: 'state', state: this.state });
    this.acted.fire(m);
  }

  dispose(): void {
    this.panel?.dispose();
    this.acted.dispose();
  }
}
