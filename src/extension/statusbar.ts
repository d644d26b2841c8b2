import * as vscode from 'vscode';
import type { BudgetView } from '../core/budget/budget';
import type { Environments } from './environments';

/**
 * The environment and the rate-limit budget left, in the status bar; the warning colour under 10 %
 * or during a Retry-After wait or ban. A click picks the environment.
 */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('tradereq.status', vscode.StatusBarAlignment.Left, 50);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly environments: Environments,
    private readonly budget: (origin: string) => BudgetView | undefined,
  ) {
    this.item.name = vscode.l10n.t('TradeReq Environment');
    this.item.command = 'tradereq.selectEnvironment';
  }

  /** Shown while a .tradereq file is the active editor. */
  refresh(): void {
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.languageId !== 'tradereq') {
      this.item.hide();
      return;
    }
    const env = this.environments.current();
    let origin: string | undefined;
    try {
      origin = new URL(env.baseUrl).origin;
    } catch {
      origin = undefined;
    }
    const view = origin ? this.budget(origin) : undefined;
    const counters = view ? [view.ip, view.uid].filter((c): c is NonNullable<typeof c> => c !== undefined) : [];
    const low = counters.some((c) => c.remaining < c.limit * 0.1);
    const left = counters.length > 0 ? Math.min(...counters.map((c) => c.remaining)) : undefined;
    const blocked = view?.blocked;
    const seconds = blocked ? Math.ceil(blocked.remainingMs / 1000) : 0;
    const banned = blocked?.status === 418;
    this.item.text = blocked
      ? `$(globe) ${env.name} $(warning) ${banned ? vscode.l10n.t('banned {0} s', seconds) : vscode.l10n.t('back off {0} s', seconds)}`
      : `$(globe) ${env.name}${left !== undefined && counters.some((c) => c.used > 0) ? ` · ${left}/500` : ''}`;
    this.item.backgroundColor = blocked || low ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const lines = [vscode.l10n.t('TradeReq environment: {0} ({1})', env.name, env.baseUrl)];
    if (view)
      lines.push(
        vscode.l10n.t('IP budget: {0}/{1} left', view.ip.remaining, view.ip.limit),
        ...(view.uid ? [vscode.l10n.t('Account budget: {0}/{1} left', view.uid.remaining, view.uid.limit)] : []),
      );
    if (blocked)
      lines.push(
        banned
          ? vscode.l10n.t('Banned (418): nothing is sent for {0} s', seconds)
          : vscode.l10n.t('Backing off after 429: nothing is sent for {0} s', seconds),
      );
    lines.push(vscode.l10n.t('Click to choose another environment.'));
    this.item.tooltip = lines.join('\n');
    this.item.accessibilityInformation = { label: lines.join('. ') };
    this.item.show();
    // Tick while a wait or ban runs, then stop.
    clearTimeout(this.timer);
    if (blocked) this.timer = setTimeout(() => this.refresh(), 1000);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item.dispose();
  }
}
