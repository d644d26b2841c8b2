import * as vscode from 'vscode';
import { HISTORY_LIMIT } from '../core/bounds';
import type { PanelEntry } from '../core/panel/protocol';
import { lazy } from './lazy';

const KEY = 'tradereq.history';

/** The last sends of this workspace, redacted, kept across restarts in workspace state. */
export class History {
  private entries: PanelEntry[] | undefined;

  constructor(private readonly state: vscode.Memento) {}

  list(): PanelEntry[] {
    return (this.entries ??= lazy().parseHistory(this.state.get<unknown>(KEY)));
  }

  async add(entry: PanelEntry): Promise<void> {
    this.entries = [entry, ...this.list()].slice(0, HISTORY_LIMIT);
    await this.state.update(KEY, this.entries);
  }

  find(id: string): PanelEntry | undefined {
    return this.list().find((e) => e.id === id);
  }
}
