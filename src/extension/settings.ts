import * as vscode from 'vscode';
import { lazy } from './lazy';
import type { Settings } from './lazy/settings-schema';

export type { Settings };

function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('tradereq');
  return lazy().parseSettings({
    symbols: c.get('symbols'),
    diagnosticsDelay: c.get('diagnostics.delay'),
    fetchExchangeInfo: c.get('exchangeInfo.fetch'),
  });
}

/** The tradereq.* settings, read (and validated) on first need and again only after they change. */
export class SettingsCache implements vscode.Disposable {
  private current: Settings | undefined;
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('tradereq')) this.current = undefined;
  });

  get(): Settings {
    return (this.current ??= readSettings());
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
