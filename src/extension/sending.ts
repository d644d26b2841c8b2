import * as vscode from 'vscode';
import { formatSize, HISTORY_LIMIT } from '../core/bounds';
import { answerPaths } from '../core/editor/expectation-help';
import type { AnswerPath } from '../core/editor/completion';
import { nodeCrypto } from '../core/node-lazy';
import { isWebSocket, requestInBlock, type RequestBlock, type TradeReqDocument } from '../core/format/model';
import { readOptions } from '../core/format/directives';
import type { BudgetView } from '../core/budget/budget';
import type { PanelEntry } from '../core/panel/protocol';
import { ANSWER_STORE, answerPlace, type AnswerStore, type PlacedAnswers } from '../core/request/answer-store';
import type { NamedEnvironment } from '../core/env/constants';
import { err } from '../core/result';
import { rowText } from '../core/testing/cases';
import type { PipelineFailure, Sent } from '../core/request/pipeline';
import { confirmOrder, offerBinding, sendDespiteErrors } from './dialogs';
import { errorsBeforeSend } from '../core/check/before-send';
import type { DocumentModels } from './documents';
import { toRange } from './documents';
import { editorKeySource, editorProfile } from './editor-keys';
import type { Environments } from './environments';
import type { History } from './history';
import type { KeyStore } from './keys';
import { lazy } from './lazy';
import type { Network } from './network';
import { requireTrust } from './trust';

export interface SendingParts {
  readonly models: DocumentModels;
  readonly environments: Environments;
  readonly keys: KeyStore;
  readonly history: History;
  readonly network: Network;
  readonly log: vscode.LogOutputChannel;
  /** The session's answers, for {{NAME.response.PATH}}: per file, environment and origin. */
  readonly answers: AnswerStore;
}

/** A send that reached the gate, as the panel shows it: its entry, and the budget of its signing account. */
export interface SendRecorded {
  readonly entry: PanelEntry;
  readonly budget: BudgetView;
}

/** What an in-memory request (the order query) reads and keeps: no answer, as it reads none and has no name. */
const NO_ANSWERS: PlacedAnswers = { get: () => undefined, set: () => undefined };

/**
 * Sending from the editor: the core pipeline with keys from SecretStorage, the origin binding and
 * confirmation dialogs, and the result in the history and the log; the panel shows what it reports.
 */
export class Sending implements vscode.Disposable {
  /** The paths of each request's last JSON answer this session, for completing `# @expect json PATH`. */
  private readonly paths = new Map<string, readonly AnswerPath[]>();
  /** What Send again does, by entry id: sends of this session only, each used once. */
  private readonly again = new Map<string, () => Promise<unknown>>();
  private readonly sent = new vscode.EventEmitter<SendRecorded>();
  private readonly busy = new vscode.EventEmitter<boolean>();
  /** Fires after each send that reached the gate (the panel shows it, the status bar the budget left). */
  readonly onDidSend = this.sent.event;
  /** Fires when a send starts (true) and ends (false). */
  readonly onDidChangeBusy = this.busy.event;

  constructor(private readonly parts: SendingParts) {}

  /** The paths of the last JSON answer of `request` of `uri` sent from the editor this session. */
  answerPaths(uri: vscode.Uri, request: RequestBlock): readonly AnswerPath[] | undefined {
    return this.paths.get(answerKey(uri, request));
  }

  /** The request a command is about when it names none: the one whose block holds the cursor. */
  requestAt(document: vscode.TextDocument, line: number): RequestBlock | undefined {
    return requestInBlock(this.parts.models.get(document), line);
  }

  /** Sends one request of `document`; resolves to the panel entry when something was sent. */
  async send(document: vscode.TextDocument, index: number): Promise<PanelEntry | undefined> {
    if (!requireTrust(this.parts.log)) return undefined;
    const doc = this.parts.models.get(document);
    const request = doc.requests[index];
    return request ? this.run(doc, request, document) : undefined;
  }

  async sendAll(document: vscode.TextDocument): Promise<void> {
    if (!requireTrust(this.parts.log)) return;
    const doc = this.parts.models.get(document);
    for (const request of doc.requests) {
      // A WS request is connected, not sent (Connect on its lens): Send All goes on past it.
      if (isWebSocket(request)) continue;
      const entry = await this.run(doc, request, document);
      // After a refusal by the gate every later request would be refused too: stop.
      if (!entry || entry.outcome === 'refused') break;
    }
  }

  /**
   * Send again, pressed on a 700003 whose clock was measured again: the same request of the same
   * file (as it reads now) once more, through the gates and the confirmation of any send.
   */
  async sendAgain(id: string): Promise<void> {
    const again = this.again.get(id);
    this.again.delete(id);
    if (again) await again();
    else this.parts.log.info('Send again: that send can no longer be repeated from the panel; send it from its file.');
  }

  /** Whether Send again on the entry `id` sends: offered on it this session, and not used yet. */
  canSendAgain(id: string): boolean {
    return this.again.has(id);
  }

  /** The one-click query of an order whose outcome is unknown: built as data from its validated ids. */
  async queryOrder(id: string): Promise<void> {
    const entry = this.parts.history.find(id);
    if (!entry?.orderRef || !requireTrust(this.parts.log)) return;
    const title = vscode.l10n.t('Query the order of "{0}"', entry.title);
    const doc = lazy().orderQueryDocument(entry.request.url, entry.orderRef, title);
    if (doc) await this.run(doc, doc.requests[0]!);
    else this.parts.log.warn('not sent: the order to query has no id of the documented shape');
  }

  private async run(
    doc: TradeReqDocument,
    request: RequestBlock,
    document?: vscode.TextDocument,
  ): Promise<PanelEntry | undefined> {
    const { environments, keys, log, network } = this.parts;
    await environments.ready(document?.uri);
    const environment = environments.current(document?.uri);
    // An in-memory request (the order query) is TradeReq's own: only a file's is checked.
    if (document && !(await this.decided(doc, request, environment))) return undefined;
    const row = await pickRow(doc, request, document);
    if (row === 'not-sent') return undefined;
    this.busy.fire(true);
    try {
      const result = await lazy().runRequest(doc, request, environment, {
        ...network.get(),
        variables: row?.values,
        clockSync: true,
        responses: document ? answersOf(this.parts, document.uri, environment) : NO_ANSWERS,
        key: editorKeySource(keys),
        onUnboundOrigin: offerBinding(keys, log, () => (document ? this.send(document, request.index) : undefined)),
        confirm: confirmOrder(log),
      });
      if (!result.ok) return await this.notSent(result.error, document);
      if (document) this.keepPaths(document.uri, request, result.value.report.decoded?.json);
      const title = row ? `${titleOf(request)} [${row.text}]` : titleOf(request);
      return await this.record(result.value, title, () => this.sendOnceMore(doc, request, document?.uri));
    } finally {
      this.busy.fire(false);
    }
  }

  /** Whether a request goes: yes without errors that check finds; with some, when the user says Send anyway. */
  private async decided(doc: TradeReqDocument, request: RequestBlock, environment: NamedEnvironment): Promise<boolean> {
    const errors = errorsBeforeSend(doc, environment)(request);
    if (errors.length === 0) return true;
    const { log } = this.parts;
    const go = await sendDespiteErrors(log, titleOf(request), errors);
    const rules = [...new Set(errors.map((d) => d.rule))].join(', ');
    if (go) log.info(`sending "${titleOf(request)}" despite ${errors.length} check error(s) (${rules}): Send anyway`);
    else log.info(`not sent: check found ${errors.length} error(s) in "${titleOf(request)}" (${rules})`);
    return go;
  }

  /** Only paths are kept (a short list), never the answer; HISTORY_LIMIT requests at most, the oldest going first. */
  private keepPaths(uri: vscode.Uri, request: RequestBlock, json: unknown): void {
    if (json === undefined) return;
    const key = answerKey(uri, request);
    this.paths.delete(key);
    this.paths.set(key, answerPaths(json));
    if (this.paths.size > HISTORY_LIMIT) this.paths.delete(this.paths.keys().next().value!);
  }

  /** The request sent once more: the file's as it reads now, or an in-memory one (the order query) as it was. */
  private async sendOnceMore(doc: TradeReqDocument, request: RequestBlock, uri?: vscode.Uri): Promise<unknown> {
    if (!uri) return requireTrust(this.parts.log) ? this.run(doc, request) : undefined;
    return this.send(await vscode.workspace.openTextDocument(uri), request.index);
  }

  /** A send that reached the gate: into the history, the log and the panel (with Send again after a 700003). */
  private async record(sent: Sent, title: string, again: () => Promise<unknown>): Promise<PanelEntry> {
    const { history, log, network } = this.parts;
    // The clock sample (a read of the state file) serves only an error's hover text.
    const clock = sent.report.decoded?.error ? network.get().clock.sample(sent.resolved.origin) : undefined;
    const keyProfile = editorProfile(sent.resolved);
    const entry = lazy().entryFromResult(sent, {
      id: nodeCrypto().randomUUID(),
      at: Date.now(),
      title,
      clock,
      keyProfile,
      remote: vscode.env.remoteName,
    });
    network.rememberAccount(sent.resolved.origin, sent.report.budget.account);
    // In the history at once; its saving (a round trip to the window) is not waited for before the panel shows it.
    const saved = history
      .add(entry)
      .catch((e: unknown) => log.warn(`history not saved: ${e instanceof Error ? e.name : 'error'}`));
    logEntry(log, entry, sent.resolved.environment.name);
    if (entry.sendAgain) this.offerSendAgain(entry.id, again);
    // The report's budget names the signing account; a view by origin alone has no account counter.
    this.sent.fire({ entry, budget: sent.report.budget });
    await saved;
    return entry;
  }

  /** Keeps what Send again on the entry `id` does; past the history's length an entry is no longer shown. */
  private offerSendAgain(id: string, send: () => Promise<unknown>): void {
    this.again.set(id, send);
    for (const old of this.again.keys()) {
      if (this.again.size <= HISTORY_LIMIT) break;
      this.again.delete(old);
    }
  }

  private async notSent(failure: PipelineFailure, document?: vscode.TextDocument): Promise<undefined> {
    if (failure.kind === 'bad-input') {
      this.parts.log.info(`not sent: ${failure.message}`);
      const d = failure.diagnostics[0];
      if (document && d) {
        const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
        editor.selection = new vscode.Selection(toRange(d.range).start, toRange(d.range).end);
        editor.revealRange(toRange(d.range));
      }
      void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: not sent: {0}', failure.message));
    } else if (failure.kind === 'refused') {
      this.parts.log.info(`not sent: ${failure.message}`);
      if (failure.reason === 'confirmation')
        void vscode.window.showInformationMessage(vscode.l10n.t('TradeReq: {0}', failure.message));
      // A clock offset beyond the bound: the message names it and what to do (core/clock/clock.ts).
      else if (failure.reason === 'clock')
        void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: {0}', failure.message));
    }
    return undefined;
  }

  dispose(): void {
    this.sent.dispose();
    this.busy.dispose();
  }
}

/**
 * A `# @data` request's row to send: the only one, or the one picked from its file's rows (docs/format.md,
 * Data files); 'not-sent' when the file gives none (said) or no row was picked.
 */
async function pickRow(
  doc: TradeReqDocument,
  request: RequestBlock,
  document: vscode.TextDocument | undefined,
): Promise<{ values: ReadonlyMap<string, string>; text: string } | undefined | 'not-sent'> {
  const source = readOptions(doc, request).options.data;
  if (!source || !document) return undefined;
  const table =
    document.uri.scheme === 'file' ? lazy().loadData(document.uri.fsPath, source) : err(notOnDisk(source.path));
  if (!table.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: not sent: # @data {0}', table.error));
    return 'not-sent';
  }
  const rows = table.value.rows.map((values, i) => ({ values, text: rowText(table.value, i) }));
  if (rows.length === 1) return rows[0];
  const picked = await vscode.window.showQuickPick(
    rows.map((r) => ({ label: r.text, row: r })),
    {
      title: vscode.l10n.t('Send with which row of {0}?', source.path),
      placeHolder: vscode.l10n.t('{0} rows: one is sent', rows.length),
    },
  );
  return picked?.row ?? 'not-sent';
}

/**
 * The answers a request of the document `uri` reads and keeps when sent in `environment`, in the
 * session's store (docs/format.md, Variables): Send, Sign only, Copy as cURL and Connect alike.
 */
export function answersOf(
  parts: { readonly answers: AnswerStore; readonly log: vscode.LogOutputChannel },
  uri: vscode.Uri,
  environment: NamedEnvironment,
): PlacedAnswers {
  return parts.answers.at(answerPlace(uri.toString(), environment), (name) =>
    parts.log.warn(
      `the answer of "${name}" is larger than ${formatSize(ANSWER_STORE.answerChars)}: not kept, so {{${name}.response.…}} cannot read it`,
    ),
  );
}

/** Why a `# @data` file cannot be read: its request file is not on disk (untitled, or a virtual file). */
export function notOnDisk(path: string): string {
  return vscode.l10n.t('{0} cannot be read: the request file is not on disk', path);
}

/** A request of a file as its answers are kept: by its `# @name`, else by its request line. */
function answerKey(uri: vscode.Uri, request: RequestBlock): string {
  const rl = request.requestLine;
  return `${uri.toString()}\n${request.name ? `@${request.name.text}` : `${rl.method.text} ${rl.path.text}`}`;
}

function titleOf(request: RequestBlock): string {
  return (
    request.title?.text ?? request.name?.text ?? `${request.requestLine.method.text} ${request.requestLine.path.text}`
  );
}

/** The entry is already redacted (API key masked, no secret): the log shows what the panel shows. */
function logEntry(log: vscode.LogOutputChannel, entry: PanelEntry, environment: string): void {
  const took = entry.timings ? ` · ${entry.timings.totalMs} ms` : ''; // l10n-ignore: part of the log line below
  log.info(`${entry.request.method} ${entry.request.url.split('?')[0]} (${environment}) → ${entry.summary}${took}`);
  const request = entry.request;
  log.debug(
    [
      'request:',
      `${request.method} ${request.url}`,
      ...request.headers.map(([n, v]) => `${n}: ${v}`),
      request.body,
    ].join('\n'),
  );
  const response = entry.response;
  if (response) {
    const head = `${entry.status ?? ''} ${entry.statusMeaning ?? ''}`;
    log.debug(
      ['response:', head, ...response.headers.map(([n, v]) => `${n}: ${v}`), response.body.slice(0, 4096)].join('\n'),
    );
  }
}
