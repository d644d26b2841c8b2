import { z } from 'zod';

/** The extension's settings, validated: a value of the wrong shape falls back to its default. */
const Settings = z.object({
  symbols: z.array(z.string().regex(/^[A-Z0-9]+$/)).catch([]),
  diagnosticsDelay: z.number().int().min(0).max(5000).catch(300),
  fetchExchangeInfo: z.boolean().catch(true),
});

export type SettingsValue = z.infer<typeof Settings>;

export function parseSettings(raw: Record<keyof SettingsValue, unknown>): SettingsValue {
  return Settings.parse(raw);
}
