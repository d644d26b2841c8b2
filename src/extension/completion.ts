import * as vscode from 'vscode';
import { completionsAt, wantsSymbols, type AnswerPath, type CompletionKind } from '../core/editor/completion';
import type { RequestBlock } from '../core/format/model';
import type { DocumentModels } from './documents';
import { toRange } from './documents';
import type { Environments } from './environments';
import type { Symbols } from './symbols';

const KINDS: Record<CompletionKind, vscode.CompletionItemKind> = {
  parameter: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.EnumMember,
  symbol: vscode.CompletionItemKind.Constant,
  variable: vscode.CompletionItemKind.Variable,
  directive: vscode.CompletionItemKind.Keyword,
  method: vscode.CompletionItemKind.Keyword,
  path: vscode.CompletionItemKind.File,
  section: vscode.CompletionItemKind.Module,
  snippet: vscode.CompletionItemKind.Snippet,
  operator: vscode.CompletionItemKind.Operator,
};

/** Completion in request files (registered at activation by providers.ts, with the characters that open it). */
export function completionProvider(
  models: DocumentModels,
  environments: Environments,
  symbols: Symbols,
  answerPaths: (uri: vscode.Uri, request: RequestBlock) => readonly AnswerPath[] | undefined,
): vscode.CompletionItemProvider {
  return {
    async provideCompletionItems(document, position) {
      await environments.ready(document.uri);
      const environment = environments.current(document.uri);
      const lineText = document.lineAt(position.line).text;
      const doc = models.get(document);
      // Symbols are looked up only where a symbol is being written (a value, a stream name).
      const wanted = wantsSymbols(doc, lineText, position.line, position.character);
      const list = wanted ? await symbols.list(environment) : [];
      const ctx = { environment, symbols: list, answerPaths: (r: RequestBlock) => answerPaths(document.uri, r) };
      return completionsAt(doc, lineText, position.line, position.character, ctx).map((e) => {
        const item = new vscode.CompletionItem(e.label, KINDS[e.kind]);
        if (e.insertText !== undefined)
          item.insertText = e.snippet ? new vscode.SnippetString(e.insertText) : e.insertText;
        item.detail = e.detail;
        if (e.documentation) item.documentation = new vscode.MarkdownString(e.documentation);
        item.sortText = e.sortText;
        item.range = toRange(e.range);
        // Keep the list open after a name (its value comes next) or a stream kind (its symbol comes next).
        if (e.retrigger || (e.kind === 'parameter' && e.insertText?.endsWith('= ')))
          item.command = { command: 'editor.action.triggerSuggest', title: vscode.l10n.t('Suggest values') };
        return item;
      });
    },
  };
}
