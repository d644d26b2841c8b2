import * as vscode from 'vscode';
import { BOUNDS } from '../core/bounds';
import type { TradeReqDocument } from '../core/format/model';
import { parse, reparse, type ParsedDocument } from '../core/format/parser';

/**
 * One model per document version, shared by completion, hover, diagnostics and code lenses: no
 * feature parses again. An edit re-parses only the blocks it touched (the others are kept and
 * moved), so the first answer after typing does not wait for a whole large file.
 */
export class DocumentModels implements vscode.Disposable {
  /** `chars`: the text's length, followed edit by edit (asking VS Code for it walks the lines). */
  private readonly models = new Map<string, { version: number; doc: ParsedDocument; chars: number }>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((d) => this.models.delete(d.uri.toString())),
      vscode.workspace.onDidChangeTextDocument((e) => this.update(e)),
    ];
  }

  /** The text's length when this version's model is kept (no copy of the text); else undefined. */
  chars(document: vscode.TextDocument): number | undefined {
    const cached = this.models.get(document.uri.toString());
    return cached && cached.version === document.version ? cached.chars : undefined;
  }

  get(document: vscode.TextDocument): TradeReqDocument {
    const key = document.uri.toString();
    const cached = this.models.get(key);
    if (cached && cached.version === document.version) return cached.doc;
    const text = document.getText();
    const doc = parse(text);
    this.models.set(key, { version: document.version, doc, chars: text.length });
    return doc;
  }

  /** Follows an edit of a document whose model is kept: one change re-parses its blocks; anything else parses anew later. */
  private update(e: vscode.TextDocumentChangeEvent): void {
    const key = e.document.uri.toString();
    const cached = this.models.get(key);
    if (!cached) return;
    const change = e.contentChanges.length === 1 ? e.contentChanges[0]! : undefined;
    const chars = change ? cached.chars + change.text.length - change.rangeLength : 0;
    if (!change || cached.version !== e.document.version - 1 || chars > BOUNDS.fileChars) {
      this.models.delete(key);
      return;
    }
    const fromLine = change.range.start.line;
    const lineChange = { fromLine, oldToLine: change.range.end.line, newToLine: fromLine + newlines(change.text) };
    const lines = (from: number, to: number): string => e.document.getText(new vscode.Range(from, 0, to, 0));
    this.models.set(key, { version: e.document.version, doc: reparse(cached.doc, lineChange, lines), chars });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.models.clear();
  }
}

function newlines(text: string): number {
  let n = 0;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

export function toRange(r: { startLine: number; startChar: number; endLine: number; endChar: number }): vscode.Range {
  return new vscode.Range(r.startLine, r.startChar, r.endLine, r.endChar);
}
