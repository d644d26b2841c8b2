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
    this.item.name = 'TradeReq Environment';
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
    this.item.text = blocked
      ? `$(globe) ${env.name} $(warning) ${blocked.status === 418 ? 'banned' : 'back off'} ${Math.ceil(blocked.remainingMs / 1000)} s`
      : `$(globe) ${env.name}${left !== undefined && counters.some((c) => c.used > 0) ? ` · ${left}/500` : ''}`;
    this.item.backgroundColor = blocked || low ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const lines = [`TradeReq environment: ${env.name} (${env.baseUrl})`];
    if (view)
      lines.push(
        `IP budget: ${view.ip.remaining}/${view.ip.limit} left`,
        ...(view.uid ? [`Account budget: ${view.uid.remaining}/${view.uid.limit} left`] : []),
      );
    if (blocked)
      lines.push(
        `${blocked.status === 418 ? 'Banned (418)' : 'Backing off after 429'}: nothing is sent for ${Math.ceil(blocked.remainingMs / 1000)} s`,
      );
    lines.push('Click to choose another environment.');
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
