import * as vscode from 'vscode';

/** Request files: what every provider is registered for. */
const SELECTOR: vscode.DocumentSelector = { language: 'tradereq' };

/** The characters after which completion opens by itself. */
const COMPLETION_TRIGGERS = ['{', '@', '=', ' ', '[', '/', '"', '?', '&'];

/** The kind of edit a pasted cURL command becomes (import-commands.ts's CurlPaste makes it). */
export const CURL_PASTE_KIND = vscode.DocumentDropOrPasteEditKind.Text.append('tradereq', 'curl');

/** What each provider does, made by dist/language.js (language.ts) when it loads. */
export interface Providers {
  readonly completion: vscode.CompletionItemProvider;
  readonly hover: vscode.HoverProvider;
  readonly codeLenses: vscode.CodeLensProvider;
  readonly quickFixes: vscode.CodeActionProvider;
  readonly curlPaste: Required<Pick<vscode.DocumentPasteEditProvider, 'provideDocumentPasteEdits'>>;
}

/**
 * The providers, registered at activation with what VS Code is told about them (the trigger
 * characters, the kinds of their edits) and nothing else: each call goes to `providers()`, which
 * loads dist/language.js the first time (the parser, the check step, the catalogs), so activation
 * costs none of it.
 */
export function registerProviders(providers: () => Providers, lensesChanged: vscode.Event<void>): vscode.Disposable[] {
  const { languages } = vscode;
  return [
    languages.registerCodeLensProvider(SELECTOR, {
      onDidChangeCodeLenses: lensesChanged,
      provideCodeLenses: (document, token) => providers().codeLenses.provideCodeLenses(document, token),
    }),
    languages.registerCompletionItemProvider(
      SELECTOR,
      {
        provideCompletionItems: (document, position, token, context) =>
          providers().completion.provideCompletionItems(document, position, token, context),
      },
      ...COMPLETION_TRIGGERS,
    ),
    languages.registerHoverProvider(SELECTOR, {
      provideHover: (document, position, token) => providers().hover.provideHover(document, position, token),
    }),
    languages.registerCodeActionsProvider(
      SELECTOR,
      {
        provideCodeActions: (document, range, context, token) =>
          providers().quickFixes.provideCodeActions(document, range, context, token),
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    languages.registerDocumentPasteEditProvider(
      SELECTOR,
      {
        provideDocumentPasteEdits: (document, ranges, dataTransfer, context, token) =>
          providers().curlPaste.provideDocumentPasteEdits(document, ranges, dataTransfer, context, token),
      },
      { providedPasteEditKinds: [CURL_PASTE_KIND], pasteMimeTypes: ['text/plain'] },
    ),
  ];
}
