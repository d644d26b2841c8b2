import * as z from '../../core/zod-mini';

/** The extension's settings, validated: a value of the wrong shape falls back to its default. */
const SettingsSchema = z.object({
  symbols: z.catch(z.array(z.string().check(z.regex(/^[A-Z0-9]+$/))), []),
  diagnosticsDelay: z.catch(z.int().check(z.gte(0), z.lte(5000)), 300),
  fetchExchangeInfo: z.catch(z.boolean(), true),
});

export type Settings = z.infer<typeof SettingsSchema>;

export function parseSettings(raw: Record<keyof Settings, unknown>): Settings {
  return SettingsSchema.parse(raw);
}
