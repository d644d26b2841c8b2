import { z } from 'zod';

/** The extension's settings, validated: a value of the wrong shape falls back to its default. */
const SettingsSchema = z.object({
  symbols: z.array(z.string().regex(/^[A-Z0-9]+$/)).catch([]),
  diagnosticsDelay: z.number().int().min(0).max(5000).catch(300),
  fetchExchangeInfo: z.boolean().catch(true),
});

export type Settings = z.infer<typeof SettingsSchema>;

export function parseSettings(raw: Record<keyof Settings, unknown>): Settings {
  return SettingsSchema.parse(raw);
}
