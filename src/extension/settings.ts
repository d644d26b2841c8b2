import * as vscode from 'vscode';
import { lazy } from './lazy';
import type { Settings } from './lazy/settings';

export type { Settings };

export function readSettings(scope?: vscode.Uri): Settings {
  const c = vscode.workspace.getConfiguration('tradereq', scope);
  return lazy().parseSettings({
    symbols: c.get('symbols'),
    diagnosticsDelay: c.get('diagnostics.delay'),
    fetchExchangeInfo: c.get('exchangeInfo.fetch'),
  });
}
