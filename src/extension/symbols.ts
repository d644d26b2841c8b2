import * as vscode from 'vscode';
import type { SymbolEntry } from '../core/editor/completion';
import type { NamedEnvironment } from '../core/env/constants';
import { lazy } from './lazy';
import { editorNetworkSettings } from './proxy-settings';
import { parse } from '../core/format/parser';
import type { TradeReqDocument } from '../core/format/model';
import type { DocumentModels } from './documents';
import type { SettingsCache } from './settings';
import { readRepositoryFile } from './workspace-fs';
import { BOUNDS } from '../core/bounds';
import { fileProblemText } from '../core/repo-file';

const MAX_FILES = 500;
const SYMBOL = /^[A-Z0-9]{2,40}$/;

/**
 * Symbols for completion: the selected environment's exchangeInfo (fetched once per base URL,
 * only in a trusted workspace; refreshed by a command), the tradereq.symbols setting, and the
 * symbols other .tradereq files of the workspace use.
 */
export class Symbols implements vscode.Disposable {
  private readonly fetched = new Map<string, Promise<SymbolEntry[]>>();
  private workspace: Map<string, string[]> | undefined;
  private scanning: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly models: DocumentModels,
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsCache,
  ) {
    this.disposables.push(
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.languageId === 'tradereq' && this.workspace)
          this.workspace.set(d.uri.toString(), symbolsOf(this.models.get(d)));
      }),
    );
  }

  /** Everything known now; starts loading what is not, and waits for it at most `waitMs`. */
  async list(environment: NamedEnvironment, waitMs = 1500): Promise<SymbolEntry[]> {
    const settings = this.settings.get();
    const fromSettings: SymbolEntry[] = settings.symbols.map((symbol) => ({ symbol, source: 'setting' }));
    const pending: Promise<unknown>[] = [(this.scanning ??= this.scan())];
    let fromExchange: SymbolEntry[] = [];
    if (settings.fetchExchangeInfo && vscode.workspace.isTrusted) {
      const p = this.exchangeInfo(environment.baseUrl);
      pending.push(p.then((s) => (fromExchange = s)));
    }
    await Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, waitMs))]);
    const fromWorkspace: SymbolEntry[] = [...new Set([...(this.workspace?.values() ?? [])].flat())].map((symbol) => ({
      symbol,
      source: 'workspace',
    }));
    return [...fromExchange, ...fromSettings, ...fromWorkspace];
  }

  /** Forgets fetched exchangeInfo, so the next completion fetches it again. */
  refresh(): void {
    this.fetched.clear();
  }

  /** The symbols of `baseUrl`'s exchangeInfo; resolves to [] when it cannot be had. */
  exchangeInfo(baseUrl: string): Promise<SymbolEntry[]> {
    let p = this.fetched.get(baseUrl);
    if (!p) {
      p = (async () => {
        // The sender and the budget load only now, not at activation.
        const { fetchSymbols, NodeHttpSender, Budget, FileStateStore, Network: Routes } = lazy();
        const sender = new NodeHttpSender(
          {
            connectTimeoutMs: 2000,
            headersTimeoutMs: 5000,
            bodyTimeoutMs: 5000,
            maxResponseBytes: BOUNDS.responseBytes,
            deadlineMs: 10_000,
          },
          new Routes(editorNetworkSettings()),
        );
        try {
          const r = await fetchSymbols(baseUrl, { sender, budget: new Budget(new FileStateStore()) });
          if (!r.ok) {
            this.log.info(
              `exchangeInfo of ${baseUrl}: ${r.error}; symbols come from the tradereq.symbols setting and the workspace`,
            );
            this.fetched.delete(baseUrl);
            return [];
          }
          this.log.info(`exchangeInfo of ${baseUrl}: ${r.value.length} symbols`);
          return r.value;
        } finally {
          await sender.close();
        }
      })();
      this.fetched.set(baseUrl, p);
    }
    return p;
  }

  private async scan(): Promise<void> {
    const files = await vscode.workspace.findFiles('**/*.tradereq', '**/node_modules/**', MAX_FILES);
    const found = new Map<string, string[]>();
    for (const uri of files) {
      try {
        const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        const doc = open ? this.models.get(open) : await diskDocument(uri);
        found.set(uri.toString(), symbolsOf(doc));
      } catch (e) {
        this.log.debug(`could not read ${uri.fsPath} for symbols: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.workspace = found;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** A request file not open in an editor, as the repository has it: a plain file of its folder, within the bound (a link to /dev/zero is not read). */
async function diskDocument(uri: vscode.Uri): Promise<TradeReqDocument> {
  const bytes = await readRepositoryFile(uri, vscode.Uri.joinPath(uri, '..'), BOUNDS.fileChars);
  if (!bytes.ok) throw new Error(fileProblemText(uri.fsPath, bytes.error));
  return parse(new TextDecoder().decode(bytes.value));
}

function symbolsOf(doc: TradeReqDocument): string[] {
  const out = new Set<string>();
  for (const v of doc.variables) if (/symbol/i.test(v.name.text) && SYMBOL.test(v.value.text)) out.add(v.value.text);
  for (const r of doc.requests)
    for (const p of r.params) if (p.name.text === 'symbol' && SYMBOL.test(p.value.text)) out.add(p.value.text);
  return [...out];
}
