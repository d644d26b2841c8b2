import * as vscode from 'vscode';
import { z } from 'zod';

/** The extension's settings, validated: a value of the wrong shape falls back to its default. */
const Settings = z.object({
  symbols: z.array(z.string().regex(/^[A-Z0-9]+$/)).catch([]),
  diagnosticsDelay: z.number().int().min(0).max(5000).catch(300),
  fetchExchangeInfo: z.boolean().catch(true),
});

export type SettingsValue = z.infer<typeof Settings>;

export function readSettings(scope?: vscode.Uri): SettingsValue {
  const c = vscode.workspace.getConfiguration('tradereq', scope);
  return Settings.parse({
    symbols: c.get('symbols'),
    diagnosticsDelay: c.get('diagnostics.delay'),
    fetchExchangeInfo: c.get('exchangeInfo.fetch'),
  });
}
