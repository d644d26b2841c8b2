import * as vscode from 'vscode';
import type { Diagnostic } from '../core/format/model';
import { RULES, type RuleId } from '../core/rules';

type Fix = NonNullable<Diagnostic['fix']>;

function key(rule: RuleId, r: vscode.Range): string {
  return `${rule}@${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

function isRuleId(code: unknown): code is RuleId {
  return typeof code === 'string' && Object.hasOwn(RULES, code);
}

/**
 * The replacement texts of the diagnostics shown, by document, rule and range: code actions get
 * copies of the diagnostics, not the objects the check step made.
 */
export class QuickFixes {
  private readonly byDocument = new Map<string, Map<string, Fix>>();

  remember(uri: vscode.Uri, found: readonly { rule: RuleId; range: vscode.Range; fix?: Fix }[]): void {
    const fixes = new Map<string, Fix>();
    for (const d of found) if (d.fix) fixes.set(key(d.rule, d.range), d.fix);
    this.byDocument.set(uri.toString(), fixes);
  }

  forget(uri: vscode.Uri): void {
    this.byDocument.delete(uri.toString());
  }

  /** The fix of a shown diagnostic, when its rule has quick fixes (src/core/rules.ts) and this one has one. */
  fixOf(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Fix | undefined {
    const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
    if (diagnostic.source !== 'tradereq' || !isRuleId(code)) return undefined;
    switch (code) {
      case 'method-case':
      case 'symbol-case':
      case 'stream-symbol-case':
      case 'unknown-stream':
      case 'stream-deployment':
      case 'enum-value':
      case 'timestamp-seconds':
      case 'expect-operator':
        return this.byDocument.get(uri.toString())?.get(key(code, diagnostic.range));
      default:
        return undefined;
    }
  }
}

/** The quick fixes of the diagnostics shown (registered at activation by providers.ts, for the QuickFix kind). */
export function quickFixProvider(fixes: QuickFixes): vscode.CodeActionProvider {
  return {
    provideCodeActions(document, _range, context) {
      const actions: vscode.CodeAction[] = [];
      for (const diagnostic of context.diagnostics) {
        const fix = fixes.fixOf(document.uri, diagnostic);
        if (!fix) continue;
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(document.uri, diagnostic.range, fix.replacement);
        action.diagnostics = [diagnostic];
        action.isPreferred = true;
        actions.push(action);
      }
      return actions;
    },
  };
}
