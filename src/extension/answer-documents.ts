import * as vscode from 'vscode';
import { HISTORY_LIMIT } from '../core/bounds';
import type { PanelEntry } from '../core/panel/protocol';
import type { History } from './history';
import { tools } from './lazy';

const SCHEME = 'tradereq-answer';

/** What an answer document's URI names: the history entry and whether its volatile fields are masked. */
function answerOf(uri: vscode.Uri): { id: string; mask: boolean } | undefined {
  if (uri.scheme !== SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const id = query.get('id');
  return id === null || id.length > 100 ? undefined : { id, mask: query.get('mask') === '1' };
}

/**
 * The body's volatile fields masked as snapshots mask them (core/testing/mask.ts): ids and times,
 * and every client order id, a fresh one per send being as volatile for a comparison as the service's.
 */
function maskVolatileFields(json: unknown): unknown {
  return tools().maskVolatile(json).value;
}

/**
 * Compare Two Answers: the answers of two sends of the history as read-only documents
 * (`tradereq-answer:`, made from the redacted entries, text from core/panel/answer-text.ts) in
 * VS Code's diff editor. The provider is registered on the first compare.
 */
export class AnswerDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private registration: vscode.Disposable | undefined;

  constructor(
    private readonly history: History,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const answer = answerOf(uri);
    const entry = answer && this.history.find(answer.id);
    if (!entry)
      return vscode.l10n.t('This send is no longer in the history (it keeps the last {0}).', HISTORY_LIMIT) + '\n';
    return tools().answerText(entry, answer.mask ? maskVolatileFields : undefined);
  }

  /** Opens the answers of the entries `leftId` and `rightId` side by side; false when there is nothing to compare. */
  async compare(leftId: string, rightId: string, mask: boolean): Promise<boolean> {
    const left = this.history.find(leftId);
    const right = this.history.find(rightId);
    if (leftId === rightId || !left || !right) {
      this.log.warn('Compare Two Answers: two different sends of the history are needed');
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'TradeReq: pick two different sends of the history to compare (a send older than the last {0} is gone).',
          HISTORY_LIMIT,
        ),
      );
      return false;
    }
    this.registration ??= vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
    const { answerLabel } = tools();
    const title = mask
      ? vscode.l10n.t('{0} ↔ {1} (volatile fields masked)', answerLabel(left), answerLabel(right))
      : `${answerLabel(left)} ↔ ${answerLabel(right)}`;
    await vscode.commands.executeCommand('vscode.diff', this.uri(left, mask), this.uri(right, mask), title, {
      preview: true,
    });
    return true;
  }

  /** Compare Two Answers from the command palette: the left answer, then the right one, picked from the history. */
  async pickAndCompare(): Promise<boolean> {
    const entries = this.history.list();
    if (entries.length < 2) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'TradeReq: Compare Two Answers needs two sends in the history: send a request twice (e.g. to the sandbox, then live).',
        ),
      );
      return false;
    }
    const left = await this.pick(
      entries,
      vscode.l10n.t('TradeReq: Compare Two Answers (1 of 2)'),
      vscode.l10n.t('The answer on the left'),
    );
    if (!left) return false;
    const rest = entries.filter((e) => e.id !== left.id);
    const right = await this.pick(
      rest,
      vscode.l10n.t('TradeReq: Compare Two Answers (2 of 2)'),
      vscode.l10n.t('The answer on the right'),
    );
    return right ? this.compare(left.id, right.id, false) : false;
  }

  /** The diff editor shown, with the volatile fields masked if they were not, and as received if they were. */
  async toggleMask(): Promise<boolean> {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const input = tab?.input;
    if (!(input instanceof vscode.TabInputTextDiff)) return false;
    const left = answerOf(input.original);
    const right = answerOf(input.modified);
    if (!left || !right || !(await this.compare(left.id, right.id, !left.mask))) return false;
    // The diff of the other masking is a tab of its own: the one it replaces goes (a preview was already replaced).
    const before = input.original.toString();
    const stale = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.toString() === before);
    if (stale.length > 0) await vscode.window.tabGroups.close(stale);
    return true;
  }

  private async pick(
    entries: readonly PanelEntry[],
    title: string,
    placeHolder: string,
  ): Promise<PanelEntry | undefined> {
    const { answerLabel } = tools();
    const items = entries.map((entry) => ({
      label: entry.title,
      description: answerLabel(entry),
      detail: entry.summary,
      entry,
    }));
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder, matchOnDescription: true });
    return picked?.entry;
  }

  private uri(entry: PanelEntry, mask: boolean): vscode.Uri {
    const query = new URLSearchParams({ id: entry.id, mask: mask ? '1' : '0' }).toString();
    return vscode.Uri.from({ scheme: SCHEME, path: `/${tools().answerFileName(entry)}`, query });
  }

  dispose(): void {
    this.registration?.dispose();
  }
}
