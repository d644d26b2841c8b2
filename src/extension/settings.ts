import * as vscode from 'vscode';
import { lazy } from './lazy';
import type { SettingsValue } from './lazy/settings';

export type { SettingsValue };

export function readSettings(scope?: vscode.Uri): SettingsValue {
  const c = vscode.workspace.getConfiguration('tradereq', scope);
  return lazy().parseSettings({
    symbols: c.get('symbols'),
    diagnosticsDelay: c.get('diagnostics.delay'),
    fetchExchangeInfo: c.get('exchangeInfo.fetch'),
  });
}
