import type * as vscode from 'vscode';
import type { Budget, BudgetView } from '../core/budget/budget';
import type { ClockSync } from '../core/clock/sync';
import type { Sender } from '../core/net/send';
import { lazy } from './lazy';

export interface Net {
  readonly sender: Sender;
  readonly budget: Budget;
  readonly clock: ClockSync;
}

/**
 * The sender, the rate-limit budget and the clock, loaded on the first send (not at activation) and
 * shared by everything in the editor that sends.
 */
export class Network implements vscode.Disposable {
  private net: (Net & { readonly statePath: string }) | undefined;
  /** The account of the last signed send to each origin, so a budget view shows its counter too. */
  private readonly accounts = new Map<string, string>();

  get(): Net {
    if (!this.net) {
      const { NodeHttpSender, Budget, ClockSync, FileStateStore, DEFAULT_SEND_SETTINGS } = lazy();
      const store = new FileStateStore();
      this.net = {
        statePath: store.path,
        sender: new NodeHttpSender(DEFAULT_SEND_SETTINGS),
        budget: new Budget(store),
        clock: new ClockSync(store),
      };
    }
    return this.net;
  }

  /** The rate-limit state file the budget counts in: the state folder as it was when the network loaded. */
  statePath(): string {
    this.get();
    return this.net!.statePath;
  }

  rememberAccount(origin: string, account: string | undefined): void {
    if (account) this.accounts.set(origin, account);
  }

  /** The budget of `origin` now (loads the network parts). */
  budgetView(origin: string): BudgetView {
    return this.get().budget.view(origin, this.accounts.get(origin));
  }

  /** The budget of `origin`, once something was sent (the status bar does not load the send code by itself). */
  budgetViewIfLoaded(origin: string): BudgetView | undefined {
    return this.net ? this.budgetView(origin) : undefined;
  }

  dispose(): void {
    void this.net?.sender.close();
  }
}
