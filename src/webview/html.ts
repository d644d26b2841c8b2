/**
 * The response panel's HTML document, as a plain string. Used by the extension host side and by the
 * tests, so it imports neither `vscode` nor anything of the DOM. The panel's content is built by the
 * bundled script (main.ts) with DOM APIs; this document holds no data, only the CSP, the bundle, the
 * display language and its translations (read once by l10n.ts, as data: never run).
 */

export interface PanelHtmlOptions {
  /** `webview.cspSource`: the origin the webview loads local resources from. */
  readonly cspSource: string;
  /** A fresh random nonce for this render (newNonce in src/extension/panel.ts). */
  readonly nonce: string;
  /** `webview.asWebviewUri(dist/webview/panel.js)`, as a string. */
  readonly scriptUri: string;
  /** `webview.asWebviewUri(media/panel.css)`, as a string. */
  readonly styleUri: string;
  /** The title, also the page's level-one heading. */
  readonly title: string;
  /** The display language (`vscode.env.language`, e.g. `zh-cn`); English when absent or malformed. */
  readonly lang?: string;
  /** The display language's translations (`vscode.l10n.bundle`); undefined for English. */
  readonly l10n?: Readonly<Record<string, string>>;
}

/** Escapes text for an HTML text node or a double-quoted attribute value (the only kind this file writes). */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// A nonce is base64 (or base64url); anything else could end the CSP source expression.
const NONCE = /^[A-Za-z0-9+/_=-]{16,}$/;
// One or more source expressions separated by spaces; a ';' ',' or stray quote would add or break directives.
// 'self' is allowed: VS Code in a browser gives `'self' https://*.vscode-cdn.net` as webview.cspSource.
const CSP_SOURCE = /^(?:'self'|[^\s;,'"<>]+)(?: (?:'self'|[^\s;,'"<>]+))*$/;

// A BCP 47 language tag as VS Code names display languages ("en", "zh-cn", "pt-br"); anything else is not written.
const LANG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

function contentSecurityPolicy(cspSource: string, nonce: string): string {
  if (!CSP_SOURCE.test(cspSource))
    throw new Error(`panelHtml: not a CSP source expression: ${JSON.stringify(cspSource)}`);
  if (!NONCE.test(nonce)) throw new Error('panelHtml: the nonce must be base64 of at least 16 characters');
  return `default-src 'none'; style-src ${cspSource}; script-src 'nonce-${nonce}'; img-src ${cspSource} data:; font-src ${cspSource};`;
}

export function panelHtml(opts: PanelHtmlOptions): string {
  const csp = contentSecurityPolicy(opts.cspSource, opts.nonce);
  const lang = opts.lang !== undefined && LANG.test(opts.lang) ? opts.lang : 'en';
  const l10n = opts.l10n === undefined ? '' : ` data-l10n="${escapeHtml(JSON.stringify(opts.l10n))}"`;
  return `<!DOCTYPE html>
<html lang="${lang}"${l10n}>
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(opts.styleUri)}">
<title>${escapeHtml(opts.title)}</title>
</head>
<body>
<main class="page">
<h1 class="visually-hidden">${escapeHtml(opts.title)}</h1>
<div id="app" class="app" data-testid="app"></div>
</main>
<script nonce="${escapeHtml(opts.nonce)}" src="${escapeHtml(opts.scriptUri)}"></script>
</body>
</html>
`;
}
