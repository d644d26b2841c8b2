import * as vscode from 'vscode';
import { parse } from '../core/format/parser';
import type { TradeReqDocument } from '../core/format/model';

/**
 * One parse per document version, shared by completion, hover, diagnostics and code lenses:
 * no feature parses again.
 */
export class DocumentModels implements vscode.Disposable {
  private readonly models = new Map<string, { version: number; doc: TradeReqDocument }>();
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.workspace.onDidCloseTextDocument((d) => this.models.delete(d.uri.toString()));
  }

  get(document: vscode.TextDocument): TradeReqDocument {
    const key = document.uri.toString();
    const cached = this.models.get(key);
    if (cached && cached.version === document.version) return cached.doc;
    const doc = parse(document.getText());
    this.models.set(key, { version: document.version, doc });
    return doc;
  }

  dispose(): void {
    this.subscription.dispose();
    this.models.clear();
  }
}

export function toRange(r: { startLine: number; startChar: number; endLine: number; endChar: number }): vscode.Range {
  return new vscode.Range(r.startLine, r.startChar, r.endLine, r.endChar);
}
