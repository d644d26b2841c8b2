import * as vscode from 'vscode';
import { hoverAt } from '../core/editor/hover';
import type { DocumentModels } from './documents';
import { toRange } from './documents';
import type { Environments } from './environments';

/** Hover in request files (registered at activation by providers.ts). */
export function hoverProvider(
  models: DocumentModels,
  environments: Environments,
  clock: (uri: vscode.Uri) => import('../core/clock/clock').ClockSample | undefined,
): vscode.HoverProvider {
  return {
    async provideHover(document, position) {
      await environments.ready(document.uri);
      const result = hoverAt(
        models.get(document),
        document.lineAt(position.line).text,
        position.line,
        position.character,
        { environment: environments.current(document.uri), clock: () => clock(document.uri) },
      );
      if (!result) return undefined;
      // Hover text is built from escaped values; it never runs commands or renders HTML.
      const markdown = new vscode.MarkdownString(result.markdown);
      markdown.isTrusted = false;
      markdown.supportHtml = false;
      return new vscode.Hover(markdown, toRange(result.range));
    },
  };
}
