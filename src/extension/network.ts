import type * as vscode from 'vscode';
import type { Budget, BudgetView } from '../core/budget/budget';
import type { ClockSync } from '../core/clock/sync';
import type { Network as Route } from '../core/net/network';
import type { Sender } from '../core/net/send';
import { lazy } from './lazy';
import { editorNetworkSettings } from './proxy-settings';

export interface Net {
  readonly sender: Sender;
  readonly budget: Budget;
  readonly clock: ClockSync;
  /** The route by VS Code's network settings (proxy, certificates): every send, look-up and stream goes by it. */
  readonly route: Route;
}

/**
 * The sender, the rate-limit budget and the clock, loaded on the first send (not at activation) and
 * shared by everything in the editor that sends. A change of the http.* settings makes a new route
 * and sender for what is sent next.
 */
export class Network implements vscode.Disposable {
  private net: (Net & { readonly statePath: string }) | undefined;
  /** The account of the last signed send to each origin, so a budget view shows its counter too. */
  private readonly accounts = new Map<string, string>();

  get(): Net {
    if (!this.net) {
      const { NodeHttpSender, Budget, ClockSync, FileStateStore, DEFAULT_SEND_SETTINGS, Network: Routes } = lazy();
      const store = new FileStateStore();
      const route = new Routes(editorNetworkSettings());
      this.net = {
        statePath: store.path,
        sender: new NodeHttpSender(DEFAULT_SEND_SETTINGS, route),
        budget: new Budget(store),
        clock: new ClockSync(store),
        route,
      };
    }
    return this.net;
  }

  /** The http.* settings changed: what is sent next goes by them (the rate-limit state stays). */
  settingsChanged(): void {
    const net = this.net;
    if (!net) return;
    const { NodeHttpSender, DEFAULT_SEND_SETTINGS, Network: Routes } = lazy();
    const route = new Routes(editorNetworkSettings());
    this.net = { ...net, route, sender: new NodeHttpSender(DEFAULT_SEND_SETTINGS, route) };
    void net.sender.close();
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
