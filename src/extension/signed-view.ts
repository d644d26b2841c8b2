import * as vscode from 'vscode';
import type { PreparedRequest } from '../core/net/send';
import type { AnswerStore } from '../core/request/answer-store';
import type { DocumentModels } from './documents';
import { editorKeySource } from './editor-keys';
import type { Environments } from './environments';
import type { KeyStore } from './keys';
import { lazy } from './lazy';
import type { Network } from './network';
import { answersOf } from './sending';
import { requireTrust } from './trust';

export interface SignedViewParts {
  readonly models: DocumentModels;
  readonly environments: Environments;
  readonly keys: KeyStore;
  readonly network: Network;
  readonly log: vscode.LogOutputChannel;
  /** The session's answers, for {{NAME.response.PATH}}: a request reads those of its own file and environment. */
  readonly answers: AnswerStore;
}

/**
 * Sign only and Copy as cURL: the request exactly as it would be sent, signed with the clock the
 * next send would use, nothing sent. The text comes from the core, as `tradereq sign` prints it.
 */
export class SignedView {
  constructor(private readonly parts: SignedViewParts) {}

  /** The request exactly as it would be sent, the API key masked. */
  async signOnly(document: vscode.TextDocument, index: number): Promise<string | undefined> {
    const ready = await this.prepare(document, index);
    return ready ? lazy().signedRequestText(ready.prepared) : undefined;
  }

  /** A curl command: the API key as a shell variable, never the secret. */
  async curl(document: vscode.TextDocument, index: number): Promise<string | undefined> {
    const ready = await this.prepare(document, index);
    return ready ? lazy().curlCommand(ready.prepared, ready.profile) : undefined;
  }

  private async prepare(
    document: vscode.TextDocument,
    index: number,
  ): Promise<{ prepared: PreparedRequest; profile?: string } | undefined> {
    const { models, environments, keys, network, log } = this.parts;
    if (!requireTrust(log)) return undefined;
    await environments.ready(document.uri);
    const doc = models.get(document);
    const request = doc.requests[index];
    if (!request) return undefined;
    const environment = environments.current(document.uri);
    const origin = new URL(environment.baseUrl).origin;
    const answers = answersOf(this.parts, document.uri, environment);
    const ready = await lazy().resolveAndPrepare(doc, request, environment, {
      key: editorKeySource(keys),
      context: { response: (n) => answers.get(n), now: () => network.get().clock.correctedNow(origin) },
    });
    if (ready.ok) return { prepared: ready.value.prepared, profile: ready.value.resolved.keyProfile };
    // Without a key the key source has already said so.
    if (ready.error.kind === 'bad-input')
      void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: {0}', ready.error.message));
    return undefined;
  }
}

/** Read-only documents for "Sign only". */
export class SignedDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = 'tradereq-signed';
  private readonly contents = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SignedDocuments.scheme, this);
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  async show(text: string): Promise<void> {
    const name = vscode.l10n.t('Signed request {0}.txt', ++this.count);
    const uri = vscode.Uri.from({ scheme: SignedDocuments.scheme, path: `/${name}` });
    this.contents.set(uri.toString(), text);
    await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
