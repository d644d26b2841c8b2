import type { BudgetView } from '../core/budget/budget';
import type { PanelEntry, PanelState } from '../core/panel/protocol';
import type { History } from './history';
import { lazy } from './lazy';
import type { Network } from './network';
import type { ResponsePanel } from './panel';

/** Whether Send again on an entry sends (Sending keeps what it sends, by entry id). */
interface SendAgain {
  canSendAgain(id: string): boolean;
}

/** What the response panel shows: an entry, the budget of its origin, the history list, a busy flag. */
export class PanelPresenter {
  private busy = false;

  constructor(
    private readonly panel: ResponsePanel,
    private readonly history: History,
    private readonly network: Network,
    private readonly sendAgain: SendAgain,
  ) {}

  /** The panel state for `entry`, with `budget` (or the budget of its origin now). */
  stateFor(entry: PanelEntry | undefined, budget?: BudgetView): PanelState {
    const origin = entry ? new URL(entry.request.url).origin : undefined;
    const view = budget ?? (origin ? this.network.budgetView(origin) : undefined);
    // Send again is offered only where pressing it sends: not for a send of an earlier session, nor twice.
    const current =
      entry?.sendAgain && !this.sendAgain.canSendAgain(entry.id) ? { ...entry, sendAgain: undefined } : entry;
    return {
      current,
      budget: view ? lazy().budgetState(view) : undefined,
      history: this.history.list().map(lazy().historyItem),
      now: Date.now(),
      busy: this.busy,
    };
  }

  showEntry(entry: PanelEntry, budget?: BudgetView): void {
    this.panel.show(this.stateFor(entry, budget));
  }

  /** The panel with the latest send of the workspace. */
  showLatest(): void {
    this.panel.show(this.stateFor(this.history.list()[0]));
  }

  showHistoryEntry(id: string): void {
    const entry = this.history.find(id);
    if (entry) this.showEntry(entry);
  }

  /** "Sending…" while a send is under way, over whatever the panel shows. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    const state = this.panel.current();
    if (state) this.panel.show({ ...state, busy, now: Date.now() }, false);
  }
}
